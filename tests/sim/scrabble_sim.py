"""Random SCRABBLE games without a dictionary (no word need be a word to be scored), played
to the end with a bag, racks and the book's end of game, written as correct sheets.

The turn scores come from an oracle of its own: every maximal run of two or more letters
that holds a new tile, in both directions, scored from the board after the play (the core
scores the play's line and each new tile's cross line instead)."""

from __future__ import annotations

import random
from typing import Any

from scorepad.scrabble.board import (
    DISTRIBUTION,
    DOUBLE_LETTER,
    DOUBLE_WORD,
    TRIPLE_LETTER,
    TRIPLE_WORD,
    VALUES,
    square_name,
)

Sq = tuple[int, int]
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def oracle_score(board: dict[Sq, tuple[str, bool]], new: dict[Sq, tuple[str, bool]]) -> int:
    after = {**board, **new}
    total = 0
    for dx, dy in ((1, 0), (0, 1)):
        seen: set[Sq] = set()
        for sq in new:
            x, y = sq
            while (x - dx, y - dy) in after:
                x, y = x - dx, y - dy
            if (x, y) in seen:
                continue
            seen.add((x, y))
            run = []
            while (x, y) in after:
                run.append((x, y))
                x, y = x + dx, y + dy
            if len(run) < 2:
                continue
            word, mult = 0, 1
            for s in run:
                letter, blank = after[s]
                v = 0 if blank else VALUES[letter]
                if s in new:
                    v *= 3 if s in TRIPLE_LETTER else 2 if s in DOUBLE_LETTER else 1
                    mult *= 3 if s in TRIPLE_WORD else 2 if s in DOUBLE_WORD else 1
                word += v
            total += word * mult
    return total + (50 if len(new) == 7 else 0)


def _try_play(rng: random.Random, board: dict[Sq, Any], rack: list[str]) -> list[Sq] | None:
    if not rack:
        return None
    k = rng.randint(1, min(7, len(rack)))
    if not board:
        k = max(k, 2) if len(rack) >= 2 else 0
        if not k:
            return None
        start = rng.randint(max(0, 7 - k + 1), 7)
        across = rng.random() < 0.5
        return [(start + i, 7) if across else (7, start + i) for i in range(k)]
    empties = [(x + dx, y + dy) for (x, y) in board for dx, dy in ((1, 0), (-1, 0), (0, 1),
                                                                   (0, -1))]
    empties = [s for s in empties if 0 <= s[0] < 15 and 0 <= s[1] < 15 and s not in board]
    if not empties:
        return None
    x, y = rng.choice(sorted(set(empties)))
    dx, dy = rng.choice([(1, 0), (0, 1)])
    out: list[Sq] = []
    while len(out) < k and 0 <= x < 15 and 0 <= y < 15:
        if (x, y) not in board:
            out.append((x, y))
        x, y = x + dx, y + dy
    return out


def random_game(rng: random.Random, names: list[str]) -> dict[str, Any]:
    """One finished game as sheet JSON, written correctly, with its move log."""
    n = len(names)
    bag = [c for c, k in DISTRIBUTION.items() for _ in range(k)]
    rng.shuffle(bag)
    racks = [[bag.pop() for _ in range(7)] for _ in range(n)]
    board: dict[Sq, tuple[str, bool]] = {}
    turns: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    totals = [0] * n
    idle, p, out = 0, 0, None
    while idle < 2 * n and sum(map(len, turns)) < 400:
        rack = racks[p]
        squares = _try_play(rng, board, rack) if rng.random() > 0.08 else None
        if squares:
            picked = rng.sample(range(len(rack)), len(squares))
            new = {}
            for sq, i in zip(squares, picked, strict=True):
                c = rack[i]
                new[sq] = (rng.choice(ALPHABET), True) if c == "?" else (c, False)
            for i in sorted(picked, reverse=True):
                rack.pop(i)
            score = oracle_score(board, new)
            board.update(new)
            while len(rack) < 7 and bag:
                rack.append(bag.pop())
            totals[p] += score
            tiles = [{"square": square_name(s), "letter": t[0], "blank": t[1]}
                     for s, t in new.items()]
            turns[p].append({"score": score, "total": totals[p], "kind": "play",
                             "tiles": tiles})
            idle = 0
            if not rack:
                out = p
                break
        else:
            kind = "exchange" if len(bag) >= 7 and rng.random() < 0.5 else "pass"
            if kind == "exchange":
                back = [rack.pop(rng.randrange(len(rack))) for _ in range(rng.randint(1, len(rack)))]
                rack.extend(bag.pop() for _ in range(len(back)))
                bag.extend(back)
                rng.shuffle(bag)
            turns[p].append({"score": 0, "total": totals[p], "kind": kind})
            idle += 1
        p = (p + 1) % n
    left = [sum(VALUES[c] for c in r) for r in racks]
    adj = [-v for v in left]
    if out is not None:
        adj[out] = sum(left)
    finals = [t + a for t, a in zip(totals, adj, strict=True)]
    top = [i for i in range(n) if finals[i] == max(finals)]
    best = max(totals[i] for i in top)
    winners = [names[i] for i in top if totals[i] == best]
    return {
        "players": [{"name": names[i], "turns": turns[i], "unplayed": "".join(sorted(racks[i])),
                     "adjustment": adj[i], "final": finals[i]} for i in range(n)],
        "winners": winners,
    }


def random_sheet(rng: random.Random, games: int = 1) -> dict[str, Any]:
    names = ["Ann", "Ben", "Cat", "Dan"][: rng.randint(2, 4)]
    return {"format": "scorepad/sheet@1", "game": "scrabble", "title": "simulated",
            "games": [random_game(rng, rng.sample(names, len(names))) for _ in range(games)]}
