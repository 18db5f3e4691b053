"""The digit reader's convolutional network, run in plain numpy.

Same classes as ``ocr.digits`` (0-9, dash, slash, X, several).  The weights are trained
offline by ``scripts/train_digits.py`` (PyTorch, training only) and shipped as
``ocr/digits_cnn.npz``; at run time only numpy and OpenCV are used: the
convolutions are matrix products over ``sliding_window_view`` patches (im2col).

Input: two 28x28 pictures of a glyph, both fitted into a 20x20 box in the middle:
the stroke thinned and drawn again at one width (``digits.normalize``) and the ink
as it is (anti-aliased), so the network sees the shape and the pen alike.
Confidence is calibrated: each member's logits are divided by a temperature fitted
on held-out glyphs (training fonts and training pads only) after training.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from . import digits as dg

WEIGHTS = Path(__file__).with_name("digits_cnn.npz")
SIDE, FIT = dg.SIDE, dg.FIT
CHANNELS = 2
CONVS = 3  # conv 3x3 (same) -> ReLU -> max-pool 2x2, three times; then two dense layers
CHUNK = 32  # glyphs per pass: a pass's patches stay in the cache (64: a seventh slower on one core)


def plain(mask: np.ndarray) -> np.ndarray:
    """An ink mask -> 28x28 float32 in [0, 1]: the ink fitted into 20x20, centred."""
    m = (mask > 0).astype(np.float32)
    ys, xs = np.nonzero(m)
    out = np.zeros((SIDE, SIDE), np.float32)
    if len(xs) == 0:
        return out
    m = m[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    h, w = m.shape
    fh, fw = max(1, round(h * FIT / max(h, w))), max(1, round(w * FIT / max(h, w)))
    small = cv2.resize(m, (fw, fh), interpolation=cv2.INTER_AREA)
    y0, x0 = (SIDE - fh) // 2, (SIDE - fw) // 2
    out[y0: y0 + fh, x0: x0 + fw] = small
    return out


def prepare(mask: np.ndarray) -> np.ndarray:
    """An ink mask (any size, >0 = ink) -> the network's input, (28, 28, 2) float32."""
    out: np.ndarray = prepare_many([mask])[0]
    return out


def prepare_many(masks: list[np.ndarray]) -> np.ndarray:
    """``prepare`` of each mask, stacked (n, 28, 28, 2), the strokes thinned all at once."""
    return np.stack([np.stack([n, plain(m)], axis=-1)
                     for n, m in zip(dg.normalize_many(masks), masks, strict=True)])


_POOL = ((0, 0), (0, 1), (1, 0), (1, 1))  # the four places of a 2x2 max-pool window


def _conv_relu_pool(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """NHWC input, weights (out, in, 3, 3) as PyTorch stores them -> NHWC, half the size."""
    n, h, wd, c = x.shape
    h2, w2 = h // 2, wd // 2
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    win = sliding_window_view(xp, (3, 3), axis=(1, 2))  # n, h, w, c, 3, 3
    # im2col laid out by place in the pooling window, each patch's channels innermost: the
    # pool is then a maximum of four contiguous blocks (half the time of pooling strided
    # slices of the whole output)
    cols = np.empty((4, n, h2, w2, 3, 3, c), np.float32)
    for k, (py, px) in enumerate(_POOL):
        cols[k] = win[:, py: py + 2 * h2: 2, px: px + 2 * w2: 2].transpose(0, 1, 2, 4, 5, 3)
    y = cols.reshape(4 * n * h2 * w2, 9 * c) @ w.transpose(0, 2, 3, 1).reshape(len(w), -1).T
    y = y.reshape(4, n * h2 * w2, -1)
    out: np.ndarray = np.maximum(np.maximum(y[0], y[1]), np.maximum(y[2], y[3]))
    out += b  # the bias and ReLU after the pool: the same, on a quarter of the values
    np.maximum(out, 0, out=out)
    return out.reshape(n, h2, w2, -1)


@dataclass(frozen=True)
class Net:
    convs: tuple[tuple[np.ndarray, np.ndarray], ...]
    w_fc: np.ndarray  # (hidden, flat) as PyTorch stores it
    b_fc: np.ndarray
    w_out: np.ndarray  # (classes, hidden)
    b_out: np.ndarray
    temperature: float

    def hidden(self, x: np.ndarray) -> np.ndarray:
        """(n, 28, 28, 2) -> (n, hidden): the last layer before the classes (the glyph's shape
        as the network sees it; ``ocr.writer`` compares glyphs of one hand with it)."""
        w, b = self.convs[0]
        return self.hidden_from_first(_conv_relu_pool(x, w, b))

    def hidden_from_first(self, x: np.ndarray) -> np.ndarray:
        """``hidden`` from the first convolution's output (n, 14, 14, channels)."""
        for w, b in self.convs[1:]:
            x = _conv_relu_pool(x, w, b)
        flat = x.transpose(0, 3, 1, 2).reshape(len(x), -1)  # PyTorch flattens C, H, W
        out: np.ndarray = np.maximum(flat @ self.w_fc.T + self.b_fc, 0)
        return out

    def head(self, h: np.ndarray) -> np.ndarray:
        """Hidden features -> logits, already divided by the temperature."""
        out: np.ndarray = (h @ self.w_out.T + self.b_out) / self.temperature
        return out

    def logits(self, x: np.ndarray) -> np.ndarray:
        """(n, 28, 28, 2) -> (n, classes) logits, already divided by the temperature."""
        return self.head(self.hidden(x))


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


@dataclass(frozen=True)
class CnnEnsemble:
    """Members' calibrated probabilities are averaged."""

    nets: tuple[Net, ...]
    # the members' first convolutions side by side: they see the same input, so its patches
    # are gathered once and multiplied once (im2col of two channels costs more than the product)
    first: tuple[np.ndarray, np.ndarray] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "first", (np.concatenate([n.convs[0][0] for n in self.nets]),
                                           np.concatenate([n.convs[0][1] for n in self.nets])))

    def _forward(self, x: np.ndarray, chunk: int) -> tuple[np.ndarray, np.ndarray]:
        """(n, 28, 28, 2) inputs -> the members' averaged probabilities and the glyphs'
        features (see ``classify_embed``), ``chunk`` rows at a time (bounded memory)."""
        probs, feats = [], []
        bounds = np.cumsum([0, *(len(n.convs[0][0]) for n in self.nets)])
        for s in range(0, len(x), chunk):
            first = _conv_relu_pool(x[s: s + chunk], *self.first)
            hs = [n.hidden_from_first(first[..., a:b])
                  for n, a, b in zip(self.nets, bounds[:-1], bounds[1:], strict=True)]
            probs.append(np.mean([softmax(n.head(h)) for n, h in zip(self.nets, hs, strict=True)],
                                 axis=0))
            feats.append(np.concatenate(
                [h / np.maximum(np.linalg.norm(h, axis=1, keepdims=True), 1e-9) for h in hs],
                axis=1))
        return (np.concatenate(probs).astype(np.float32),
                np.concatenate(feats).astype(np.float32))

    def proba_inputs(self, x: np.ndarray, chunk: int = CHUNK) -> np.ndarray:
        """(n, 28, 28, 2) inputs -> probabilities."""
        return self._forward(x, chunk)[0]

    def classify(self, masks: list[np.ndarray]) -> np.ndarray:
        """Ink masks -> (n, len(CLASSES)) probabilities."""
        return self.classify_embed(masks)[0]

    def classify_embed(self, masks: list[np.ndarray],
                       chunk: int = CHUNK) -> tuple[np.ndarray, np.ndarray]:
        """Ink masks -> probabilities as ``classify``, and each glyph's features: the members'
        hidden layers, each scaled to unit length, side by side (n, members * hidden).

        Masks alike pixel for pixel are read once (a wide glyph's ways of cutting share
        pieces: a sixth to a quarter of a photo's batch)."""
        if not masks:
            return (np.zeros((0, len(dg.CLASSES)), np.float32),
                    np.zeros((0, sum(n.w_fc.shape[0] for n in self.nets)), np.float32))
        index: dict[tuple[tuple[int, ...], bytes], int] = {}
        unique: list[np.ndarray] = []
        row = []
        for m in masks:
            key = (m.shape, (m > 0).tobytes())
            if key not in index:
                index[key] = len(unique)
                unique.append(m)
            row.append(index[key])
        probs, feats = self._forward(prepare_many(unique).astype(np.float32), chunk)
        return probs[row], feats[row]

    def arrays(self) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {"n_models": np.array(len(self.nets))}
        for i, n in enumerate(self.nets):
            for j, (w, b) in enumerate(n.convs):
                out[f"conv{j}_w_{i}"] = w.astype(np.float16)
                out[f"conv{j}_b_{i}"] = b.astype(np.float32)
            out[f"fc_w_{i}"] = n.w_fc.astype(np.float16)
            out[f"fc_b_{i}"] = n.b_fc.astype(np.float32)
            out[f"out_w_{i}"] = n.w_out.astype(np.float16)
            out[f"out_b_{i}"] = n.b_out.astype(np.float32)
            out[f"temperature_{i}"] = np.array(n.temperature, np.float32)
        return out

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **self.arrays())  # type: ignore[arg-type]


@lru_cache(maxsize=2)
def load(path: Path = WEIGHTS) -> CnnEnsemble:
    if not path.is_file():
        raise dg.ModelMissing(f"digit CNN weights not found at {path}")
    nets = []
    with np.load(path) as z:
        for i in range(int(z["n_models"])):
            def f(key: str, i: int = i) -> np.ndarray:
                a: np.ndarray = z[f"{key}_{i}"].astype(np.float32)
                return a

            convs = tuple((f(f"conv{j}_w"), f(f"conv{j}_b")) for j in range(CONVS))
            if f("out_w").shape[0] != len(dg.CLASSES):
                raise dg.ModelMissing(f"digit CNN weights at {path} have {f('out_w').shape[0]} "
                                      f"classes, not {len(dg.CLASSES)}: train them again")
            nets.append(Net(convs, f("fc_w"), f("fc_b"), f("out_w"), f("out_b"),
                            float(z[f"temperature_{i}"])))
    return CnnEnsemble(tuple(nets))
