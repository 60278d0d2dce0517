"""SFT training job of the cowork trainer plugin: a small GPT over UTF-8 bytes, on the CPU.

Run as a host job:  /usr/bin/python3 train.py --config CONFIG.json
Debian's torch 1.13 has no scaled_dot_product_attention, so attention is written by hand.

The config (written by the plugin, src/training/prepare.ts) names the data file (one JSON sample
per line: {"segments": [[text, train], ...], "multiplier": m}), the output folder, the settings
(steps, lr, batch, seed, threads, context, checkpoint_every) and the parent: "base" (a fresh
initialisation from the seed) or a parent checkpoint's file.

Durability: every `checkpoint_every` steps the metrics since the last checkpoint are appended to
metrics.jsonl, then the model, optimiser, step and random state are written to state.pt (temp
file, fsync, rename), so a SIGKILL loses at most that many steps, and a restart with the same
config resumes from state.pt. A kill between the two writes makes the resumed run report a few
steps again; the round keeps only steps past the last it recorded, so none counts twice. At the
end final.pt (the weights) and result.json (its SHA-256, steps, model, tokenizer) are written.
"""
import argparse
import hashlib
import json
import math
import os
import random
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 256  # UTF-8 bytes: the model's own tokenizer ("bytes")


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
        # GPT-2's initialisation: torch's default N(0, 1) embeddings, tied to the head, start the loss
        # near 80 instead of ln(256) = 5.5, and hundreds of steps go to shrinking them.
        self.apply(self._init)

    @staticmethod
    def _init(module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def forward(self, idx):
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))


def load_samples(path):
    samples = []
    with open(path, "rb") as f:
        for line in f:
            if not line.strip():
                continue
            s = json.loads(line)
            ids, mask = [], []
            for text, train in s["segments"]:
                b = text.encode("utf-8")
                ids.extend(b)
                mask.extend([1 if train else 0] * len(b))
            multiplier = float(s.get("multiplier", 1))
            if sum(mask) > 0 and multiplier > 0:  # a group at 0x is left out
                samples.append((ids, mask, multiplier))
    if not samples:
        sys.exit("no sample with supervised tokens in " + path)
    return samples


def batch(samples, weights, size, context, rnd):
    """Windows of context+1 bytes, each ending inside a supervised span, padded on the left."""
    xs, ys, ms = [], [], []
    for _ in range(size):
        ids, mask, _ = rnd.choices(samples, weights=weights)[0]
        supervised = [i for i, m in enumerate(mask) if m and i > 0]
        end = rnd.choice(supervised) + 1
        start = max(0, end - (context + 1))
        window, wmask = ids[start:end], mask[start:end]
        pad = context + 1 - len(window)
        window, wmask = [0] * pad + window, [0] * pad + wmask
        xs.append(window[:-1])
        ys.append(window[1:])
        ms.append(wmask[1:])
    return torch.tensor(xs), torch.tensor(ys), torch.tensor(ms, dtype=torch.float32)


def save_atomic(obj, path):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        torch.save(obj, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(os.path.dirname(path) or ".", os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    config = json.load(open(ap.parse_args().config))
    s = config["settings"]
    out = config["out"]
    os.makedirs(out, exist_ok=True)
    torch.set_num_threads(int(s.get("threads", 1)))
    context = int(s.get("context", 256))
    every = int(s.get("checkpoint_every", 50))
    log_every = int(s.get("log_every", 10))

    torch.manual_seed(int(s["seed"]))
    model = GPT(context=context)
    parent = config["parent"]
    if parent != "base":
        from checkpoint import load_checkpoint  # here: checkpoint.py imports this module's GPT
        model.load_state_dict(load_checkpoint(parent, config.get("parentHash"), "train.py").state_dict())
    opt = torch.optim.AdamW(model.parameters(), lr=float(s["lr"]), weight_decay=0.01)
    rnd = random.Random(int(s["seed"]))
    step = 0
    state_path = os.path.join(out, "state.pt")
    if os.path.exists(state_path):
        state = torch.load(state_path)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        step = state["step"]
        rnd.setstate(state["rnd"])
        torch.set_rng_state(state["torch_rng"])
        print(json.dumps({"event": "resumed", "step": step}), flush=True)

    samples = load_samples(config["data"])
    weights = [m for _, _, m in samples]
    params = sum(p.numel() for p in model.parameters())
    print(json.dumps({"event": "start", "params": params, "samples": len(samples), "step": step, "steps": int(s["steps"])}), flush=True)
    pending = []
    started, tokens = time.time(), 0
    total = int(s["steps"])
    peak = float(s["lr"])
    warmup = max(1, min(50, total // 10))
    while step < total:
        # Linear warmup, then cosine decay to a tenth of the peak: a function of the step alone, so a resumed run follows the same schedule.
        progress = max(0.0, (step - warmup) / max(1, total - warmup))
        for group in opt.param_groups:
            group["lr"] = peak * (step + 1) / warmup if step < warmup else peak * (0.1 + 0.45 * (1 + math.cos(math.pi * progress)))
        x, y, m = batch(samples, weights, int(s["batch"]), context, rnd)
        logits = model(x)
        loss = (F.cross_entropy(logits.view(-1, VOCAB), y.view(-1), reduction="none") * m.view(-1)).sum() / m.sum()
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        tokens += int(m.sum().item())
        if step % log_every == 0 or step == int(s["steps"]):
            elapsed = max(time.time() - started, 1e-9)
            pending.append({"step": step, "loss": round(loss.item(), 5), "tokensPerSecond": round(tokens / elapsed, 1)})
            started, tokens = time.time(), 0
        if step % every == 0 or step == int(s["steps"]):
            with open(os.path.join(out, "metrics.jsonl"), "a") as f:
                for p in pending:
                    f.write(json.dumps(p) + "\n")
                f.flush()
                os.fsync(f.fileno())
            for p in pending:
                print(json.dumps(p), flush=True)
            save_atomic({"model": model.state_dict(), "opt": opt.state_dict(), "step": step, "rnd": rnd.getstate(), "torch_rng": torch.get_rng_state()}, state_path)
            pending = []

    final = os.path.join(out, "final.pt")
    save_atomic({"model": model.state_dict(), "config": model.config}, final)
    digest = hashlib.sha256(open(final, "rb").read()).hexdigest()
    result = {"hash": digest, "file": "final.pt", "steps": step, "params": params, "model": model.config, "tokenizer": {"name": "bytes", "vocabSize": VOCAB}}
    with open(os.path.join(out, "result.json.tmp"), "w") as f:
        json.dump(result, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(os.path.join(out, "result.json.tmp"), os.path.join(out, "result.json"))
    print(json.dumps({"event": "done", **result}), flush=True)


if __name__ == "__main__":
    main()
