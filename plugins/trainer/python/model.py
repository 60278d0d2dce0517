"""The trainer's model: a small GPT over pieces (pieces.py) with a pointer, shared by train.py,
decode.py (serving) and checkpoint.py.

Debian's torch 1.13 has no scaled_dot_product_attention, so attention is written by hand.

Why a pointer over pieces. The task families' answers carry values from the context (resource ids,
numbers, keys, words), and held-out instances draw those values from ranges the training data never
use. So every such value is a piece outside the vocabulary, read by its shape alone, and written by
pointing at an earlier position that holds it, as in pointer-generator networks: the next piece's
probability is g * P_vocabulary(piece) + (1 - g) * (the pointer's attention on positions holding
that piece). A value is one piece, so copying it is one decision of a learned attention, which
training finds within a few dozen steps.

Measured on this machine kind before this design (round 0's data, 600 steps): a GPT over bytes got
0 of 60 held-out first calls right, writing memorised prefixes of training ids; with a byte-level
pointer keyed on the last three bytes it copied ids but could not find where a value starts, and
no held-out task passed whole. This model, 250 steps at batch 16: 30 of 30 held-out first calls and
30 of 30 answers in each of round 0's families.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from pieces import SHAPES


class Block(nn.Module):
    def __init__(self, d, heads, context):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.register_buffer("mask", torch.tril(torch.ones(context, context, dtype=torch.bool)), persistent=False)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // self.heads)
        att = att.masked_fill(~self.mask[:t, :t], float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, d)
        x = x + self.proj(y)
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab_size, d=128, layers=4, heads=4, context=256):
        super().__init__()
        self.config = {"d": d, "layers": layers, "heads": heads, "context": context, "vocab": vocab_size}
        self.tok = nn.Embedding(vocab_size, d)
        self.shape = nn.Embedding(SHAPES, d)  # what a piece outside the vocabulary is read as
        self.pos = nn.Embedding(context, d)
        self.blocks = nn.ModuleList([Block(d, heads, context) for _ in range(layers)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab_size, bias=False)
        self.head.weight = self.tok.weight  # tied: fewer parameters for a tiny model
        self.copy_q = nn.Linear(d, d, bias=False)
        self.copy_k = nn.Linear(d, d, bias=False)
        self.copy_gate = nn.Linear(d, 1)
        # GPT-2's initialisation: torch's default N(0, 1) embeddings, tied to the head, start the loss
        # far above ln(vocabulary), and hundreds of steps go to shrinking them.
        self.apply(init_weights)

    def grow_vocabulary(self, size):
        """More rows for pieces a child round's data add; the parent's rows keep their weights."""
        old = self.tok.weight.data
        if size < old.shape[0]:
            raise ValueError("a vocabulary only grows")
        tok = nn.Embedding(size, old.shape[1])
        init_weights(tok)
        tok.weight.data[: old.shape[0]] = old
        self.tok = tok
        self.head = nn.Linear(old.shape[1], size, bias=False)
        self.head.weight = self.tok.weight
        self.config = {**self.config, "vocab": size}

    def hidden(self, ids, shapes, start=0):
        """The final hidden states of pieces at positions start.. (no cache): (b, t, d)."""
        t = ids.shape[1]
        x = self.tok(ids) + self.shape(shapes) + self.pos(torch.arange(start, start + t))
        for block in self.blocks:
            x = block(x)
        return self.ln(x)

    def outputs(self, h, keys):
        """The vocabulary's log-probabilities, the pointer's log-attention and the gate's logit at the
        positions of h, given the pointer keys of every position so far (keys[:, -t:] are h's own).

        h: (b, t, d); keys: (b, total, d). Position p (the last t of total) attends to 0..p. All in
        log space: the loss mixes them with logsumexp, so a target the pointer gives almost no mass
        still gets a gradient (mixing probabilities with an epsilon lost it: the pointer stayed on
        a wrong value and round 1's loss stopped at 0.2).
        """
        t, total = h.shape[1], keys.shape[1]
        att = (self.copy_q(h) / math.sqrt(h.shape[-1])) @ keys.transpose(-2, -1)
        rows = torch.arange(total - t, total).unsqueeze(1)
        att = att.masked_fill(torch.arange(total).unsqueeze(0) > rows, float("-inf")).log_softmax(dim=-1)
        return F.log_softmax(self.head(h), dim=-1), att, self.copy_gate(h).squeeze(-1)

    def forward(self, ids, shapes):
        h = self.hidden(ids, shapes)
        return self.outputs(h, self.copy_k(h))


def init_weights(module):
    if isinstance(module, (nn.Linear, nn.Embedding)):
        nn.init.normal_(module.weight, mean=0.0, std=0.02)
    if isinstance(module, nn.Linear) and module.bias is not None:
        nn.init.zeros_(module.bias)


# Stands for log 0 where a finite value keeps gradients defined (an -inf in logsumexp's backward is NaN).
NEVER = -1e9
# What a supervised piece neither the vocabulary nor the context holds costs: a constant, so it
# shows in the loss but sends no gradient (nothing could write it).
UNREACHABLE = -30.0


def target_logprob(logp, att, gate, target_ids, piece_ids, target_piece_ids):
    """log P(next piece) under the mix, computed in log space: log(g * P_vocabulary + (1 - g) * the
    pointer's mass on positions holding that piece).

    logp: the vocabulary's log-probabilities (b, t, V); att: the pointer's log-attention (b, t, t);
    gate: the gate's logit (b, t). target_ids: the next pieces' vocabulary ids (0 outside it: the
    vocabulary cannot write them); piece_ids, target_piece_ids: per-window ids of distinct pieces
    (equal pieces equal ids, -1 padding), of the inputs (b, t) and of the next pieces (b, t).
    """
    t = piece_ids.shape[1]
    in_vocab = target_ids > 0
    log_vocab = logp.gather(-1, target_ids.unsqueeze(-1)).squeeze(-1).masked_fill(~in_vocab, NEVER)
    causal = torch.ones(t, t, dtype=torch.bool).tril()
    holds = (piece_ids.unsqueeze(1) == target_piece_ids.unsqueeze(2)) & causal  # (b, target position, source position)
    log_copy = att.masked_fill(~holds, NEVER).logsumexp(dim=-1)
    mixed = torch.logaddexp(F.logsigmoid(gate) + log_vocab, F.logsigmoid(-gate) + log_copy)
    return torch.where(in_vocab | holds.any(dim=-1), mixed, torch.full_like(mixed, UNREACHABLE))
