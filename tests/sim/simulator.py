"""An independent Yahtzee game simulator for the random-game tests.

Plays complete (or in-progress) legal games under a rule-set model
(``model.Cfg``) with loaded dice, so that bonus Yahtzees and every joker path
occur, and writes sheets in the published JSON format (scorepad/schemas.py):
boxes, check marks, written totals (some left blank), a turn log, and the
PLAYERS' SCORES sheet.

It uses only ``tests/sim/model.py`` for the rules, never scorepad's own
scoring or placement code.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .model import (
    CH,
    FH,
    JOKER_LOWER,
    K3,
    K4,
    KEYS,
    LS,
    SS,
    TOTAL_KEYS,
    UPPER,
    Cfg,
    Y,
    placements,
    totals,
)

STRATEGIES = ("greedy", "random", "lower_first", "upper_first", "zero_yahtzee")


@dataclass
class GameRecord:
    """One simulated game of one player."""

    boxes: dict[int, int] = field(default_factory=dict)
    checks: int = 0
    turns: list[dict[str, Any]] = field(default_factory=list)
    paths: Counter[str] = field(default_factory=Counter)

    @property
    def complete(self) -> bool:
        return len(self.boxes) == 13


def _roll(rng: random.Random, n: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(n)]


def classify(cfg: Cfg, filled: dict[int, int], dice: list[int], box: int, value: int) -> str:
    """The joker path a placement of a five of a kind took (for coverage counts)."""
    face = dice[0]
    fbox = face - 1
    ybox = filled.get(Y)
    y = "y50" if ybox == 50 else "y0"
    lows_full = all(b in filled for b in JOKER_LOWER)
    if ybox is None:
        return "five_kind_yahtzee_open"
    if cfg.joker == "forced":
        if box == fbox:
            return f"forced_upper_{y}"
        if box in JOKER_LOWER:
            name = {K3: "3k", K4: "4k", FH: "fh", SS: "ss", LS: "ls", CH: "chance"}[box]
            return f"forced_lower_{name}" + ("_zero" if value == 0 else "") + f"_{y}"
        return f"forced_upper_zero_{y}"
    if cfg.joker == "priority":
        if box == fbox:
            return f"priority_upper_{y}"
        if box in (K3, K4):
            return f"priority_step2_{'3k' if box == K3 else '4k'}" + ("_zero" if value == 0 else "") + f"_{y}"
        if box in (CH, FH, SS, LS):
            name = {CH: "chance", FH: "steal_fh", SS: "steal_ss", LS: "steal_ls"}[box]
            return f"priority_step3_{name}" + ("_zero" if value == 0 else "") + f"_{y}"
        return f"priority_upper_zero_{y}"
    # conditional
    if box == fbox and value:
        return f"cond_upper_{y}"
    if fbox not in filled:
        if value == 0:
            return f"cond_open_zero_{y}"
        if box in (K3, K4, CH):
            return f"cond_open_natural_{y}"
        return f"cond_open_other_{y}"  # e.g. FH 25 with five_of_a_kind_full_house
    if box in (FH, SS, LS) and value:
        return f"cond_joker_{ {FH: 'fh', SS: 'ss', LS: 'ls'}[box]}_{y}"
    if box in (K3, K4, CH) and value:
        return f"cond_joker_total_{y}"
    if box in UPPER and value == 0 and lows_full:
        return f"cond_upper_zero_lower_full_{y}"
    return f"cond_joker_zero_{y}"


def _choose(
    rng: random.Random, cfg: Cfg, strategy: str, filled: dict[int, int], dice: list[int]
) -> tuple[int, int]:
    opts, joker, _bonus = placements(cfg, filled, dice)
    if not cfg.scratch:
        opts = [o for o in opts if o[2] != "scratch"]
    assert opts, (cfg, filled, dice)
    if strategy == "random":
        b, v, _ = rng.choice(opts)
        return b, v
    if strategy == "zero_yahtzee" and Y not in filled and not joker and len(filled) < 4:
        for b, v, _ in opts:
            if b == Y and v == 0:
                return b, v
    if rng.random() < 0.15:  # a little noise for every strategy
        b, v, _ = rng.choice(opts)
        return b, v

    def key(o: tuple[int, int, str]) -> tuple[float, float]:
        b, v, _ = o
        pref = 0.0
        if strategy == "lower_first":
            pref = 1.0 if b >= 6 else 0.0
        elif strategy == "upper_first":
            pref = 1.0 if b < 6 else 0.0
        return (pref if v > 0 else -1.0, v + rng.random())

    b, v, _ = max(opts, key=key)
    return b, v


def play_turn(
    rng: random.Random, cfg: Cfg, rec: GameRecord, strategy: str, p_load: float,
    place: bool = True,
) -> None:
    """One turn: up to three rolls with loaded dice, then one legal placement (or, with
    ``place`` false, a turn still going on: rolls and kept dice, no box yet)."""
    dice = _roll(rng, 5)
    if rng.random() < p_load:
        dice = [rng.randint(1, 6)] * 5
    rolls = [list(dice)]
    kept_log: list[list[int]] = []
    n_rolls = rng.choice((1, 2, 3, 3, 3))
    for _ in range(n_rolls - 1):
        if len(set(dice)) == 1 and rng.random() < 0.8:
            break
        counts = Counter(dice)
        mode = rng.random()
        if mode < 0.6:
            face, _n = counts.most_common(1)[0]
            keep = [face] * counts[face]
        elif mode < 0.8:
            keep = sorted(set(dice))[: rng.randint(0, 4)]
        else:
            keep = [d for d in dice if rng.random() < 0.5]
        if len(keep) == 5:
            keep = keep[:4]
        n_new = 5 - len(keep)
        if len(set(keep)) <= 1 and rng.random() < p_load:
            face = keep[0] if keep else rng.randint(1, 6)
            new = [face] * n_new
        else:
            new = _roll(rng, n_new)
        dice = list(keep) + new
        if rng.random() < 0.3:  # the order of dice on the table means nothing
            rng.shuffle(dice)
        kept_log.append(sorted(keep) if rng.random() < 0.5 else list(keep))
        rolls.append(list(dice))
    if not place:
        rec.turns.append({"rolls": rolls, "kept": kept_log, "box": None, "value": None})
        rec.paths["turn_in_progress"] += 1
        return
    box, value = _choose(rng, cfg, strategy, rec.boxes, dice)
    opts, joker, bonus = placements(cfg, rec.boxes, dice)
    assert any(b == box and v == value for b, v, _ in opts)
    if len(set(dice)) == 1:
        rec.paths[classify(cfg, rec.boxes, dice, box, value)] += 1
    if bonus:
        rec.checks += 1
        rec.paths["bonus_check"] += 1
    if joker and rec.boxes.get(Y) == 0:
        rec.paths["joker_after_yahtzee_zero"] += 1
    rec.boxes[box] = value
    rec.turns.append({"rolls": rolls, "kept": kept_log, "box": KEYS[box], "value": value})


def play_game(
    rng: random.Random, cfg: Cfg, n_turns: int = 13, strategy: str | None = None,
    p_load: float | None = None,
) -> GameRecord:
    rec = GameRecord()
    strategy = strategy or rng.choice(STRATEGIES)
    p_load = rng.choice((0.05, 0.2, 0.4, 0.6)) if p_load is None else p_load
    for _ in range(n_turns):
        play_turn(rng, cfg, rec, strategy, p_load)
    if n_turns < 13 and rng.random() < 0.3:
        play_turn(rng, cfg, rec, strategy, p_load, place=False)
    if strategy:
        rec.paths[f"strategy_{strategy}"] += 1
    if rec.checks >= 2 and rec.boxes.get(Y) == 50:
        rec.paths["two_or_more_bonus_checks"] += 1
    return rec


def written_totals(
    rng: random.Random, rec: GameRecord, cfg: Cfg, style: str
) -> dict[str, int | None]:
    """The total boxes as a careful player writes them ("full", "blank", "some")."""
    if style == "blank":
        return {k: None for k in TOTAL_KEYS}
    t = totals(rec.boxes, rec.checks, cfg)
    out: dict[str, int | None] = dict(t)
    if not rec.complete:
        # A game in progress: only the totals of a finished section, as players do.
        upper_done = all(b in rec.boxes for b in UPPER)
        lower_done = all(b in rec.boxes for b in range(6, 13))
        keep = set()
        if upper_done:
            keep |= {"upper_total_score", "upper_bonus", "upper_total"}
        if lower_done:
            keep |= {"yahtzee_bonus", "lower_total"}
        out = {k: (v if k in keep else None) for k, v in out.items()}
        if keep:
            rec.paths["section_total_in_progress"] += 1
    if style == "some":
        for k in TOTAL_KEYS:
            if rng.random() < 0.3:
                out[k] = None
    return out


def game_json(
    rng: random.Random, rec: GameRecord, cfg: Cfg, style: str, with_turns: bool
) -> dict[str, Any]:
    d: dict[str, Any] = {
        "boxes": {k: rec.boxes.get(i) for i, k in enumerate(KEYS)},
        "yahtzee_bonus_checks": rec.checks,
        "totals": written_totals(rng, rec, cfg, style),
    }
    if with_turns:
        d["turns"] = rec.turns
    return d


@dataclass
class SimSheet:
    sheet: dict[str, Any]  # the sheet JSON, with turn logs
    records: list[list[GameRecord]]  # [player][game]
    paths: Counter[str]

    def without_turns(self) -> dict[str, Any]:
        import copy

        s = copy.deepcopy(self.sheet)
        for p in s["players"]:
            for g in p["games"]:
                if g is not None:
                    g.pop("turns", None)
        return s


def simulate_sheet(
    rng: random.Random, cfg: Cfg, rules_json: Any = None, n_players: int | None = None,
    n_games: int | None = None, in_progress: bool | None = None,
) -> SimSheet:
    """A pad: 1-4 players, 1-6 games, the last game maybe in progress."""
    n_players = n_players or rng.choice((1, 1, 2, 3, 4))
    n_games = n_games or rng.choice((1, 1, 2, 3, 6))
    if in_progress is None:
        in_progress = rng.random() < 0.25
    stop_turn = rng.randint(0, 12) if in_progress else 13
    style = rng.choice(("full", "full", "blank", "some"))
    records: list[list[GameRecord]] = []
    paths: Counter[str] = Counter()
    players = []
    for p in range(n_players):
        games = []
        recs = []
        for g in range(n_games):
            last = g == n_games - 1
            n_turns = 13
            if last and in_progress:
                # players before the one whose turn it is have played one more turn
                n_turns = min(13, stop_turn + (1 if p < n_players // 2 else 0))
            rec = play_game(rng, cfg, n_turns)
            if not rec.complete:
                rec.paths["in_progress_game"] += 1
            recs.append(rec)
            games.append(game_json(rng, rec, cfg, style, with_turns=True))
            paths.update(rec.paths)
        records.append(recs)
        grands = [
            totals(r.boxes, r.checks, cfg)["grand_total"] if r.complete else None for r in recs
        ]
        scores: dict[str, Any] | None
        if style == "blank" or rng.random() < 0.2:
            scores = None
        else:
            scores = {
                "games": grands,
                "total": sum(grands) if all(x is not None for x in grands) else None,  # type: ignore[misc]
            }
            if scores["total"] is not None:
                paths["players_scores_total_written"] += 1
        players.append({"name": f"Player {p + 1}", "games": games, "players_scores": scores})
    if n_players > 1:
        paths["multi_player_sheet"] += 1
    if n_games > 1:
        paths["multi_game_sheet"] += 1
    if style != "full":
        paths[f"totals_{style}"] += 1
    sheet = {
        "format": "scorepad/sheet@1",
        "title": "simulated",
        "rules": rules_json if rules_json is not None else cfg.name,
        "players": players,
    }
    return SimSheet(sheet, records, paths)
