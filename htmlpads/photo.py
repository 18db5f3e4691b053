"""The photo model: a rendered sheet laid on a synthetic table and photographed with a phone.

Scene (top-down, in sheet pixels): a synthesised background (wood, felt, stone), sometimes
a stack of offset sheets under the pad, dice and a pencil beside it, the sheet with a soft
contact shadow and a paper texture. Camera: a pinhole tilted 3-24 degrees with a wide-angle
field of view and barrel distortion, fitted so the whole pad is in frame. Then lighting
(gradient, a soft cast shadow, vignetting, white balance), optics and motion blur, sensor
noise, phone sharpening and JPEG at quality 63-91.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

FloatMap = np.ndarray


# ----------------------------------------------------------------------------- noise helpers


def smooth_noise(rng: np.random.Generator, h: int, w: int, cells: int, octaves: int = 3) -> np.ndarray:
    """Fractal value noise in about [-1, 1]: random grids upsampled and summed."""
    out = np.zeros((h, w), np.float32)
    amp = 1.0
    total = 0.0
    for o in range(octaves):
        c = cells * (2 ** o)
        gh = max(2, int(round(c * h / max(h, w))) + 1)
        gw = max(2, int(round(c * w / max(h, w))) + 1)
        grid = rng.standard_normal((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.5
    return out / total


# ----------------------------------------------------------------------------- backgrounds

_WOODS = {
    "oak": ((196, 158, 110), (141, 100, 60)),
    "walnut": ((122, 86, 58), (66, 43, 28)),
    "pine": ((222, 188, 138), (178, 132, 84)),
    "cherry": ((168, 98, 64), (112, 60, 38)),
    "whitewash": ((208, 199, 184), (165, 154, 138)),
    "teak": ((160, 112, 64), (104, 66, 34)),
}
_FELTS = {
    "green": (42, 112, 64), "blue": (38, 62, 122), "red": (126, 32, 38), "grey": (104, 104, 108),
    "black": (38, 38, 42), "burgundy": (92, 28, 44),
}
_STONES = {
    "granite grey": ((150, 148, 146), [(40, 40, 42), (220, 218, 214), (110, 104, 100)]),
    "granite black": ((48, 48, 52), [(15, 15, 18), (150, 150, 152), (90, 84, 80)]),
    "granite pink": ((176, 150, 140), [(60, 50, 50), (230, 215, 205), (150, 100, 90)]),
    "slate": ((82, 88, 92), [(60, 64, 70), (110, 116, 120), (70, 74, 78)]),
    "sandstone": ((196, 176, 146), [(150, 128, 100), (225, 210, 185), (170, 150, 120)]),
}


def _rgb2bgr(c: tuple[int, int, int]) -> np.ndarray:
    return np.array([c[2], c[1], c[0]], np.float32)


def _streaks(rng: np.random.Generator, n: int) -> np.ndarray:
    """1-D grain profile across the boards: fine lines over slower bands."""
    out = np.zeros(n, np.float32)
    for sigma, amp in ((0.8, 0.5), (2.5, 0.8), (9.0, 1.0), (30.0, 0.8)):
        line = cv2.GaussianBlur(rng.standard_normal((1, n)).astype(np.float32), (0, 0), sigma)[0]
        out += amp * line / (float(line.std()) + 1e-6)
    return out / 2.0


def wood(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, dict[str, Any]]:
    """Planks with straight-ish grain (along x before an optional quarter turn)."""
    name = str(rng.choice(list(_WOODS)))
    light, dark = (_rgb2bgr(c) for c in _WOODS[name])
    turn = bool(rng.random() < 0.5)
    gh, gw = (w, h) if turn else (h, w)
    scale = max(gh, gw)
    plank = scale * float(rng.uniform(0.16, 0.34))
    yy = np.mgrid[0:gh, 0:gw][0].astype(np.float32)
    # grain lines wander slowly along the board and hardly at all across it
    cells_x = int(rng.integers(2, 5))
    wander = cv2.resize(rng.standard_normal((18, cells_x)).astype(np.float32), (gw, gh),
                        interpolation=cv2.INTER_CUBIC) * plank * 0.05
    wander += cv2.resize(rng.standard_normal((60, 10)).astype(np.float32), (gw, gh),
                         interpolation=cv2.INTER_CUBIC) * plank * 0.006
    offset = float(rng.uniform(0, plank))
    board = np.floor((yy + offset) / plank)
    n = 8192
    profile = _streaks(rng, n)
    pos = (yy + wander + board * 211.0) * (n / (scale * 2.2 + 2 * plank))
    idx = np.clip(pos, 0, n - 1).astype(np.int32)
    fine = profile[idx]
    t = 0.5 + 0.17 * fine
    t += (np.mod(board * 0.6180339, 1.0) - 0.5) * 0.3  # each board its own shade
    t = np.clip(t, 0, 1)[..., None]
    img = light * (1 - t) + dark * t
    seam = np.abs(np.mod(yy + offset, plank)) < 1.6
    img[seam] *= 0.5
    img *= (1 + 0.04 * smooth_noise(rng, gh, gw, 4, 2))[..., None]
    if turn:
        img = np.ascontiguousarray(img.transpose(1, 0, 2))
    grain = "vertical" if turn else "horizontal"
    return img.astype(np.float32), {"kind": "wood", "name": name, "grain": grain}


def felt(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, dict[str, Any]]:
    name = str(rng.choice(list(_FELTS)))
    base = _rgb2bgr(_FELTS[name])
    fine = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.9)
    mottle = smooth_noise(rng, h, w, 8, 3)
    shade = 1.0 + 0.10 * fine + 0.07 * mottle
    img = base[None, None, :] * shade[..., None]
    return img, {"kind": "felt", "name": name}


def stone(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, dict[str, Any]]:
    name = str(rng.choice(list(_STONES)))
    base_c, specks = _STONES[name]
    base = _rgb2bgr(base_c)
    mottle = smooth_noise(rng, h, w, 10, 4)
    img = base[None, None, :] * (1.0 + 0.10 * mottle[..., None])
    for c in specks:
        n = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0),
                             float(rng.uniform(0.8, 1.8)))
        thr = float(rng.uniform(0.9, 1.4)) * float(n.std())
        m = np.clip((n - thr) / (0.4 * float(n.std())), 0, 1)[..., None]
        img = img * (1 - m) + _rgb2bgr(c)[None, None, :] * m
    if name in ("slate", "sandstone"):
        layers = smooth_noise(rng, h, w, 3, 2)
        img *= (1.0 + 0.06 * np.sin(layers * 9.0))[..., None]
    return img, {"kind": "stone", "name": name}


BACKGROUNDS: dict[str, Callable[[np.random.Generator, int, int], tuple[np.ndarray, dict[str, Any]]]] = {
    "wood": wood, "felt": felt, "stone": stone,
}


# ----------------------------------------------------------------------------- props


def _blend(canvas: np.ndarray, patch: np.ndarray, alpha: np.ndarray, x: int, y: int) -> None:
    """Alpha-blend a float patch into the float canvas at (x, y), clipped to the canvas."""
    h, w = alpha.shape
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, canvas.shape[1]), min(y + h, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    a = alpha[y0 - y:y1 - y, x0 - x:x1 - x, None]
    region = canvas[y0:y1, x0:x1]
    region *= 1 - a
    region += patch[y0 - y:y1 - y, x0 - x:x1 - x] * a


def _shade(canvas: np.ndarray, mask: np.ndarray, x: int, y: int, strength: float) -> None:
    """Darken the canvas under a (soft) mask placed at (x, y)."""
    _blend(canvas, np.zeros(mask.shape + (3,), np.float32), mask * strength, x, y)


def draw_die(rng: np.random.Generator, size: float) -> tuple[np.ndarray, np.ndarray, int]:
    """A white die seen from above: rounded square, bevel, pips. Returns BGR, alpha, pips."""
    ss = 3  # supersampling
    pad = int(size * 0.35)
    n = int(size + 2 * pad)
    big = n * ss
    angle = float(rng.uniform(0, 90))
    c = big / 2
    half = size * ss / 2
    r = half * 0.28
    rect = np.zeros((big, big), np.uint8)
    x0, x1 = int(c - half), int(c + half)
    cv2.rectangle(rect, (int(x0 + r), x0), (int(x1 - r), x1), 255, -1)
    cv2.rectangle(rect, (x0, int(x0 + r)), (x1, int(x1 - r)), 255, -1)
    for cx in (x0 + r, x1 - r):
        for cy in (x0 + r, x1 - r):
            cv2.circle(rect, (int(cx), int(cy)), int(r), 255, -1, cv2.LINE_AA)
    rot = cv2.getRotationMatrix2D((c, c), angle, 1.0)
    body: np.ndarray = cv2.warpAffine(rect, rot, (big, big), flags=cv2.INTER_LINEAR)
    face = int(rng.integers(1, 7))
    pips: np.ndarray = np.zeros_like(rect)
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[face]
    for sx, sy in spots:
        cv2.circle(pips, (int(c + sx * half * 0.5), int(c + sy * half * 0.5)), int(half * 0.17), 255, -1,
                   cv2.LINE_AA)
    pips = cv2.warpAffine(pips, rot, (big, big), flags=cv2.INTER_LINEAR)
    a = cv2.resize(body, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    p = cv2.resize(pips, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    ivory = np.array([rng.uniform(228, 246), rng.uniform(236, 250), rng.uniform(240, 252)], np.float32)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    light = 1.0 - 0.10 * ((xx + yy) / (2 * n))  # lit from the top left
    bevel = cv2.GaussianBlur(a, (0, 0), size * 0.06)
    edge = np.clip(1.0 - (bevel - 0.5) * 2.2, 0, 1) * a  # darker rim
    img = ivory[None, None, :] * (light * (1 - 0.22 * edge))[..., None]
    pip_rgb = np.array([30, 30, 34] if rng.random() < 0.85 else [40, 40, 170], np.float32)
    img = img * (1 - p[..., None]) + pip_rgb[None, None, :] * p[..., None]
    return img, a, face


def draw_pencil(rng: np.random.Generator, length: float, width: float) -> tuple[np.ndarray, np.ndarray, str]:
    """A pencil along +x: eraser, ferrule, hexagonal painted body, sharpened wood and lead."""
    colours = {"yellow": (40, 180, 235), "red": (40, 40, 190), "green": (60, 130, 40), "blue": (160, 80, 30),
               "natural": (120, 170, 205), "black": (40, 38, 36)}
    name = str(rng.choice(list(colours), p=[0.5, 0.12, 0.1, 0.1, 0.1, 0.08]))
    L, W = int(length), max(int(width), 6)
    pad = int(W * 0.8)
    h = W + 2 * pad
    img: np.ndarray = np.zeros((h, L + 2 * pad, 3), np.float32)
    alpha: np.ndarray = np.zeros((h, L + 2 * pad), np.float32)
    y0 = pad
    fy = (np.arange(h, dtype=np.float32) - y0) / W  # 0..1 across the pencil
    facet = np.where(fy < 0.33, 1.12, np.where(fy < 0.67, 1.0, 0.78)).astype(np.float32)
    cut = int(L * 0.86)
    e0, e1 = pad, pad + int(L * 0.07)
    f1 = e1 + int(L * 0.05)
    body = np.array(colours[name], np.float32)
    sections = [(e0, e1, np.array([150, 140, 225], np.float32)),  # eraser
                (e1, f1, np.array([170, 175, 180], np.float32)),  # ferrule
                (f1, pad + cut, body)]
    for x0, x1, col in sections:
        img[y0:y0 + W, x0:x1] = col[None, None, :] * facet[y0:y0 + W, None, None]
        alpha[y0:y0 + W, x0:x1] = 1.0
    ridges = np.arange(e1, f1, max(2, W // 6))
    img[y0:y0 + W, ridges] *= 0.75
    # sharpened cone: wood then graphite
    tip = pad + L
    cone = np.array([[pad + cut, y0], [tip, y0 + W // 2], [pad + cut, y0 + W]], np.int32)
    mask = np.zeros((h, L + 2 * pad), np.uint8)
    cv2.fillPoly(mask, [cone], 255, cv2.LINE_AA)
    m = mask.astype(np.float32)[..., None] / 255
    xs = np.arange(L + 2 * pad, dtype=np.float32)
    lead = (xs > pad + cut + (L - cut) * 0.72).astype(np.float32)[None, :, None]
    wood_c = np.array([150, 195, 225], np.float32)
    lead_c = np.array([55, 55, 58], np.float32)
    cone_rgb = wood_c * (1 - lead) + lead_c * lead
    img = img * (1 - m) + cone_rgb * facet[:, None, None] * m
    alpha = np.maximum(alpha, m[..., 0])
    alpha = cv2.GaussianBlur(alpha, (3, 3), 0.6)
    return img, alpha, name


# ----------------------------------------------------------------------------- camera


@dataclass
class Camera:
    """Scene plane (sheet pixels) -> output pixels: homography, then barrel distortion."""

    homography: np.ndarray  # 3x3, scene -> undistorted output pixels
    width: int
    height: int
    barrel: float  # r_u = r_d * (1 + barrel * r_d^2), r normalised to the half diagonal

    def _half_diag(self) -> float:
        return 0.5 * math.hypot(self.width, self.height)

    def undistort(self, xd: np.ndarray, yd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cx, cy, rr = self.width / 2, self.height / 2, self._half_diag()
        xn, yn = (xd - cx) / rr, (yd - cy) / rr
        f = 1 + self.barrel * (xn * xn + yn * yn)
        return cx + xn * f * rr, cy + yn * f * rr

    def distort(self, xu: np.ndarray, yu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cx, cy, rr = self.width / 2, self.height / 2, self._half_diag()
        xn, yn = (xu - cx) / rr, (yu - cy) / rr
        ru = np.sqrt(xn * xn + yn * yn)
        rd = ru.copy()
        for _ in range(8):
            rd = ru / (1 + self.barrel * rd * rd)
        s = np.where(ru > 0, rd / np.maximum(ru, 1e-9), 1.0)
        return cx + xn * s * rr, cy + yn * s * rr

    def to_scene(self, xd: np.ndarray, yd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        xu, yu = self.undistort(xd, yd)
        hi = np.linalg.inv(self.homography)
        den = hi[2, 0] * xu + hi[2, 1] * yu + hi[2, 2]
        return ((hi[0, 0] * xu + hi[0, 1] * yu + hi[0, 2]) / den,
                (hi[1, 0] * xu + hi[1, 1] * yu + hi[1, 2]) / den)

    def to_image(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = self.homography
        den = h[2, 0] * xs + h[2, 1] * ys + h[2, 2]
        xu = (h[0, 0] * xs + h[0, 1] * ys + h[0, 2]) / den
        yu = (h[1, 0] * xs + h[1, 1] * ys + h[1, 2]) / den
        return self.distort(xu, yu)


def _look_at(tilt: float, azimuth: float, roll: float) -> np.ndarray:
    """Rotation (rows: camera x, y, z in world coordinates); world: x right, y down the sheet,
    z into the table. The camera sits tilted ``tilt`` degrees off vertical towards ``azimuth``."""
    t, a, r = (math.radians(v) for v in (tilt, azimuth, roll))
    u = np.array([math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), -math.cos(t)])  # target -> camera
    z = -u
    down = np.array([0.0, 1.0, 0.0])
    x = np.cross(down, z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    xr = math.cos(r) * x + math.sin(r) * y
    yr = -math.sin(r) * x + math.cos(r) * y
    return np.stack([xr, yr, z])


@dataclass
class Shot:
    """The camera and frame chosen for one photo."""

    width: int
    height: int
    tilt: float
    azimuth: float
    roll: float
    fov: float  # horizontal+vertical: degrees across the long side
    barrel: float
    fill: float

    def meta(self) -> dict[str, Any]:
        return {"size": [self.width, self.height], "tilt_deg": round(self.tilt, 2),
                "tilt_azimuth_deg": round(self.azimuth, 1), "roll_deg": round(self.roll, 2),
                "fov_deg": round(self.fov, 1), "barrel_k": round(self.barrel, 4), "fill": round(self.fill, 3)}


def random_shot(rng: np.random.Generator, sheet_aspect: float) -> Shot:
    """Frame size, camera tilt/roll, lens. ``sheet_aspect`` = sheet height / width."""
    portrait = rng.random() < (0.92 if sheet_aspect > 1 else 0.2)
    # a tall sheet in a landscape frame is only as tall as the short side: keep that side large
    low = 1600 if portrait == (sheet_aspect > 1) else 2400
    long_side = int(rng.integers(low, 3001)) // 16 * 16
    ratio = float(rng.choice([4 / 3, 3 / 2, 16 / 9], p=[0.8, 0.12, 0.08])) if portrait else 4 / 3
    short = int(long_side / ratio) // 16 * 16
    w, h = (short, long_side) if portrait else (long_side, short)
    # mostly from the player's side (below the sheet), sometimes from anywhere
    azimuth = float(rng.normal(90, 25)) if rng.random() < 0.6 else float(rng.uniform(0, 360))
    return Shot(width=w, height=h, tilt=float(rng.uniform(3, 24)), azimuth=azimuth,
                roll=float(np.clip(rng.normal(0, 4), -12, 12)), fov=float(rng.uniform(64, 80)),
                barrel=float(rng.uniform(0.015, 0.08)), fill=float(rng.uniform(0.66, 0.9)))


def make_camera(shot: Shot, sheet_w: float, sheet_h: float, rng: np.random.Generator) -> Camera:
    """A pinhole looking at the sheet centre (give or take), then fitted to the frame."""
    long_px = max(shot.width, shot.height)
    f = (long_px / 2) / math.tan(math.radians(shot.fov) / 2)
    diag = math.hypot(sheet_w, sheet_h)
    dist = diag / (2 * math.tan(math.radians(shot.fov) / 2) * shot.fill * 0.9)
    jx, jy = (float(v) for v in rng.normal(0, 0.04, 2))
    target = np.array([sheet_w * (0.5 + jx), sheet_h * (0.5 + jy), 0.0])
    rot = _look_at(shot.tilt, shot.azimuth, shot.roll)
    centre = target - dist * rot[2]
    kmat = np.array([[f, 0, 0], [0, f, 0], [0, 0, 1.0]])
    hom = kmat @ np.column_stack([rot[:, 0], rot[:, 1], -rot @ centre])
    corners = np.array([[0, 0], [sheet_w, 0], [sheet_w, sheet_h], [0, sheet_h]], np.float64)
    pts = cv2.perspectiveTransform(corners[None], hom)[0]
    bw, bh = np.ptp(pts[:, 0]), np.ptp(pts[:, 1])
    s = shot.fill * min(shot.width / bw, shot.height / bh)
    slack_x = shot.width - s * bw
    slack_y = shot.height - s * bh
    ox = slack_x * float(rng.uniform(0.3, 0.7)) - s * pts[:, 0].min()
    oy = slack_y * float(rng.uniform(0.3, 0.7)) - s * pts[:, 1].min()
    fit = np.array([[s, 0, ox], [0, s, oy], [0, 0, 1.0]])
    return Camera(homography=fit @ hom, width=shot.width, height=shot.height, barrel=shot.barrel)


def dense_map(fn: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]], width: int, height: int,
              step: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Evaluate a smooth map on a coarse grid and upsample it exactly bilinearly."""
    nx, ny = width // step + 2, height // step + 2
    xs = (np.arange(nx) + 0.5) * step - 0.5 - step
    ys = (np.arange(ny) + 0.5) * step - 0.5 - step
    gx, gy = np.meshgrid(xs, ys)
    mx, my = fn(gx, gy)
    size = (nx * step, ny * step)
    bx = cv2.resize(mx.astype(np.float32), size, interpolation=cv2.INTER_LINEAR)
    by = cv2.resize(my.astype(np.float32), size, interpolation=cv2.INTER_LINEAR)
    return bx[step:step + height, step:step + width], by[step:step + height, step:step + width]


# ----------------------------------------------------------------------------- the photo


@dataclass
class PhotoResult:
    jpeg: bytes
    meta: dict[str, Any] = field(default_factory=dict)


def _paper_tint(rgb: tuple[int, int, int], rng: np.random.Generator, k: float) -> np.ndarray:
    c = np.array([rgb[2], rgb[1], rgb[0]], np.float32) * k
    return c + rng.normal(0, 3, 3).astype(np.float32)


def _free_spot(rng: np.random.Generator, visible: np.ndarray, blocked: list[np.ndarray], radius: float,
               tries: int = 40) -> tuple[float, float] | None:
    x0, y0 = visible.min(axis=0)
    x1, y1 = visible.max(axis=0)
    poly = visible.astype(np.float32).reshape(-1, 1, 2)
    for _ in range(tries):
        x, y = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
        if cv2.pointPolygonTest(poly, (x, y), True) < radius * 0.2:
            continue
        if any(cv2.pointPolygonTest(b.astype(np.float32).reshape(-1, 1, 2), (x, y), True) > -radius
               for b in blocked):
            continue
        return x, y
    return None


BG_SCALE = 0.5  # the table layer (background, stack, dice, pencil) is built at half resolution


def _table_layer(rng: np.random.Generator, sw: int, sh: int, visible: np.ndarray,
                 paper_rgb: tuple[int, int, int], meta: dict[str, Any]) -> tuple[np.ndarray, float, float]:
    """Background, stacked sheets, dice and a pencil at BG_SCALE; returns it and its scene origin."""
    g = BG_SCALE
    limit = 1.6
    x0 = max(float(visible[:, 0].min()), -limit * sw) - 8
    y0 = max(float(visible[:, 1].min()), -limit * sh) - 8
    x1 = min(float(visible[:, 0].max()), (1 + limit) * sw) + 8
    y1 = min(float(visible[:, 1].max()), (1 + limit) * sh) + 8
    cw, ch = int((x1 - x0) * g) + 2, int((y1 - y0) * g) + 2

    def to_c(pts: np.ndarray) -> np.ndarray:
        return (pts - [x0, y0]) * g

    kind = str(rng.choice(list(BACKGROUNDS), p=[0.5, 0.2, 0.3]))
    gs = 0.8 if kind == "felt" else 0.7
    bg, bg_meta = BACKGROUNDS[kind](rng, max(int(ch * gs), 16), max(int(cw * gs), 16))
    canvas: np.ndarray = cv2.resize(bg.astype(np.float32), (cw, ch), interpolation=cv2.INTER_LINEAR)
    meta["background"] = bg_meta

    sheet_poly = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float64)
    # A stack of slightly offset sheets under the pad.
    n_under = int(rng.choice([0, 0, 1, 2, 3], p=[0.35, 0.15, 0.2, 0.2, 0.1]))
    meta["stack"] = n_under
    under_polys = []
    for i in range(n_under, 0, -1):
        ang = math.radians(float(rng.normal(0, 0.8 + 0.4 * i)))
        dx, dy = (float(v) for v in rng.normal(0, 0.008 * sw * i, 2))
        rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        poly = (sheet_poly - [sw / 2, sh / 2]) @ rot.T + [sw / 2 + dx, sh / 2 + dy + 0.004 * sh * i]
        under_polys.append(poly)
        mask = np.zeros((ch, cw), np.uint8)
        cv2.fillPoly(mask, [np.round(to_c(poly) * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
        m = mask.astype(np.float32) / 255
        soft = cv2.GaussianBlur(m, (0, 0), max(sw * 0.006 * g, 1.5))
        canvas *= (1 - 0.25 * np.roll(soft, (2, 2), (0, 1)))[..., None]
        tint = _paper_tint(paper_rgb, rng, 0.95 - 0.02 * i)
        canvas = canvas * (1 - m[..., None]) + tint[None, None, :] * m[..., None]
        ring = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((2, 2), np.uint8)).astype(np.float32) / 255
        canvas *= (1 - 0.15 * ring)[..., None]

    # Dice and a pencil beside the pad, never on it.
    blocked = [sheet_poly] + under_polys
    dice_meta = []
    for _ in range(int(rng.choice([0, 1, 2, 3, 5], p=[0.25, 0.2, 0.25, 0.2, 0.1]))):
        size = sw * float(rng.uniform(0.085, 0.11))
        spot = _free_spot(rng, visible, blocked, size * 0.95)
        if spot is None:
            continue
        img, a, face = draw_die(rng, size * g)
        n = a.shape[0]
        cx, cy = to_c(np.array(spot))
        x, y = int(cx - n / 2), int(cy - n / 2)
        sh_a = cv2.GaussianBlur(a, (0, 0), size * g * 0.08)
        _shade(canvas, sh_a, x + int(size * g * 0.08), y + int(size * g * 0.1), 0.45)
        _blend(canvas, img, a, x, y)
        half = n / g / 2
        blocked.append(np.array([[spot[0] - half, spot[1] - half], [spot[0] + half, spot[1] - half],
                                 [spot[0] + half, spot[1] + half], [spot[0] - half, spot[1] + half]]))
        dice_meta.append({"face": face, "at": [round(spot[0]), round(spot[1])]})
    meta["dice"] = dice_meta
    meta["pencil"] = None
    if rng.random() < 0.55:
        length, width = sw * float(rng.uniform(1.0, 1.35)), sw * float(rng.uniform(0.035, 0.05))
        img, a, colour = draw_pencil(rng, length * g, width * g)
        for _ in range(30):
            ang = float(rng.choice([90.0, 0.0])) + float(rng.normal(0, 14))
            if rng.random() < 0.5:
                ang += 180
            spot = _free_spot(rng, visible, [], width)
            if spot is None:
                break
            rad = math.radians(ang)
            d = np.array([math.cos(rad), math.sin(rad)])
            nrm = np.array([-d[1], d[0]])
            c = np.array(spot)
            samples = [c + d * t * length / 2 + nrm * k * width
                       for t in np.linspace(-1, 1, 25) for k in (-1, 0, 1)]
            if not all(cv2.pointPolygonTest(b.astype(np.float32).reshape(-1, 1, 2),
                                            (float(q[0]), float(q[1])), True) < -width * 0.6
                       for b in blocked for q in samples):
                continue
            ph, pw = a.shape
            side = int((length + 4 * width) * g)
            rmat: np.ndarray = cv2.getRotationMatrix2D((pw / 2, ph / 2), -ang, 1.0)
            rmat[0, 2] += side / 2 - pw / 2
            rmat[1, 2] += side / 2 - ph / 2
            img_r = cv2.warpAffine(img, rmat, (side, side), flags=cv2.INTER_LINEAR)
            a_r = cv2.warpAffine(a, rmat, (side, side), flags=cv2.INTER_LINEAR)
            cc = to_c(c)
            x, y = int(cc[0] - side / 2), int(cc[1] - side / 2)
            sh_a = cv2.GaussianBlur(a_r, (0, 0), width * g * 0.35)
            _shade(canvas, sh_a, x + int(width * g * 0.25), y + int(width * g * 0.35), 0.4)
            _blend(canvas, img_r, a_r, x, y)
            meta["pencil"] = {"colour": colour, "angle": round(ang, 1)}
            break
    return np.clip(canvas, 0, 255).astype(np.uint8), x0, y0


def photograph(sheet_bgra: np.ndarray, paper_rgb: tuple[int, int, int], rng: np.random.Generator,
               shot: Shot | None = None) -> PhotoResult:
    """Photograph a rendered sheet (BGRA, transparent where torn)."""
    sh, sw = sheet_bgra.shape[:2]
    shot = shot or random_shot(rng, sh / sw)
    cam = make_camera(shot, sw, sh, rng)
    meta: dict[str, Any] = {"camera": shot.meta()}
    w, h = shot.width, shot.height

    # The part of the table the photo sees, in scene (sheet pixel) coordinates.
    edge = np.linspace(0, 1, 17)
    border = np.concatenate([
        np.stack([edge * w, np.zeros_like(edge)], 1),
        np.stack([np.full_like(edge, w), edge * h], 1),
        np.stack([(1 - edge) * w, np.full_like(edge, h)], 1),
        np.stack([np.zeros_like(edge), (1 - edge) * h], 1)])
    vx, vy = cam.to_scene(border[:, 0], border[:, 1])
    visible = np.stack([vx, vy], 1)
    table, tx0, ty0 = _table_layer(rng, sw, sh, visible, paper_rgb, meta)

    # Perspective + barrel: one map from output pixels to the scene.
    mapx, mapy = dense_map(cam.to_scene, w, h)
    scale = float(np.median(np.abs(np.diff(mapx[h // 2, :: 8]))) / 8)  # scene px per output px
    src = sheet_bgra
    if scale > 1.3:  # the camera shrinks the sheet: pre-filter against aliasing of thin rules
        src = cv2.GaussianBlur(src, (0, 0), 0.45 * scale)
    sheet = cv2.remap(src, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                      borderValue=(0, 0, 0, 0))
    g = BG_SCALE
    bg = cv2.remap(table, (mapx - tx0) * g, (mapy - ty0) * g, cv2.INTER_LINEAR,
                   borderMode=cv2.BORDER_REFLECT_101)
    cxs, cys = cam.to_image(np.array([0.0, sw, sw, 0.0]), np.array([0.0, 0.0, sh, sh]))
    meta["sheet_corners"] = [[round(float(x), 1), round(float(y), 1)] for x, y in zip(cxs, cys, strict=True)]

    # Sheet over table (uint8 blend); then one smooth gain map at quarter resolution holds
    # the sheet's contact shadow, uneven light, the cast shadow, vignetting and white balance.
    alpha = sheet[..., 3]
    a = alpha.astype(np.float32) * np.float32(1 / 255)
    img = cv2.blendLinear(cv2.cvtColor(sheet, cv2.COLOR_BGRA2BGR), bg, a, 1 - a)
    q = 4
    qa = cv2.resize(a, (w // q, h // q), interpolation=cv2.INTER_AREA)
    blur = cv2.GaussianBlur(qa, (0, 0), float(rng.uniform(0.004, 0.01)) * max(w, h) / q)
    dx, dy = (float(v) for v in rng.normal(0, 0.002 * max(w, h) / q, 2))
    shift = np.array([[1, 0, dx], [0, 1, dy + 0.0015 * h / q]], np.float32)
    blur = cv2.warpAffine(blur, shift, (w // q, h // q))
    depth = float(rng.uniform(0.25, 0.45))
    contact = 1 - depth * blur * (1 - qa)  # only where the table shows
    gain, light_meta = _light(rng, shot, np.stack([cxs, cys], 1), q)
    gain *= contact[..., None]
    meta["lighting"] = light_meta
    meta["lighting"]["contact_shadow"] = round(depth, 3)
    img = cv2.multiply(img, cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR), dtype=cv2.CV_8U)

    out, blur_meta = _optics(rng, img, shot)
    meta["optics"] = blur_meta
    quality = int(rng.integers(63, 92))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover
        raise RuntimeError("JPEG encoding failed")
    meta["jpeg_quality"] = quality
    return PhotoResult(buf.tobytes(), meta)


def _light(rng: np.random.Generator, shot: Shot, corners: np.ndarray,
           q: int) -> tuple[np.ndarray, dict[str, Any]]:
    """Gain map (1/q resolution, BGR): uneven light, a soft cast shadow over part of the sheet,
    vignetting, white balance."""
    w, h = shot.width, shot.height
    gw, gh = w // q, h // q
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    xx = (xx + 0.5) * q
    yy = (yy + 0.5) * q
    diag = math.hypot(w, h)
    exposure = float(rng.uniform(0.86, 1.06))
    beta = float(rng.uniform(0, 2 * math.pi))
    grad = float(rng.uniform(0.08, 0.3))
    g = exposure * (1 + grad * ((xx - w / 2) * math.cos(beta) + (yy - h / 2) * math.sin(beta)) / diag)
    g *= 1 + 0.05 * smooth_noise(rng, gh, gw, 3, 2)
    vig = float(rng.uniform(0.12, 0.42))
    r = np.hypot(xx - w / 2, yy - h / 2) / (diag / 2)
    g *= 1 - vig * r ** 2.2
    gain = np.repeat(g[..., None], 3, axis=2)
    meta: dict[str, Any] = {"exposure": round(exposure, 3), "gradient": round(grad, 3),
                            "vignette": round(vig, 3), "shadow": None}
    if rng.random() < 0.7:
        # a soft shadow edge (a phone, a hand, a lamp arm) crossing part of the sheet
        centre = corners.mean(axis=0)
        span = float(np.ptp(corners[:, 0]) + np.ptp(corners[:, 1])) / 2
        theta = float(rng.uniform(0, 2 * math.pi))
        nrm = np.array([math.cos(theta), math.sin(theta)])
        offset = float(rng.uniform(0.05, 0.45)) * span  # shadow covers the far side of this line
        wave_a = float(rng.uniform(0, 0.08)) * span
        wave_f = float(rng.uniform(0.5, 2.0)) / span
        along = -(xx - centre[0]) * nrm[1] + (yy - centre[1]) * nrm[0]
        dist = (xx - centre[0]) * nrm[0] + (yy - centre[1]) * nrm[1] - offset
        dist = dist + wave_a * np.sin(along * wave_f * 2 * math.pi)
        soft = float(rng.uniform(0.015, 0.06)) * diag
        inside = 1 / (1 + np.exp(-dist / (soft / 4)))
        depth = float(rng.uniform(0.2, 0.42))
        tint = np.array([1.06, 1.0, 0.94], np.float32)  # shade is bluish (BGR)
        gain *= (1 - depth * inside[..., None] * tint[None, None, :])
        meta["shadow"] = {"depth": round(depth, 3), "softness_px": round(soft, 1)}
    warm = float(rng.normal(0, 0.05))
    wb = np.array([1 - warm, 1 + float(rng.normal(0, 0.012)), 1 + warm], np.float32)
    gain *= wb[None, None, :]
    meta["white_balance"] = [round(float(v), 3) for v in wb]
    return gain.astype(np.float32), meta


def _optics(rng: np.random.Generator, img: np.ndarray, shot: Shot) -> tuple[np.ndarray, dict[str, Any]]:
    """Lens softness, sometimes motion blur, phone sharpening, sensor noise (uint8 in and out)."""
    out = img
    s = max(shot.width, shot.height) / 2200
    meta: dict[str, Any] = {}
    sigma = float(rng.uniform(0.4, 1.0)) * s
    out = cv2.GaussianBlur(out, (0, 0), sigma)
    meta["defocus_sigma"] = round(sigma, 2)
    meta["motion_blur"] = None
    if rng.random() < 0.25:
        length = float(rng.uniform(2.0, 6.0)) * s
        ang = float(rng.uniform(0, 180))
        k = int(math.ceil(length)) * 2 + 1
        kernel = np.zeros((k, k), np.float32)
        c = k // 2
        dx, dy = math.cos(math.radians(ang)) * length / 2, math.sin(math.radians(ang)) * length / 2
        cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
        kernel /= kernel.sum()
        out = cv2.filter2D(out, -1, kernel)
        meta["motion_blur"] = {"length_px": round(length, 2), "angle_deg": round(ang, 1)}
    amount = float(rng.uniform(0.2, 0.7))
    blurred = cv2.GaussianBlur(out, (0, 0), 1.4 * s)
    out = cv2.addWeighted(out, 1 + amount, blurred, -amount, 0)
    meta["sharpen"] = round(amount, 2)
    noise = float(rng.uniform(1.5, 5.5))
    h, w = out.shape[:2]
    lum = (rng.standard_normal((h, w), dtype=np.float32) * noise).astype(np.int16)
    chroma = (rng.standard_normal((h // 4, w // 4, 3), dtype=np.float32) * (noise * 0.8)).astype(np.int16)
    chroma_full: np.ndarray = cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)
    noisy = out.astype(np.int16)
    noisy += lum[..., None]
    noisy += chroma_full
    meta["noise_sigma"] = round(noise, 2)
    return np.clip(noisy, 0, 255).astype(np.uint8), meta
