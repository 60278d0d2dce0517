"""The trainer's model: a small GPT over UTF-8 bytes with a pointer (copy) head, shared by train.py,
decode.py (serving) and checkpoint.py.

Debian's torch 1.13 has no scaled_dot_product_attention, so attention is written by hand.

Why a pointer head. The task families' answers carry values from the context (resource ids, numbers,
keys, revisions), and held-out instances draw those values from ranges the training data never use.
A transformer copies through an induction head, which a model of this size does not form within the
few hundred CPU steps a round has here (600 steps of the plain GPT: 0 of 60 held-out first calls
right, the ids it wrote were memorised prefixes). So the copying circuit is built in, as in pointer-
generator networks: the next byte's distribution mixes the vocabulary's with a pointer over earlier
bytes, and training learns when to copy and from where.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 256  # UTF-8 bytes: the model's own tokenizer ("bytes")
COPY_CONTEXT = 3  # the pointer matches the last three bytes against every earlier three
COPY_DIM = 32


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
    def __init__(self, d=128, layers=4, heads=4, context=256):
        super().__init__()
        self.config = {"d": d, "layers": layers, "heads": heads, "context": context, "vocab": VOCAB}
        self.tok = nn.Embedding(VOCAB, d)
        self.pos = nn.Embedding(context, d)
        self.blocks = nn.ModuleList([Block(d, heads, context) for _ in range(layers)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, VOCAB, bias=False)
        self.head.weight = self.tok.weight  # tied: fewer parameters for a tiny model
        self.copy_q = nn.Linear(d, d, bias=False)
        self.copy_k = nn.Linear(d, d, bias=False)
        self.copy_gate = nn.Linear(d, 1)
        self.copy_emb = nn.Embedding(VOCAB, COPY_DIM)
        # Each byte's features are N(0, 1) in COPY_DIM dimensions, so a matching byte adds about
        # COPY_DIM * scale to a key's score and another byte about +-sqrt(COPY_DIM) * scale: at 0.3 the
        # last three bytes matching make the pointer sharp from the first step (round 0's data: masked
        # loss near step 300 about 0.25 starting at 1/COPY_DIM, 0.05 starting at 0.3).
        self.copy_scale = nn.Parameter(torch.full((COPY_CONTEXT,), 0.3))
        # GPT-2's initialisation: torch's default N(0, 1) embeddings, tied to the head, start the loss
        # near 80 instead of ln(256) = 5.5, and hundreds of steps go to shrinking them.
        self.apply(self._init)
        nn.init.normal_(self.copy_emb.weight)  # N(0, 1): a byte's own features dominate its dot products

    @staticmethod
    def _init(module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def forward(self, idx):
        """Log-probabilities of the next byte at every position: (b, t, VOCAB)."""
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t))
        for block in self.blocks:
            x = block(x)
        h = self.ln(x)
        query, keys = copy_parts(self, h, idx, t)
        return mix_copy(self, h, query, keys, idx, self.head(h))


def copy_parts(model, h, idx, t):
    """The pointer's query and key source at the last t positions of a window whose bytes are idx.

    Position p's query holds its hidden state and the embeddings of bytes p, p-1, p-2 (0 before the
    window's start); its key source is the same pair, and is the key of position p + 1: what preceded
    that byte. Each depends on its own position alone, so decoding computes them once per byte.
    """
    d = h.shape[-1]
    shifted = [idx] + [F.pad(idx, (s, 0))[:, : idx.shape[1]] for s in range(1, COPY_CONTEXT)]
    feats = torch.cat([model.copy_emb(z[:, -t:]) for z in shifted], dim=-1)
    scale = model.copy_scale.repeat_interleave(COPY_DIM)
    query = torch.cat([model.copy_q(h) / math.sqrt(d), feats * scale], dim=-1)
    key = torch.cat([model.copy_k(h), feats], dim=-1)
    return query, key


def mix_copy(model, h, query, keys, idx_all, logits):
    """Next-byte log-probabilities at the last t positions: g * softmax(logits) + (1 - g) * pointer.

    The pointer is an induction head built in: position p's query meets key j (1 <= j <= p) made from
    what preceded byte j, both as the hidden state at j - 1 and as the embeddings of the three bytes
    before j, matched against p's last three bytes; the attention's mass lands on byte j itself. So
    after "...5ah" it points at whatever followed "5ah" earlier in the context. The network learns
    when to copy (the gate g) and where (query and key on hidden states, the per-byte scales).
    h, query: (b, t, .) for the last t positions; keys: the key sources of every position of the
    window (b, total, .); idx_all: the window's bytes (b, total).
    """
    b, t, _ = h.shape
    total = idx_all.shape[1]
    att = query @ keys[:, :-1].transpose(-2, -1)  # key j is position j - 1's key source
    rows = torch.arange(total - t, total).unsqueeze(1)
    cols = torch.arange(1, total).unsqueeze(0)
    att = att.masked_fill(cols > rows, float("-inf"))
    gate = torch.sigmoid(model.copy_gate(h))
    # The first position has nothing earlier to copy: its mass stays on the vocabulary.
    gate = torch.where((rows == 0).unsqueeze(0), torch.ones_like(gate), gate)
    p_copy = torch.zeros(b, t, VOCAB)
    if total > 1:
        weights = att.softmax(dim=-1).nan_to_num(0.0)
        p_copy = p_copy.scatter_add(2, idx_all[:, 1:].unsqueeze(1).expand(b, t, total - 1), weights)
    return torch.log(gate * logits.softmax(dim=-1) + (1 - gate) * p_copy + 1e-9)
