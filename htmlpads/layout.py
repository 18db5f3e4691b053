"""The Yahtzee score pad as HTML/CSS: the front (one player's GAME #1..#6 columns) and the
back (PLAYERS' SCORES), with a randomised print look per photo.

Rows and printed hints follow the official pad described in the rule books
(shared/seeds/001 and 000): UPPER SECTION, Aces..Sixes with die pictures, TOTAL SCORE,
BONUS, TOTAL; LOWER SECTION, 3 of a kind .. Chance, YAHTZEE BONUS check boxes with the
SCORE 100 PER ✓ row, TOTAL of lower section, TOTAL of upper section, GRAND TOTAL.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from scorepad.boxes import Box, TotalField
from scorepad.card import Game, Player

from .fonts import PRINT_FAMILIES
from .hands import Hand

N_GAMES = 6
NAME_LABEL_W = 112  # "PLAYER'S NAME" before the line


@dataclass
class Look:
    """Everything about how this copy of the pad is printed."""

    width: int  # sheet width in CSS px
    pad_x: int
    pad_top: int
    pad_bottom: int
    col_frac: tuple[float, float]  # label and HOW TO SCORE column shares of the table width
    game_jitter: list[float]  # relative width of each GAME column
    row_h: int
    band_h: int
    head_h: int
    outer_line: float
    inner_line: float
    section_line: float
    print_family: str
    print_stretch: str
    print_rgb: tuple[int, int, int]
    band_style: str  # "dark" or "light"
    band_rgb: tuple[int, int, int]
    shade: int  # grey level of total cells
    paper_rgb: tuple[int, int, int]
    title_size: int
    title_spacing: float
    title_italic: bool
    check_boxes: int  # printed check boxes in the YAHTZEE BONUS cells (0: open space)
    torn_depth: float
    label_size: float
    how_size: float

    @property
    def table_w(self) -> float:
        return self.width - 2 * self.pad_x

    @property
    def name_w(self) -> float:
        return self.table_w * 0.48

    @property
    def head_font(self) -> float:
        game_w = min(self.col_widths()[2:])
        return min(13.0, game_w / 5.6)

    def col_widths(self) -> list[float]:
        tw = self.table_w
        lab = tw * self.col_frac[0]
        how = tw * self.col_frac[1]
        rest = tw - lab - how
        total = sum(self.game_jitter)
        return [lab, how] + [rest * j / total for j in self.game_jitter]

    def meta(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "col_widths": [round(w, 1) for w in self.col_widths()],
            "row_h": self.row_h,
            "print_font": f"{self.print_family} {self.print_stretch}",
            "line_weights": [round(v, 2) for v in (self.outer_line, self.inner_line, self.section_line)],
            "band": self.band_style,
            "band_rgb": list(self.band_rgb),
            "total_shade": self.shade,
            "paper_rgb": list(self.paper_rgb),
            "check_boxes": self.check_boxes,
        }


def random_look(rng: np.random.Generator) -> Look:
    family, stretch = PRINT_FAMILIES[int(rng.integers(0, len(PRINT_FAMILIES)))]
    band_style = "dark" if rng.random() < 0.6 else "light"
    if band_style == "dark":
        band = [(18, 18, 20), (30, 30, 34), (24, 34, 72), (70, 20, 24), (16, 56, 36)][
            int(rng.choice(5, p=[0.4, 0.2, 0.15, 0.15, 0.1]))]
    else:
        g = int(rng.integers(196, 226))
        band = (g, g, g + int(rng.integers(-4, 5)))
    p = int(rng.integers(20, 48))
    paper = (int(rng.integers(246, 256)), int(rng.integers(242, 253)), int(rng.integers(228, 250)))
    paper = (paper[0], paper[0] - int(rng.integers(0, 6)), paper[0] - int(rng.integers(3, 18)))
    row_h = int(rng.integers(38, 49))
    return Look(
        width=int(rng.integers(780, 901)),
        pad_x=int(rng.integers(16, 34)),
        pad_top=int(rng.integers(22, 40)),
        pad_bottom=int(rng.integers(22, 44)),
        col_frac=(float(rng.uniform(0.22, 0.27)), float(rng.uniform(0.165, 0.205))),
        game_jitter=[float(x) for x in rng.uniform(0.96, 1.04, size=N_GAMES)],
        row_h=row_h,
        band_h=int(rng.integers(22, 31)),
        head_h=int(rng.integers(30, 40)),
        outer_line=float(rng.uniform(1.6, 3.0)),
        inner_line=float(rng.uniform(0.8, 1.6)),
        section_line=float(rng.uniform(1.6, 2.8)),
        print_family=family,
        print_stretch=stretch,
        print_rgb=(p, p + int(rng.integers(-3, 4)), p + int(rng.integers(-2, 8))),
        band_style=band_style,
        band_rgb=band,
        shade=int(rng.integers(204, 233)),
        paper_rgb=paper,
        title_size=int(rng.integers(40, 55)),
        title_spacing=float(rng.uniform(0.02, 0.12)),
        title_italic=bool(rng.random() < 0.35),
        check_boxes=int(rng.choice([0, 3, 3, 4])),
        torn_depth=float(rng.uniform(3.0, 9.0)),
        label_size=float(rng.uniform(14.5, 17.5)),
        how_size=float(rng.uniform(9.5, 11.5)),
    )


def _rgb(c: tuple[int, int, int]) -> str:
    return f"rgb({c[0]},{c[1]},{c[2]})"


@dataclass
class Page:
    """A page to render, and the sheet's torn top edge (CSS px, left to right)."""

    html: str
    torn_edge: list[tuple[float, float]]


def _torn_edge(look: Look, rng: np.random.Generator) -> list[tuple[float, float]]:
    """An irregular top edge: a random walk with the odd deeper bite, as torn off a glued pad."""
    pts: list[tuple[float, float]] = []
    x = 0.0
    depth = look.torn_depth
    y = round(float(rng.uniform(0, depth)), 1)
    while x < look.width:
        pts.append((x, y))
        x = round(x + float(rng.uniform(2.0, 9.0)), 1)
        y += float(rng.normal(0, depth * 0.25))
        if rng.random() < 0.04:
            y += float(rng.uniform(depth * 0.5, depth * 1.4))
        y = round(min(max(y, 0.0), depth * 1.8), 1)
    pts.append((float(look.width), y))
    return pts


_PIPS = {
    1: [(39, 39)],
    2: [(14, 14), (64, 64)],
    3: [(14, 14), (39, 39), (64, 64)],
    4: [(14, 14), (64, 14), (14, 64), (64, 64)],
    5: [(14, 14), (64, 14), (39, 39), (14, 64), (64, 64)],
    6: [(14, 14), (64, 14), (14, 39), (64, 39), (14, 64), (64, 64)],
}


def _die(face: int) -> str:
    pips = "".join(f'<i class="pip" style="left:{x}%;top:{y}%"></i>' for x, y in _PIPS[face])
    return f'<span class="die">{pips}</span>'


@dataclass(frozen=True)
class Row:
    key: str
    label: str  # HTML
    how: str  # HTML
    kind: str  # "box", "total", "checks", "points"
    box: Box | None = None
    total: TotalField | None = None
    heavy_below: bool = False


def _upper_rows() -> list[Row]:
    names = ["Aces", "Twos", "Threes", "Fours", "Fives", "Sixes"]
    boxes = [Box.ACES, Box.TWOS, Box.THREES, Box.FOURS, Box.FIVES, Box.SIXES]
    rows = [
        Row(b.value, f'<span class="lt">{n}</span><span class="dp">{_die(i + 1)}<b>= {i + 1}</b></span>',
            f"Count and Add<br>Only {n}", "box", box=b)
        for i, (n, b) in enumerate(zip(names, boxes, strict=True))
    ]
    rows[-1] = Row(rows[-1].key, rows[-1].label, rows[-1].how, "box", box=Box.SIXES, heavy_below=True)
    rows += [
        Row("upper_total_score", '<span class="lt">TOTAL SCORE</span>', '<span class="arr">→</span>',
            "total", total=TotalField.UPPER_SUBTOTAL),
        Row("upper_bonus", '<span class="lt">BONUS</span><small>If total score<br>is 63 or over</small>',
            "SCORE 35", "total", total=TotalField.UPPER_BONUS),
        Row("upper_total", '<span class="lt">TOTAL</span><small>Of Upper<br>Section</small>',
            '<span class="arr">→</span>', "total", total=TotalField.UPPER_TOTAL),
    ]
    return rows


def _lower_rows() -> list[Row]:
    return [
        Row("three_of_a_kind", '<span class="lt">3 of a kind</span>', "Add Total<br>Of All Dice", "box",
            box=Box.THREE_OF_A_KIND),
        Row("four_of_a_kind", '<span class="lt">4 of a kind</span>', "Add Total<br>Of All Dice", "box",
            box=Box.FOUR_OF_A_KIND),
        Row("full_house", '<span class="lt">Full House</span>', "SCORE 25", "box", box=Box.FULL_HOUSE),
        Row("small_straight", '<span class="lt">Sm Straight</span><small>(Sequence<br>of 4)</small>',
            "SCORE 30", "box", box=Box.SMALL_STRAIGHT),
        Row("large_straight", '<span class="lt">Lg Straight</span><small>(Sequence<br>of 5)</small>',
            "SCORE 40", "box", box=Box.LARGE_STRAIGHT),
        Row("yahtzee", '<span class="lt ybig">YAHTZEE</span><small>(5 of<br>a kind)</small>', "SCORE 50",
            "box", box=Box.YAHTZEE),
        Row("chance", '<span class="lt">Chance</span>', "Score Total<br>Of All 5 Dice", "box",
            box=Box.CHANCE),
        Row("yahtzee_bonus_checks", '<span class="lt ybig">YAHTZEE<br>BONUS</span>',
            "✓ FOR<br>EACH BONUS", "checks"),
        Row("yahtzee_bonus", "", "SCORE 100<br>PER ✓", "points", total=TotalField.YAHTZEE_BONUS),
        Row("lower_total", '<span class="lt">TOTAL</span><small>Of Lower<br>Section</small>',
            '<span class="arr">→</span>', "total", total=TotalField.LOWER_TOTAL),
        Row("upper_total_repeat", '<span class="lt">TOTAL</span><small>Of Upper<br>Section</small>',
            '<span class="arr">→</span>', "total", total=TotalField.UPPER_TOTAL_REPEAT),
        Row("grand_total", '<span class="lt gt">GRAND TOTAL</span>', '<span class="arr">→</span>', "total",
            total=TotalField.GRAND_TOTAL),
    ]


def _css(look: Look, hand: Hand) -> str:
    ink = _rgb(look.print_rgb)
    band_text = "#fff" if look.band_style == "dark" else _rgb(look.print_rgb)
    shade = f"rgb({look.shade},{look.shade},{look.shade + 2})"
    italic = "italic" if look.title_italic else "normal"
    return (
        "html,body{margin:0;padding:0;background:transparent;}"
        f".sheet{{position:relative;width:{look.width}px;box-sizing:border-box;"
        f"padding:{look.pad_top}px {look.pad_x}px {look.pad_bottom}px {look.pad_x}px;"
        f"background:{_rgb(look.paper_rgb)};color:{ink};font-family:'{look.print_family}',sans-serif;"
        f"font-stretch:{look.print_stretch};}}"
        ".glue{position:absolute;left:0;right:0;top:0;height:14px;"
        "background:linear-gradient(rgba(200,185,140,0.22),rgba(200,185,140,0));}"
        ".title{display:flex;align-items:flex-end;justify-content:space-between;"
        f"height:{look.title_size + 26}px;}}"
        f".title h1{{margin:0;font-size:{look.title_size}px;font-weight:900;"
        f"letter-spacing:{look.title_spacing:.2f}em;font-style:{italic};line-height:1;}}"
        ".title h1 sup{font-size:0.3em;vertical-align:top;font-weight:normal;}"
        f".name{{position:relative;width:{look.name_w:.0f}px;flex:none;height:36px;display:flex;"
        "align-items:flex-end;}"
        ".name span{font-size:12px;font-weight:bold;letter-spacing:0.03em;white-space:nowrap;"
        f"width:{NAME_LABEL_W}px;flex:none;}}"
        f".name .line{{position:relative;width:{look.name_w - NAME_LABEL_W:.0f}px;flex:none;height:34px;"
        f"border-bottom:{look.inner_line + 0.3:.2f}px solid {ink};}}"
        f"table.pad{{border-collapse:collapse;table-layout:fixed;width:100%;margin-top:10px;"
        f"border:{look.outer_line:.2f}px solid {ink};}}"
        f"table.pad td{{border:{look.inner_line:.2f}px solid {ink};padding:0;overflow:visible;"
        "vertical-align:middle;}"
        f".band td{{background:{_rgb(look.band_rgb)};color:{band_text};font-weight:bold;"
        f"letter-spacing:0.03em;font-size:{look.head_font:.1f}px;text-align:center;white-space:nowrap;"
        "overflow:hidden;}"
        ".band td.bl{text-align:left;padding-left:8px;font-size:14px;}"
        f"tr.heavy td{{border-bottom:{look.section_line:.2f}px solid {ink};}}"
        f".lab{{padding:0 5px 0 7px !important;font-size:{look.label_size:.1f}px;font-weight:bold;}}"
        ".lab .in{display:flex;align-items:center;justify-content:space-between;line-height:1.0;}"
        ".lab small{font-size:0.55em;font-weight:normal;line-height:1.05;text-align:right;margin-left:4px;}"
        ".lab .ybig{letter-spacing:0.02em;}"
        ".lab .gt{font-size:1.08em;}"
        ".dp{display:flex;align-items:center;font-size:0.7em;}"
        ".dp b{margin-left:4px;white-space:nowrap;}"
        f".how{{font-size:{look.how_size:.1f}px;text-align:center;line-height:1.1;font-weight:bold;"
        "letter-spacing:0.01em;}"
        ".how .arr{font-size:22px;font-weight:normal;}"
        f"td.tot{{background:{shade};}}"
        ".c{position:relative;width:100%;}"
        f".die{{display:inline-block;position:relative;width:{look.row_h * 0.46:.1f}px;"
        f"height:{look.row_h * 0.46:.1f}px;border:1.3px solid {ink};border-radius:22%;background:#fff;"
        "box-sizing:border-box;}"
        f".pip{{position:absolute;width:22%;height:22%;border-radius:50%;background:{ink};}}"
        f".cb{{position:absolute;border:1.1px solid {ink};background:rgba(255,255,255,0.5);"
        "box-sizing:border-box;}"
        ".foot{display:flex;justify-content:space-between;font-size:9px;margin-top:6px;"
        f"color:{ink};opacity:0.85;}}"
        f".back h2{{margin:18px 0 4px 0;font-size:{look.title_size * 0.55:.0f}px;letter-spacing:0.08em;}}"
        ".bk td{text-align:center;}"
        f".band td.nm{{background:{_rgb(look.paper_rgb)};}}"
        + hand.css()
    )


def _check_slots(look: Look, w: float, h: float) -> list[tuple[float, float, float, float]]:
    if not look.check_boxes:
        return []
    s = min(h * 0.5, w / (look.check_boxes * 1.45 + 0.4))
    gap = (w - look.check_boxes * s) / (look.check_boxes + 1)
    return [(gap + i * (s + gap), (h - s) / 2, s, s) for i in range(look.check_boxes)]


def _cell_content(hand: Hand, look: Look, row: Row, game: Game | None, w: float, h: float,
                  rng: np.random.Generator) -> str:
    printed = ""
    if row.kind == "checks":
        printed = "".join(f'<i class="cb" style="left:{x:.1f}px;top:{y:.1f}px;width:{s:.1f}px;'
                          f'height:{s:.1f}px"></i>' for x, y, s, _ in _check_slots(look, w, h))
    if game is None:
        return printed + (hand.smudge(w, h, rng) if rng.random() < 0.03 else "")
    if row.kind == "checks":
        if game.bonus_checks:
            return printed + hand.write_marks(game.bonus_checks, w, h, _check_slots(look, w, h), rng)
        return printed
    value: int | None
    if row.box is not None:
        value = game.boxes.get(row.box)
    else:
        assert row.total is not None
        value = game.totals.get(row.total)
    if value is None:
        return hand.smudge(w, h, rng) if rng.random() < 0.04 else ""
    if value == 0:
        style = hand.zero_style if row.kind == "box" else hand.total_zero
        if style != "0":
            return hand.write_zero_mark(style, w, h, rng)
    return hand.write_number(str(value), w, h, rng, squeeze=row.kind != "box")


def front_html(look: Look, hand: Hand, player: Player, rng: np.random.Generator) -> Page:
    cols = look.col_widths()
    colgroup = "".join(f'<col style="width:{w:.2f}px">' for w in cols)
    games = list(player.games[:N_GAMES]) + [None] * (N_GAMES - len(player.games[:N_GAMES]))
    head = (f'<tr class="band" style="height:{look.head_h}px"><td class="bl">UPPER SECTION</td>'
            "<td>HOW TO SCORE</td>" + "".join(f"<td>GAME #{i + 1}</td>" for i in range(N_GAMES)) + "</tr>")
    body = [head]
    cw = [w - look.inner_line for w in cols[2:]]
    h = float(look.row_h)

    def row_html(row: Row, skip_label: bool = False) -> str:
        cls = ' class="heavy"' if row.heavy_below or row.key in ("upper_total", "chance") else ""
        cells = []
        if not skip_label:
            span = ' rowspan="2"' if row.kind == "checks" else ""
            cells.append(f'<td class="lab"{span}><div class="in">{row.label}</div></td>')
        shaded = row.kind == "total"
        cells.append(f'<td class="how">{row.how}</td>')
        for gi in range(N_GAMES):
            content = _cell_content(hand, look, row, games[gi], cw[gi], h, rng)
            cells.append(f'<td class="{"tot" if shaded else "gc"}"><div class="c" style="height:{h:.0f}px">'
                         f"{content}</div></td>")
        return f"<tr{cls}>" + "".join(cells) + "</tr>"

    for row in _upper_rows():
        body.append(row_html(row))
    body.append(f'<tr class="band" style="height:{look.band_h}px"><td class="bl" colspan="{N_GAMES + 2}">'
                "LOWER SECTION</td></tr>")
    for row in _lower_rows():
        body.append(row_html(row, skip_label=row.kind == "points"))
    name = hand.write_words(player.name, look.name_w - NAME_LABEL_W, 34.0, rng, size=0.6)
    title = ('<div class="title"><h1>YAHTZEE<sup>®</sup></h1>'
             f"<div class=\"name\"><span>PLAYER'S NAME</span><div class=\"line\">{name}</div></div></div>")
    foot = ('<div class="foot"><span>SCORE PAD · keep score of up to 6 games</span>'
            f"<span>No. {int(rng.integers(1000, 9999))}-{chr(65 + int(rng.integers(0, 6)))}</span></div>")
    return _page(look, hand, rng, title + f'<table class="pad"><colgroup>{colgroup}</colgroup>'
                 + "".join(body) + "</table>" + foot)


def back_html(look: Look, hand: Hand, players: list[Player], rng: np.random.Generator) -> Page:
    n_cols = 6
    tw = look.table_w
    first = tw * 0.27
    colw = (tw - first) / n_cols
    h = float(look.row_h) * 1.1
    head_h = h * 1.25
    colgroup = f'<col style="width:{first:.1f}px">' + "".join(
        f'<col style="width:{colw:.1f}px">' for _ in range(n_cols))
    cells = []
    for i in range(n_cols):
        inner = ""
        if i < len(players):
            inner = hand.write_words(players[i].name, colw - 2, head_h, rng, size=0.4)
        cells.append(f'<td class="nm"><div class="c" style="height:{head_h:.0f}px">{inner}</div></td>')
    rows = [f'<tr class="band"><td class="bl">PLAYERS\' NAMES →</td>{"".join(cells)}</tr>']
    for r in range(7):
        label = f"GAME #{r + 1}" if r < 6 else "TOTAL OF<br>ALL GAMES"
        tds = []
        for i in range(n_cols):
            content = ""
            value: int | None = None
            if i < len(players) and players[i].players_scores is not None:
                ps = players[i].players_scores
                assert ps is not None
                value = (ps.games[r] if r < len(ps.games) else None) if r < 6 else ps.total
            if value is not None:
                content = hand.write_number(str(value), colw - look.inner_line, h, rng, squeeze=True)
            elif rng.random() < 0.03:
                content = hand.smudge(colw, h, rng)
            cls = "tot" if r == 6 else "gc"
            tds.append(f'<td class="{cls}"><div class="c" style="height:{h:.0f}px">{content}</div></td>')
        heavy = ' class="heavy"' if r == 5 else ""
        rows.append(f'<tr{heavy}><td class="lab"><div class="in"><span class="lt">{label}</span></div></td>'
                    + "".join(tds) + "</tr>")
    title = ('<div class="title back"><h1>YAHTZEE<sup>®</sup></h1></div>'
             "<div class=\"back\"><h2>PLAYERS' SCORES</h2></div>")
    table = f'<table class="pad bk"><colgroup>{colgroup}</colgroup>{"".join(rows)}</table>'
    spacer = f'<div style="height:{look.row_h * 4}px"></div>'
    foot = '<div class="foot"><span>Total each player\'s games to find the winner</span><span></span></div>'
    return _page(look, hand, rng, title + table + spacer + foot)


def _page(look: Look, hand: Hand, rng: np.random.Generator, inner: str) -> Page:
    edge = _torn_edge(look, rng)
    clip = "polygon(" + ",".join(f"{x}px {y}px" for x, y in edge) + ",100% 100%,0px 100%)"
    html = ('<!DOCTYPE html><html><head><meta charset="utf-8"><style>' + _css(look, hand) + "</style></head>"
            f'<body><div class="sheet" style="clip-path:{clip}"><div class="glue"></div>{inner}</div>'
            "</body></html>")
    return Page(html, edge)
