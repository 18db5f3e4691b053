"""Font files: the held-out handwriting fonts (loaded by CSS @font-face) and print fonts.

Glyph metrics are read with Pillow so that every handwritten glyph can be placed
absolutely (Chromium lays out with the same FreeType ascent/descent).
"""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

# The only handwriting fonts this evaluation set may use (held out from any training).
HAND_FONT_FILES = (
    "Kristi.ttf",
    "SteveHand.ttf",
    "TomsonTalks.ttf",
    "BecauseWeLearn-Regular.otf",
    "BecauseWeOrganize-Regular.otf",
    "ComicNeue-Italic.otf",
)
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts")

# Print faces for the pad itself (installed system fonts, used by family name).
PRINT_FAMILIES = (
    ("DejaVu Sans", "normal"),
    ("DejaVu Sans", "condensed"),
    ("DejaVu Serif", "normal"),
    ("DejaVu Serif", "condensed"),
)

# Fonts whose CFF "Name INDEX" Chromium's OTS refuses in web fonts (checked with Chromium 13x).
OTS_REJECTED = frozenset({"BecauseWeLearn-Regular.otf", "BecauseWeOrganize-Regular.otf"})

GLYPHS = "0123456789"
EM = 100


@dataclass(frozen=True)
class HandFont:
    file: str  # file name, e.g. "Kristi.ttf"
    path: Path
    css_family: str  # the @font-face family name used in the page
    ascent: float  # per em
    descent: float  # per em (positive)
    advance: dict[str, float]  # per em
    bbox: dict[str, tuple[float, float, float, float]]  # per em, relative to the left baseline
    digit_height: float  # per em: the height of "0" above the baseline

    full_name: str  # for the local() fallback source
    ps_name: str

    def css(self) -> str:
        """@font-face for this file: its bytes inline, and the same installed file by name as
        a fallback source (Chromium's sanitiser rejects the CFF tables of a few of these fonts
        when they come as data, but renders the installed file)."""
        fmt = "opentype" if self.path.suffix.lower() == ".otf" else "truetype"
        sources = [f"local('{self.full_name}')", f"local('{self.ps_name}')"]
        if self.file not in OTS_REJECTED:
            data = base64.b64encode(self.path.read_bytes()).decode("ascii")
            sources.insert(0, f"url(data:font/{self.path.suffix[1:]};base64,{data}) format('{fmt}')")
        return f"@font-face{{font-family:'{self.css_family}';src:{','.join(sources)};}}"


@lru_cache(maxsize=1)
def _font_index() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for root in FONT_DIRS:
        for dirpath, _dirs, files in os.walk(root):
            for name in files:
                if name in HAND_FONT_FILES and name not in found:
                    found[name] = Path(dirpath) / name
    return found


@cache
def hand_font(file: str) -> HandFont:
    path = _font_index()[file]
    font = ImageFont.truetype(str(path), EM)
    ascent, descent = font.getmetrics()
    advance: dict[str, float] = {}
    bbox: dict[str, tuple[float, float, float, float]] = {}
    for ch in GLYPHS + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ -.'":
        advance[ch] = font.getlength(ch) / EM
        bbox[ch] = _ink_box(font, ch, advance[ch])
    digit_height = -min(bbox[d][1] for d in GLYPHS)
    stem = Path(file).stem.replace("-", "")
    family = font.getname()[0] or stem
    full, ps = _NAMES.get(file, (family, family.replace(" ", "")))
    return HandFont(file=file, path=path, css_family=f"hand{stem}", ascent=ascent / EM,
                    descent=descent / EM, advance=advance, bbox=bbox, digit_height=digit_height,
                    full_name=full, ps_name=ps)


def _ink_box(font: ImageFont.FreeTypeFont, ch: str, advance: float) -> tuple[float, float, float, float]:
    """The glyph's real ink bounds (per em, relative to the left end of the baseline)."""
    size = 3 * EM
    img = Image.new("L", (size, size), 0)
    ox, oy = EM, 2 * EM
    ImageDraw.Draw(img).text((ox, oy), ch, fill=255, font=font, anchor="ls")
    ink = np.asarray(img) > 60
    if not ink.any():
        return (0.0, 0.0, max(advance, 0.3), 0.0)
    ys, xs = np.nonzero(ink)
    return ((xs.min() - ox) / EM, (ys.min() - oy) / EM, (xs.max() + 1 - ox) / EM, (ys.max() + 1 - oy) / EM)


# The installed files' own full and PostScript names (fc-query %{fullname} %{postscriptname}).
_NAMES: dict[str, tuple[str, str]] = {
    "Kristi.ttf": ("Kristi", "Kristi"),
    "SteveHand.ttf": ("SteveHand", "SteveHand"),
    "TomsonTalks.ttf": ("Tomson Talks", "TomsonTalks"),
    "BecauseWeLearn-Regular.otf": ("Because We Learn Regular", "Because-We-Learn"),
    "BecauseWeOrganize-Regular.otf": ("Because We Organize Regular", "Because-We-Organize"),
    "ComicNeue-Italic.otf": ("Comic Neue Italic", "ComicNeue-Italic"),
}


def available_hand_fonts() -> list[str]:
    index = _font_index()
    return [f for f in HAND_FONT_FILES if f in index]
