"""An independent model of the Yahtzee rules, written from the rule books.

Used only by the tests in ``tests/sim``.  It deliberately does not import
``scorepad.scoring`` or ``scorepad.placement``: it is the second, independent
implementation the audit is checked against.  Only the sheet JSON keys (the
published format) and the rule-set option names are shared.

Book references are ``book:line`` into ``shared/seeds/``.

Natural scores (001:71-130, 003:44-92, 004:72-160, 002): upper boxes count one
face; 3K/4K/Chance the dice total (3K/4K only with 3/4 of a face); Full House
25 (three of one number and two of another, 001:106); Small Straight 30;
Large Straight 40; YAHTZEE 50.

Zeros: 001:65 "if you can't (or don't want to) enter a score, you must enter a
zero" and 004:66 "you can place a zero rather than a score in a box": a zero
may go in any open box.  Chance may hold a zero only when the rule set's
``zero_in_chance`` option says so.

Jokers (a five of a kind rolled while the YAHTZEE box is already filled):

* forced (001:136-162, 000:428-440): the matching upper box if open (dice
  total); else any open lower box at joker values (3K/4K/Chance the dice
  total, FH 25, SS 30, LS 40); else a zero in any open upper box.
* priority (003:101-115): the matching upper box; else 3K or 4K (dice total);
  else Chance or a stolen FH/SS/LS at 25/30/40; else (not stated by 003; the
  forced rule's last step) a zero in any open upper box.
* conditional (004:178-194, 002:47-69): the roll may always go where it
  scores naturally or take a zero; once the matching upper box is filled it
  may also fill any open lower box at joker values.

Yahtzee bonus: a five of a kind rolled with 50 in the YAHTZEE box earns a
check (001:136-140, 003:103-105, 004:172-176); none with 0 or an empty box.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

KEYS: tuple[str, ...] = (
    "aces", "twos", "threes", "fours", "fives", "sixes",
    "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
    "large_straight", "yahtzee", "chance",
)
TOTAL_KEYS: tuple[str, ...] = (
    "upper_total_score", "upper_bonus", "upper_total", "yahtzee_bonus",
    "lower_total", "upper_total_repeat", "grand_total",
)
UPPER = (0, 1, 2, 3, 4, 5)
K3, K4, FH, SS, LS, Y, CH = 6, 7, 8, 9, 10, 11, 12
LOWER = (K3, K4, FH, SS, LS, Y, CH)
JOKER_LOWER = (K3, K4, FH, SS, LS, CH)  # the lower boxes a joker can fill
INDEX = {k: i for i, k in enumerate(KEYS)}

ALL_ROLLS: tuple[tuple[int, ...], ...] = tuple(combinations_with_replacement(range(1, 7), 5))
FIVE_KINDS: tuple[tuple[int, ...], ...] = tuple((f,) * 5 for f in range(1, 7))


@dataclass(frozen=True)
class Cfg:
    """The rule-set facts the model needs (names from scorepad/rules.py)."""

    name: str
    joker: str  # "forced" | "priority" | "conditional" | "none"
    five_kind_fh: bool = False
    zero_in_chance: bool = True
    joker_zero: bool = True
    yahtzee_bonus: int = 100
    threshold: int = 63
    upper_bonus: int = 35
    # Simulator only: may a player write a zero where the dice score?  The
    # classic leaflet (003:34, 003:97) only speaks of a zero when nothing
    # suits, so the simulator never writes such a "scratch" under classic.
    scratch: bool = True


HASBRO = Cfg("hasbro", "forced")
CLASSIC = Cfg("classic", "priority", zero_in_chance=False, joker_zero=False, scratch=False)
TRAVEL = Cfg("travel", "conditional")
STANDARD = {c.name: c for c in (HASBRO, CLASSIC, TRAVEL)}

_OPTION_FIELDS = {
    "five_of_a_kind_full_house": "five_kind_fh",
    "zero_in_chance": "zero_in_chance",
    "joker_zero": "joker_zero",
    "yahtzee_bonus": "yahtzee_bonus",
    "upper_bonus_threshold": "threshold",
    "upper_bonus": "upper_bonus",
}
_BASE_JOKER = {"hasbro": "forced", "classic": "priority", "travel": "conditional"}


def custom(base: str, **options: Any) -> tuple[Cfg, dict[str, Any]]:
    """A house-rule Cfg and the matching custom rule-set JSON for the sheet."""
    cfg = STANDARD[base]
    changes: dict[str, Any] = {}
    for key, value in options.items():
        if key == "joker":
            changes["joker"] = value
        else:
            changes[_OPTION_FIELDS[key]] = value
    from dataclasses import replace

    name = "house-" + base + "".join(f"-{k}={v}" for k, v in sorted(options.items()))
    cfg = replace(cfg, name=name[:64], **changes)
    return cfg, {"name": name[:64], "base": base, **options}


def natural(box: int, dice: tuple[int, ...] | list[int], five_kind_fh: bool = False) -> int:
    """What ``dice`` score in ``box`` with no joker."""
    counts = Counter(dice)
    total = sum(dice)
    most = max(counts.values())
    faces = set(dice)
    if box < 6:
        return (box + 1) * counts[box + 1]
    if box == K3:
        return total if most >= 3 else 0
    if box == K4:
        return total if most >= 4 else 0
    if box == FH:
        shape = sorted(counts.values())
        return 25 if shape == [2, 3] or (five_kind_fh and most == 5) else 0
    if box == SS:
        runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
        return 30 if any(r <= faces for r in runs) else 0
    if box == LS:
        return 40 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if box == Y:
        return 50 if most == 5 else 0
    if box == CH:
        return total
    raise ValueError(box)


@cache
def natural_all(dice: tuple[int, ...], five_kind_fh: bool = False) -> tuple[int, ...]:
    """``natural`` for all 13 boxes (dice sorted)."""
    return tuple(natural(b, dice, five_kind_fh) for b in range(13))


def joker_value(box: int, face: int) -> int:
    """A five of ``face`` used as a joker in a lower box (001:146-158)."""
    return {FH: 25, SS: 30, LS: 40}.get(box, 5 * face)


def zero_ok(cfg: Cfg, box: int) -> bool:
    return box != CH or cfg.zero_in_chance


def placements(
    cfg: Cfg, filled: dict[int, int], dice: tuple[int, ...] | list[int]
) -> tuple[list[tuple[int, int, str]], bool, bool]:
    """Every legal (box, value, path) for ``dice`` on a card with ``filled`` boxes.

    Returns (placements, joker, bonus).  ``path`` names the rule that allows it:
    "natural", "scratch" (a zero where the dice score), or a joker path.
    """
    five = len(set(dice)) == 1
    face = dice[0]
    ybox = filled.get(Y)
    bonus = five and ybox == 50 and cfg.yahtzee_bonus > 0
    joker = five and ybox is not None and cfg.joker != "none"
    opens = [b for b in range(13) if b not in filled]
    out: list[tuple[int, int, str]] = []

    scores = natural_all(tuple(sorted(dice)), cfg.five_kind_fh)

    def naturals(boxes: list[int]) -> None:
        for b in boxes:
            n = scores[b]
            out.append((b, n, "natural"))
            if n != 0 and zero_ok(cfg, b):
                out.append((b, 0, "scratch"))

    if not joker:
        naturals(opens)
        return out, False, bonus

    fbox = face - 1
    lows = [b for b in JOKER_LOWER if b not in filled]
    uppers = [b for b in UPPER if b not in filled]

    def lower_jokers(boxes: list[int], path: str) -> None:
        for b in boxes:
            out.append((b, joker_value(b, face), path))
            if cfg.joker_zero and zero_ok(cfg, b):
                out.append((b, 0, path + "_zero"))

    if cfg.joker == "forced":
        if fbox not in filled:
            out.append((fbox, 5 * face, "joker_upper"))
        elif lows:
            lower_jokers(lows, "joker_lower")
        else:
            out.extend((b, 0, "joker_upper_zero") for b in uppers)
    elif cfg.joker == "priority":
        step2 = [b for b in (K3, K4) if b not in filled]
        step3 = [b for b in (CH, FH, SS, LS) if b not in filled]
        if fbox not in filled:
            out.append((fbox, 5 * face, "joker_upper"))
        elif step2:
            lower_jokers(step2, "joker_step2")
        elif step3:
            lower_jokers(step3, "joker_step3")
        else:
            out.extend((b, 0, "joker_upper_zero") for b in uppers)
    elif cfg.joker == "conditional":
        naturals(opens)
        if fbox in filled:
            lower_jokers(lows, "joker_lower")
    else:  # pragma: no cover - every rule set has one of the three
        raise ValueError(cfg.joker)
    # One entry per (box, value), keeping the first (most specific) path.
    seen: set[tuple[int, int]] = set()
    uniq = []
    for b, v, p in out:
        if (b, v) not in seen:
            seen.add((b, v))
            uniq.append((b, v, p))
    return uniq, True, bonus


def totals(boxes: dict[int, int], checks: int, cfg: Cfg) -> dict[str, int]:
    """The pad's totals for the boxes as written (001:164-176)."""
    upper = sum(v for b, v in boxes.items() if b < 6)
    lower = sum(v for b, v in boxes.items() if b >= 6)
    bonus = cfg.upper_bonus if upper >= cfg.threshold else 0
    ybonus = checks * cfg.yahtzee_bonus
    return {
        "upper_total_score": upper,
        "upper_bonus": bonus,
        "upper_total": upper + bonus,
        "yahtzee_bonus": ybonus,
        "lower_total": lower + ybonus,
        "upper_total_repeat": upper + bonus,
        "grand_total": upper + bonus + lower + ybonus,
    }
