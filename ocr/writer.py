"""Writer adaptation: a hand's sure digits on the photo help read its unsure ones.

A pad is written by one hand (one player per front; the scorekeeper on the
back).  Digits the classifier reads surely, in cells whose reading is legal,
show how this hand writes each digit: its "anchors"; so do the digits of a
box that holds one legal value of that length (Full House's 25, the
straights' 30 and 40, YAHTZEE's 50).  An unsure glyph that
looks (in the network's own hidden features) much more like this hand's 4s
than like its 1s is more likely a 4.  The classifier's logits are moved by
that evidence, never by what would make the pad's sums agree.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from . import digits as dg

# Chosen on a development set of generated photos (seeds 90000-90059) and checked on the
# benchmark's two sets (50000, 70000); STRENGTH raised from 16 on the development seeds
# of both renderers (independent 300000-300089, own 90000-90059): see ocr/README.md.
ANCHOR_AT = 0.99  # a cell read at least this surely (and legally) gives anchors
NEUTRAL = 0.8  # cosine similarity to a class's anchors above which it counts as evidence
STRENGTH = 48.0  # logit added per unit of similarity above NEUTRAL
CONSISTENT = 0.95  # a sheet whose anchors are less alike than this is not adapted to
DISOWN = 0.85  # a sure reading this like a digit of another kind a box says is no anchor
TOP = 2  # a class's similarity: the mean of its TOP nearest anchors (a near miss weighs less)


def adapt(probs: np.ndarray, feats: np.ndarray, anchors: dict[int, int],
          said: Collection[int] = ()) -> np.ndarray:
    """Probabilities of every glyph (rows of ``probs``), moved towards the anchors they
    resemble.  ``anchors`` maps a row index to the digit it surely is; those rows, and
    everything when no digit has an anchor, are returned as they were.  ``said``: the
    anchors a box's one legal value gives (``disown`` the sure readings they contradict)."""
    out = probs.copy()
    if not anchors or len(probs) == 0:
        return out
    f = feats / np.maximum(np.linalg.norm(feats, axis=1, keepdims=True), 1e-9)
    anchors = disown(f, anchors, said)
    idx = np.array(sorted(anchors))
    labels = np.array([anchors[i] for i in idx])
    rest = np.array([i for i in range(len(probs)) if i not in anchors])
    if len(rest) == 0:
        return out
    if consistency(f[idx], labels) < CONSISTENT:
        return out
    sims = f[rest] @ f[idx].T  # (rest, anchors)
    shift = np.zeros((len(rest), len(dg.CLASSES)), np.float32)
    for d in range(dg.N_DIGITS):
        cols = sims[:, labels == d]
        if cols.shape[1] == 0:
            continue
        k = min(TOP, cols.shape[1])
        near = -np.sort(-cols, axis=1)[:, :k].mean(axis=1)
        shift[:, d] = STRENGTH * np.maximum(near - NEUTRAL, 0.0)
    logit = np.log(np.maximum(probs[rest], 1e-12)) + shift
    logit -= logit.max(axis=1, keepdims=True)
    e = np.exp(logit)
    out[rest] = e / e.sum(axis=1, keepdims=True)
    return out


def disown(f: np.ndarray, anchors: dict[int, int], said: Collection[int]) -> dict[int, int]:
    """The anchors without the classifier's sure readings that look like this hand's digits
    of another kind, as the boxes say them (the 4 of the hand's 40s in Large Straight
    against a sure 1 in Aces: an unfamiliar hand's 4 read surely as 1 would otherwise
    teach the reader that its 4s are 1s).  Such a glyph is then adapted like any other."""
    told = [i for i in said if i in anchors]
    if not told:
        return anchors
    sims = f @ f[told].T  # (rows, told anchors)
    told_digits = np.array([anchors[i] for i in told])
    out = {}
    for i, d in anchors.items():
        if i not in said:
            j = int(np.argmax(sims[i]))
            if told_digits[j] != d and sims[i, j] >= DISOWN:
                continue
        out[i] = d
    return out


def consistency(f: np.ndarray, labels: np.ndarray) -> float:
    """How alike one hand writes a digit: the median, over anchors, of the similarity to
    the nearest other anchor of the same digit (0 when fewer than three have one).

    One writer's digits repeat their shape; a sheet whose sure digits do not (digits of
    many writers, as in the benchmark's MNIST pads) is not adapted to."""
    sims = f @ f.T
    np.fill_diagonal(sims, -1.0)
    near = [float(sims[i, labels == labels[i]].max()) for i in range(len(labels))
            if (labels == labels[i]).sum() > 1]
    return float(np.median(near)) if len(near) >= 3 else 0.0
