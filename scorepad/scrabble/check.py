"""Check a SCRABBLE sheet: one call reports every finding, under a named rule set.

The sheet: each running total adds up (000:310), passes, exchanges and lost turns score 0
(000:301-302), the unplayed letters (000:322), the final scores and the winner with the
book's tie-break (000:326), and what a slip does to the result. The move log, where every
play lists its tiles: the placement rules (000:287-299) and each turn's score on the
standard board (000:310-321). A word list, when given, makes unknown words warnings.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..games import SCRABBLE
from ..games.common import GameFinding, GameReport
from ..sheetspec import player_key
from . import messages
from .board import (
    DISTRIBUTION,
    Board,
    Placed,
    letters_value,
    parse_square,
    place,
    score_play,
)
from .codes import ScrabbleCode as C
from .rules import ScrabbleRules, get_rules
from .sheet import ScrabbleGame, ScrabbleSheet
from .tally import tally_games

TOPIC: dict[C, str] = {
    C.PLAYER_COUNT: "players", C.TURN_COUNT: "turn_order", C.NO_PLAY_SCORED: "no_play",
    C.NO_PLAY_TILES: "no_play",
    C.SCORE_NEGATIVE: "score", C.RUNNING_TOTAL: "running_total",
    C.ADJUSTMENT_WRONG: "adjustment", C.TWO_WENT_OUT: "ending", C.OUT_NOT_LAST: "ending",
    C.FINAL_WRONG: "final", C.WINNER_WRONG: "winner", C.SLIP_CHANGES_WINNER: "winner",
    C.GAME_IN_PROGRESS: "ending", C.TILES_EXCEED_BAG: "tiles",
    C.MOVE_LOG_INCOMPLETE: "placement", C.TOO_MANY_TILES: "rack", C.SQUARE_TAKEN: "placement",
    C.NOT_IN_LINE: "placement", C.GAP: "placement", C.FIRST_NOT_ON_STAR: "first_play",
    C.FIRST_TOO_SHORT: "first_play", C.NOT_CONNECTED: "placement", C.TURN_SCORE_WRONG: "score",
    C.BINGO_MISSING: "bingo", C.BINGO_NOT_EARNED: "bingo", C.WORD_NOT_IN_LIST: "words",
}


class _Collector:
    def __init__(self, rules: ScrabbleRules, findings: list[GameFinding]) -> None:
        self.rules, self.findings = rules, findings
        self.game: int | None = None
        self.names: list[str] = []

    def add(self, code: C, *, player: int | None = None, field: str | None = None,
            written: Any = None, expected: Any = None, **details: Any) -> None:
        f = GameFinding(code=code, rule_set=self.rules.name, game=self.game, player=player,
                        player_name=None if player is None else self.names[player],
                        field=field, written=written, expected=expected,
                        rules=self.rules.cite(TOPIC[code]), details=details)
        f.message = messages.render(f)
        self.findings.append(f)


def check_sheet(sheet: ScrabbleSheet, rules: Any = None) -> GameReport:
    """Every finding on ``sheet`` under ``rules`` (a name, ScrabbleRules or house-rule object;
    None: the sheet's own, else the book's)."""
    rs = get_rules(rules if rules is not None else sheet.rules)
    words = None if sheet.words is None else {w.upper() for w in sheet.words}
    report = GameReport(SCRABBLE, rs)
    out = _Collector(rs, report.findings)
    for gi, game in enumerate(sheet.games, 1):
        out.game, out.names = gi, [p.name for p in game.players]
        report.games.append(_check_game(game, gi, rs, words, out))
    report.tally = tally_games(report.games)
    return report


def play_order(counts: list[int]) -> list[tuple[int, int]]:
    """(player, turn) in the order played: play passes to the left (000:289)."""
    return [(p, r) for r in range(max(counts, default=0)) for p in range(len(counts))
            if r < counts[p]]


def _round_robin(counts: list[int]) -> bool:
    m = max(counts, default=0)
    k = next((i for i, c in enumerate(counts) if c != m), len(counts))
    return all(c == m - 1 for c in counts[k:]) and (m > 0 or not counts)


def _check_game(game: ScrabbleGame, gi: int, rs: ScrabbleRules, words: set[str] | None,
                out: _Collector) -> dict[str, Any]:
    players, n = game.players, len(game.players)
    if not 2 <= n <= 4:
        out.add(C.PLAYER_COUNT, field="players", written=n, expected=[2, 4])
    counts = [len(p.turns) for p in players]
    if not _round_robin(counts) and any(counts):
        out.add(C.TURN_COUNT, field="players", written=counts)
    correct, used = _check_moves(game, counts, rs, words, out)
    true_sum: list[int] = []
    last_written: list[int] = []
    best: list[tuple[int, int] | None] = []
    for p, pl in enumerate(players):
        prev, total = 0, 0
        top: tuple[int, int] | None = None
        for t, turn in enumerate(pl.turns):
            where = f"players[{p}].turns[{t}]"
            if turn.kind != "play" and turn.tiles is not None:
                out.add(C.NO_PLAY_TILES, player=p, field=f"{where}.tiles", kind=turn.kind)
            if turn.kind != "play" and turn.score != 0:
                out.add(C.NO_PLAY_SCORED, player=p, field=f"{where}.score",
                        written=turn.score, expected=0, kind=turn.kind)
            elif turn.score < 0:
                out.add(C.SCORE_NEGATIVE, player=p, field=f"{where}.score", written=turn.score)
            if turn.total is not None and turn.total != prev + turn.score:
                out.add(C.RUNNING_TOTAL, player=p, field=f"{where}.total", written=turn.total,
                        expected=prev + turn.score)
            prev = turn.total if turn.total is not None else prev + turn.score
            score = correct.get((p, t), turn.score if turn.kind == "play" else 0)
            total += score
            if turn.kind == "play" and (top is None or score > top[0]):
                top = (score, t + 1)
        true_sum.append(total)
        last_written.append(prev)
        best.append(top)
    for pl in players:
        used.update(pl.unplayed or "")
    over = {k: [v, DISTRIBUTION[k]] for k, v in sorted(used.items()) if v > DISTRIBUTION[k]}
    if over:
        out.add(C.TILES_EXCEED_BAG, letters=over)
    ended = any(p.final is not None or p.adjustment is not None or p.unplayed is not None
                for p in players)
    summary: dict[str, Any] = {"game": gi, "complete": ended, "moves_checked": bool(correct),
                               "winners": [], "players": []}
    adj_used: list[int | None] = [None] * n
    if ended:
        adj_used = _check_end(game, counts, rs, true_sum, last_written, out)
    for p, pl in enumerate(players):
        top = best[p]
        summary["players"].append({
            "name": pl.name, "turns": counts[p], "before_adjustments": true_sum[p],
            "adjustment": adj_used[p],
            "final": None if adj_used[p] is None else true_sum[p] + (adj_used[p] or 0),
            "written_final": pl.final,
            "best_turn": None if top is None else {"score": top[0], "turn": top[1]},
        })
    if ended:
        finals = [true_sum[p] + (adj_used[p] or 0) for p in range(n)]
        summary["winners"] = [players[i].name for i in winners(finals, true_sum, rs)]
    else:
        out.add(C.GAME_IN_PROGRESS)
    return summary


def winners(finals: list[int], before: list[int], rs: ScrabbleRules) -> list[int]:
    """The highest final score; a tie goes to the higher score before the unplayed letters
    (000:326) unless the rule set shares it; a tie that remains is shared."""
    if not finals:
        return []
    top = [i for i, f in enumerate(finals) if f == max(finals)]
    if len(top) > 1 and rs.tie_break == "before_adjustments":
        best = max(before[i] for i in top)
        top = [i for i in top if before[i] == best]
    return top


def _check_end(game: ScrabbleGame, counts: list[int], rs: ScrabbleRules,
               true_sum: list[int], last_written: list[int],
               out: _Collector) -> list[int | None]:
    players, n = game.players, len(game.players)
    pts = [None if p.unplayed is None else letters_value(p.unplayed) for p in players]
    went_out = [i for i, p in enumerate(players) if p.unplayed == ""]
    if len(went_out) > 1:
        out.add(C.TWO_WENT_OUT, field="players", written=[players[i].name for i in went_out])
    order = play_order(counts)
    for i in went_out:
        if order and order[-1][0] != i:
            out.add(C.OUT_NOT_LAST, player=i, field=f"players[{i}].unplayed", written="")
    expected: list[int | None] = []
    for i in range(n):
        own = pts[i]
        if own is None:
            expected.append(None)
        elif i in went_out and len(went_out) == 1 and rs.out_bonus:
            others = [pts[j] for j in range(n) if j != i]
            expected.append(None if None in others else sum(o or 0 for o in others))
        else:
            expected.append(-own)
    adj_used: list[int | None] = []
    for i, pl in enumerate(players):
        e = expected[i]
        if pl.adjustment is not None and e is not None and pl.adjustment != e:
            out.add(C.ADJUSTMENT_WRONG, player=i, field=f"players[{i}].adjustment",
                    written=pl.adjustment, expected=e, unplayed=pl.unplayed)
        used = e if e is not None else pl.adjustment
        adj_used.append(used if used is not None else 0)
        written_adj = pl.adjustment if pl.adjustment is not None else adj_used[i] or 0
        if pl.final is not None and pl.final != last_written[i] + written_adj:
            out.add(C.FINAL_WRONG, player=i, field=f"players[{i}].final", written=pl.final,
                    expected=last_written[i] + written_adj)
    finals = [true_sum[i] + (adj_used[i] or 0) for i in range(n)]
    shown = [pl.final if pl.final is not None
             else last_written[i] + (pl.adjustment if pl.adjustment is not None
                                     else adj_used[i] or 0)
             for i, pl in enumerate(players)]
    right = [players[i].name for i in winners(finals, true_sum, rs)]
    as_written = [players[i].name for i in winners(shown, last_written, rs)]
    if as_written != right:
        out.add(C.SLIP_CHANGES_WINNER, field="players", written=as_written, expected=right)
    if game.winners is not None and (sorted(player_key(w) for w in game.winners)
                                     != sorted(player_key(w) for w in right)):
        out.add(C.WINNER_WRONG, field="winners", written=game.winners, expected=right)
    return adj_used


def _check_moves(game: ScrabbleGame, counts: list[int], rs: ScrabbleRules,
                 words: set[str] | None,
                 out: _Collector) -> tuple[dict[tuple[int, int], int], Counter[str]]:
    """The move log: each play's placement and score. Returns the correct score of each
    play it could score, and the tiles played ("?" for a blank)."""
    players = game.players
    plays = [t for p in players for t in p.turns if t.kind == "play"]
    used: Counter[str] = Counter()
    if not any(t.tiles is not None for t in plays):
        return {}, used
    if any(t.tiles is None for t in plays):
        out.add(C.MOVE_LOG_INCOMPLETE, field="players")
        return {}, used
    board: Board = {}
    correct: dict[tuple[int, int], int] = {}
    for p, t in play_order(counts):
        turn = players[p].turns[t]
        if turn.kind != "play" or turn.tiles is None:
            continue
        where = f"players[{p}].turns[{t}]"
        tiles = [Placed(parse_square(x.square), x.letter, x.blank) for x in turn.tiles]
        res = score_play(board, tiles, rs.bingo_bonus)
        for code, det in res.problems:
            out.add(C(code.value), player=p, field=f"{where}.tiles", **det)
        if res.score is not None:
            correct[(p, t)] = res.score
            formed = [{"word": w.text, "score": w.score} for w in res.words]
            if turn.score != res.score:
                code = C.TURN_SCORE_WRONG
                if res.bingo and turn.score == res.score - res.bingo:
                    code = C.BINGO_MISSING
                elif not res.bingo and rs.bingo_bonus and turn.score == res.score + rs.bingo_bonus:
                    code = C.BINGO_NOT_EARNED
                out.add(code, player=p, field=f"{where}.score", written=turn.score,
                        expected=res.score, words=formed, bingo=res.bingo,
                        bonus=rs.bingo_bonus, tiles=len(tiles))
            for w in res.words:
                if words is not None and w.text not in words:
                    out.add(C.WORD_NOT_IN_LIST, player=p, field=f"{where}.tiles", word=w.text)
        place(board, tiles)
        used.update("?" if x.blank else x.letter for x in turn.tiles)
    return correct, used

