"""An exact, exhaustive oracle for card legality (independent of scorepad).

``Oracle(cfg).possible(boxes, checks)`` answers: does some legal game under
the rule set produce this card -- these box values (any subset of the 13
boxes filled, the rest empty) and this many YAHTZEE BONUS check marks?

It searches every order in which the filled boxes can have been filled and
every roll for each turn, with a dynamic programme over filled-box subsets:
``reach[mask]`` is the set of check counts some legal sequence of turns
filling exactly ``mask`` (with the card's values) can have earned.  A turn
fills one box ``b`` of the card with its written value ``v`` using some roll:

* the 246 rolls that are not five of a kind place the same way on every card
  (any open box, natural value or a zero), so their (box, value) pairs are
  computed once from all of them;
* the six five-of-a-kind rolls are run through ``model.placements`` with the
  card as it stands at that moment (YAHTZEE box, matching upper box, lower
  section), which is where the joker rule and the order come in; such a roll
  earns a check exactly when the YAHTZEE box already holds 50.

The card is possible iff ``checks`` is in ``reach[all filled boxes]``.
"""

from __future__ import annotations

import numpy as np

from .model import ALL_ROLLS, FIVE_KINDS, Cfg, Y, placements

NMASK = 1 << 13
_MASKS = np.arange(NMASK, dtype=np.int64)
_POP = np.array([bin(m).count("1") for m in range(NMASK)], dtype=np.int64)
# _LAYER[L][b]: the masks with L boxes filled, box b not among them
_LAYER = [
    [_MASKS[(n == _POP) & ((_MASKS >> b) & 1 == 0)] for b in range(13)] for n in range(13)
]


class Oracle:
    def __init__(self, cfg: Cfg) -> None:
        self.cfg = cfg
        self.plain: list[set[int]] = [set() for _ in range(13)]
        for dice in ALL_ROLLS:
            if len(set(dice)) == 1:
                continue
            opts, joker, bonus = placements(cfg, {}, dice)
            assert not joker and not bonus
            for b, v, _ in opts:
                self.plain[b].add(v)
        self._tables: dict[int | None, dict[tuple[int, int], np.ndarray]] = {}
        self._five: dict[tuple[int, int | None], tuple[frozenset[tuple[int, int]], bool]] = {}

    def five_kind(self, mask: int, yvalue: int | None) -> tuple[frozenset[tuple[int, int]], bool]:
        """(box, value) pairs some five of a kind may fill on a card with ``mask`` filled,
        and whether such a roll earns a check.  Only the YAHTZEE box's value matters."""
        key = (mask, yvalue)
        hit = self._five.get(key)
        if hit is None:
            filled = {b: 0 for b in range(13) if mask >> b & 1}
            if mask >> Y & 1:
                assert yvalue is not None
                filled[Y] = yvalue
            pairs: set[tuple[int, int]] = set()
            bonus = False
            for dice in FIVE_KINDS:
                opts, _joker, bonus = placements(self.cfg, filled, dice)
                pairs.update((b, v) for b, v, _ in opts)
            hit = (frozenset(pairs), bonus)
            self._five[key] = hit
        return hit

    def reach(self, boxes: dict[int, int]) -> dict[int, int]:
        """reach[mask]: bit k set when k checks are possible after filling ``mask``."""
        full = 0
        for b in boxes:
            full |= 1 << b
        yv = boxes.get(Y)
        reach: dict[int, int] = {0: 1}
        sub = 0
        while True:
            r = reach.get(sub, 0)
            if r:
                pairs, bonus = self.five_kind(sub, yv if sub >> Y & 1 else None)
                rest = full & ~sub
                while rest:
                    low = rest & -rest
                    rest ^= low
                    b = low.bit_length() - 1
                    v = boxes[b]
                    five_ok = (b, v) in pairs
                    add = 0
                    if v in self.plain[b] or (five_ok and not bonus):
                        add |= r
                    if five_ok and bonus:
                        add |= r << 1
                    if add:
                        nxt = sub | low
                        reach[nxt] = reach.get(nxt, 0) | add
            if sub == full:
                break
            sub = (sub - full) & full
        return reach

    def possible_slow(self, boxes: dict[int, int], checks: int) -> bool:
        """The same answer from the plain-Python table (used to cross-check)."""
        if checks < 0:
            return False
        full = 0
        for b in boxes:
            full |= 1 << b
        return bool(self.reach(boxes).get(full, 0) >> checks & 1)

    def _build_tables(self, yvalue: int | None) -> dict[tuple[int, int], np.ndarray]:
        """For every (box, value): ok[mask] when some five of a kind may put ``value`` in
        ``box`` on a card with ``mask`` filled.  ``yvalue`` None: the masks without the
        YAHTZEE box; otherwise the masks with it, holding ``yvalue``."""
        hits: dict[tuple[int, int], list[int]] = {}
        for mask in range(NMASK):
            has_y = bool(mask >> Y & 1)
            if has_y != (yvalue is not None):
                continue
            pairs, _bonus = self.five_kind(mask, yvalue)
            for pair in pairs:
                hits.setdefault(pair, []).append(mask)
        tables = {}
        for pair, masks in hits.items():
            arr = np.zeros(NMASK, dtype=bool)
            arr[masks] = True
            tables[pair] = arr
        return tables

    def _five_table(self, yvalue: int | None, box: int, value: int) -> np.ndarray:
        """ok[mask] for a card whose YAHTZEE box holds ``yvalue`` (None: empty)."""
        parts = [None] + ([yvalue] if yvalue in (0, 50) else [])
        out = np.zeros(NMASK, dtype=bool)
        for part in parts:
            if part not in self._tables:
                self._tables[part] = self._build_tables(part)
            hit = self._tables[part].get((box, value))
            if hit is not None:
                out = out | hit
        return out

    def possible(self, boxes: dict[int, int], checks: int) -> bool:
        if checks < 0 or checks > 13:
            return False
        return bool(self.check_counts(boxes) >> checks & 1)

    def check_counts(self, boxes: dict[int, int]) -> int:
        """Bit k set when some legal game leaves this card with k checks (numpy DP over
        filled-box subsets, one popcount layer at a time)."""
        yv = boxes.get(Y)
        bonus_state = np.zeros(NMASK, dtype=bool)
        if yv == 50 and self.cfg.yahtzee_bonus > 0:
            bonus_state = (_MASKS >> Y & 1) == 1
        trans = {}
        for b, v in boxes.items():
            five = self._five_table(yv if b != Y else None, b, v)
            plain = v in self.plain[b]
            normal = np.ones(NMASK, dtype=bool) if plain else five & ~bonus_state
            trans[b] = (normal, five & bonus_state)
        reach = np.zeros(NMASK, dtype=np.int64)
        reach[0] = 1
        full = 0
        for b in boxes:
            full |= 1 << b
        for n in range(len(boxes)):
            for b, (normal, bonus) in trans.items():
                src = _LAYER[n][b]
                r = reach[src]
                add = np.where(normal[src], r, 0) | np.where(bonus[src], r << 1, 0)
                reach[src | (1 << b)] |= add
        return int(reach[full])

    def witness(self, boxes: dict[int, int], checks: int) -> list[tuple[int, int, bool]] | None:
        """One legal order of turns, as (box, value, bonus) -- for failure messages."""
        reach = self.reach(boxes)
        full = 0
        for b in boxes:
            full |= 1 << b
        if not reach.get(full, 0) >> checks & 1:
            return None
        order: list[tuple[int, int, bool]] = []
        mask, k = full, checks
        yv = boxes.get(Y)
        while mask:
            for b in boxes:
                if not mask >> b & 1:
                    continue
                prev = mask & ~(1 << b)
                r = reach.get(prev, 0)
                if not r:
                    continue
                pairs, bonus = self.five_kind(prev, yv if prev >> Y & 1 else None)
                v = boxes[b]
                five_ok = (b, v) in pairs
                if (v in self.plain[b] or (five_ok and not bonus)) and r >> k & 1:
                    order.append((b, v, False))
                    mask = prev
                    break
                if five_ok and bonus and k and r >> (k - 1) & 1:
                    order.append((b, v, True))
                    mask, k = prev, k - 1
                    break
            else:  # pragma: no cover
                raise AssertionError("reach table inconsistent")
        return order[::-1]
