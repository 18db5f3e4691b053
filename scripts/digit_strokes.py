"""Synthetic handwritten digits drawn as pen strokes (extra training data for the digit CNN).

Each digit is a few pen strokes: control points in a unit box (x right, y down, digit height 1,
width about 0.3-0.8) through which a centripetal Catmull-Rom spline is drawn (sharp corners where a
point is marked as one).  Every sample picks a style variant (allograph) of the digit, jitters the
control points, applies a random slant, rotation and aspect, and draws the strokes with a random pen
width and slightly uneven pressure, anti-aliased on a supersampled canvas.  Strokes of one digit are
jittered independently, so they need not meet exactly (the pen was lifted), and loops may leave a
small gap or overshoot.

    from digit_strokes import synth_digit
    mask = synth_digit(4, np.random.default_rng(0), size=64)   # uint8, 255 = ink, cropped

Usage: .venv/bin/python scripts/digit_strokes.py /tmp/sheet.png [--per-digit 24] [--seed 0]
       [--by-allograph]
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

# A control point is (x, y), (x, y, corner) or (x, y, corner, jitter scale); corner = 1 makes the
# spline turn sharply there.  A stroke is a list of control points; a digit is a list of strokes.
Point = tuple[float, ...]
Strokes = list[list[Point]]
Builder = Callable[[np.random.Generator, str], Strokes]

_SAMPLES = 8  # spline samples per control-point segment


def _c(x: float, y: float, jit: float = 1.0) -> Point:
    """A corner control point."""
    return (x, y, 1.0, jit)


def _f(x: float, y: float, jit: float = 0.5) -> Point:
    """A smooth control point of a small feature (less jitter)."""
    return (x, y, 0.0, jit)


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int,
         jit: float = 0.7) -> list[Point]:
    """n points on an ellipse from angle a0 to a1 (degrees; 0 = right, 90 = down, -90 = top)."""
    a = np.radians(np.linspace(a0, a1, n))
    return [(float(x), float(y), 0.0, jit) for x, y in zip(cx + rx * np.cos(a), cy + ry * np.sin(a),
                                                            strict=True)]


def _scale(pts: Sequence[Point], sx: float, sy: float = 1.0, dx: float = 0.0, dy: float = 0.0) -> list[Point]:
    return [(p[0] * sx + dx, p[1] * sy + dy, *p[2:]) for p in pts]


# ---------------------------------------------------------------------------------------------
# The allographs.  Each builder returns strokes in the unit box for one named variant.


def _zero(rng: np.random.Generator, name: str) -> Strokes:
    u = rng.uniform
    w = {"oval": u(0.45, 0.62), "narrow": u(0.32, 0.45), "round": u(0.62, 0.8),
         "overshoot": u(0.42, 0.62)}[name]
    a0 = -90.0 + u(-25, 25)
    over = u(20, 60) if name == "overshoot" else u(-18, 12)
    sign = -1.0 if rng.random() < 0.8 else 1.0  # mostly counter-clockwise, from the top
    n = 11 if name == "overshoot" else 10
    ang = np.radians(a0 + sign * np.linspace(0.0, 360.0 + over, n))
    drift = np.linspace(1.0, 1.0 - (u(0.03, 0.14) if name == "overshoot" else u(-0.03, 0.04)), n)
    egg = u(-0.12, 0.12)  # one end of the oval narrower than the other
    rx = w / 2 * drift * (1 + egg * np.sin(ang))
    ry = 0.5 * drift
    pts: list[Point] = [(float(w / 2 + x), float(0.5 + y), 0.0, 0.7)
                        for x, y in zip(rx * np.cos(ang), ry * np.sin(ang), strict=True)]
    return [pts]


def _one(rng: np.random.Generator, name: str) -> Strokes:
    u = rng.uniform
    if name == "curved":
        b = u(0.04, 0.09) * (1 if rng.random() < 0.5 else -1)
        return [[(0.0, 0.0), (b * 0.8, 0.33), (b * 0.8, 0.66), (u(-0.02, 0.02), 1.0)]]
    b = u(-0.02, 0.02)
    stem = [(b, 0.5), (u(-0.02, 0.02), 1.0)]
    if name == "stroke":
        return [[(0.0, 0.0), *stem]]
    # the flag: short and steep, or (as many people write it) long, reaching a third of the
    # digit's height and more, and hollow like a wave
    fl = u(0.14, 0.3) if rng.random() < 0.5 else u(0.28, 0.45)
    th = math.radians(u(35, 70))  # well below the horizontal, unlike the bar of a 7
    sx, sy = -fl * math.cos(th), fl * math.sin(th)
    bend = u(-0.03, 0.02) if fl < 0.3 else u(-0.08, 0.02)  # a hollow or slightly bulging flag
    flag = [(sx, sy, 0.0, 0.4), _f(sx / 2 - bend * math.sin(th), sy / 2 - bend * math.cos(th), 0.3),
            _c(0.0, 0.0, 0.4)]
    strokes: Strokes = [[*flag, *stem]]
    if name == "flag_base":  # a base as wide as the flag is long, or wider
        y = 1.0 + u(-0.01, 0.02)
        half = u(0.14, 0.3) if rng.random() < 0.5 else u(0.25, 0.4)
        strokes.append([(-half * u(0.8, 1.2), y), (half, y + u(-0.03, 0.03))])
    return strokes


def _two(rng: np.random.Generator, name: str) -> Strokes:
    u = rng.uniform
    w = u(0.48, 0.66)
    k = w / 0.55
    top = [(u(0.0, 0.05), u(0.16, 0.32)), (0.12, u(0.03, 0.08)), (0.29, 0.0), (0.46, 0.05),
           (0.55, u(0.18, 0.26))]
    neck_bow = u(-0.04, 0.05)  # swan neck (concave) or straight
    neck = [(0.5 + neck_bow * 0.5, 0.41), (0.33 + neck_bow, 0.62), (0.15 + neck_bow * 0.5, 0.82)]
    if name == "sharp":
        base = [_c(0.0, 1.0), (0.3, 1.0 + u(-0.02, 0.02)), (u(0.55, 0.68), 1.0 + u(-0.04, 0.02))]
    elif name == "curved_base":
        base = [(0.05, 0.94), (0.13, 1.0), (0.33, 0.98), (u(0.55, 0.68), 1.0 + u(-0.05, 0.01))]
    else:  # loop: a small loop at the bottom left before the base
        r = u(0.07, 0.1)
        cx, cy = 0.1, 0.9 - r
        base = [_f(0.08, 0.88), _f(cx - r, cy + 0.02), _f(cx - 0.02, cy - r), _f(cx + r, cy - 0.01),
                _f(cx + r * 0.8, 0.93), (0.25, 1.0), (u(0.55, 0.68), 0.99 + u(-0.04, 0.01))]
    return [_scale([*top, *neck, *base], k)]


def _three(rng: np.random.Generator, name: str) -> Strokes:
    u = rng.uniform
    m = u(0.4, 0.5)  # height of the middle cusp
    cusp_x = u(0.14, 0.26)
    lower = [(0.45, m + 0.08), (0.56, m + 0.2), (0.56, 0.82), (0.42, 0.97), (0.2, 1.0),
             (u(0.0, 0.04), u(0.84, 0.92))]
    if name == "flat_top":
        bar_y = u(-0.02, 0.02)
        first = [(u(0.0, 0.06), 0.0), _c(u(0.5, 0.58), bar_y), _c(cusp_x + 0.04, m)]
        return [[*first, *lower]]
    upper = [(u(0.0, 0.06), u(0.1, 0.22)), (0.13, 0.03), (0.3, 0.0), (0.47, 0.06), (0.52, m * 0.5),
             (0.42, m - 0.08)]
    if name == "bowls_pointed":
        mid = [_c(cusp_x, m)]
    else:  # bowls_rounded: the pen turns round in the middle
        mid = [_f(cusp_x + 0.02, m - 0.03), _f(cusp_x, m + 0.01), _f(cusp_x + 0.05, m + 0.04)]
    return [[*upper, *mid, *lower]]


def _four(rng: np.random.Generator, name: str) -> Strokes:
    u = rng.uniform
    h = u(0.55, 0.7)  # height of the bar
    w = u(0.6, 0.78)
    xv = w * u(0.6, 0.72)  # the upright
    bar = [_c(0.0, h), (w, h + u(-0.04, 0.02))]
    if name == "open":
        first = [(u(0.0, 0.12), u(0.0, 0.05)), *bar]
        return [first, [(xv + u(-0.02, 0.02), u(0.0, 0.06)), (xv + u(-0.03, 0.03), 1.0)]]
    if name == "open_round":  # the first stroke turns into the bar without a corner, like a u
        x0 = u(0.0, 0.12)
        first = [(x0, u(0.0, 0.05)), (x0 * 0.5 + u(-0.02, 0.02), h * 0.6), _f(0.1, h, 0.4),
                 (w, h + u(-0.06, 0.02))]
        return [first, [(xv + u(-0.02, 0.02), u(0.0, 0.12)), (xv + u(-0.03, 0.03), 1.0)]]
    if name == "closed":
        top = u(0.0, 0.03)
        first = [(xv + u(-0.02, 0.02), top), (xv * 0.5, h * 0.5 + u(-0.02, 0.02)), *bar]
        return [first, [(xv + u(-0.02, 0.02), u(-0.04, 0.0)), (xv + u(-0.03, 0.03), 1.0)]]
    # short_stem: the upright starts well below the top
    xa = xv * u(0.3, 0.6)
    first = [(xa, 0.0), ((xa) * 0.5, h * 0.5), *bar]
    return [first, [(xv + u(-0.02, 0.02), u(0.25, h - 0.2)), (xv + u(-0.03, 0.03), 1.0)]]


def _five(rng: np.random.Generator, name: str) -> Strokes:
    u = rng.uniform
    b = u(0.36, 0.5)  # where the belly starts
    x0 = u(0.04, 0.12)
    xr = u(0.5, 0.66)
    belly = [_c(x0 - 0.03, b), (0.22, b - u(0.02, 0.08)), (0.42, b - 0.03), (0.55, b + 0.12),
             (0.57, 0.78), (0.45, 0.95), (0.22, 1.0), (u(0.0, 0.04), u(0.86, 0.93))]
    if name == "bar_connected":
        return [[(xr, u(-0.02, 0.02)), _c(x0, 0.0), *belly]]
    stem = [(x0, 0.0), *belly]
    bar: list[Point]
    if name == "bar_slanted":
        t = u(0.05, 0.12) * (1 if rng.random() < 0.75 else -1)  # mostly rising to the right
        bar = [(x0 + u(-0.02, 0.05), t / 2), (xr, -t / 2)]
    else:
        bar = [(x0 + u(-0.01, 0.05), u(-0.02, 0.01)), (xr, u(-0.03, 0.01))]
    return [stem, bar]


def _six(rng: np.random.Generator, name: str) -> Strokes:
    u = rng.uniform
    top = {"small_loop": u(0.52, 0.62), "big_loop": u(0.36, 0.46), "loop": u(0.44, 0.54),
           "straight_stem": u(0.42, 0.56)}[name]
    rx = u(0.22, 0.3)
    ry = (1.0 - top) / 2
    cx, cy = rx + u(0.0, 0.03), 1.0 - ry
    sx = cx + rx * u(0.55, 1.0)  # where the stem starts
    close = u(-215, -160)  # the loop closes with a small gap or an overshoot
    loop = _arc(cx, cy, rx, ry, 180, close, 8)
    if name == "straight_stem":
        stem = [(sx, 0.0), ((sx + cx - rx) / 2, top * 0.45 + 0.02)]
    else:
        stem = [(sx, u(0.0, 0.06)), (cx + rx * u(-0.2, 0.3), 0.0 + u(0.0, 0.03)),
                (cx - rx * u(0.5, 0.9), top * 0.4 + 0.05)]
    return [[*stem, *loop]]


def _seven(rng: np.random.Generator, name: str) -> Strokes:
    u = rng.uniform
    w = u(0.55, 0.72)
    xb = w * u(0.15, 0.45)  # where the diagonal ends
    corner = _c(w, u(-0.02, 0.02))
    start = (0.0, u(-0.02, 0.03))
    if name == "curved":
        bow = u(0.04, 0.09)
        diag = [((w * 0.6 + xb * 0.4) + bow, 0.4), ((w * 0.25 + xb * 0.75) + bow * 0.5, 0.72), (xb, 1.0)]
    else:
        diag = [((w + xb) / 2 + u(-0.02, 0.02), 0.5), (xb, 1.0)]
    if name == "hook":
        hk = u(0.1, 0.2)
        return [[(u(-0.03, 0.01), hk, 0.0, 0.5), _c(0.0, 0.0, 0.5), corner, *diag]]
    strokes: Strokes = [[start, corner, *diag]]
    if name == "crossbar":
        y = u(0.45, 0.56)
        xm = xb + (w - xb) * (1 - y)
        half = u(0.14, 0.22)
        strokes.append([(xm - half, y + u(-0.02, 0.02)), (xm + half * u(0.7, 1.1), y + u(-0.03, 0.01))])
    return strokes


def _eight(rng: np.random.Generator, name: str) -> Strokes:
    u = rng.uniform
    w = u(0.45, 0.62)
    mid = u(0.38, 0.44) if name == "small_top" else u(0.44, 0.5)  # where the loops meet
    rt = w / 2 * (u(0.6, 0.8) if name == "small_top" else u(0.75, 0.95))  # top loop half-width
    rb = w / 2
    cx = w / 2
    tt, tb = mid / 2, mid + (1 - mid) / 2  # loop centres
    ht, hb = mid / 2, (1 - mid) / 2
    if name == "snowman":
        a0 = -90 + u(-20, 20)
        top_loop = _arc(cx + u(-0.03, 0.03), tt, rt, ht, a0, a0 - 360 - u(-15, 20), 9, 0.5)
        a1 = -90 + u(-20, 20)
        bot_loop = _arc(cx, tb, rb, hb, a1, a1 - 360 - u(-15, 20), 10, 0.6)
        return [top_loop, bot_loop]
    # one stroke: from the top right over the top, S down to the bottom right, round, back up
    pts = [*_arc(cx, tt, rt, ht, -20 + u(-10, 15), -155, 3, 0.6), *_arc(cx, tt, rt, ht, 160, 160, 1, 0.6),
           (cx, mid, 0.0, 0.6),
           *_arc(cx, tb, rb, hb, -50, 230, 6, 0.6),
           (cx + u(-0.02, 0.02), mid + u(-0.02, 0.02), 0.0, 0.6),
           *_arc(cx, tt, rt, ht, 20, -30 - u(-10, 25), 2, 0.6)]
    return [pts]


def _nine(rng: np.random.Generator, name: str) -> Strokes:
    u = rng.uniform
    ly = u(0.4, 0.52)  # loop height
    rx = u(0.22, 0.3)
    ry = ly / 2
    cx, cy = rx, ry
    a0 = u(-60, -20)  # start at the upper right, round counter-clockwise, then down the stem
    a1 = a0 - 360 + u(-20, 10)
    loop = _arc(cx, cy, rx, ry, a0, a1, 10, 0.6)
    ex, ey = loop[-1][:2]
    loop[-1] = _c(ex, ey, 0.6)
    xr = cx + rx * u(0.85, 1.02)
    if name == "hooked":
        stem = [(xr - 0.01, 0.6), (xr - 0.05, 0.88), (xr - 0.16, 1.0), (xr - u(0.28, 0.38), u(0.9, 0.96))]
    elif name == "leaning":
        stem = [(xr - u(0.1, 0.22), 1.0)]
    else:
        stem = [(xr + u(-0.02, 0.02), 0.6), (xr + u(-0.04, 0.02), 1.0)]
    return [[*loop, *stem]]


_DIGITS: dict[int, tuple[Builder, tuple[tuple[str, float], ...]]] = {
    0: (_zero, (("oval", 4), ("narrow", 2), ("round", 1), ("overshoot", 2))),
    1: (_one, (("stroke", 3), ("flag", 4), ("flag_base", 3), ("curved", 1))),
    2: (_two, (("sharp", 4), ("curved_base", 3), ("loop", 2))),
    3: (_three, (("bowls_pointed", 4), ("bowls_rounded", 3), ("flat_top", 2))),
    4: (_four, (("open", 3), ("open_round", 2), ("closed", 4), ("short_stem", 2))),
    5: (_five, (("bar_lifted", 4), ("bar_connected", 3), ("bar_slanted", 2))),
    6: (_six, (("loop", 4), ("small_loop", 2), ("big_loop", 2), ("straight_stem", 2))),
    7: (_seven, (("plain", 4), ("crossbar", 2), ("hook", 2), ("curved", 2))),
    8: (_eight, (("figure", 4), ("snowman", 3), ("small_top", 2))),
    9: (_nine, (("straight", 4), ("hooked", 3), ("leaning", 2))),
}

# a strongly slanted 1 with a flag would turn into a 7
_MAX_SHEAR: dict[tuple[int, str], float] = {(1, "flag"): 0.35, (1, "flag_base"): 0.35}

ALLOGRAPHS: dict[int, tuple[str, ...]] = {d: tuple(n for n, _ in v[1]) for d, v in _DIGITS.items()}


# ---------------------------------------------------------------------------------------------
# Geometry and drawing.


def _spline(p: np.ndarray, k: int = _SAMPLES) -> np.ndarray:
    """Centripetal Catmull-Rom curve through the points p (n, 2), k samples per segment."""
    n = len(p)
    if n == 2:
        line: np.ndarray = p[0] + np.linspace(0.0, 1.0, k + 1)[:, None] * (p[1] - p[0])
        return line
    e = np.vstack([2 * p[0] - p[1], p, 2 * p[-1] - p[-2]])
    p0, p1, p2, p3 = e[:-3], e[1:-2], e[2:-1], e[3:]
    t1 = np.sqrt(np.linalg.norm(p1 - p0, axis=1)) + 1e-6
    t2 = t1 + np.sqrt(np.linalg.norm(p2 - p1, axis=1)) + 1e-6
    t3 = t2 + np.sqrt(np.linalg.norm(p3 - p2, axis=1)) + 1e-6
    t1, t2, t3 = t1[:, None, None], t2[:, None, None], t3[:, None, None]
    t = t1 + np.linspace(0.0, 1.0, k, endpoint=False)[None, :, None] * (t2 - t1)
    p0, p1, p2, p3 = p0[:, None], p1[:, None], p2[:, None], p3[:, None]
    a1 = (t1 - t) / t1 * p0 + t / t1 * p1
    a2 = (t2 - t) / (t2 - t1) * p1 + (t - t1) / (t2 - t1) * p2
    a3 = (t3 - t) / (t3 - t2) * p2 + (t - t2) / (t3 - t2) * p3
    b1 = (t2 - t) / t2 * a1 + t / t2 * a2
    b2 = (t3 - t) / (t3 - t1) * a2 + (t - t1) / (t3 - t1) * a3
    c = (t2 - t) / (t2 - t1) * b1 + (t - t1) / (t2 - t1) * b2
    return np.vstack([c.reshape(-1, 2), p[-1:]])


def _curve(stroke: np.ndarray) -> np.ndarray:
    """The dense polyline of one stroke (rows x, y, corner): smooth pieces joined at the corners."""
    cut = [0, *[i for i in range(1, len(stroke) - 1) if stroke[i, 2] > 0], len(stroke) - 1]
    pieces = [_spline(stroke[a: b + 1, :2]) for a, b in zip(cut[:-1], cut[1:], strict=True)]
    return np.vstack([pieces[0], *[q[1:] for q in pieces[1:]]])


def _strokes(d: int, rng: np.random.Generator, allograph: str | None) -> tuple[str, list[np.ndarray]]:
    build, styles = _DIGITS[d]
    names = [n for n, _ in styles]
    if allograph is None:
        wts = np.array([w for _, w in styles], float)
        allograph = names[int(rng.choice(len(names), p=wts / wts.sum()))]
    elif allograph not in names:
        raise ValueError(f"digit {d} has no allograph {allograph!r} (have {names})")
    raw = build(rng, allograph)
    sigma = rng.uniform(0.015, 0.04)
    out = []
    for s in raw:
        a = np.array([(*p, 0.0, 1.0)[:4] if len(p) == 2 else (*p, 1.0)[:4] for p in s], float)
        jit = np.clip(rng.normal(0.0, sigma, (len(a), 2)), -2.2 * sigma, 2.2 * sigma)
        a[:, :2] += jit * a[:, 3:4]
        out.append(a[:, :3])
    return allograph, out


def _render(curves: list[np.ndarray], rng: np.random.Generator, size: int,
            max_shear: float = 0.45) -> np.ndarray:
    """Slant, rotate, stretch and draw the dense curves (unit box); returns the cropped ink mask."""
    u = rng.uniform
    shear = u(-0.15, 0.45) if rng.random() < 0.75 else u(0.05, 0.3)  # mostly leaning right
    shear = min(shear, max_shear)
    rot = math.radians(u(-6, 6))
    aspect = math.exp(u(math.log(0.78), math.log(1.3)))
    pen = math.exp(u(math.log(0.025), math.log(0.12)))  # pen width / digit height
    cr, sr = math.cos(rot), math.sin(rot)
    m = np.array([[cr, -sr], [sr, cr]]) @ np.array([[aspect, -shear], [0.0, 1.0]])
    pts = [(c - (0.3, 0.5)) @ m.T for c in curves]
    allp = np.vstack(pts)
    lo, hi = allp.min(0), allp.max(0)
    ss = max(2, math.ceil(192 / size))  # supersampling
    unit = (size - 1) * ss / (hi[1] - lo[1] + pen)  # pixels per unit (the anti-aliased rim adds ~1)
    pen_px = pen * unit
    pad = pen_px / 2 + 2 * ss
    cw = int(math.ceil(((hi[0] - lo[0]) * unit + 2 * pad) / ss)) * ss
    ch = int(math.ceil(((hi[1] - lo[1]) * unit + 2 * pad) / ss)) * ss
    img = np.zeros((ch, cw), np.uint8)
    # uneven pressure: the width wanders smoothly along each stroke
    press = u(0.0, 0.22)
    for p in pts:
        q = (p - lo) * unit + pad
        n = len(q)
        chunk = 6
        phase, freq = u(0, 2 * math.pi), u(0.5, 1.6)
        for i in range(0, n - 1, chunk):
            seg = q[i: min(i + chunk + 1, n)]
            t = (i + chunk / 2) / max(n - 1, 1)
            wpx = pen_px * (1.0 + press * math.sin(2 * math.pi * freq * t + phase))
            th = max(1, int(round(wpx)))
            cv2.polylines(img, [np.round(seg * 16).astype(np.int32)], False, 255, th, cv2.LINE_AA, 4)
    small = cv2.resize(img, (cw // ss, ch // ss), interpolation=cv2.INTER_AREA)
    small[small < 24] = 0
    ys, xs = np.nonzero(small)
    if len(xs) == 0:
        return np.zeros((1, 1), np.uint8)
    out: np.ndarray = small[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1].copy()
    return out


def synth_digit(d: int, rng: np.random.Generator, size: int = 64, *,
                allograph: str | None = None) -> np.ndarray:
    """One handwritten-looking digit d (0-9) as an ink mask: uint8, 255 = ink, 0 = paper (anti-aliased
    edges), cropped to its ink (no empty border), height about `size` px.  ``allograph`` (one of
    ``ALLOGRAPHS[d]``) forces a style variant; by default one is drawn at random."""
    name, strokes = _strokes(d, rng, allograph)
    return _render([_curve(s) for s in strokes], rng, size, _MAX_SHEAR.get((d, name), 0.45))


def _sheet(rows: list[list[np.ndarray]], path: str | Path, cell: int) -> None:
    ncol = max(len(r) for r in rows)
    sheet = np.full((len(rows) * cell, ncol * cell), 255, np.uint8)
    for r, row in enumerate(rows):
        for c, g in enumerate(row):
            h, w = g.shape
            s = min(1.0, (cell - 6) / max(h, w))
            if s < 1.0:
                g = cv2.resize(g, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
                h, w = g.shape
            y, x = r * cell + (cell - h) // 2, c * cell + (cell - w) // 2
            sheet[y: y + h, x: x + w] = np.minimum(sheet[y: y + h, x: x + w], 255 - g)
    sheet[::cell, :] = 200
    sheet[:, ::cell] = 200
    cv2.imwrite(str(path), sheet)


def contact_sheet(path: str | Path, rng: np.random.Generator, per_digit: int = 24) -> None:
    """Write a PNG grid (one row per digit, dark ink on white) of random samples for viewing."""
    size = 56
    _sheet([[synth_digit(d, rng, size) for _ in range(per_digit)] for d in range(10)], path, size + 14)


def allograph_sheet(path: str | Path, rng: np.random.Generator, per_style: int = 16) -> None:
    """Write a PNG grid with one row per (digit, allograph), in the order of ``ALLOGRAPHS``."""
    size = 48
    rows = [[synth_digit(d, rng, size, allograph=a) for _ in range(per_style)]
            for d in range(10) for a in ALLOGRAPHS[d]]
    _sheet(rows, path, size + 12)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", help="PNG file to write")
    ap.add_argument("--per-digit", type=int, default=24)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--by-allograph", action="store_true", help="one row per allograph instead of per digit")
    args = ap.parse_args()
    generator = np.random.default_rng(args.seed)
    if args.by_allograph:
        allograph_sheet(args.out, generator, args.per_digit)
    else:
        contact_sheet(args.out, generator, args.per_digit)
    print(f"wrote {args.out}")
