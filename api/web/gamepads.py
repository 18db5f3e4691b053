"""The on-screen pads for SCRABBLE and SORRY! (issue 17): phone-first forms, drawn by the
server, checked by ``scorepad.scrabble``/``scorepad.sorry`` on each send; no script needed.

``/pad/sorry``: a row per game, a column per player (pawns HOME and points), and the totals.
``/pad/scrabble``: one game, a column per player in the order they play, each turn's score
and running total, then the unplayed letters, the adjustment, the final score and the
winner (a move log goes through the API or the command line)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import render_template, request

from scorepad.games import SCRABBLE, SORRY
from scorepad.games.dispatch import check_other, load_other, registry
from scorepad.games.spec import MAX_GAME_PLAYERS, MAX_NAME, MAX_SHEET_GAMES, TURN_KINDS
from scorepad.schemas import SheetFormatError

from .common import bp

MAX_TURN_ROWS = 60
DEFAULTS = {SORRY: (3, 3), SCRABBLE: (2, 10)}  # players, games (SORRY!) or turn rows


class _FormError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


def _shape(form: Mapping[str, str], game: str) -> tuple[int, int]:
    players, rows = DEFAULTS[game]
    top = MAX_SHEET_GAMES if game == SORRY else MAX_TURN_ROWS
    try:
        players = max(1, min(MAX_GAME_PLAYERS, int(form.get("players", players))))
        rows = max(1, min(top, int(form.get("rows", rows))))
    except ValueError:
        pass
    if form.get("action") == "add_player":
        players = min(MAX_GAME_PLAYERS, players + 1)
    if form.get("action") == "add_row":
        rows = min(top, rows + 1)
    return players, rows


def _int(form: Mapping[str, str], key: str) -> int | None:
    text = (form.get(key) or "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise _FormError(key, f"{text!r} is not a whole number") from None


def _names(form: Mapping[str, str], players: int) -> list[str]:
    return [((form.get(f"p{i}.name") or "").strip() or f"Player {i + 1}")[:MAX_NAME]
            for i in range(players)]


def _sorry_sheet(form: Mapping[str, str], players: int, rows: int) -> dict[str, Any]:
    names = _names(form, players)
    games = []
    for g in range(rows):
        homes = [_int(form, f"g{g}.p{i}.home") for i in range(players)]
        points = [_int(form, f"g{g}.p{i}.points") for i in range(players)]
        if all(h is None for h in homes) and all(p is None for p in points):
            continue
        for i, h in enumerate(homes):
            if h is None:
                raise _FormError(f"g{g}.p{i}.home", "pawns HOME missing")
        games.append({"players": [{"name": n, "home": h, "points": p}
                                  for n, h, p in zip(names, homes, points, strict=True)]})
    totals = [{"name": n, "total": t} for i, n in enumerate(names)
              if (t := _int(form, f"p{i}.total")) is not None]
    return {"game": SORRY, "rules": form.get("rules") or None, "games": games,
            "totals": totals or None}


def _scrabble_sheet(form: Mapping[str, str], players: int, rows: int) -> dict[str, Any]:
    names = _names(form, players)
    out = []
    for i, n in enumerate(names):
        turns = []
        for t in range(rows):
            score = _int(form, f"t{t}.p{i}.score")
            kind = form.get(f"t{t}.p{i}.kind") or "play"
            if score is None and kind == "play":
                break
            turns.append({"score": score or 0, "total": _int(form, f"t{t}.p{i}.total"),
                          "kind": kind if kind in TURN_KINDS else "play"})
        unplayed = (form.get(f"p{i}.unplayed") or "").strip().upper().replace(" ", "")
        ended = form.get(f"p{i}.out") == "1" or unplayed
        out.append({"name": n, "turns": turns,
                    "unplayed": ("" if form.get(f"p{i}.out") == "1" else unplayed)
                    if ended else None,
                    "adjustment": _int(form, f"p{i}.adjustment"),
                    "final": _int(form, f"p{i}.final")})
    winner = form.get("winner")
    return {"game": SCRABBLE, "rules": form.get("rules") or None,
            "games": [{"players": out, "winners": [winner] if winner in names else None}]}


def _cell_of(game: str, f: Any) -> str | None:
    """The form field a finding points at (None: the whole sheet)."""
    field = f.field or ""
    if game == SORRY and f.game and field.startswith("players["):
        i = field[len("players["):].split("]")[0]
        key = field.rsplit(".", 1)[-1]
        return f"g{f.game - 1}.p{i}.{key}" if key in ("home", "points") else None
    if game == SORRY and field.startswith("totals["):
        return None
    if game == SCRABBLE and field.startswith("players[") and ".turns[" in field:
        i = field[len("players["):].split("]")[0]
        t = field.split(".turns[")[1].split("]")[0]
        return f"t{t}.p{i}.{field.rsplit('.', 1)[-1]}"
    if game == SCRABBLE and field.startswith("players["):
        i = field[len("players["):].split("]")[0]
        return f"p{i}.{field.rsplit('.', 1)[-1]}"
    return None


def _page(game: str) -> tuple[str, int]:
    form = request.form if request.method == "POST" else request.args
    players, rows = _shape(form, game)
    report, problem, bad = None, None, set()
    if request.method == "POST" and form.get("action", "check") == "check":
        try:
            data = (_sorry_sheet if game == SORRY else _scrabble_sheet)(form, players, rows)
            if game == SORRY and not data["games"]:
                raise _FormError("g0.p0.home", "write at least one game")
            report = check_other(load_other(game, data))
            bad = {c for f in report.findings if f.severity.value == "error"
                   and (c := _cell_of(game, f))}
        except _FormError as exc:
            problem, bad = exc.message, {exc.field}
        except SheetFormatError as exc:
            problem = "; ".join(f"{p}: {m}" for p, m in exc.errors)
    rules = [{"name": rs.name, "title": rs.title} for rs in registry(game).all()]
    status = 200 if problem is None else 422
    return render_template(f"web/gamepad_{game}.html", game=game, players=players, rows=rows,
                           values=form, report=report, problem=problem, bad=bad, rules=rules,
                           kinds=TURN_KINDS, max_name=MAX_NAME), status


@bp.route("/pad/sorry", methods=["GET", "POST"])
def sorry_pad() -> tuple[str, int]:
    return _page(SORRY)


@bp.route("/pad/scrabble", methods=["GET", "POST"])
def scrabble_pad() -> tuple[str, int]:
    return _page(SCRABBLE)
