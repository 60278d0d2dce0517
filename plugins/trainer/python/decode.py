"""Greedy decoding of the trainer's GPT with a key/value cache, shared by serve.py and evaluation.

The prompt is run once (prefill) and each new byte is one step over the cached keys and values of
every layer, instead of re-running the whole context per byte. When the sequence reaches the
model's context, the cache is rebuilt from the last `context - slack` bytes (positions are learned
absolutes, so the window must start again at 0): the same tail the uncached loop would see, at one
prefill per `slack` bytes.
"""
import math

import torch

from model import COPY_CONTEXT, copy_parts, mix_copy


def _block_step(block, x, cache):
    """One block over new positions x (b, t, d), appending their keys and values to cache."""
    b, t, d = x.shape
    h = block.heads
    q, k, v = block.qkv(block.ln1(x)).split(d, dim=2)
    q, k, v = (z.view(b, t, h, d // h).transpose(1, 2) for z in (q, k, v))
    if cache["k"] is not None:
        k = torch.cat([cache["k"], k], dim=2)
        v = torch.cat([cache["v"], v], dim=2)
    cache["k"], cache["v"] = k, v
    total = k.shape[2]
    att = (q @ k.transpose(-2, -1)) / math.sqrt(d // h)
    # Causal within the new positions; every cached position is visible to all of them.
    mask = torch.ones(t, total, dtype=torch.bool).tril(diagonal=total - t)
    att = att.masked_fill(~mask, float("-inf")).softmax(dim=-1)
    y = (att @ v).transpose(1, 2).contiguous().view(b, t, d)
    x = x + block.proj(y)
    return x + block.mlp(block.ln2(x))


def _forward(model, ids, start, caches, window):
    """Next-byte log-probabilities after ids, the window's new positions from start. caches[i] holds
    block i's keys and values; window the pointer head's: the window's bytes and key sources."""
    x = model.tok(torch.tensor([ids])) + model.pos(torch.arange(start, start + len(ids)))
    for block, cache in zip(model.blocks, caches):
        x = _block_step(block, x, cache)
    h = model.ln(x)
    window["ids"] += ids
    idx = torch.tensor([window["ids"]])
    # A new position's features need only the two bytes before it.
    query, key = copy_parts(model, h, idx[:, -(len(ids) + COPY_CONTEXT - 1):], len(ids))
    window["keys"] = key if window["keys"] is None else torch.cat([window["keys"], key], dim=1)
    return mix_copy(model, h[:, -1:], query[:, -1:], window["keys"], idx, model.head(h[:, -1:]))[0, -1]


@torch.no_grad()
def greedy(model, prompt_ids, max_tokens, stop, slack=64):
    """Greedy bytes after prompt_ids until `stop` (bytes) or max_tokens: (generated, stopped)."""
    context = model.config["context"]
    slack = max(1, min(slack, context - 1))
    ids = list(prompt_ids)

    def prefill():
        window = ids[-(context - slack):] if len(ids) > context - slack else ids
        caches = ([{"k": None, "v": None} for _ in model.blocks], {"ids": [], "keys": None})
        return caches, len(window), _forward(model, list(window), 0, *caches)

    if not ids:
        raise ValueError("an empty prompt")
    caches, length, logprobs = prefill()
    out = []
    for _ in range(max_tokens):
        nxt = int(logprobs.argmax().item())
        ids.append(nxt)
        out.append(nxt)
        if stop and bytes(out[-len(stop):]) == stop:
            return bytes(out[: -len(stop)]), True
        if length >= context:
            caches, length, logprobs = prefill()
        else:
            logprobs = _forward(model, [nxt], length, *caches)
            length += 1
    return bytes(out), False


@torch.no_grad()
def greedy_uncached(model, prompt_ids, max_tokens, stop):
    """The reference: the whole last-context window re-run for every byte."""
    context = model.config["context"]
    ids = list(prompt_ids)
    out = []
    for _ in range(max_tokens):
        logprobs = model(torch.tensor([ids[-context:]]))[0, -1]
        nxt = int(logprobs.argmax().item())
        ids.append(nxt)
        out.append(nxt)
        if stop and bytes(out[-len(stop):]) == stop:
            return bytes(out[: -len(stop)]), True
    return bytes(out), False

