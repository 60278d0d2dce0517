"""Loading a trainer checkpoint, shared by train.py (a round's parent) and serve.py.

A checkpoint holds {"model": weights, "config": the model's sizes, "vocabulary": its pieces}. One
that does not load (missing, another SHA-256 than expected, not a torch file, no weights, no
vocabulary, weights of another shape) is one line on stderr and exit status 2, before anything else
happens: no server listens, no training step runs, nothing is written.
"""
import hashlib
import os
import sys

import torch

from model import GPT
from pieces import Vocabulary


def fail(who, message):
    print(who + ": " + message, file=sys.stderr, flush=True)
    sys.exit(2)


def load_checkpoint(path, expected_hash, who):
    """(model, vocabulary) from a checkpoint file, or one line on stderr and exit status 2 when it does not load."""
    if not os.path.isfile(path):
        fail(who, "the checkpoint %s does not exist" % path)
    if expected_hash:
        digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
        if digest != expected_hash:
            fail(who, "the checkpoint %s has SHA-256 %s, not %s" % (path, digest, expected_hash))
    try:
        saved = torch.load(path, map_location="cpu")
    except Exception as e:  # noqa: BLE001 - any unreadable file is the same failure to a caller
        fail(who, "the checkpoint %s does not load as a torch file: %s" % (path, e))
    if not isinstance(saved, dict) or not isinstance(saved.get("model"), dict):
        fail(who, "the checkpoint %s holds no model weights (expected {'model': state_dict})" % path)
    try:
        vocabulary = Vocabulary(saved.get("vocabulary") or [])
    except (TypeError, ValueError) as e:
        fail(who, "the checkpoint %s holds no vocabulary of the trainer's pieces (%s): it was written by another version of the trainer" % (path, e))
    config = saved.get("config") or {}
    try:
        model = GPT(len(vocabulary), d=int(config.get("d", 128)), layers=int(config.get("layers", 4)), heads=int(config.get("heads", 4)), context=int(config.get("context", 256)))
        model.load_state_dict(saved["model"])
    except Exception as e:  # noqa: BLE001
        fail(who, "the checkpoint %s does not fit the trainer's model: %s" % (path, e))
    return model, vocabulary
