"""The two readers' outputs combined into one value per cell, restricted to what the box can hold."""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

import numpy as np

from scorepad.boxes import LOWER, UPPER, Box, TotalField
from scorepad.rules import RuleSet
from scorepad.values import possible_values

from . import digits as dg
from .layout import GAMES, Kind, Row
from .result import Candidate

MAX_DIGITS = 4
MAX_NUMBER = 10 ** MAX_DIGITS - 1
MAX_CHECKS = 13  # bonus Yahtzees in one game: one per turn at most
# ... but a game's total of 1,000 takes eight of them (the lower section at its best
# is 235): an unsure reading of four digits there has a digit too many (158 read 1515)
ONE_GAME_MOST = 999
CONFIDENT_AT = 0.85  # a decoded probability at least this: the cell is confident
# ... or this, read (not inferred) as the score of a box that holds one score or 0 (Full
# House, the straights, YAHTZEE, the upper BONUS): misread, a digit would have to appear
# from nothing (a 0 read 30) or a whole other number be taken for it; on the development
# and fresh photos not one of about 2,400 such readings was wrong, at any probability
FIXED_SURE = 0.5


_TESS_MAP = str.maketrans({"O": "0", "o": "0", "D": "0", "Q": "0", "l": "1", "I": "1", "|": "1",
                           "i": "1", "!": "1", "]": "1", "[": "1", "Z": "2", "z": "2", "S": "5",
                           "s": "5", "B": "8", "G": "6", "b": "6", "g": "9", "q": "9", "T": "7",
                           "A": "4", "?": "7"})


def tesseract_number(text: str) -> int | None:
    t = text.strip().translate(_TESS_MAP)
    t = re.sub(r"[\s.,'`\"’‘-]", "", t)
    if t in ("", "-", "—"):
        return None
    if not t.isdigit() or len(t) > MAX_DIGITS:
        return None
    return int(t)


def classifier_candidates(probs: np.ndarray, top: int = 3) -> list[Candidate]:
    """Per-glyph digit probabilities -> whole-number candidates with probabilities."""
    if len(probs) == 0 or len(probs) > MAX_DIGITS:
        return []
    # plain floats: a cell's few products are many times faster than numpy's on lists
    digit_p = _digit_probs(probs).tolist()
    choices = [sorted(range(dg.N_DIGITS), key=row.__getitem__, reverse=True)[:top]
               for row in digit_p]
    out: dict[int, float] = {}
    for combo in itertools.product(*choices):
        if len(combo) > 1 and combo[0] == 0:
            continue  # nobody writes a leading zero
        p = math.prod(digit_p[i][d] for i, d in enumerate(combo))
        v = int("".join(str(d) for d in combo))
        out[v] = max(out.get(v, 0.0), p)
    return [Candidate(v, p) for v, p in sorted(out.items(), key=lambda t: -t[1])]


def _digit_probs(probs: np.ndarray) -> np.ndarray:
    digit_p: np.ndarray = probs[:, : dg.N_DIGITS]
    if len(probs) > 1:  # a scratch mark is never one digit of a number (but a piece that
        # looks like several digits is no digit either: its share stays out of the digits')
        several = probs[:, dg.SEVERAL: dg.SEVERAL + 1] if probs.shape[1] > dg.SEVERAL else 0.0
        digit_p = digit_p / np.maximum(digit_p.sum(axis=1, keepdims=True) + several, 1e-9)
    return digit_p


def legal_candidates(probs: np.ndarray, legal: frozenset[int]) -> list[Candidate]:
    """Every legal value written with one digit per glyph, with the classifier's probability
    for it: the decoder can then find a legal reading outside the per-glyph top choices
    (marked ``inferred`` when it is chosen over a better, illegal reading)."""
    if len(probs) == 0 or len(probs) > MAX_DIGITS:
        return []
    digit_p = _digit_probs(probs).tolist()
    out = []
    for v in legal:
        text = str(v)
        if len(text) == len(probs):
            out.append(Candidate(v, math.prod(digit_p[i][int(ch)] for i, ch in enumerate(text))))
    return out


def legal_values(row: Row, rules: RuleSet) -> frozenset[int] | None:
    """What a cell can hold (None: any number of up to four digits)."""
    if isinstance(row.field, TotalField) or (row.kind is Kind.BOX and isinstance(row.field, Box)):
        return legal_values_of(row.field.value, rules)
    return None


def legal_values_of(field: str, rules: RuleSet) -> frozenset[int] | None:
    """What the cell of a sheet key (a box, a total) can hold (None: any number)."""
    if field in Box._value2member_map_:
        return possible_values(rules, Box(field))
    if field == TotalField.UPPER_BONUS.value:
        return frozenset({0, rules.upper_bonus})
    if field == TotalField.YAHTZEE_BONUS.value:  # the official pad's SCORE 100 PER ✓ line
        return frozenset(k * rules.yahtzee_bonus for k in range(MAX_CHECKS + 1))
    return None


def fixed_score(legal: frozenset[int] | None) -> int | None:
    """The one score of a box that holds that score or 0 (None for any other box)."""
    if legal is None or len(legal) != 2 or 0 not in legal:
        return None
    return max(legal)


def fixed_sure(value: int | str | None, confidence: float, inferred: bool,
               legal: frozenset[int] | None) -> bool:
    """A reading of a box's one score sure enough by the box itself (FIXED_SURE)."""
    return (value is not None and value == fixed_score(legal) and not inferred
            and confidence >= FIXED_SURE)


def most_of(row: Row, rules: RuleSet) -> int:
    """The largest number the row's cell holds in a game under ``rules`` (a total: every
    box at its best, every turn a bonus Yahtzee, but one game's total below 1,000, see
    ONE_GAME_MOST; the back: that for each game).  A reading above it, unless sure, has a
    digit too many (320 read 3220, 62 read 626): the next reading is taken, ``inferred``,
    for a person to confirm.  (A sure one is kept: a player who wrote 163 for 63 made a
    slip the audit must see.)"""
    def best(boxes: tuple[Box, ...]) -> int:
        return sum(max(possible_values(rules, b)) for b in boxes)

    upper = best(UPPER)
    lower = best(LOWER) + MAX_CHECKS * rules.yahtzee_bonus
    game = min(upper + rules.upper_bonus + lower, ONE_GAME_MOST)  # one game's total
    if row.kind is Kind.SCORE:
        return game
    if row.kind is Kind.GRAND:
        return GAMES * game
    if row.field is TotalField.UPPER_SUBTOTAL:
        return upper
    if row.field in (TotalField.UPPER_TOTAL, TotalField.UPPER_TOTAL_REPEAT):
        return upper + rules.upper_bonus
    if row.field is TotalField.LOWER_TOTAL:
        return min(lower, ONE_GAME_MOST)
    return game if row.field is TotalField.GRAND_TOTAL else MAX_NUMBER


@dataclass
class Decision:
    value: int | None
    confidence: float
    inferred: bool
    candidates: list[Candidate]


TESS_AGREE = 10.0  # how much a tesseract reading multiplies a candidate's odds
TESS_FLOOR = 0.01  # the classifier's probability for a tesseract reading it did not propose


def decide(cls: list[Candidate], tess: int | None, tess_conf: float,
           legal: frozenset[int] | None, use_cls: bool = True, use_tess: bool = True,
           most: int = MAX_NUMBER) -> Decision:
    """Combine the two readers, then restrict to the legal values (to ``most`` at most,
    unless the reading is sure)."""
    # Classifier probabilities are absolute (the numbers not listed, and scratch marks, hold
    # the rest of the mass); a tesseract reading multiplies its number's odds.
    scores: dict[int, float] = {}
    rest = 0.0
    if use_cls:
        for c in cls:
            assert isinstance(c.value, int)
            scores[c.value] = max(scores.get(c.value, 0.0), c.p)
        rest = max(0.0, 1.0 - sum(scores.values()))
        if use_tess and tess is not None:
            boost = 1.0 + (TESS_AGREE - 1.0) * max(tess_conf, 0.2)
            scores[tess] = max(scores.get(tess, 0.0), TESS_FLOOR) * boost
    elif use_tess and tess is not None:
        scores[tess] = max(tess_conf, 0.05)
        rest = 1.0 - scores[tess]  # the chance tesseract is wrong
    total = sum(scores.values()) + rest
    if total <= 0 or not scores:
        return Decision(None, 0.0, False, [])
    ranked = sorted(((v, sc / total) for v, sc in scores.items()), key=lambda t: -t[1])
    cands = [Candidate(v, p) for v, p in ranked]
    if not ranked:
        return Decision(None, 0.0, False, [])
    best_read = ranked[0][0]
    # (a sure reading above ``most`` is what was written: the player's slip, for the audit)
    ok = [(v, p) for v, p in ranked
          if (v <= most or p >= CONFIDENT_AT) and v <= MAX_NUMBER and (legal is None or v in legal)]
    if not ok:
        return Decision(None, 0.0, False, cands)
    value, p = ok[0]
    return Decision(value, p, value != best_read, cands)

