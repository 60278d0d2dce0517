"""The trainer model's own tokenizer: text as pieces, a vocabulary learned from a round's data.

A piece is a special marker (`<|user|>`), a JSON escape (`\\n`, `\\"`, `\\u00e9`), a run of letters,
digits and underscores (`res_0mx57a3jy8c`, `4821`, `baseRevision`), or any other single character
(a space, a quote, a brace). Joined, a text's pieces give the text back exactly, so decoding writes
what the model chose byte for byte. src/tokens.ts splits text the same way for the token-share
report (a test checks the two agree).

The vocabulary is the pieces found in at least `min_df` of a round's trajectories, except numerals:
the model copies numbers from its context, it does not recall them. A piece outside the vocabulary
(a resource id, a key, a line word, every number) enters the model as its shape (digits, a
lower-case word, a word, an identifier, another character) and can only be written by copying it
from the context (model.py's pointer). Why numerals never enter: held-out tasks use numbers the
training data never had, so a number known in training and unknown in evaluation would show the
model something in evaluation it never saw in training (measured: round 1 wrote the commit_line
summary wrong in 30 of 30 held-out tasks with revisions 0 to 5 in its vocabulary, right in 30 of 30
without them).

A round continuing from a checkpoint keeps its parent's vocabulary, in order, and appends what its
own data adds (round 1's new tool's name), so the parent's weights keep their meaning.
"""
import re

PIECE = re.compile(r"<\|[a-z]+\|>|\\u[0-9a-fA-F]{4}|\\.|[A-Za-z0-9_]+|\s|.", re.S)

# Shapes of a piece outside the vocabulary; 0 is a piece in it (or padding).
IN_VOCABULARY, DIGITS, LOWER_WORD, WORD, IDENTIFIER, OTHER = range(6)
SHAPES = 6
PAD = "<|pad|>"  # id 0: padding, and the id every piece outside the vocabulary is read as


def split(text):
    """The pieces of a text; "".join(split(text)) == text."""
    return PIECE.findall(text)


def shape(piece):
    if piece.isdigit():
        return DIGITS
    if re.fullmatch(r"[a-z]+", piece):
        return LOWER_WORD
    if re.fullmatch(r"[A-Za-z]+", piece):
        return WORD
    if re.fullmatch(r"[A-Za-z0-9_]+", piece):
        return IDENTIFIER
    return OTHER


class Vocabulary:
    def __init__(self, pieces):
        if not pieces or pieces[0] != PAD:
            raise ValueError("a vocabulary starts with %s" % PAD)
        self.pieces = list(pieces)
        self.index = {p: i for i, p in enumerate(self.pieces)}
        if len(self.index) != len(self.pieces):
            raise ValueError("a vocabulary lists a piece twice")

    def __len__(self):
        return len(self.pieces)

    def id(self, piece):
        """The piece's id, 0 when it is outside the vocabulary."""
        return self.index.get(piece, 0)

    def encode(self, pieces):
        """(ids, shapes) of pieces: a piece outside the vocabulary is id 0 with its shape."""
        ids = [self.index.get(p, 0) for p in pieces]
        return ids, [IN_VOCABULARY if i else shape(p) for i, p in zip(ids, pieces)]


def learn_vocabulary(trajectories, min_fraction=0.01, parent=None):
    """The vocabulary of a round's data (lists of pieces): its parent's pieces first, then every
    piece other than a numeral found in at least max(2, min_fraction of the trajectories), most
    frequent first (ties by the piece), so the same data give the same vocabulary."""
    pieces = list(parent.pieces) if parent else [PAD]
    have = set(pieces)
    counts = {}
    for trajectory in trajectories:
        for p in set(trajectory):
            counts[p] = counts.get(p, 0) + 1
    least = max(2, int(min_fraction * len(trajectories) + 0.999999))
    for p, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        if n >= least and p not in have and not p.isdigit():
            pieces.append(p)
            have.add(p)
    return Vocabulary(pieces)
