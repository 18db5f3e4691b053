"""A pad's printed row labels: read labels (and HOW TO SCORE texts) matched with the
standard rows, and a label cell made ready for tesseract."""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Sequence
from functools import lru_cache

import cv2
import numpy as np

from .layout import GAMES, Kind, Row
from .paper import paper_level
from .tesseract import Engine, OcrText

MATCH_AT = 0.62  # label similarity that counts as a match

# Other ways pads word the labels (normalised: lower case, letters and digits).
_ALIASES: dict[str, tuple[str, ...]] = {
    "UPPER SECTION": ("upper section",),
    "Aces = 1": ("aces", "ones", "aces 1"),
    "Twos = 2": ("twos", "twos 2"),
    "Threes = 3": ("threes", "threes 3"),
    "Fours = 4": ("fours", "fours 4"),
    "Fives = 5": ("fives", "fives 5"),
    "Sixes = 6": ("sixes", "sixes 6"),
    "TOTAL SCORE": ("total score", "total score upper", "subtotal"),
    "BONUS": ("bonus", "bonus 35", "upper bonus"),
    "TOTAL Of Upper": ("total of upper section", "total of upper", "total upper", "total"),
    "LOWER SECTION": ("lower section",),
    "3 of a kind": ("3 of a kind", "three of a kind", "3 kind"),
    "4 of a kind": ("4 of a kind", "four of a kind", "4 kind"),
    "Full House": ("full house",),
    "Sm. Straight": ("sm straight", "small straight", "sm str"),
    "Lg. Straight": ("lg straight", "large straight", "lg str"),
    "YAHTZEE": ("yahtzee",),
    "Chance": ("chance",),
    "YAHTZEE BONUS": ("yahtzee bonus", "bonus yahtzee", "yahtzee bonus for each bonus"),
    "YAHTZEE BONUS SCORE": ("score 100 per", "bonus score 100 per", "100 per", "yahtzee bonus score"),
    # (the official pad prints both lower TOTAL rows as TOTAL, what they total in small print
    # that a photo seldom resolves: their order tells them apart)
    "TOTAL Of Lower": ("total of lower section", "total of lower", "total lower", "total"),
    "GRAND TOTAL": ("grand total",),
    "NAMES OF PLAYERS": ("names of players", "players names", "player names", "names", "name",
                         "players"),
    "TOTAL OF ALL GAMES": ("total of all games", "total all games", "total"),
    **{f"GAME #{g + 1}": (f"game {g + 1}", f"game no {g + 1}", f"game {g + 1} score")
       for g in range(GAMES)},
}


# What the HOW TO SCORE column prints in a row (normalised), where a pad has one.
_HINTS: dict[str, tuple[str, ...]] = {
    **{f"{n} = {i + 1}": (f"count and add only {n.lower()}",)
       for i, n in enumerate(("Aces", "Twos", "Threes", "Fours", "Fives", "Sixes"))},
    "BONUS": ("score 35", "score 35 if 63 or over"),
    "3 of a kind": ("add total of all dice",),
    "4 of a kind": ("add total of all dice",),
    "Full House": ("score 25",),
    "Sm. Straight": ("score 30", "sequence of 4 score 30"),
    "Lg. Straight": ("score 40", "sequence of 5 score 40"),
    "YAHTZEE": ("score 50", "5 of a kind score 50"),
    "Chance": ("score total of all 5 dice",),
    "YAHTZEE BONUS": ("for each bonus", "check for each bonus"),
    "YAHTZEE BONUS SCORE": ("score 100 per", "score 100 per check"),
}


def normalise(text: str) -> str:
    t = text.lower().replace("#", " ").replace("&", " ")
    t = re.sub(r"[^a-z0-9]+", " ", t)
    return re.sub(r"\s+", " ", t).strip()


def similarity(text: str, row: Row, hint: str = "") -> float:
    """How well a read label (and the HOW TO SCORE text beside it, when the pad has that
    column) matches a row of the standard pad, 0..1."""
    best = _similar(normalise(text), _ALIASES.get(row.label, (normalise(row.label),)))
    if hint:
        best = max(best, _similar(normalise(hint), _HINTS.get(row.label, ())))
    return best


@lru_cache(maxsize=8192)  # a pad's labels are compared with each row, turn and side
def _similar(t: str, aliases: tuple[str, ...]) -> float:
    if len(t) < 3:
        return 0.0
    best = 0.0
    for alias in aliases:
        m = difflib.SequenceMatcher(None, t, alias)
        if m.real_quick_ratio() <= best and len(t) <= len(alias) + 2:
            continue  # cannot beat the best alias so far
        r = m.ratio()
        if len(t) > len(alias) + 2:  # extra printed words ("Aces = 1", "Count and add...")
            r = max(r, 0.95 * difflib.SequenceMatcher(None, t[: len(alias)], alias).ratio())
        best = max(best, r)
    return best


def align(texts: Sequence[str], rows: Sequence[Row], hints: Sequence[str] = (),
          heights: Sequence[float] = ()) -> tuple[dict[int, int], float, int]:
    """Table rows -> template rows, in order: (mapping, summed similarity, matched labels).

    A monotone alignment (dynamic programming) of the labels as read; rows whose
    label was not read are filled in between two matched rows when the gap holds
    as many rows in the table as in the template (or as many as the template's
    non-header rows), and outward from the first and last matched rows.
    ``heights``: the table rows' heights; two matched labels with too little of the
    table between them for the template's rows between them (Threes and Fives in two
    rows one above the other: Fours would be missing) cannot both be right, and the
    less alike is let go.
    """
    n, m = len(texts), len(rows)
    hs = list(hints) or [""] * n
    sim = (np.array([[similarity(t, r, h) for r in rows] for t, h in zip(texts, hs, strict=True)])
           if n else np.zeros((0, m)))
    anchors = _anchors(sim)
    while (crowded := _crowded(anchors, rows, heights, sim)) is not None:
        sim, anchors = _let_go(sim, crowded)
    mapping = _filled(anchors, n, rows)
    # a label as like two rows as each other (TOTAL: of the lower section, of the upper one)
    # goes where the rows between it and its neighbours fill in with the most of the table
    for k, (a, b) in enumerate(list(anchors)):
        lo = anchors[k - 1][1] if k else -1
        hi = anchors[k + 1][1] if k + 1 < len(anchors) else m
        for b2 in range(lo + 1, hi):
            if b2 != b and abs(sim[a, b2] - sim[a, b]) < 1e-9:
                other = [*anchors[:k], (a, b2), *anchors[k + 1:]]
                filled = _filled(other, n, rows)
                if len(filled) > len(mapping):
                    anchors, mapping = other, filled
    total = float(sum(sim[a, b] for a, b in anchors))
    return mapping, total, len(anchors)


def _anchors(sim: np.ndarray) -> list[tuple[int, int]]:
    """The monotone matching of table rows to template rows with the most similarity."""
    n, m = sim.shape
    best = np.zeros((n + 1, m + 1))
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            s = sim[i - 1, j - 1]
            diag = best[i - 1, j - 1] + s if s >= MATCH_AT else -1.0
            best[i, j] = max(best[i - 1, j], best[i, j - 1], diag)
    anchors: list[tuple[int, int]] = []
    i, j = n, m
    while i > 0 and j > 0:
        s = sim[i - 1, j - 1]
        if s >= MATCH_AT and best[i, j] == best[i - 1, j - 1] + s:
            anchors.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif best[i, j] == best[i - 1, j]:
            i -= 1
        else:
            j -= 1
    anchors.reverse()
    return anchors


ROOM = 0.5  # rows' heights the table may lack between two matched labels (rows vary in height)
REMATCH_MARGIN = 0.33  # how much less alike another row may be to a label let go of


def _crowded(anchors: list[tuple[int, int]], rows: Sequence[Row], heights: Sequence[float],
             sim: np.ndarray) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Two neighbouring matches whose table rows leave no room for the template rows between
    them that every design prints (not a header, not optional), each about a row high; None
    when all have room (or the heights are not known)."""
    if not heights:
        return None
    row_h = float(np.median(heights))
    for (i0, j0), (i1, j1) in itertools.pairwise(anchors):
        need = sum(1 for j in range(j0, j1)
                   if not rows[j].optional and rows[j].kind is not Kind.HEADER)
        if sum(heights[i0:i1]) / row_h < need - ROOM:
            return (i0, j0), (i1, j1)
    return None


def _let_go(sim: np.ndarray, pair: tuple[tuple[int, int], tuple[int, int]]
            ) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """One of two crowded matches let go, and the labels matched again: the one whose loss
    leaves the alignment with the most similarity, of two equal the less alike.  Either may
    be the wrong one: the YAHTZEE BONUS label's first line reads YAHTZEE, as like the
    YAHTZEE row as that row's own label; letting go of the GRAND TOTAL below it (the later
    of two alike) slid the lower rows, letting go of it matches it with YAHTZEE BONUS."""
    first, second = pair
    less = first if sim[first] < sim[second] else second  # (of two alike, the later)
    tries = []
    for k, gone in enumerate([less, second if less == first else first]):
        other = sim.copy()
        # the label let go may be matched again only with a row nearly as like it: the
        # YAHTZEE BONUS line read "YAHTZEE" (1.0) with YAHTZEE BONUS (0.7); a GRAND TOTAL
        # read as such (1.0) never with the lower TOTAL (0.625: two weak matches outweighing
        # its sure one slid a small photo's lower rows two down, cells read off the pad)
        label = other[gone[0]]
        label[label < sim[gone] - REMATCH_MARGIN] = 0.0
        other[gone] = 0.0
        anchors = _anchors(other)
        tries.append((float(sum(other[a, b] for a, b in anchors)), -k, other, anchors))
    _total, _k, sim, anchors = max(tries, key=lambda t: t[:2])
    return sim, anchors


def _filled(anchors: list[tuple[int, int]], n: int, rows: Sequence[Row]) -> dict[int, int]:
    """The matched labels' rows, and the unread ones filled in between and around them."""
    m = len(rows)
    mapping = dict(anchors)
    for (i0, j0), (i1, j1) in zip(anchors, anchors[1:], strict=False):
        gap_t = list(range(i0 + 1, i1))
        gap_m = list(range(j0 + 1, j1))
        # the gap's template rows, then without the rows a design may leave out
        for keep in (gap_m, [k for k in gap_m if not rows[k].optional],
                     [k for k in gap_m if rows[k].kind is not Kind.HEADER],
                     [k for k in gap_m if rows[k].kind is not Kind.HEADER and not rows[k].optional]):
            if len(gap_t) == len(keep):
                mapping.update(zip(gap_t, keep, strict=True))
                break
    if anchors:
        (i0, j0), (i1, j1) = anchors[0], anchors[-1]
        for k in range(1, min(i0, j0) + 1):
            mapping[i0 - k] = j0 - k
        for k in range(1, min(n - 1 - i1, m - 1 - j1) + 1):
            mapping[i1 + k] = j1 + k
    return mapping


SHARPEN_SIGMA = 2.0  # the blur taken away from a label cell looked at again (pixels)
ENLARGE = 2  # ... and how much larger it is made first


def sharpened(cell: np.ndarray) -> np.ndarray:
    """A printed label cell enlarged and unsharp-masked: a soft photo's labels, which
    tesseract reads as noise as photographed, as the last search looks at them again."""
    big = cv2.resize(cell, None, fx=ENLARGE, fy=ENLARGE, interpolation=cv2.INTER_CUBIC)
    soft = cv2.GaussianBlur(big, (0, 0), SHARPEN_SIGMA * ENLARGE)
    out: np.ndarray = np.clip(2.0 * big.astype(np.float32) - soft, 0, 255).astype(np.uint8)
    return out


def label_image(cell: np.ndarray, sharpen: bool = False) -> np.ndarray:
    """A printed label cell -> dark text on white, cropped to the text, about 40 px high
    (``sharpen``: ``sharpened`` first)."""
    if sharpen and cell.size:
        cell = sharpened(cell)
    h, w = cell.shape
    my, mx = max(2, h // 10), max(2, h // 10)
    cell = cell[my: h - my, mx: w - mx]
    if cell.size == 0:
        return np.full((40, 40), 255, np.uint8)
    bg = paper_level(cell) or 255.0
    ink = (cell.astype(np.float32) < 0.75 * bg).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    ch, cw = ink.shape
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        touches = x == 0 or y == 0 or x + bw >= cw or y + bh >= ch
        if area >= 4 and not (touches and (bw > 0.5 * cw or bh > 0.8 * ch)):
            keep[i] = True
    mask = keep[labels]
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return np.full((40, 40), 255, np.uint8)
    y0, y1 = max(int(ys.min()) - 2, 0), min(int(ys.max()) + 3, ch)
    x0, x1 = max(int(xs.min()) - 2, 0), min(int(xs.max()) + 3, cw)
    # grey levels (tesseract binarises better than a fixed threshold), ruled lines whitened
    near = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    norm = np.clip(cell.astype(np.float32) / bg * 255.0, 0, 255)
    norm[~near] = 255
    out: np.ndarray = norm[y0:y1, x0:x1].astype(np.uint8)
    th = y1 - y0
    scale = 40.0 / max(th, 1) if th < 0.45 * ch else 64.0 / max(th, 1)
    out = cv2.resize(out, (max(1, int((x1 - x0) * scale)), max(1, int(th * scale))),
                     interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    return cv2.copyMakeBorder(out, 16, 16, 20, 20, cv2.BORDER_CONSTANT, value=255)


SAME_PLACE = 0.2  # a label cell whose corners all lie this share of its height or less from
# those of one read before (in the same working image) is that cell again


class PlacedReads:
    """Label cells read once per place in one working image: a table sought again (grown by
    the rows it lacks, or from the web of lines) finds most of its rows where they were, in
    a warp of its own, so the same label is a crop of other pixels (``Remembering`` sees a
    new image); only the cells in new places go to the engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._read: list[tuple[np.ndarray, bool, OcrText]] = []  # (corners, sharpened, text)

    def read(self, crops: Sequence[np.ndarray], places: np.ndarray, sharpen: bool = False
             ) -> list[OcrText]:
        """``crops[i]`` read, or what was read at ``places[i]`` (its TL, TR, BR, BL corners
        in the working image, as the crop is seen) with the same preparation."""
        known = [self._known(p, sharpen) for p in places]
        todo = [crop for crop, text in zip(crops, known, strict=True) if text is None]
        fresh = iter(self.engine.read_batch(todo) if todo else [])
        out: list[OcrText] = []
        for place, text in zip(places, known, strict=True):
            if text is None:
                text = next(fresh)
                self._read.append((place, sharpen, text))
            out.append(text)
        return out

    def _known(self, place: np.ndarray, sharpen: bool) -> OcrText | None:
        near = SAME_PLACE * float(np.linalg.norm(place[3] - place[0]))
        for corners, sharpened, text in self._read:
            if sharpened == sharpen and float(np.abs(corners - place).max()) <= near:
                return text
        return None
