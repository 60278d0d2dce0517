"""SFT training job of the cowork trainer plugin: the small GPT over pieces of model.py, on the CPU.

Run as a host job:  /usr/bin/python3 train.py --config CONFIG.json

The config (written by the plugin, src/training/prepare.ts) names the data file (one JSON sample
per line: {"segments": [[text, train], ...], "multiplier": m}), the output folder, the settings
(steps, lr, batch, seed, threads, context, checkpoint_every) and the parent: "base" (a fresh
initialisation from the seed) or a parent checkpoint's file.

Durability: every `checkpoint_every` steps the metrics since the last checkpoint are appended to
metrics.jsonl, then the model, optimiser, step and random state are written to state.pt (temp
file, fsync, rename), so a SIGKILL loses at most that many steps, and a restart with the same
config resumes from state.pt. A kill between the two writes makes the resumed run report a few
steps again; the round keeps only steps past the last it recorded, so none counts twice. At the
end final.pt (the weights, the model's sizes and its vocabulary) and result.json (its SHA-256,
steps, model, tokenizer) are written.

The vocabulary (pieces.py) is learned from the data at the start: from base, the data's own; from a
parent checkpoint, the parent's extended by the data's new pieces. A resumed run reads it from
state.pt, so it never changes mid-round.
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

from model import GPT, target_logprob
from pieces import Vocabulary, learn_vocabulary, split


def load_samples(path):
    """(pieces, mask, multiplier) per sample with supervised pieces; a group at 0x is left out."""
    samples = []
    with open(path, "rb") as f:
        for line in f:
            if not line.strip():
                continue
            s = json.loads(line)
            pieces, mask = [], []
            for text, train in s["segments"]:
                p = split(text)
                pieces.extend(p)
                mask.extend([1 if train else 0] * len(p))
            multiplier = float(s.get("multiplier", 1))
            if sum(mask[1:]) > 0 and multiplier > 0:
                samples.append((pieces, mask, multiplier))
    if not samples:
        sys.exit("train.py: no sample with supervised pieces in " + path)
    return samples


def batch(samples, weights, size, context, vocabulary, rnd):
    """Windows of at most context+1 pieces holding a random supervised piece, padded on the right to
    the longest: (ids, shapes, piece ids, mask, next ids, next piece ids), each (size, t).

    A window starts where the sample starts, or as far back from the chosen piece as the context
    allows: at inference the text always begins at position 0 (decode.py restarts its window at 0
    too), so training must never shift it right with padding in front, as left padding would.
    Piece ids number a window's distinct pieces (-1 padding), so the pointer's target is every
    position holding the next piece.
    """
    rows = []
    for _ in range(size):
        pieces, mask, _ = rnd.choices(samples, weights=weights)[0]
        supervised = [i for i, m in enumerate(mask) if m and i > 0]
        end = rnd.choice(supervised) + 1
        start = 0 if end <= context + 1 else end - (context + 1)
        window, wmask = pieces[start:start + context + 1], mask[start:start + context + 1]
        ids, shapes = vocabulary.encode(window)
        numbering = {}
        piece_ids = [numbering.setdefault(p, len(numbering)) for p in window]
        rows.append((ids, shapes, piece_ids, wmask))
    t = max(len(r[0]) for r in rows)

    def column(k, fill):
        return [r[k] + [fill] * (t - len(r[k])) for r in rows]

    ids, shapes, piece_ids, mask = (torch.tensor(column(0, 0)), torch.tensor(column(1, 0)), torch.tensor(column(2, -1)), torch.tensor(column(3, 0), dtype=torch.float32))
    return ids[:, :-1], shapes[:, :-1], piece_ids[:, :-1], mask[:, 1:], ids[:, 1:], piece_ids[:, 1:]


def masked_loss(model, b):
    """The mean negative log-likelihood of the supervised next pieces of a batch."""
    ids, shapes, piece_ids, mask, next_ids, next_piece_ids = b
    logp, att, gate = model(ids, shapes)
    nll = -target_logprob(logp, att, gate, next_ids, piece_ids, next_piece_ids)
    return (nll * mask).sum() / mask.sum()


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
    samples = load_samples(config["data"])
    state_path = os.path.join(out, "state.pt")
    state = torch.load(state_path) if os.path.exists(state_path) else None
    parent = config["parent"]
    if parent != "base":
        from checkpoint import load_checkpoint  # here: checkpoint.py imports model.py's GPT
        model, parent_vocabulary = load_checkpoint(parent, config.get("parentHash"), "train.py")
        if model.config["context"] != context:
            sys.exit("train.py: the parent checkpoint's context is %d pieces, not the round's %d" % (model.config["context"], context))
    else:
        model, parent_vocabulary = None, None
    if state:
        vocabulary = Vocabulary(state["vocabulary"])
    else:
        vocabulary = learn_vocabulary([p for p, _, _ in samples], float(s.get("min_fraction", 0.01)), parent_vocabulary)
    if model is None:
        model = GPT(len(vocabulary), context=context)
    elif len(vocabulary) > len(parent_vocabulary):
        model.grow_vocabulary(len(vocabulary))
    opt = torch.optim.AdamW(model.parameters(), lr=float(s["lr"]), weight_decay=0.01)
    rnd = random.Random(int(s["seed"]))
    step = 0
    if state:
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        step = state["step"]
        rnd.setstate(state["rnd"])
        torch.set_rng_state(state["torch_rng"])
        print(json.dumps({"event": "resumed", "step": step}), flush=True)

    weights = [m for _, _, m in samples]
    params = sum(p.numel() for p in model.parameters())
    print(json.dumps({"event": "start", "params": params, "samples": len(samples), "vocabulary": len(vocabulary), "step": step, "steps": int(s["steps"])}), flush=True)
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
        b = batch(samples, weights, int(s["batch"]), context, vocabulary, rnd)
        loss = masked_loss(model, b)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        tokens += int(b[3].sum().item())
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
            save_atomic({"model": model.state_dict(), "opt": opt.state_dict(), "step": step, "rnd": rnd.getstate(), "torch_rng": torch.get_rng_state(), "vocabulary": vocabulary.pieces}, state_path)
            pending = []

    final = os.path.join(out, "final.pt")
    save_atomic({"model": model.state_dict(), "config": model.config, "vocabulary": vocabulary.pieces}, final)
    digest = hashlib.sha256(open(final, "rb").read()).hexdigest()
    result = {"hash": digest, "file": "final.pt", "steps": step, "params": params, "model": model.config, "tokenizer": {"name": "pieces", "vocabSize": len(vocabulary)}}
    with open(os.path.join(out, "result.json.tmp"), "w") as f:
        json.dump(result, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(os.path.join(out, "result.json.tmp"), os.path.join(out, "result.json"))
    print(json.dumps({"event": "done", **result}), flush=True)


if __name__ == "__main__":
    main()
