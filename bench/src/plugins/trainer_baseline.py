"""Baseline for bench/src/plugins/trainer.ts: the trainer's GPT driven by torch directly.

(a) A bare training loop of the same model, batch and context as the bench's round, on the same
data: the batches are cut (train.batch) before the clock starts, then forward, the masked loss,
backward, gradient clipping and an AdamW step (the same update train.py makes), with no data
loading, metrics or checkpoints -> steps/s.
(b) Greedy decoding in-process, no HTTP, with serve.py's decoder (decode.py, key/value cache)
-> tokens/s, after one warm-up decode; and the same with the whole context re-run for every
token (no cache), for scale.

Usage: /usr/bin/python3 trainer_baseline.py --data TRAIN.jsonl [--steps 30] [--batch 8]
       [--threads 1] [--requests 3] [--tokens 64]
Prints one JSON line: {"steps", "trainSeconds", "stepsPerSecond", "tokens", "decodeSeconds",
"tokensPerSecond", "uncachedTokensPerSecond"}.
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "plugins", "trainer", "python"))

import random  # noqa: E402

import torch  # noqa: E402

from decode import greedy, greedy_uncached  # noqa: E402
from model import GPT  # noqa: E402
from pieces import learn_vocabulary, split  # noqa: E402
from train import batch, load_samples, masked_loss  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--requests", type=int, default=3)
    ap.add_argument("--tokens", type=int, default=64)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)

    # (a) Training: same model (d 128, 4 layers, 4 heads, context 256), data, batch, lr and optimiser.
    samples = load_samples(a.data)
    vocabulary = learn_vocabulary([p for p, _, _ in samples])
    model = GPT(len(vocabulary))
    context = model.config["context"]
    opt = torch.optim.AdamW(model.parameters(), lr=0.003, weight_decay=0.01)
    rnd = random.Random(1)
    batches = [batch(samples, [w for _, _, w in samples], a.batch, context, vocabulary, rnd) for _ in range(a.steps)]
    started = time.perf_counter()
    for b in batches:
        loss = masked_loss(model, b)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    train_s = time.perf_counter() - started

    # (b) Decoding: serve.py's loop on a prompt like the bench's requests, all N tokens generated.
    model.eval()

    def decode_uncached(prompt, n):
        return len(greedy_uncached(model, vocabulary, split(prompt), n, None)[0])

    def decode(prompt, n):
        return len(greedy(model, vocabulary, split(prompt), n, None)[0])

    prompt = lambda i: "<|user|>\nRead the billing settings in res_%d and tell me its port.<|end|>\n<|assistant|>\n" % i  # noqa: E731
    decode(prompt(0), a.tokens)  # warm-up, as the bench's first request
    tokens = 0
    started = time.perf_counter()
    for i in range(1, a.requests + 1):
        tokens += decode(prompt(i), a.tokens)
    decode_s = time.perf_counter() - started
    started = time.perf_counter()
    uncached = sum(decode_uncached(prompt(i), a.tokens) for i in range(1, a.requests + 1))
    uncached_s = time.perf_counter() - started

    print(json.dumps({
        "steps": a.steps,
        "trainSeconds": round(train_s, 4),
        "stepsPerSecond": round(a.steps / train_s, 4),
        "tokens": tokens,
        "decodeSeconds": round(decode_s, 4),
        "tokensPerSecond": round(tokens / decode_s, 2),
        "uncachedTokensPerSecond": round(uncached / uncached_s, 2),
    }), flush=True)


if __name__ == "__main__":
    main()
