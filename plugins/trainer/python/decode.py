"""Greedy decoding of the trainer's GPT with a key/value cache, shared by serve.py and evaluation.

The prompt is run once (prefill) and each new piece is one step over the cached keys and values of
every layer and the pointer's keys, instead of re-running the whole context per piece. When the
sequence reaches the model's context, the cache is rebuilt from the last `context - slack` pieces
(positions are learned absolutes, so the window must start again at 0): the same tail the uncached
loop would see, at one prefill per `slack` pieces.

Each step chooses the piece with the highest probability under the model's mix: a vocabulary
piece's gate-weighted probability plus the pointer's mass on every position holding it, and a piece
outside the vocabulary only through the pointer. Ties go to the lowest id, vocabulary first.
"""
import math

import torch


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


def choose(vocabulary, window, logp, att, gate):
    """The most probable next piece (a string) given one position's outputs over the window's
    pieces: logp the vocabulary's log-probabilities, att the pointer's log-attention, gate its logit."""
    size = len(vocabulary)
    extra = {}
    ids = []
    for p in window:
        i = vocabulary.id(p)
        if i == 0:
            i = extra.setdefault(p, size + len(extra))
        ids.append(i)
    g = torch.sigmoid(gate)
    probs = torch.zeros(size + len(extra))
    probs[:size] = g * logp.exp()
    probs[0] = 0.0  # padding is never written
    probs.scatter_add_(0, torch.tensor(ids), (1 - g) * att.exp())
    best = int(probs.argmax().item())
    if best < size:
        return vocabulary.pieces[best]
    return next(p for p, i in extra.items() if i == best)


def _forward(model, vocabulary, pieces, start, state):
    """Outputs at the last of `pieces` (new positions from start), extending the caches in state."""
    ids, shapes = vocabulary.encode(pieces)
    x = model.tok(torch.tensor([ids])) + model.shape(torch.tensor([shapes])) + model.pos(torch.arange(start, start + len(ids)))
    for block, cache in zip(model.blocks, state["blocks"]):
        x = _block_step(block, x, cache)
    h = model.ln(x)
    key = model.copy_k(h)
    state["keys"] = key if state["keys"] is None else torch.cat([state["keys"], key], dim=1)
    state["window"] += pieces
    logp, att, gate = model.outputs(h[:, -1:], state["keys"])
    return choose(vocabulary, state["window"], logp[0, -1], att[0, -1], gate[0, -1])


@torch.no_grad()
def greedy(model, vocabulary, prompt, max_tokens, stop, slack=64):
    """Greedy pieces after the prompt's pieces until the piece `stop` or max_tokens: (pieces, stopped)."""
    context = model.config["context"]
    slack = max(1, min(slack, context - 1))
    pieces = list(prompt)
    if not pieces:
        raise ValueError("an empty prompt")

    def prefill():
        window = pieces[-(context - slack):] if len(pieces) > context - slack else pieces
        state = {"blocks": [{"k": None, "v": None} for _ in model.blocks], "keys": None, "window": []}
        return state, len(window), _forward(model, vocabulary, list(window), 0, state)

    state, length, nxt = prefill()
    out = []
    for _ in range(max_tokens):
        pieces.append(nxt)
        if nxt == stop:
            return out, True
        out.append(nxt)
        if length >= context:
            state, length, nxt = prefill()
        else:
            nxt = _forward(model, vocabulary, [nxt], length, state)
            length += 1
    return out, False


@torch.no_grad()
def greedy_uncached(model, vocabulary, prompt, max_tokens, stop):
    """The reference: the whole last-context window re-run for every piece."""
    context = model.config["context"]
    pieces = list(prompt)
    out = []
    for _ in range(max_tokens):
        window = pieces[-context:]
        ids, shapes = vocabulary.encode(window)
        logp, att, gate = model(torch.tensor([ids]), torch.tensor([shapes]))
        nxt = choose(vocabulary, window, logp[0, -1], att[0, -1], gate[0, -1])
        pieces.append(nxt)
        if nxt == stop:
            return out, True
        out.append(nxt)
    return out, False
