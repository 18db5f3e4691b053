"""Photos of our own pad filled in by hand, for tests, training and the benchmark.

``ocr.printed.blank_card`` draws the printed pad (001's layout, see ``layout``); ``write``
puts a sheet's numbers on it with a ``Hand``; ``photograph`` turns the page into
a phone photo (perspective, rotation, light, shadow, blur, noise, JPEG).
``random_sheet`` makes plausible games for the sample, test and benchmark sets.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
from PIL import Image, ImageDraw

from ocr.layout import (
    BACK,
    FRONT,
    GAMES,
    NAME_BOX,
    Kind,
    Row,
    Side,
)
from ocr.printed import PAGE_MARGIN, PRINT_FONT_REGULAR, blank_page, font, font_path
from scorepad.boxes import ALL_BOXES, LOWER, UPPER, Box, TotalField
from scorepad.card import Game, Player, PlayersScores, Sheet, compute_totals
from scorepad.rules import get_rules

from . import handwriting as hw

# ---------------------------------------------------------------- handwriting


@dataclass
class Style:
    """How one writer fills a pad."""

    hand: hw.Hand
    ink: tuple[int, int, int]
    height: float  # digit height as a share of the row height
    zero_style: str  # "0", "dash", "x", "slash"
    mark_style: str  # "tick" or "tally"
    thickness: int
    names_font: str | None
    extras: dict[str, float] = field(default_factory=dict)


def make_style(rng: np.random.Generator, fonts: list[str],
               mnist: tuple[np.ndarray, np.ndarray] | None, mnist_share: float = 0.35) -> Style:
    inks = [(20, 30, 120), (15, 15, 20), (60, 60, 70), (30, 50, 160)]
    return Style(
        hand=hw.Hand(rng, fonts, mnist, mnist_share),
        ink=inks[int(rng.integers(len(inks)))],
        height=float(rng.uniform(0.5, 0.68)),
        zero_style=str(rng.choice(["0", "0", "dash", "x", "slash"])),
        mark_style=str(rng.choice(["tick", "tally"])),
        thickness=int(rng.integers(2, 5)),
        names_font=fonts[int(rng.integers(len(fonts)))] if fonts else None,
    )


class Canvas:
    """An RGB page with ink drawn through masks."""

    def __init__(self, page: Image.Image) -> None:
        self.rgb = np.asarray(page.convert("RGB")).astype(np.float32)

    def ink(self, mask: np.ndarray, x: int, y: int, color: tuple[int, int, int]) -> None:
        h, w = mask.shape
        H, W = self.rgb.shape[:2]
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
        if x1 <= x0 or y1 <= y0:
            return
        a = (mask[y0 - y: y1 - y, x0 - x: x1 - x].astype(np.float32) / 255.0)[..., None]
        region = self.rgb[y0:y1, x0:x1]
        self.rgb[y0:y1, x0:x1] = region * (1 - a) + np.array(color, np.float32) * a

    def image(self) -> Image.Image:
        return Image.fromarray(np.clip(self.rgb, 0, 255).astype(np.uint8))


def _rotate(mask: np.ndarray, angle: float) -> np.ndarray:
    return np.asarray(Image.fromarray(mask).rotate(angle, resample=Image.Resampling.BILINEAR,
                                                   expand=True))


def _strokes(size: tuple[int, int], lines: list[tuple[float, float, float, float]],
             width: int) -> np.ndarray:
    w, h = size
    im = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(im)
    for x0, y0, x1, y1 in lines:
        d.line((x0 * w, y0 * h, x1 * w, y1 * h), fill=255, width=width)
    return np.asarray(im)


def number_mask(style: Style, value: int, height: int, rng: np.random.Generator) -> np.ndarray:
    digits = [style.hand.digit(int(ch), height) for ch in str(value)]
    digits = [_rotate(g, float(rng.normal(0, 4))) for g in digits]
    gaps = [int(rng.integers(max(2, height // 10), max(4, height // 4))) for _ in digits]
    w = sum(g.shape[1] for g in digits) + sum(gaps[:-1]) + 2
    h = max(g.shape[0] for g in digits) + 6
    out = np.zeros((h, w), np.uint8)
    x = 0
    for g, gap in zip(digits, gaps, strict=True):
        dy = int(rng.integers(0, max(1, h - g.shape[0])))
        out[dy: dy + g.shape[0], x: x + g.shape[1]] = np.maximum(
            out[dy: dy + g.shape[0], x: x + g.shape[1]], g)
        x += g.shape[1] + gap
    return out


def scratch_mask(style: Style, cw: int, ch: int, rng: np.random.Generator) -> np.ndarray:
    def j(s: float = 0.06) -> float:
        return float(rng.uniform(-s, s))

    w, h = int(cw * rng.uniform(0.35, 0.6)), int(ch * rng.uniform(0.45, 0.7))
    if style.zero_style == "dash":
        w, h = int(cw * rng.uniform(0.3, 0.6)), max(8, ch // 5)
        return _strokes((w, h), [(0.05, 0.5 + j(0.2), 0.95, 0.5 + j(0.2))], style.thickness + 1)
    if style.zero_style == "x":
        return _strokes((w, h), [(0.05 + j(), 0.05, 0.95 + j(), 0.95),
                                 (0.95 + j(), 0.05, 0.05 + j(), 0.95)], style.thickness + 1)
    return _strokes((w, h), [(0.85 + j(0.1), 0.05, 0.15 + j(0.1), 0.95)], style.thickness + 1)


def marks_mask(style: Style, count: int, cw: int, ch: int, rng: np.random.Generator) -> np.ndarray:
    h = int(ch * rng.uniform(0.5, 0.65))
    unit = max(10, int(h * (0.7 if style.mark_style == "tick" else 0.35)))
    w = unit * count + 4
    im = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(im)
    for i in range(count):
        x = i * unit + 2
        if style.mark_style == "tick":
            d.line((x, h * 0.55, x + unit * 0.3, h * 0.9, x + unit * 0.8, h * 0.1),
                   fill=255, width=style.thickness, joint="curve")
        else:
            d.line((x + rng.uniform(0, 3), h * 0.08, x + rng.uniform(0, 3), h * 0.92),
                   fill=255, width=style.thickness)
    return np.asarray(im)


def _place(canvas: Canvas, mask: np.ndarray, box: tuple[int, int, int, int], style: Style,
           rng: np.random.Generator, ox: int, oy: int) -> None:
    x0, y0, x1, y1 = box
    cw, ch = x1 - x0, y1 - y0
    mh, mw = mask.shape
    if mw > cw * 0.82:
        scale = cw * 0.82 / mw
        mask = np.asarray(Image.fromarray(mask).resize((max(1, int(mw * scale)), max(1, int(mh * scale)))))
        mh, mw = mask.shape
    px = x0 + (cw - mw) // 2 + int(rng.integers(-max(1, (cw - mw) // 4), max(2, (cw - mw) // 4)))
    py = y0 + (ch - mh) // 2 + int(rng.integers(-max(1, (ch - mh) // 4), max(2, (ch - mh) // 4)))
    canvas.ink(mask, px + ox, py + oy, style.ink)


def _write_value(canvas: Canvas, style: Style, value: int | None,
                 box: tuple[int, int, int, int], rng: np.random.Generator, ox: int, oy: int,
                 allow_scratch: bool) -> None:
    if value is None:
        return
    cw, ch = box[2] - box[0], box[3] - box[1]
    height = int(min(ch, 60) * style.height)
    if value == 0 and allow_scratch and style.zero_style != "0":
        mask = scratch_mask(style, cw, min(ch, 60), rng)
    else:
        mask = number_mask(style, value, height, rng)
    _place(canvas, mask, box, style, rng, ox, oy)


def _write_text(canvas: Canvas, style: Style, text: str, box: tuple[int, int, int, int],
                ox: int, oy: int, size: int) -> None:
    path = style.names_font or font_path(PRINT_FONT_REGULAR)
    if not path:
        return
    f = font(path, size)
    im = Image.new("L", (box[2] - box[0], box[3] - box[1]), 0)
    ImageDraw.Draw(im).text((6, 2), text, font=f, fill=255)
    canvas.ink(np.asarray(im), box[0] + ox, box[1] + oy, style.ink)


def write_games(canvas: Canvas, style: Style, games: Sequence[Game | None], rows: Sequence[Row],
                cell: Callable[[int, int], tuple[int, int, int, int]], rng: np.random.Generator,
                o: int) -> None:
    """A player's games, one per column, into the cells ``cell(row, game)`` of a front."""
    for gi, game in enumerate(games):
        if game is None:
            continue
        for r, row in enumerate(rows):
            box = cell(r, gi)
            if row.kind is Kind.BOX:
                assert isinstance(row.field, Box)
                _write_value(canvas, style, game.boxes.get(row.field), box, rng, o, o, True)
            elif row.kind is Kind.TOTAL:
                assert isinstance(row.field, TotalField)
                _write_value(canvas, style, game.totals.get(row.field), box, rng, o, o, False)
            elif row.kind is Kind.MARKS and game.bonus_checks:
                cw, ch = box[2] - box[0], box[3] - box[1]
                _place(canvas, marks_mask(style, game.bonus_checks, cw, ch, rng), box, style,
                       rng, o, o)


def write_players_scores(canvas: Canvas, style: Style, players: Sequence[Player],
                         cell: Callable[[int, int], tuple[int, int, int, int]], total_row: int,
                         name_box: Callable[[int, int, int, int], tuple[int, int, int, int]],
                         name_size: int, rng: np.random.Generator, o: int) -> None:
    """A PLAYERS' SCORES back: a column per player, the name in the first row (within
    ``name_box`` of the cell), a game per row, TOTAL OF ALL GAMES in ``total_row``."""
    for pi, p in enumerate(players):
        _write_text(canvas, style, p.name, name_box(*cell(0, pi)), o, o, name_size)
        ps = p.players_scores or PlayersScores()
        for gi, v in enumerate(ps.games[:GAMES]):
            _write_value(canvas, style, v, cell(1 + gi, pi), rng, o, o, False)
        _write_value(canvas, style, ps.total, cell(total_row, pi), rng, o, o, False)


def write(sheet: Sheet, side: Side, style: Style, rng: np.random.Generator,
          player: int = 0) -> Image.Image:
    """The page with ``sheet`` written on it (front: one player's card)."""
    page = blank_page(side)
    canvas = Canvas(page)
    o = PAGE_MARGIN
    if side is Side.FRONT:
        p = sheet.players[player]
        _write_text(canvas, style, p.name, NAME_BOX, o, o, 40)
        write_games(canvas, style, p.games[: FRONT.value_cols], FRONT.rows, FRONT.cell, rng, o)
    else:
        write_players_scores(canvas, style, sheet.players[: BACK.value_cols], BACK.cell,
                             len(BACK.rows) - 1, lambda x0, y0, x1, y1: (x0 + 2, y0 + 30, x1 - 2,
                                                                           y1 - 20), 30, rng, o)
    return canvas.image()


# ---------------------------------------------------------------- photo effects


@dataclass
class PhotoSpec:
    angle: float = 0.0  # degrees, counter-clockwise
    perspective: float = 0.04
    light: float = 0.3
    shadow: float = 0.3
    blur: float = 0.6
    noise: float = 4.0
    jpeg: int = 85
    exif_orientation: int = 1  # store the pixels rotated, with this EXIF tag
    long_side: int = 1700
    fill: float | None = None  # the page's share of the photo's long side (None: 0.72-0.92)


def random_spec(rng: np.random.Generator, hard: bool = True) -> PhotoSpec:
    u = rng.random()
    if u < 0.6:
        angle = rng.uniform(-12, 12)
    elif u < 0.8:
        angle = 180 + rng.uniform(-12, 12)
    elif u < 0.9:
        angle = float(rng.choice([90, -90])) + rng.uniform(-10, 10)
    else:
        angle = rng.uniform(-180, 180)
    return PhotoSpec(
        angle=float(angle),
        perspective=float(rng.uniform(0.0, 0.07 if hard else 0.03)),
        light=float(rng.uniform(0.0, 0.45 if hard else 0.2)),
        shadow=float(rng.uniform(0.0, 0.45)) if rng.random() < (0.5 if hard else 0.2) else 0.0,
        blur=float(rng.uniform(0.0, 1.6 if hard else 0.8)),
        noise=float(rng.uniform(1.0, 8.0 if hard else 4.0)),
        jpeg=int(rng.integers(55 if hard else 75, 93)),
        exif_orientation=int(rng.choice([1, 1, 1, 1, 6, 8, 3])) if hard else 1,
        long_side=int(rng.integers(1300, 2000)),
    )


def _paper(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = rgb.shape[:2]
    tint = np.array([rng.uniform(235, 255), rng.uniform(232, 252), rng.uniform(220, 245)])
    low = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (w, h)) * 4
    grain = rng.normal(0, 3, (h, w)).astype(np.float32)
    fibres = cv2.GaussianBlur(rng.normal(0, 6, (h, w)).astype(np.float32), (0, 0), 1.2)
    paper = tint[None, None, :] / 255.0
    out = rgb * paper + (low + grain + fibres)[..., None]
    return np.clip(out, 0, 255)


def photograph(page: Image.Image, spec: PhotoSpec, rng: np.random.Generator,
               transform: list[np.ndarray] | None = None) -> bytes:
    """A JPEG of ``page`` as a phone would take it.

    ``transform``, if given, receives the 3x3 homography from page pixels to the photo's
    pixels (before any EXIF re-orientation), for tests that check where cells were found.
    """
    rgb = _paper(np.asarray(page.convert("RGB")).astype(np.float32), rng)
    ph, pw = rgb.shape[:2]
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], dtype=np.float32)
    t = math.radians(spec.angle)
    c, s = math.cos(t), math.sin(t)
    centred = src - np.array([pw / 2, ph / 2], dtype=np.float32)
    rot = np.stack([centred[:, 0] * c + centred[:, 1] * s, -centred[:, 0] * s + centred[:, 1] * c],
                   axis=1)
    rot += rng.uniform(-spec.perspective, spec.perspective, rot.shape).astype(np.float32) * max(pw, ph)
    span = rot.max(axis=0) - rot.min(axis=0)
    fill = spec.fill if spec.fill is not None else rng.uniform(0.72, 0.92)
    cw = ch = 0
    scale = spec.long_side * fill / max(span)
    dst = (rot - rot.min(axis=0)) * scale
    margin = (spec.long_side - max(span) * scale) / 2
    cw = int(span[0] * scale + 2 * margin)
    ch = int(span[1] * scale + 2 * margin)
    dst += np.array([margin + rng.uniform(-margin / 2, margin / 2),
                     margin + rng.uniform(-margin / 2, margin / 2)], dtype=np.float32)
    M = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    if transform is not None:
        transform.append(M)
    base = np.array([rng.uniform(40, 140), rng.uniform(40, 120), rng.uniform(30, 100)], np.float32)
    bg = np.ones((ch, cw, 3), np.float32) * base
    bg += cv2.resize(rng.normal(0, 18, (12, 12, 3)).astype(np.float32), (cw, ch))
    bg += rng.normal(0, 6, (ch, cw, 3)).astype(np.float32)
    warped = cv2.warpPerspective(rgb.astype(np.float32), M, (cw, ch), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.ones((ph, pw), np.float32), M, (cw, ch))
    img = bg * (1 - mask[..., None]) + warped * mask[..., None]
    # uneven light: a tilted plane of brightness
    yy, xx = np.mgrid[0:ch, 0:cw].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    plane = 1 - spec.light * (0.5 + 0.5 * (gx * (xx / cw - 0.5) + gy * (yy / ch - 0.5)) * 2) / 1.5
    img *= np.clip(plane, 0.35, 1.1)[..., None]
    if spec.shadow > 0:
        poly = np.array([[rng.uniform(0, cw), rng.uniform(0, ch)] for _ in range(4)], dtype=np.int32)
        sh = np.zeros((ch, cw), np.float32)
        cv2.fillConvexPoly(sh, cv2.convexHull(poly), 1.0)
        soft = np.asarray(cv2.GaussianBlur(sh, (0, 0), 25), np.float32)
        img *= (1 - spec.shadow * soft)[..., None]
    if spec.blur > 0.05:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), spec.blur), np.float32)
    noise = np.asarray(rng.normal(0, spec.noise, img.shape), np.float32)
    img = img + noise
    out = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    exif = Image.Exif()
    if spec.exif_orientation != 1:
        # Store the pixels so that applying the tag gives the photo back.
        inverse = {6: Image.Transpose.ROTATE_270, 8: Image.Transpose.ROTATE_90,
                   3: Image.Transpose.ROTATE_180}[spec.exif_orientation]
        undo = {Image.Transpose.ROTATE_270: Image.Transpose.ROTATE_90,
                Image.Transpose.ROTATE_90: Image.Transpose.ROTATE_270,
                Image.Transpose.ROTATE_180: Image.Transpose.ROTATE_180}[inverse]
        out = out.transpose(undo)
        exif[0x0112] = spec.exif_orientation
    buf = io.BytesIO()
    out.save(buf, "JPEG", quality=spec.jpeg, exif=exif.tobytes())
    return buf.getvalue()


# ---------------------------------------------------------------- random sheets

NAMES = ("Ann", "Bob", "Carla", "Dev", "Emma", "Finn", "Grace", "Hugo", "Iris", "Jack",
         "Kim", "Leo", "Mia", "Noah", "Olga", "Pete", "Rosa", "Sam", "Tina", "Umar")


def random_game(rng: np.random.Generator, complete: bool = True) -> Game:
    rules = get_rules(None)
    boxes: dict[Box, int | None] = {}
    for face, box in enumerate(UPPER, start=1):
        boxes[box] = face * int(rng.choice([0, 1, 2, 3, 3, 4, 5], p=[.08, .15, .25, .25, .12, .1, .05]))
    for box in LOWER:
        hit = rng.random()
        if box in (Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.CHANCE):
            lo = {Box.THREE_OF_A_KIND: 7, Box.FOUR_OF_A_KIND: 9, Box.CHANCE: 5}[box]
            v = int(rng.integers(lo, 31)) if hit > 0.18 or box is Box.CHANCE else 0
        else:
            fixed = {Box.FULL_HOUSE: 25, Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40,
                     Box.YAHTZEE: 50}[box]
            v = fixed if hit > (0.55 if box is Box.YAHTZEE else 0.3) else 0
        boxes[box] = v
    if not complete:
        for box in ALL_BOXES:
            if rng.random() < 0.35:
                boxes[box] = None
    checks = int(rng.choice([1, 1, 2, 3])) if boxes[Box.YAHTZEE] == 50 and rng.random() < 0.5 else 0
    game = Game(boxes={b: v for b, v in boxes.items() if v is not None}, bonus_checks=checks)
    t = compute_totals(game, rules)
    totals: dict[TotalField, int] = {
        f: t.expected(f) for f in TotalField if f is not TotalField.YAHTZEE_BONUS}
    if not complete:
        totals = {f: v for f, v in totals.items() if rng.random() < 0.3}
    elif rng.random() < 0.15:  # a player's adding mistake, which the reader must keep
        f = TotalField.GRAND_TOTAL if rng.random() < 0.5 else TotalField.UPPER_SUBTOTAL
        totals[f] = max(0, totals[f] + int(rng.choice([-10, -1, 1, 10])))
    game.totals = {f: v for f, v in totals.items()}
    return game


def random_front(rng: np.random.Generator) -> Sheet:
    n = int(rng.integers(1, 7))
    games: list[Game | None] = [random_game(rng) for _ in range(n)]
    if rng.random() < 0.3:
        games[-1] = random_game(rng, complete=False)
    name = str(rng.choice(NAMES))
    return Sheet(players=[Player(name=name, games=games)], rules="hasbro")


def random_back(rng: np.random.Generator) -> Sheet:
    n_players = int(rng.integers(2, 7))
    n_games = int(rng.integers(1, 7))
    names = [str(x) for x in rng.choice(NAMES, n_players, replace=False)]
    players = []
    for name in names:
        scores: list[int | None] = [int(rng.integers(90, 380)) for _ in range(n_games)]
        total = sum(s for s in scores if s is not None)
        if rng.random() < 0.1:
            total += int(rng.choice([-10, 10, 100]))
        players.append(Player(name=name, games=[], players_scores=PlayersScores(scores, total)))
    return Sheet(players=players, rules="hasbro")


@dataclass
class Sample:
    side: Side  # (``padsynth.variants.VariantSample`` has the same fields for other designs)
    sheet: Sheet
    jpeg: bytes
    spec: PhotoSpec
    style: Style


FAR_SIDE, FAR_FILL = 4000, 0.3  # a 12-megapixel phone photo, the pad at arm's length


def sample(seed: int, split: str = "eval", side: Side | None = None, hard: bool = True,
           far: bool = False) -> Sample:
    """One synthetic photo with its true sheet; ``split`` picks fonts/MNIST rows; ``far``:
    the same sheet and effects in a large photo with the pad small in it (``FAR_SIDE``, ``FAR_FILL``)."""
    rng = np.random.default_rng(seed)
    side = side or (Side.FRONT if rng.random() < 0.8 else Side.BACK)
    fonts = hw.available(hw.EVAL_FONTS if split == "eval" else hw.TRAIN_FONTS)
    mnist = hw.mnist_split(reserved=(split == "eval"))
    style = make_style(rng, fonts, mnist)
    sheet = random_front(rng) if side is Side.FRONT else random_back(rng)
    page = write(sheet, side, style, rng)
    spec = random_spec(rng, hard)
    if far:
        spec = dataclasses.replace(spec, long_side=FAR_SIDE, fill=FAR_FILL)
    return Sample(side, sheet, photograph(page, spec, rng), spec, style)
