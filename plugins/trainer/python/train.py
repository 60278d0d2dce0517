"""SFT training job of the cowork trainer plugin: the small byte-level GPT of model.py, on the CPU.

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
import torch.nn.functional as F

from model import GPT, VOCAB


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
    """Windows of context+1 bytes holding a random supervised byte, padded on the right.

    A window starts where the sample starts, or as far back from the chosen byte as the context
    allows: at inference the text always begins at position 0 (decode.py restarts its window at 0
    too), so training must never shift it right with padding in front, as left padding would.
    """
    xs, ys, ms = [], [], []
    for _ in range(size):
        ids, mask, _ = rnd.choices(samples, weights=weights)[0]
        supervised = [i for i, m in enumerate(mask) if m and i > 0]
        end = rnd.choice(supervised) + 1
        start = max(0, end - (context + 1))
        window, wmask = ids[start:start + context + 1], mask[start:start + context + 1]
        pad = context + 1 - len(window)
        window, wmask = window + [0] * pad, wmask + [0] * pad
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
        logprobs = model(x)
        loss = (F.nll_loss(logprobs.view(-1, VOCAB), y.view(-1), reduction="none") * m.view(-1)).sum() / m.sum()
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
