"""Other pads than ours, for tests of the layout-adaptive reader.

A ``Variant`` is a printed pad of another design: with or without a HOW TO
SCORE column, other column widths and row heights, another title block, a thick
frame or only the table's own border, labels worded differently ("Aces",
"Small Straight", "Total of Upper Section").  ``write_variant`` fills it with a
sheet in the same handwriting as ``render.write``; ``render.photograph`` then
takes the photo.  The default pad (``ocr.printed.blank_card``) is not affected.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ocr.layout import BACK_ROWS, FRONT_ROWS, GAMES, Kind, Row, Side
from ocr.printed import PAGE_MARGIN, print_font, wrap_text
from scorepad.card import Sheet

from . import handwriting as hw
from .render import (
    Canvas,
    PhotoSpec,
    Style,
    _write_text,
    make_style,
    photograph,
    random_back,
    random_front,
    random_spec,
    write_games,
    write_players_scores,
)


@dataclass(frozen=True)
class Variant:
    name: str
    side: Side
    size: tuple[int, int]  # card width, height
    col_x: tuple[int, ...]  # x of every vertical line of the table
    row_y: tuple[int, ...]  # y of every horizontal line of the table
    rows: tuple[Row, ...]  # one per table row, labels as printed
    first_value_col: int
    frame: int = 0  # thickness of a frame around the card (0: none)
    title: str = "YAHTZEE"
    title_xy: tuple[int, int] = (30, 20)
    title_size: int = 56
    name_line: tuple[int, int, int, int] | None = None  # the NAME box (front): x0, y0, x1, y1
    header_fill: int = 215

    def cell(self, r: int, c: int) -> tuple[int, int, int, int]:
        col = self.first_value_col + c
        return self.col_x[col], self.row_y[r], self.col_x[col + 1], self.row_y[r + 1]


# Labels as other pads print them (None: that row is not on the pad).
WORDING_PLAIN: tuple[str | None, ...] = (
    "UPPER SECTION", "Aces", "Twos", "Threes", "Fours", "Fives", "Sixes", "Total Score", "Bonus",
    "Total of Upper Section", "LOWER SECTION", "3 of a Kind", "4 of a Kind", "Full House",
    "Small Straight", "Large Straight", "YAHTZEE", "Chance", "Yahtzee Bonus",
    "Total of Lower Section", "Total of Upper Section", "Grand Total",
)
WORDING_SHORT: tuple[str | None, ...] = (
    "", "Aces", "Twos", "Threes", "Fours", "Fives", "Sixes", "TOTAL SCORE", "BONUS",
    "TOTAL", None, "3 of a kind", "4 of a kind", "Full House", "Sm Straight", "Lg Straight",
    "YAHTZEE", "Chance", "YAHTZEE BONUS", "TOTAL of Lower", "TOTAL of Upper", "GRAND TOTAL",
)


def front_variant(name: str, *, wording: tuple[str | None, ...] = WORDING_PLAIN,
                  hints: bool = False, label_w: int = 250, hint_w: int = 150, col_w: int = 92,
                  row_h: int = 42, header_h: int = 56, left: int = 24, top: int = 170,
                  bottom: int = 30, frame: int = 0, title: str = "YAHTZEE",
                  title_xy: tuple[int, int] = (30, 20), name_at: tuple[int, int] = (30, 110),
                  header_fill: int = 215) -> Variant:
    rows = tuple(replace(r, label=w) for r, w in zip(FRONT_ROWS, wording, strict=True)
                 if w is not None)
    xs = [left, left + label_w]
    if hints:
        xs.append(xs[-1] + hint_w)
    xs += [xs[-1] + col_w * i for i in range(1, GAMES + 1)]
    ys = [top]
    for r in rows:
        ys.append(ys[-1] + (header_h if r.kind is Kind.HEADER and r.label in ("", "UPPER SECTION")
                            and ys[-1] == top else row_h))
    size = (xs[-1] + left, ys[-1] + bottom)
    nx, ny = name_at
    return Variant(name, Side.FRONT, size, tuple(xs), tuple(ys), rows, 2 if hints else 1, frame,
                   title, title_xy, 56, (nx + 110, ny - 10, nx + 560, ny + 40), header_fill)


def back_variant(name: str, *, labels: tuple[str, ...] | None = None, label_w: int = 210,
                 col_w: int = 105, names_h: int = 90, row_h: int = 72, total_h: int = 80,
                 left: int = 24, top: int = 150, bottom: int = 30, frame: int = 0,
                 title: str = "PLAYERS' SCORES") -> Variant:
    labels = labels or ("PLAYERS' NAMES", *(f"GAME #{g + 1}" for g in range(GAMES)),
                        "TOTAL OF ALL GAMES")
    rows = tuple(replace(r, label=w) for r, w in zip(BACK_ROWS, labels, strict=True))
    xs = [left, left + label_w, *(left + label_w + col_w * i for i in range(1, GAMES + 1))]
    ys = [top]
    for r in rows:
        ys.append(ys[-1] + (names_h if r.kind is Kind.NAME else total_h if r.kind is Kind.GRAND
                            else row_h))
    size = (xs[-1] + left, ys[-1] + bottom)
    return Variant(name, Side.BACK, size, tuple(xs), tuple(ys), rows, 1, frame, title, (30, 30), 52)


VARIANTS: dict[str, Variant] = {
    # the official pad's shape: no HOW TO SCORE column, no frame, "Aces", "Small Straight"
    "plain": front_variant("plain"),
    # a HOW TO SCORE column, narrow game columns, short rows, no LOWER SECTION row, a thin frame
    "compact": front_variant("compact", wording=WORDING_SHORT, hints=True, label_w=170,
                             hint_w=130, col_w=78, row_h=38, header_h=48, top=190, frame=3,
                             title="SCORE SHEET", title_xy=(380, 24), name_at=(40, 140),
                             header_fill=255),
    "back_plain": back_variant("back_plain"),
    "back_framed": back_variant(
        "back_framed", labels=("Names", *(f"Game {g + 1}" for g in range(GAMES)),
                               "Total of all games"),
        label_w=215, col_w=112, names_h=100, row_h=64, total_h=64, top=170, frame=4,
        title="Players' Scores"),
}


def _fitting(d: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
             width: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """``font``, or a smaller size of it, so that ``text`` stays inside its column, as a
    printed pad's labels do."""
    size = int(getattr(font, "size", 0))
    while size > 10 and d.textlength(text, font=font) > width:
        size -= 1
        font = print_font(size)
    return font


def blank_variant(v: Variant) -> Image.Image:
    """The printed card of a variant (grayscale)."""
    w, h = v.size
    im = Image.new("L", (w, h), 255)
    d = ImageDraw.Draw(im)
    if v.frame:
        d.rectangle((0, 0, w - 1, h - 1), outline=0, width=v.frame)
    d.text(v.title_xy, v.title, font=print_font(v.title_size), fill=0)
    if v.name_line:
        x0, y0, x1, y1 = v.name_line
        d.text((x0 - 105, y1 - 32), "NAME", font=print_font(26), fill=0)
        d.line((x0, y1, x1, y1), fill=0, width=2)
    xs, ys = v.col_x, v.row_y
    first = ys[1] - ys[0]
    label_font = print_font(max(12, min(18, int(min(ys[2] - ys[1], first) * 0.42))))
    hint_font = print_font(12, bold=False)
    for r, row in enumerate(v.rows):
        y0, y1 = ys[r], ys[r + 1]
        if row.kind is Kind.HEADER and v.header_fill < 255:
            d.rectangle((xs[0], y0, xs[-1], y1), fill=v.header_fill)
        if row.label:
            font = _fitting(d, row.label, label_font, xs[1] - xs[0] - 16)
            d.text((xs[0] + 8, (y0 + y1) // 2), row.label, font=font, fill=0, anchor="lm")
        if v.first_value_col == 2 and row.hint:
            wrap_text(d, row.hint, xs[1] + 5, y0 + 3, xs[2] - xs[1] - 8, hint_font)
        if r == 0 and v.side is Side.FRONT:
            for c in range(GAMES):
                cx0, cy0, cx1, cy1 = v.cell(0, c)
                d.text(((cx0 + cx1) // 2, (cy0 + cy1) // 2), f"GAME #{c + 1}",
                       font=print_font(13), fill=0, anchor="mm")
    for i, y in enumerate(ys):
        d.line((xs[0], y, xs[-1], y), fill=0, width=3 if i in (0, len(ys) - 1) else 2)
    for i, x in enumerate(xs):
        d.line((x, ys[0], x, ys[-1]), fill=0, width=3 if i in (0, len(xs) - 1) else 2)
    return im


def write_variant(sheet: Sheet, v: Variant, style: Style, rng: np.random.Generator,
                  player: int = 0) -> Image.Image:
    """The page (card on white paper) with ``sheet`` written on the variant pad."""
    w, h = v.size
    page = Image.new("L", (w + 2 * PAGE_MARGIN, h + 2 * PAGE_MARGIN), 255)
    page.paste(blank_variant(v), (PAGE_MARGIN, PAGE_MARGIN))
    canvas = Canvas(page)
    o = PAGE_MARGIN
    if v.side is Side.FRONT:
        p = sheet.players[player]
        if v.name_line:
            _write_text(canvas, style, p.name, v.name_line, o, o, 40)
        write_games(canvas, style, p.games[:GAMES], v.rows, v.cell, rng, o)
    else:
        write_players_scores(canvas, style, sheet.players[:GAMES], v.cell, len(v.rows) - 1,
                             lambda x0, y0, x1, y1: (x0 + 2, y0 + (y1 - y0) // 4, x1 - 2, y1 - 8),
                             28, rng, o)
    return canvas.image()


def field_at(v: Variant, x: float, y: float) -> tuple[str, int, int | None] | None:
    """(field, column, game) of the value cell at page point (x, y), as ``evaluate`` keys it."""
    x, y = x - PAGE_MARGIN, y - PAGE_MARGIN
    for r, row in enumerate(v.rows):
        if row.kind is Kind.HEADER:
            continue
        for c in range(GAMES):
            x0, y0, x1, y1 = v.cell(r, c)
            if x0 <= x < x1 and y0 <= y < y1:
                if row.kind is Kind.MARKS:
                    return "yahtzee_bonus_checks", c, c
                if row.kind is Kind.NAME:
                    return "name", c, None
                if row.kind is Kind.SCORE:
                    return "score", c, row.game
                if row.kind is Kind.GRAND:
                    return "total", c, None
                assert row.field is not None
                return str(row.field.value), c, c
    return None


@dataclass
class VariantSample:
    variant: Variant
    sheet: Sheet
    jpeg: bytes
    spec: PhotoSpec
    transform: np.ndarray  # page pixels -> photo pixels (before EXIF re-orientation)

    @property
    def side(self) -> Side:
        return self.variant.side


def variant_sample(seed: int, variant: Variant | str, *, spec: PhotoSpec | None = None,
                   sheet: Sheet | None = None, mnist_share: float = 0.35) -> VariantSample:
    """One photo of a variant pad with its true sheet (evaluation fonts and MNIST rows)."""
    v = VARIANTS[variant] if isinstance(variant, str) else variant
    rng = np.random.default_rng(seed)
    fonts = hw.available(hw.EVAL_FONTS)
    mnist = hw.mnist_split(reserved=True) if mnist_share > 0 else None
    style = make_style(rng, fonts, mnist, mnist_share)
    if sheet is None:
        sheet = random_front(rng) if v.side is Side.FRONT else random_back(rng)
    page = write_variant(sheet, v, style, rng)
    spec = spec or random_spec(rng, hard=False)
    out: list[np.ndarray] = []
    jpeg = photograph(page, spec, rng, out)
    return VariantSample(v, sheet, jpeg, spec, out[0])
