"""SVG chart geometry for the statistics pages (the templates draw it; Jinja escapes the text).

Every chart is a plain dict: ``kind``, ``title``, ``desc`` (a sentence for screen
readers), ``width``/``height`` (the viewBox), the marks, the axis ticks and a
``table`` (header + rows) that the page offers as text beside the picture.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from scorepad.rules import DEFAULT_RULES, UnknownRuleSet

W, H = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 14, 34


def _nice_step(span: float, ticks: int = 5) -> float:
    raw = max(span, 1e-9) / ticks
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return float(m * mag)
    return float(10 * mag)


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    step = _nice_step(hi - lo, n)
    start = math.floor(lo / step) * step
    out = [round(start, 6)]
    while out[-1] < hi - 1e-9:  # up to the first tick at or above hi
        out.append(round(out[-1] + step, 6))
    return out


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.1f}"


def distinct_labels(labels: Sequence[str]) -> list[str]:
    """Games that share a label (a day) are told apart by their number that day:
    ``26 Nov #1``, ``26 Nov #2``; a label used once stays as it is."""
    total: dict[str, int] = {}
    for lab in labels:
        total[lab] = total.get(lab, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
        out.append(f"{lab} #{seen[lab]}" if total[lab] > 1 else lab)
    return out


def line_chart(title: str, labels: Sequence[str], values: Sequence[float],
               reference: float | None = None, reference_label: str = "") -> dict[str, Any]:
    """Scores in order (one point per game), with an optional horizontal reference line."""
    n = len(values)
    labels = distinct_labels(labels)
    lo = min([*values, reference if reference is not None else values[0]]) if n else 0
    hi = max([*values, reference if reference is not None else values[0]]) if n else 1
    lo, hi = max(0.0, lo - 20), hi + 20
    ticks = _ticks(lo, hi)
    lo, hi = ticks[0], max(ticks[-1], hi)
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (pw * (i / (n - 1)) if n > 1 else pw / 2)

    def y(v: float) -> float:
        return TOP + ph * (1 - (v - lo) / ((hi - lo) or 1))

    points = [{"x": round(x(i), 1), "y": round(y(v), 1), "label": labels[i], "value": _fmt(v)}
              for i, v in enumerate(values)]
    step = max(1, math.ceil(n / 6))
    return {
        "kind": "line", "title": title, "width": W, "height": H,
        "desc": f"{title}: {n} games, from {_fmt(values[0])} to {_fmt(values[-1])}" if n else title,
        "points": points,
        "path": " ".join(f"{p['x']},{p['y']}" for p in points),
        "yticks": [{"y": round(y(t), 1), "label": _fmt(t)} for t in ticks],
        "xticks": [{"x": p["x"], "label": p["label"],
                    "anchor": "end" if i == n - 1 and n > 1 else "start" if i == 0 and n > 1
                    else "middle"}
                   for i, p in enumerate(points) if i % step == 0 or i == n - 1],
        "reference": (None if reference is None else
                      {"y": round(y(reference), 1), "label": reference_label}),
        "plot": {"x0": LEFT, "x1": W - RIGHT, "y0": TOP, "y1": H - BOTTOM},
        "table": {"head": ["game", "score"], "rows": [[p["label"], p["value"]] for p in points]},
    }


Scores = Sequence[float] | Mapping[int, int]  # scores, or how many games made each score


def histogram(title: str, series: Sequence[tuple[str, str, Scores]],
              bin_width: int = 25, lo: int = 50, hi: int = 400) -> dict[str, Any]:
    """Share of games per score bin for each series ``(name, css class, scores)``.

    Scores are a list, or a mapping score -> number of games; the bins reach down to the
    first series' lowest score and up to its highest (a 419 gets a 400-424 bin); the other
    series' scores beyond those go into the first or last bin.
    """
    first = series[0][2] if series else []
    own = [float(v) for v in (first.keys() if isinstance(first, Mapping) else first)]
    if own:
        lo = min(lo, int(min(own) // bin_width) * bin_width)
        hi = max(hi, (int(max(own) // bin_width) + 1) * bin_width)
    edges = list(range(lo, hi + 1, bin_width))
    nb = len(edges) - 1
    shares: list[list[float]] = []
    for _, _, scores in series:
        counts = [0] * nb
        weighted = scores.items() if isinstance(scores, Mapping) else ((s, 1) for s in scores)
        for s, w in weighted:
            i = min(nb - 1, max(0, int((float(s) - lo) // bin_width)))
            counts[i] += int(w)
        total = sum(counts) or 1
        shares.append([100.0 * c / total for c in counts])
    top = max([max(s) for s in shares if s] + [10.0])
    ticks = _ticks(0, top, 4)
    top = ticks[-1]
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM
    group_w = pw / nb
    k = len(series)
    bar_w = group_w * 0.8 / max(k, 1)
    bars = []
    for si, (name, cls, _) in enumerate(series):
        for b in range(nb):
            v = shares[si][b]
            h = ph * v / top
            bars.append({"x": round(LEFT + b * group_w + group_w * 0.1 + si * bar_w, 1),
                         "y": round(TOP + ph - h, 1), "w": round(bar_w, 1), "h": round(h, 1),
                         "cls": cls, "label": f"{name}, {edges[b]}-{edges[b + 1] - 1}: "
                                              f"{v:.0f}% of games"})
    return {
        "kind": "bars", "title": title, "width": W, "height": H,
        "desc": f"{title}, percent of games per {bin_width}-point band",
        "bars": bars,
        "legend": [{"name": name, "cls": cls} for name, cls, _ in series],
        "yticks": [{"y": round(TOP + ph * (1 - t / top), 1), "label": f"{_fmt(t)}%"}
                   for t in ticks],
        "xticks": [{"x": round(LEFT + b * group_w, 1), "label": str(edges[b])}
                   for b in range(0, nb + 1, 2)],
        "plot": {"x0": LEFT, "x1": W - RIGHT, "y0": TOP, "y1": H - BOTTOM},
        "table": {"head": ["points", *[name for name, _, _ in series]],
                  "rows": [[f"{edges[b]}-{edges[b + 1] - 1}",
                            *[f"{shares[si][b]:.0f}%" for si in range(k)]] for b in range(nb)]},
    }


def hbars(title: str, labels: Sequence[str], series: Sequence[tuple[str, str, Sequence[float]]],
          unit: str = "", max_value: float | None = None) -> dict[str, Any]:
    """Horizontal grouped bars: one row per label, one bar per series."""
    n = len(labels)
    k = len(series)
    label_w = 96
    row_h = 10 * k + 8
    height = TOP + n * row_h + BOTTOM
    top = max_value or max([max(v) for _, _, v in series if v] + [1.0])
    ticks = _ticks(0, top, 4)
    top = max(ticks[-1], top)
    pw = W - label_w - RIGHT - 34  # room for the value after the longest bar
    bars = []
    rows = []
    for i, lab in enumerate(labels):
        y0 = TOP + i * row_h
        rows.append({"y": round(y0 + row_h / 2 + 3, 1), "label": lab})
        for si, (name, cls, vals) in enumerate(series):
            v = vals[i]
            bars.append({"x": label_w, "y": round(y0 + 3 + si * 10, 1),
                         "w": round(max(pw * v / top, 0.0), 1), "h": 9, "cls": cls,
                         "label": f"{lab}, {name}: {_fmt(round(v, 2))}{unit}",
                         "value": f"{_fmt(round(v, 1))}{unit}",
                         "tx": round(label_w + max(pw * v / top, 0.0) + 3, 1),
                         "ty": round(y0 + 3 + si * 10 + 8, 1)})
    return {
        "kind": "hbars", "title": title, "width": W, "height": height,
        "desc": f"{title}: " + "; ".join(
            f"{lab} " + ", ".join(f"{name} {_fmt(round(vals[i], 1))}{unit}"
                                  for name, _, vals in series)
            for i, lab in enumerate(labels)),
        "bars": bars, "rows": rows,
        "legend": [{"name": name, "cls": cls} for name, cls, _ in series],
        "xticks": [{"x": round(label_w + pw * t / top, 1), "label": f"{_fmt(t)}{unit}"}
                   for t in ticks],
        "plot": {"x0": label_w, "x1": label_w + pw, "y0": TOP, "y1": height - BOTTOM},
        "table": {"head": ["", *[name for name, _, _ in series]],
                  "rows": [[lab, *[f"{_fmt(round(vals[i], 2))}{unit}" for _, _, vals in series]]
                           for i, lab in enumerate(labels)]},
    }


# ---- the optimal-play score distribution ----------------------------------------------------

_OPTIMAL: dict[str, tuple[Scores, str]] = {}
_LOCK = threading.Lock()
DATA = Path(__file__).resolve().parent / "data"


def optimal_scores(rules: str = DEFAULT_RULES, mode: str = "auto") -> tuple[Scores, str]:
    """Scores of optimally played games (or counts per score) and where they come from.

    ``auto``: the distribution shipped in ``data/optimal-RULES.json`` (100,000 games of
    scorepad.solver, written by ``python -m api.web.optimal_data``; hasbro's for a rule set
    without a file); else 5,000 games simulated when the solver's table is already on
    disk (a table is never solved during a request); else, and in ``normal`` mode, a
    normal curve with the published mean and deviation (api.reference).
    """
    key = f"{mode}:{rules}"
    with _LOCK:
        if key in _OPTIMAL:
            return _OPTIMAL[key]
        out: tuple[Scores, str] | None = None
        if mode == "auto":
            out = _shipped(rules) or _simulated(rules) or _shipped(DEFAULT_RULES)
        if out is None:
            out = _normal()
        _OPTIMAL[key] = out
        return out


def _shipped(rules: str) -> tuple[Scores, str] | None:
    p = DATA / f"optimal-{rules}.json"
    if not rules.isidentifier() or not p.exists():
        return None
    d = json.loads(p.read_text())
    counts = {int(k): int(v) for k, v in d["counts"].items()}
    return counts, (f"{d['games']:,} games of optimal play under {d['rule_set']} rules "
                    f"(scorepad solver, mean {d['mean']:.1f})")


def _simulated(rules: str) -> tuple[Scores, str] | None:
    from scorepad.solver import SolverError, cache_path, simulate  # numpy/numba: on first use

    try:
        if not cache_path(rules).exists():  # never builds a table during a request
            return None
        r = simulate(rules, games=5000, seed=1)
    except (UnknownRuleSet, SolverError):  # a house rule set (no table): the published figures
        return None
    return [float(s) for s in r.scores], f"{r.games} optimally played games (scorepad solver)"


def _normal() -> tuple[Scores, str]:
    from scorepad import reference
    # 400 quantiles of N(mean, sd): a smooth stand-in with the published mean and spread
    scores = [reference.MEAN + reference.SD * _probit((i + 0.5) / 400) for i in range(400)]
    return scores, (f"a normal curve with the published mean {reference.MEAN} and standard "
                    f"deviation {reference.SD} (Verhoeff)")


def _probit(p: float) -> float:
    # Acklam's approximation of the inverse normal CDF (plenty for a chart)
    a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690,
         -30.66479806614716, 2.506628277459239]
    b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
         -13.28068155288572]
    c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
         4.374664141464968, 2.938163982698783]
    d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416]
    if p < 0.02425:
        q = math.sqrt(-2 * math.log(p))
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    if p > 1 - 0.02425:
        return -_probit(1 - p)
    q = p - 0.5
    r = q * q
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / \
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
