"""The printed pad (001's layout, see ``layout``) drawn blank: for printing, and as the
template the reader matches photos against."""

from __future__ import annotations

import os
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .layout import BACK, CARD_H, CARD_W, FRAME, FRONT, NAME_BOX, TITLE_BACK, TITLE_FRONT, Grid, Kind, Side

FONT_DIRS = ("/usr/share/fonts",)
PRINT_FONT = "DejaVuSans-Bold.ttf"
PRINT_FONT_REGULAR = "DejaVuSans.ttf"


@lru_cache(maxsize=1)
def _font_index() -> dict[str, str]:
    found: dict[str, str] = {}
    for root in FONT_DIRS:
        for dirpath, _, files in os.walk(root):
            for f in files:
                if f.lower().endswith((".ttf", ".otf")):
                    found.setdefault(f, os.path.join(dirpath, f))
    return found


def font_path(name: str) -> str | None:
    """An installed font file by its file name (Debian's font packages)."""
    return _font_index().get(name)


@lru_cache(maxsize=256)
def font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def print_font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = font_path(PRINT_FONT if bold else PRINT_FONT_REGULAR)
    return font(path, size) if path else ImageFont.load_default()


PAGE_MARGIN = 60  # white paper around the card


def blank_card(side: Side) -> Image.Image:
    """The printed card (grayscale, canonical size)."""
    im = Image.new("L", (CARD_W, CARD_H), 255)
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, CARD_W - 1, CARD_H - 1), outline=0, width=FRAME)
    g = FRONT if side is Side.FRONT else BACK
    if side is Side.FRONT:
        d.text((30, 30), TITLE_FRONT, font=print_font(64), fill=0)
        d.text((30, 128), "NAME", font=print_font(30), fill=0)
        d.line((NAME_BOX[0], NAME_BOX[3], NAME_BOX[2], NAME_BOX[3]), fill=0, width=3)
        d.text((720, 60), "SCORE CARD", font=print_font(30), fill=0)
    else:
        d.text((30, 40), TITLE_BACK, font=print_font(64), fill=0)
        d.text((30, 150), "one column per player", font=print_font(24, bold=False), fill=0)
    _draw_grid(d, g)
    return im


def _draw_grid(d: ImageDraw.ImageDraw, g: Grid) -> None:
    x0, x1 = g.col_x[0], g.col_x[-1]
    label_font, hint_font = print_font(17), print_font(13, bold=False)
    for r, row in enumerate(g.rows):
        y0, y1 = g.row_y(r)
        if row.kind is Kind.HEADER:
            d.rectangle((x0, y0, x1, y1), fill=215)
        d.text((x0 + 8, y0 + (g.row_h - 20) // 2), row.label, font=label_font, fill=0)
        if row.hint and g.side is Side.FRONT:
            wrap_text(d, row.hint, g.col_x[1] + 6, y0 + 4, g.col_x[2] - g.col_x[1] - 10, hint_font)
        if row.kind is Kind.HEADER and g.side is Side.FRONT and r == 0:
            for c in range(g.value_cols):
                cx0, cy0, cx1, _ = g.cell(r, c)
                d.text((cx0 + 8, cy0 + 15), f"GAME #{c + 1}", font=print_font(15), fill=0)
    for r in range(len(g.rows) + 1):
        y = g.top + r * g.row_h
        d.line((x0, y, x1, y), fill=0, width=4 if r in (0, len(g.rows)) else 2)
    for i, x in enumerate(g.col_x):
        d.line((x, g.top, x, g.bottom), fill=0, width=4 if i in (0, len(g.col_x) - 1) else 2)


def wrap_text(d: ImageDraw.ImageDraw, text: str, x: int, y: int, width: int, f: object) -> None:
    line, lines = "", []
    for word in text.split():
        trial = f"{line} {word}".strip()
        if d.textlength(trial, font=f) > width and line:  # type: ignore[arg-type]
            lines.append(line)
            line = word
        else:
            line = trial
    lines.append(line)
    for i, ln in enumerate(lines[:3]):
        d.text((x, y + 14 * i), ln, font=f, fill=0)  # type: ignore[arg-type]


def blank_page(side: Side) -> Image.Image:
    page = Image.new("L", (CARD_W + 2 * PAGE_MARGIN, CARD_H + 2 * PAGE_MARGIN), 255)
    page.paste(blank_card(side), (PAGE_MARGIN, PAGE_MARGIN))
    return page
