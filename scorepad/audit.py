"""The card audit: one call returns every finding on a sheet.

Exact by construction: single boxes are checked against the values some roll
can score there (``values``), and the cross-box joker/bonus logic is decided by
an exact search (``bonus``), so a card that some legal game produces never gets
an error and a card no legal game produces always does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from . import messages
from .bonus import plan_bonus_turns
from .boxes import ALL_BOXES, LOWER, UPPER, Box, TotalField
from .card import MAX_GAMES, Game, GameTotals, Player, Sheet, compute_totals
from .doubts import apply_doubts, apply_hidden, apply_unread, has_readings
from .findings import Code, Finding, Severity
from .placement import allowed_values
from .rules import RuleSet, get_rules
from .scoring import ALL_ROLLS, is_yahtzee, natural_scores
from .tally import Tally, tally_sheet, winners_of
from .values import possible_table


@dataclass
class GameReport:
    player: int
    player_name: str
    game: int
    complete: bool
    totals: GameTotals
    witness: list[dict[str, Any]] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "player_name": self.player_name,
            "game": self.game,
            "complete": self.complete,
            "totals": self.totals.to_dict(),
            "witness": self.witness,
        }


@dataclass
class Report:
    rule_set: RuleSet
    findings: list[Finding] = field(default_factory=list)
    games: list[GameReport] = field(default_factory=list)
    tally: Tally | None = None

    @property
    def ok(self) -> bool:
        """No error (a doubt is not an error: it asks for a look at the photo)."""
        return not any(f.severity is Severity.ERROR for f in self.findings)

    @property
    def verdict(self) -> str:
        """"correct" (no error, no doubt), "unsure" (doubts, no error) or "errors"."""
        if not self.ok:
            return "errors"
        return "unsure" if any(f.severity is Severity.DOUBT for f in self.findings) else "correct"

    def counts(self) -> dict[str, int]:
        c = Counter(f.severity.value for f in self.findings)
        return {s.value: c.get(s.value, 0) for s in Severity}

    def codes(self) -> list[str]:
        return [f.code.value for f in self.findings]

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule_set": self.rule_set.to_dict(),
            "ok": self.ok,
            "verdict": self.verdict,
            "counts": self.counts(),
            "findings": [f.to_dict() for f in self.findings],
            "games": [g.to_dict() for g in self.games],
            "tally": self.tally.to_dict() if self.tally else None,
        }


class _Collector:
    """Builds findings with the common fields filled in and the message rendered."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.findings: list[Finding] = []
        self.player: int | None = None
        self.player_name: str | None = None
        self.game: int | None = None

    def add(self, code: Code, topic: str, *, field: str | None = None, written: Any = None,
            expected: Any = None, game: int | None = -1, **details: Any) -> Finding:
        f = Finding(
            code=code,
            rule_set=self.rules.name,
            player=self.player,
            player_name=self.player_name,
            game=self.game if game == -1 else game,
            field=field,
            written=written,
            expected=expected,
            rules=[str(c) for c in self.rules.cite(topic)],
            details=details,
        )
        f.message = messages.render(f)
        self.findings.append(f)
        return f


@lru_cache(maxsize=16)
def _example_rolls(rules: RuleSet) -> dict[tuple[Box, int], list[int]]:
    """For each (box, value) some roll scoring it there, an ordinary roll where one exists."""
    table: dict[tuple[Box, int], list[int]] = {}
    for dice in sorted(ALL_ROLLS, key=is_yahtzee):  # ordinary rolls first
        for box, score in natural_scores(dice, rules.five_of_a_kind_full_house).items():
            table.setdefault((box, score), list(dice))
    return table


def _example_dice(rules: RuleSet, box: Box, value: int) -> list[int]:
    """Some roll that scores ``value`` in ``box`` (for the witness); any roll for a zero."""
    return _example_rolls(rules).get((box, value)) or [1, 2, 3, 4, 6]


def _audit_boxes(c: _Collector, game: Game) -> None:
    possible = possible_table(c.rules)
    for box in ALL_BOXES:
        v = game.boxes.get(box)
        if v is None:
            continue
        allowed = possible[box]
        if v not in allowed:
            topic = "zero_in_chance" if (box is Box.CHANCE and v == 0) else "box_values"
            c.add(Code.BOX_VALUE_IMPOSSIBLE, topic, field=box.value, written=v,
                  expected=sorted(allowed))


def _audit_bonus(c: _Collector, game: Game) -> list[dict[str, Any]] | None:
    k = game.bonus_checks
    if k <= 0:
        return None
    ybox = game.boxes.get(Box.YAHTZEE)
    if c.rules.yahtzee_bonus <= 0:
        c.add(Code.BONUS_CHECKS_NOT_IN_RULES, "yahtzee_bonus", field="yahtzee_bonus_checks",
              written=k, expected=0)
        return None
    if ybox != 50:
        c.add(Code.BONUS_CHECKS_WITHOUT_YAHTZEE_50, "yahtzee_bonus",
              field="yahtzee_bonus_checks", written=k, expected=0,
              yahtzee="blank" if ybox is None else ybox)
        return None
    possible = possible_table(c.rules)
    filled = {b: v for b, v in game.filled().items() if v in possible[b]}
    plan, most = plan_bonus_turns(c.rules, filled, k)
    if plan is None:
        c.add(Code.BONUS_CHECKS_UNSUPPORTED, "joker", field="yahtzee_bonus_checks",
              written=k, expected=most)
        return None
    return _witness(c.rules, filled, plan.turns)


def _witness(rules: RuleSet, filled: dict[Box, int],
             bonus_turns: tuple[tuple[Box, int], ...]) -> list[dict[str, Any]]:
    """One legal order of turns: ordinary turns, the YAHTZEE box, then the bonus turns."""
    bonus_boxes = {b for b, _ in bonus_turns}
    turns: list[dict[str, Any]] = []
    for box in ALL_BOXES:
        if box in filled and box not in bonus_boxes and box is not Box.YAHTZEE:
            turns.append({"box": box.value, "value": filled[box],
                          "dice": _example_dice(rules, box, filled[box]), "bonus": False})
    turns.append({"box": Box.YAHTZEE.value, "value": 50, "dice": [6] * 5, "bonus": False})
    for box, face in bonus_turns:
        turns.append({"box": box.value, "value": filled[box], "dice": [face] * 5, "bonus": True})
    for i, t in enumerate(turns, 1):
        t["turn"] = i
    return turns


_SECTION: dict[TotalField, tuple[Box, ...]] = {
    TotalField.UPPER_SUBTOTAL: UPPER,
    TotalField.UPPER_BONUS: UPPER,
    TotalField.UPPER_TOTAL: UPPER,
    TotalField.YAHTZEE_BONUS: (),
    TotalField.LOWER_TOTAL: LOWER,
    TotalField.UPPER_TOTAL_REPEAT: UPPER,
    TotalField.GRAND_TOTAL: ALL_BOXES,
}


_SECTIONS = frozenset(_SECTION.values())


def _audit_totals(c: _Collector, game: Game, t: GameTotals) -> None:
    grand_written = game.written(TotalField.GRAND_TOTAL)
    delta = None if grand_written is None else grand_written - t.grand_total
    filled = game.filled().keys()
    done = {section: filled >= set(section) for section in _SECTIONS}
    complete = done[ALL_BOXES]
    for total in TotalField:
        w = game.written(total)
        expected = t.expected(total)
        section_done = done[_SECTION[total]]
        if w is None:
            # The pad's YAHTZEE BONUS row holds the check marks; players often carry the
            # points straight into the lower TOTAL, so a blank points box is only worth
            # a notice when no later total accounts for it.
            points_carried = total is TotalField.YAHTZEE_BONUS and (
                game.written(TotalField.LOWER_TOTAL) is not None or grand_written is not None)
            if complete and not points_carried and not (
                (total is TotalField.UPPER_BONUS and expected == 0)
                or (total is TotalField.YAHTZEE_BONUS and expected == 0)
            ):
                c.add(Code.TOTAL_BLANK, "totals", field=total.value, expected=expected)
            continue
        if not section_done:
            # Finished-looking totals on unfinished sections are suspicious, not wrong:
            # only an upper bonus already earned can be checked early.
            if total is TotalField.UPPER_BONUS and t.upper_subtotal >= c.rules.upper_bonus_threshold:
                if w != expected:
                    c.add(Code.UPPER_BONUS_WRONG, "upper_bonus", field=total.value, written=w,
                          expected=expected, upper=t.upper_subtotal)
            elif w < expected and total is not TotalField.UPPER_BONUS:
                # boxes only add: no way of finishing the game makes this total right
                c.add(Code.TOTAL_BELOW_FILLED, "totals", field=total.value, written=w,
                      expected=expected)
            elif w > (most := expected + _headroom(total, game, t, c.rules)):
                c.add(Code.TOTAL_ABOVE_REACHABLE, "totals", field=total.value, written=w,
                      expected=most)
            elif w != expected:
                c.add(Code.TOTAL_PREMATURE, "totals", field=total.value, written=w,
                      expected=expected)
            continue
        if w == expected:
            continue
        impact = {"grand_total_delta": delta} if delta else {}
        if total is TotalField.UPPER_BONUS:
            c.add(Code.UPPER_BONUS_WRONG, "upper_bonus", field=total.value, written=w,
                  expected=expected, upper=t.upper_subtotal, **impact)
        elif total is TotalField.YAHTZEE_BONUS:
            c.add(Code.YAHTZEE_BONUS_POINTS_WRONG, "yahtzee_bonus", field=total.value,
                  written=w, expected=expected, checks=game.bonus_checks, **impact)
        elif total is TotalField.LOWER_TOTAL and w == t.lower_subtotal and t.yahtzee_bonus:
            c.add(Code.LOWER_TOTAL_EXCLUDES_BONUS, "totals", field=total.value, written=w,
                  expected=expected)
        else:
            c.add(Code.TOTAL_ARITHMETIC, "totals", field=total.value, written=w,
                  expected=expected, carried=_carried(game, total, w, c.rules), **impact)


def _headroom(total: TotalField, game: Game, t: GameTotals, rules: RuleSet) -> int:
    """At most how much filling the open boxes can still add to ``total``: each open box at
    its highest legal value, the upper bonus if still within reach, and a bonus Yahtzee on
    every later turn while YAHTZEE holds (or may yet hold) 50."""
    table = possible_table(rules)
    filled = game.filled()
    open_boxes = [b for b in ALL_BOXES if b not in filled]
    upper = sum(max(table[b]) for b in open_boxes if b in UPPER)
    bonus = rules.upper_bonus if (
        t.upper_bonus == 0 and t.upper_subtotal + upper >= rules.upper_bonus_threshold) else 0
    yahtzee = filled.get(Box.YAHTZEE)
    if rules.yahtzee_bonus == 0 or yahtzee == 0:
        later_bonuses = 0
    else:  # an open YAHTZEE box takes the first Yahtzee itself
        later_bonuses = len(open_boxes) - (1 if yahtzee is None else 0)
    lower = (sum(max(table[b]) for b in open_boxes if b in LOWER)
             + later_bonuses * rules.yahtzee_bonus)
    return {
        TotalField.UPPER_SUBTOTAL: upper,
        TotalField.UPPER_BONUS: bonus,
        TotalField.UPPER_TOTAL: upper + bonus,
        TotalField.UPPER_TOTAL_REPEAT: upper + bonus,
        TotalField.LOWER_TOTAL: lower,
        TotalField.GRAND_TOTAL: upper + bonus + lower,
    }.get(total, 0)


def _carried(game: Game, total: TotalField, w: int, rules: RuleSet) -> bool:
    """True when ``w`` follows from the player's own earlier written totals (a carried slip)."""
    g = game.written
    if total in (TotalField.UPPER_TOTAL, TotalField.UPPER_TOTAL_REPEAT):
        sub, bonus = g(TotalField.UPPER_SUBTOTAL), g(TotalField.UPPER_BONUS)
        if total is TotalField.UPPER_TOTAL_REPEAT and g(TotalField.UPPER_TOTAL) == w:
            return True
        return sub is not None and w == sub + (bonus or 0)
    if total is TotalField.GRAND_TOTAL:
        up = g(TotalField.UPPER_TOTAL_REPEAT) or g(TotalField.UPPER_TOTAL)
        low = g(TotalField.LOWER_TOTAL)
        return up is not None and low is not None and w in (
            up + low, up + low + (g(TotalField.YAHTZEE_BONUS) or 0))
    return False


def _audit_turns(c: _Collector, game: Game) -> None:
    turns = game.turns or []
    if len(turns) > 13:
        c.add(Code.TURN_LOG_TOO_LONG, "turn", field="turns", written=len(turns), expected=13)
    card: dict[Box, int] = {}
    logged_bonus = 0
    for i, turn in enumerate(turns, 1):
        where = f"turns[{i - 1}]"
        rolls = turn.rolls
        if len(rolls) > 3:
            c.add(Code.TURN_TOO_MANY_ROLLS, "turn", field=where, written=len(rolls),
                  expected=3, turn=i)
        if turn.kept and len(turn.kept) != len(rolls) - 1:
            c.add(Code.TURN_KEPT_COUNT, "turn", field=where, written=len(turn.kept),
                  expected=len(rolls) - 1, rolls=len(rolls), turn=i)
        else:
            for j, kept in enumerate(turn.kept):
                k = Counter(kept)
                for n, roll in ((j, rolls[j]), (j + 1, rolls[j + 1])):
                    if k - Counter(roll):
                        c.add(Code.TURN_KEPT_MISMATCH, "turn", field=where, written=sorted(kept),
                              expected=sorted(roll), roll=n + 1, turn=i)
                        break
        dice = rolls[-1]
        if turn.box is None:
            if i != len(turns):
                c.add(Code.TURN_NO_BOX, "turn", field=where, turn=i)
            continue
        box = turn.box
        value = turn.value if turn.value is not None else game.boxes.get(box)
        if box in card:
            c.add(Code.TURN_BOX_REUSED, "turn", field=box.value, written=value, turn=i)
            continue
        open_boxes = frozenset(b for b in ALL_BOXES if b not in card)
        allowed = allowed_values(c.rules, open_boxes, card.get(Box.YAHTZEE), dice)
        values, _reason = allowed[box]
        if not values:
            legal = sorted(b.value for b, (vals, _) in allowed.items() if vals)
            c.add(Code.TURN_PLACEMENT_ILLEGAL, "joker", field=box.value, written=value,
                  expected=legal, dice=sorted(dice), turn=i)
        elif value is not None and value not in values:
            c.add(Code.TURN_VALUE_WRONG, "box_values", field=box.value, written=value,
                  expected=sorted(values), dice=sorted(dice), turn=i)
        if is_yahtzee(dice) and card.get(Box.YAHTZEE) == 50 and c.rules.yahtzee_bonus > 0:
            logged_bonus += 1
        card[box] = value if value is not None else 0
        on_card = game.boxes.get(box)
        if turn.value is not None and on_card != turn.value:
            c.add(Code.TURN_CARD_MISMATCH, "turn", field=box.value, written=on_card,
                  expected=turn.value, turn=i)
    for box, v in game.filled().items():
        if box not in card:
            c.add(Code.TURN_CARD_MISMATCH, "turn", field=box.value, written=v, expected=None)
    if logged_bonus != game.bonus_checks:
        c.add(Code.TURN_BONUS_COUNT, "yahtzee_bonus", field="yahtzee_bonus_checks",
              written=game.bonus_checks, expected=logged_bonus)


def _audit_game(c: _Collector, game: Game, t: GameTotals) -> list[dict[str, Any]] | None:
    if not t.complete:
        c.add(Code.GAME_IN_PROGRESS, "turn", filled=len(game.filled()))
    _audit_boxes(c, game)
    witness = _audit_bonus(c, game)
    _audit_totals(c, game, t)
    if game.turns is not None:
        _audit_turns(c, game)
    return witness


def _audit_players_scores(c: _Collector, sheet: Sheet, tally: Tally) -> None:
    for pi, player in enumerate(sheet.players):
        if player.players_scores is None:
            continue
        c.player, c.player_name = pi, player.name
        _audit_player_scores(c, player, tally.totals[player.name])
    c.player = c.player_name = None


def _audit_player_scores(c: _Collector, player: Player,
                         column: list[GameTotals | None]) -> None:
    """One player's PLAYERS' SCORES column against the totals of their games."""
    ps = player.players_scores
    assert ps is not None
    best_known = 0  # each row's true score where the card shows it, else the row as written
    for n in range(max(len(ps.games), len(column))):
        w = ps.games[n] if n < len(ps.games) else None
        t = column[n] if n < len(column) else None
        if t is not None and t.complete:
            best_known += t.grand_total
        elif w is not None:
            best_known += w
        if w is None or t is None or not t.complete:
            continue
        if w != t.grand_total:
            g = player.games[n]
            card_written = g.written(TotalField.GRAND_TOTAL) if g else None
            c.add(Code.PLAYERS_SCORE_WRONG, "totals", field=f"players_scores.games[{n}]",
                  written=w, expected=t.grand_total, game=n + 1,
                  copied_from_card=card_written == w)
    if ps.total is not None:
        expected = best_known
        if ps.total != expected:
            rows = [v for v in ps.games if v is not None]
            c.add(Code.PLAYERS_TOTAL_WRONG, "totals", field="players_scores.total",
                  written=ps.total, expected=expected, game=None,
                  adds_up_written_rows=sum(rows) == ps.total)


def _audit_winners(c: _Collector, sheet: Sheet, tally: Tally) -> None:
    """Say when the players' slips change who won a game or the match."""
    c.player = c.player_name = None
    for result in tally.games:
        if result.in_progress or len(result.scores) < 2:
            continue
        written: dict[str, int] = {}
        for p in sheet.players:
            g = p.games[result.game - 1] if result.game - 1 < len(p.games) else None
            if g is not None and p.name in result.scores:
                w = g.written(TotalField.GRAND_TOTAL)
                if w is None:
                    break
                written[p.name] = w
        else:
            by_written = winners_of(written)
            if by_written and sorted(by_written) != sorted(result.winners):
                c.add(Code.GRAND_TOTAL_CHANGES_WINNER, "multi_game", field="grand_total",
                      written=by_written, expected=result.winners, game=result.game)
    written_totals = {p.name: p.players_scores.total for p in sheet.players
                      if p.players_scores and p.players_scores.total is not None}
    if len(written_totals) == len(sheet.players) >= 2:
        by_written = winners_of(written_totals)
        correct = winners_of(tally.total_of_all_games)
        if sorted(by_written) != sorted(correct):
            c.add(Code.GRAND_TOTAL_CHANGES_WINNER, "multi_game", field="players_scores.total",
                  written=by_written, expected=correct, game=None)


def audit_sheet(sheet: Sheet, rules: str | RuleSet | dict[str, Any] | None = None) -> Report:
    """Audit every game of every player; ``rules`` overrides the sheet's own rule set."""
    rs = get_rules(rules if rules is not None else sheet.rules)
    c = _Collector(rs)
    report = Report(rule_set=rs)
    for pi, player in enumerate(sheet.players):
        c.player, c.player_name = pi, player.name
        for n, game in enumerate(player.games):
            if game is None or game.blank:
                continue
            c.game = n + 1
            totals = compute_totals(game, rs)
            witness = _audit_game(c, game, totals)
            report.games.append(GameReport(pi, player.name, n + 1, totals.complete, totals, witness))
    c.game = None
    tally = tally_sheet(sheet, rs, known={(g.player, g.game - 1): g.totals for g in report.games})
    _audit_players_scores(c, sheet, tally)
    _audit_winners(c, sheet, tally)
    report.findings = c.findings
    report.tally = tally
    if has_readings(sheet):  # a scanned sheet: errors that a misread explains are doubts
        reaudit = _Reaudit(rs)
        apply_doubts(report.findings, sheet, reaudit)
        apply_hidden(report.findings, sheet, reaudit)
        apply_unread(report.findings, sheet)
    return report


class _Reaudit:
    """The parts of the audit ``doubts`` runs again with one cell read otherwise."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules

    def game(self, player: int, name: str, n: int, game: Game) -> list[Finding]:
        """The findings on one game (0-based ``n``) alone."""
        c = _Collector(self.rules)
        c.player, c.player_name, c.game = player, name, n + 1
        if not game.blank:
            _audit_game(c, game, compute_totals(game, self.rules))
        return c.findings

    def players_scores(self, player: int, p: Player) -> list[Finding]:
        """The findings on one player's PLAYERS' SCORES column alone."""
        c = _Collector(self.rules)
        if p.players_scores is not None:
            c.player, c.player_name = player, p.name
            column = [None if g is None or g.blank else compute_totals(g, self.rules)
                      for g in (p.games + [None] * MAX_GAMES)[:MAX_GAMES]]
            _audit_player_scores(c, p, column)
        return c.findings


def audit_game(game: Game, rules: str | RuleSet | dict[str, Any] | None = None,
               name: str = "Player") -> Report:
    """Audit a single card (a one-player, one-game sheet)."""
    return audit_sheet(Sheet(players=[Player(name=name, games=[game])]), rules)
