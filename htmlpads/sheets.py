"""Random score sheets: simulated legal play, written totals, and deliberate player slips.

Only the ``scorepad`` core is used: legal placements come from
``scorepad.placement.legal_options`` and the correct totals from
``scorepad.card.compute_totals`` under the ``hasbro`` rule set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scorepad.boxes import ALL_BOXES, UPPER, Box, TotalField
from scorepad.card import MAX_GAMES, Game, Player, PlayersScores, Sheet, compute_totals
from scorepad.placement import legal_options
from scorepad.rules import RuleSet, get_rules

RULES_NAME = "hasbro"
SLIP_RATE = 0.15  # share of complete game columns with a deliberate player slip

NAMES = (
    "Ann", "Bob", "Carla", "Dave", "Emma", "Frank", "Gina", "Hank", "Iris", "Jack", "Kate", "Leo",
    "Mia", "Ned", "Olga", "Pete", "Rosa", "Sam", "Tina", "Vic", "Wendy", "Zoe", "Grandma", "Dad",
    "Mom", "Lucy", "Max", "Nora", "Owen", "Ruth", "Theo", "Uma", "Gus", "Jill", "Kim", "Liz",
    "Marty", "Nick", "Pat", "Ray", "Sue", "Tom", "Walt", "Abby", "Ben", "Cody", "Dora", "Eli",
)

# What a middling player hopes to get in each box: choices compare a value with this.
_PAR: dict[Box, float] = {
    Box.ACES: 2.0, Box.TWOS: 5.0, Box.THREES: 8.0, Box.FOURS: 11.0, Box.FIVES: 14.0,
    Box.SIXES: 17.0, Box.THREE_OF_A_KIND: 20.0, Box.FOUR_OF_A_KIND: 14.0, Box.FULL_HOUSE: 16.0,
    Box.SMALL_STRAIGHT: 20.0, Box.LARGE_STRAIGHT: 22.0, Box.YAHTZEE: 12.0, Box.CHANCE: 22.0,
}

# Totals a player adds up, in the order they are written on the pad.
_SUM_FIELDS = (TotalField.UPPER_SUBTOTAL, TotalField.UPPER_TOTAL, TotalField.LOWER_TOTAL,
               TotalField.UPPER_TOTAL_REPEAT, TotalField.GRAND_TOTAL)


@dataclass
class Slip:
    """A deliberate mistake in one game column (what a benchmark should catch)."""

    game: int  # GAME #n, 1-based
    kind: str  # "arithmetic", "upper_bonus", "yahtzee_bonus", "total_of_all_games"
    fields: dict[str, dict[str, int | None]] = field(default_factory=dict)  # key -> written/correct
    carried: bool = False  # later totals were added up from the wrong number

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "kind": self.kind, "fields": self.fields, "carried": self.carried}


@dataclass
class SheetPlan:
    """A generated sheet plus what the meta records about it."""

    sheet: Sheet
    slips: list[Slip]
    in_progress: list[int]  # GAME #n columns still being played
    bonus_games: list[int]  # GAME #n columns with Yahtzee bonus checks


def rules() -> RuleSet:
    return get_rules(RULES_NAME)


def _roll(rng: np.random.Generator, n: int) -> list[int]:
    return [int(x) for x in rng.integers(1, 7, size=n)]


def _longest_run(faces: set[int]) -> list[int]:
    best: list[int] = []
    for start in range(1, 7):
        run = []
        f = start
        while f in faces:
            run.append(f)
            f += 1
        if len(run) > len(best):
            best = run
    return best


def _play_turn(rng: np.random.Generator, open_boxes: set[Box], forced_yahtzee: bool) -> list[int]:
    """Three rolls, keeping dice for an open box, like a casual player."""
    if forced_yahtzee:
        return [int(rng.integers(1, 7))] * 5
    dice = _roll(rng, 5)
    straights_open = bool(open_boxes & {Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT})
    for _ in range(2):
        counts = np.bincount(dice, minlength=7)
        run = _longest_run(set(dice))
        if straights_open and len(run) >= 3 and max(counts) <= 2 and rng.random() < 0.75:
            if len(run) == 5 or (len(run) == 4 and Box.LARGE_STRAIGHT not in open_boxes):
                break
            keep = run
        else:
            noise = rng.random(7)
            want = [float(counts[f]) * 3.0 + f * 0.4 + (2.5 if UPPER[f - 1] in open_boxes else 0.0)
                    + float(noise[f]) for f in range(7)]
            best = max(range(1, 7), key=lambda f: want[f])
            keep = [best] * int(counts[best])
        if len(keep) == 5:
            break
        dice = keep + _roll(rng, 5 - len(keep))
    return sorted(dice)


def _utility(box: Box, value: int, turns_left: int) -> float:
    if value == 0:
        later = turns_left / 13.0
        return -4.0 - _PAR[box] * (0.25 + 0.75 * later)
    if box.is_upper:
        face = box.face or 1
        return value - 2.4 * face + (2.0 if value >= 3 * face else 0.0)
    return value - _PAR[box]


def _choose(rng: np.random.Generator, legal: list[tuple[Box, int]], turns_left: int) -> tuple[Box, int]:
    scores = [_utility(b, v, turns_left) + float(rng.normal(0.0, 2.5)) for b, v in legal]
    return legal[int(np.argmax(scores))]


def play_game(rng: np.random.Generator, rs: RuleSet, turns: int = 13,
              lucky: bool = False) -> Game:
    """Fill ``turns`` boxes by legal random play; ``lucky`` games roll extra Yahtzees."""
    boxes: dict[Box, int | None] = {}
    checks = 0
    forced: set[int] = set()
    if lucky:
        first = int(rng.integers(0, 6))
        forced = {first} | {int(t) for t in rng.choice(np.arange(first + 1, 13),
                                                        size=int(rng.integers(1, 3)), replace=False)}
    for t in range(turns):
        open_boxes = {b for b in ALL_BOXES if boxes.get(b) is None}
        dice = _play_turn(rng, open_boxes, t in forced)
        opts = legal_options(rs, boxes, dice)
        legal = opts.legal()
        if not legal:  # cannot happen with 13 boxes and 13 turns, but stay safe
            break
        box, value = _choose(rng, legal, 13 - t)
        if opts.bonus:
            checks += 1
        boxes[box] = value
    return Game(boxes=boxes, bonus_checks=checks, totals={})


def correct_totals(game: Game, rs: RuleSet) -> dict[TotalField, int]:
    t = compute_totals(game, rs)
    return {f: t.expected(f) for f in TotalField}


def _write_totals(rng: np.random.Generator, game: Game, rs: RuleSet) -> None:
    """Totals as a careful player writes them on a finished game."""
    totals: dict[TotalField, int | None] = dict(correct_totals(game, rs))
    if totals[TotalField.UPPER_BONUS] == 0 and rng.random() < 0.45:
        totals[TotalField.UPPER_BONUS] = None  # no bonus: box left empty
    if totals[TotalField.YAHTZEE_BONUS] == 0 and rng.random() < 0.8:
        totals[TotalField.YAHTZEE_BONUS] = None
    if rng.random() < 0.04:
        totals[TotalField.UPPER_TOTAL_REPEAT] = None  # lazy: grand total straight away
    game.totals = {f: v for f, v in totals.items() if v is not None}


def _recompute_from(game: Game, rs: RuleSet, start: TotalField) -> None:
    """A player who carries a wrong number on: later totals add up the written ones."""
    w = game.totals
    order = list(TotalField)
    t = compute_totals(game, rs)

    def get(f: TotalField, default: int) -> int:
        v = w.get(f)
        return default if v is None else v

    after = order[order.index(start) + 1:]
    for f in after:
        if f not in w:
            continue
        if f is TotalField.UPPER_TOTAL:
            w[f] = get(TotalField.UPPER_SUBTOTAL, t.upper_subtotal) + get(TotalField.UPPER_BONUS, 0)
        elif f is TotalField.UPPER_TOTAL_REPEAT:
            w[f] = get(TotalField.UPPER_TOTAL, t.upper_total)
        elif f is TotalField.LOWER_TOTAL:
            w[f] = t.lower_subtotal + get(TotalField.YAHTZEE_BONUS, t.yahtzee_bonus)
        elif f is TotalField.GRAND_TOTAL:
            up = w.get(TotalField.UPPER_TOTAL_REPEAT, w.get(TotalField.UPPER_TOTAL, t.upper_total))
            w[f] = (t.upper_total if up is None else up) + get(TotalField.LOWER_TOTAL, t.lower_total)


def _slip(rng: np.random.Generator, game: Game, rs: RuleSet, n: int) -> Slip:
    """Make one deliberate mistake in a finished game's totals (always an audit error)."""
    correct = correct_totals(game, rs)
    t = compute_totals(game, rs)
    kinds = ["arithmetic"] * 6 + ["upper_bonus"] * 2
    if game.bonus_checks:
        kinds += ["yahtzee_bonus"] * 3
    kind = str(rng.choice(kinds))
    start: TotalField
    if kind == "upper_bonus" and (t.upper_subtotal >= rs.upper_bonus_threshold
                                  or t.upper_subtotal >= 50):
        start = TotalField.UPPER_BONUS
        game.totals[start] = 0 if t.upper_bonus else rs.upper_bonus
    elif kind == "yahtzee_bonus":
        start = TotalField.YAHTZEE_BONUS
        wrong = [50 * game.bonus_checks, 100 * (game.bonus_checks + 1)]
        if game.bonus_checks > 1:
            wrong.append(100 * (game.bonus_checks - 1))
        game.totals[start] = int(rng.choice(wrong))
    else:
        kind = "arithmetic"
        start = TotalField(str(rng.choice([f.value for f in _SUM_FIELDS if f in game.totals])))
        deltas = [10, -10, 10, -10, 1, -1, 2, -2, 20, -20, 5, 100, -100]
        while True:
            d = int(rng.choice(deltas))
            v = correct[start] + d
            # a lower total 100 short that equals the boxes alone reads as "bonus left out",
            # which the audit treats as a notice, not a slip
            excludes = start is TotalField.LOWER_TOTAL and v == t.lower_subtotal and t.yahtzee_bonus
            if v >= 0 and not excludes:
                break
        game.totals[start] = v
    carried = bool(rng.random() < 0.6)
    if carried:
        _recompute_from(game, rs, start)
    fields = {f.value: {"written": game.totals.get(f), "correct": correct[f]}
              for f in TotalField if game.totals.get(f, correct[f]) != correct[f]}
    return Slip(game=n, kind=kind, fields=fields, carried=carried)


def random_front(rng: np.random.Generator, name: str | None = None) -> SheetPlan:
    """One player, 1-6 games; the last one sometimes in progress; ~15% slipped columns."""
    rs = rules()
    n_games = int(rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 6]))
    games: list[Game | None] = []
    slips: list[Slip] = []
    in_progress: list[int] = []
    bonus_games: list[int] = []
    for i in range(n_games):
        last = i == n_games - 1
        partial = last and rng.random() < 0.3
        turns = int(rng.integers(2, 13)) if partial else 13
        game = play_game(rng, rs, turns, lucky=bool(rng.random() < 0.12))
        if partial:
            in_progress.append(i + 1)
        else:
            _write_totals(rng, game, rs)
            if rng.random() < SLIP_RATE:
                slips.append(_slip(rng, game, rs, i + 1))
        if game.bonus_checks:
            bonus_games.append(i + 1)
        games.append(game)
    player = Player(name=name or str(rng.choice(NAMES)), games=games)
    return SheetPlan(Sheet(players=[player], rules=RULES_NAME), slips, in_progress, bonus_games)


def random_back(rng: np.random.Generator) -> SheetPlan:
    """The PLAYERS' SCORES side: 2-6 players, each game's grand total and the sum."""
    rs = rules()
    n_players = int(rng.integers(2, 7))
    n_games = int(rng.integers(1, MAX_GAMES + 1))
    names = [str(x) for x in rng.choice(NAMES, size=n_players, replace=False)]
    players: list[Player] = []
    slips: list[Slip] = []
    for pi, name in enumerate(names):
        rows: list[int | None] = []
        for _ in range(n_games):
            rows.append(compute_totals(play_game(rng, rs, 13, lucky=bool(rng.random() < 0.15)),
                                       rs).grand_total)
        total: int | None = sum(v for v in rows if v is not None)
        if rng.random() < 0.12:
            total = None  # not added up yet
        elif rng.random() < SLIP_RATE:
            assert total is not None
            wrong = total + int(rng.choice([10, -10, 100, -100, 1, -1, 20]))
            slips.append(Slip(game=0, kind="total_of_all_games",
                              fields={f"players[{pi}].total": {"written": wrong, "correct": total}}))
            total = wrong
        players.append(Player(name=name, games=[], players_scores=PlayersScores(rows, total)))
    return SheetPlan(Sheet(players=players, rules=RULES_NAME), slips, [], [])


def front_view(sheet: Sheet, player: int = 0) -> Sheet:
    """What the front of one pad shows: one player's game columns as written (no turn logs)."""
    p = sheet.players[player]
    games: list[Game | None] = []
    for g in p.games[:MAX_GAMES]:
        if g is None:
            games.append(None)
            continue
        games.append(Game(boxes={b: v for b, v in g.boxes.items() if v is not None},
                          bonus_checks=g.bonus_checks,
                          totals={f: v for f, v in g.totals.items() if v is not None}))
    return Sheet(players=[Player(name=p.name, games=games)], rules=sheet.rules, title=sheet.title)


def back_view(sheet: Sheet) -> Sheet:
    """What the back shows: each player's PLAYERS' SCORES column (copied from the cards if absent)."""
    players: list[Player] = []
    for p in sheet.players[:6]:
        ps = p.players_scores
        if ps is None:
            rows = [None if g is None else g.totals.get(TotalField.GRAND_TOTAL) for g in p.games]
            while rows and rows[-1] is None:
                rows.pop()
            known = [v for v in rows if v is not None]
            ps = PlayersScores(games=rows, total=sum(known) if known and len(known) == len(rows) else None)
        players.append(Player(name=p.name, games=[],
                              players_scores=PlayersScores(list(ps.games[:MAX_GAMES]), ps.total)))
    return Sheet(players=players, rules=sheet.rules, title=sheet.title)


def upper_complete(game: Game) -> bool:
    return all(game.boxes.get(b) is not None for b in UPPER)


def all_boxes_filled(game: Game) -> bool:
    return all(game.boxes.get(b) is not None for b in ALL_BOXES)
