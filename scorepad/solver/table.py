"""The optimal-play table of a rule set: build, cache on disk, look up.

``OptimalTable.values[(mask * NU + u) * 2 + y]`` is the expected number of points
still to come under optimal solitaire play from the state between turns with
filled boxes ``mask`` (bit i = ``ALL_BOXES[i]``), upper subtotal ``u`` capped at
the bonus threshold, and ``y`` = 1 when the YAHTZEE box holds 50. The upper bonus
is counted as a final reward, so ``values`` of the empty card is the expected
final score.

Tables are cached in ``$SCOREPAD_CACHE_DIR`` (default ``~/.cache/scorepad``) under
a key hashing the rule set's scoring fields, the algorithm version and the
source of the rules engine (``placement.py``, ``scoring.py``) and of the solver's
numerical modules, so that a change to any of them builds a new table.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import threading
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import placement as _placement
from .. import scoring as _scoring
from ..boxes import ALL_BOXES, UPPER, Box
from ..rules import REGISTRY, RuleSet, get_rules
from . import _dice, _kernel
from . import placement_tables as _ptables
from ._dice import NKEEPS
from .placement_tables import (
    FULL_MASK,
    NBOXES,
    YAHTZEE_BIT,
    PlacementTables,
    build_placement_tables,
)

ALGORITHM_VERSION = "1"
_NON_SCORING_FIELDS = {"name", "title", "summary", "aliases", "citations"}


class SolverError(ValueError):
    """A position the table cannot value (e.g. an upper subtotal no dice can make)."""


def _jsonable(v: Any) -> Any:
    if isinstance(v, Enum):
        return v.value
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    return repr(v)


def rules_fingerprint(rules: RuleSet) -> dict[str, Any]:
    """Every field of the rule set that can change a score (names and prose excluded)."""
    return {
        f.name: _jsonable(getattr(rules, f.name))
        for f in dataclasses.fields(rules)
        if f.name not in _NON_SCORING_FIELDS
    }


def _engine_source_hash() -> str:
    """The rules engine and the solver's own numerical code, as source text."""
    h = hashlib.sha256()
    for module in (_placement, _scoring, _kernel, _dice, _ptables):
        path = getattr(module, "__file__", None)
        if path:
            h.update(Path(path).read_bytes())
    return h.hexdigest()


def table_key(rules: RuleSet) -> str:
    """The cache version key of ``rules``' table."""
    payload = {
        "algorithm": ALGORITHM_VERSION,
        "rules": rules_fingerprint(rules),
        "engine": _engine_source_hash(),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:24]


def cache_dir() -> Path:
    env = os.environ.get("SCOREPAD_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "scorepad"


def reachable_upper(threshold: int) -> list[list[int]]:
    """For each set of filled upper boxes (6-bit mask): the reachable capped subtotals."""
    out: list[list[int]] = []
    for s in range(64):
        sums = {0}
        for f in range(6):
            if s >> f & 1:
                sums = {min(threshold, x + (f + 1) * c) for x in sums for c in range(6)}
        out.append(sorted(sums))
    return out


def enumerate_states(threshold: int) -> list[npt.NDArray[np.int64]]:
    """Reachable states (mask, u, y) grouped by number of filled boxes (index 0..13)."""
    ups = reachable_upper(threshold)
    groups: list[list[tuple[int, int, int]]] = [[] for _ in range(NBOXES + 1)]
    for mask in range(FULL_MASK + 1):
        ys = (0, 1) if mask >> YAHTZEE_BIT & 1 else (0,)
        n = bin(mask).count("1")
        for u in ups[mask & 63]:
            for y in ys:
                groups[n].append((mask, u, y))
    return [np.array(g, dtype=np.int64).reshape(-1, 3) for g in groups]


def split_dead_upper(states: npt.NDArray[np.int64], threshold: int
                     ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                npt.NDArray[np.int64]]:
    """States to solve, and (dead, same-as) rows for the rest.

    When the open upper boxes cannot lift the subtotal to the threshold even with
    five of each face, the subtotal no longer matters: such a state is worth the
    same as the one with subtotal 0 (reachable too: all zeros), so only that one is
    solved and the others copy it. About a third of all states.
    """
    faces = np.arange(1, 7, dtype=np.int64)
    open_upper = ((states[:, 0:1] >> np.arange(6)) & 1) == 0
    room = (open_upper * faces * 5).sum(axis=1)
    dead = (states[:, 1] + room < threshold) & (states[:, 1] > 0)
    alive = states[~dead]
    copies = states[dead]
    canon = copies.copy()
    canon[:, 1] = 0
    return alive, copies, canon


@dataclass
class State:
    """A position between turns, plus the points already on the card."""

    mask: int
    upper: int  # capped upper subtotal
    yahtzee50: int  # 1 when the YAHTZEE box holds 50
    points: int  # boxes written so far plus Yahtzee bonus points (upper bonus not included)

    def filled(self, box: Box) -> bool:
        return bool(self.mask >> ALL_BOXES.index(box) & 1)

    @property
    def open_boxes(self) -> frozenset[Box]:
        return frozenset(b for i, b in enumerate(ALL_BOXES) if not self.mask >> i & 1)


@dataclass
class TurnArrays:
    """Within-turn values of one state, indexed by keep (see ``_kernel``)."""

    e3: npt.NDArray[np.float64]
    ek2: npt.NDArray[np.float64]
    m2: npt.NDArray[np.float64]
    ek1: npt.NDArray[np.float64]
    m1: npt.NDArray[np.float64]
    value: float


class OptimalTable:
    """The solved table of one rule set."""

    def __init__(self, rules: RuleSet, key: str, values: npt.NDArray[np.float64],
                 reachable: npt.NDArray[np.bool_], placement: PlacementTables,
                 build_seconds: float | None = None) -> None:
        self.rules = rules
        self.key = key
        self.values = values
        self.reachable = reachable
        self.placement = placement
        self.threshold = rules.upper_bonus_threshold
        self.nu = self.threshold + 1
        self.build_seconds = build_seconds
        self._turn_cache: dict[tuple[int, int, int], TurnArrays] = {}
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        """Prepare the kernel's arrays and value the empty card's turn (every game's first)."""
        _ = self.placement.kernel_arrays
        self.turn(State(0, 0, 0, 0))

    # -- indexing -------------------------------------------------------------------
    def index(self, mask: int, upper: int, yahtzee50: int) -> int:
        return (mask * self.nu + min(upper, self.threshold)) * 2 + yahtzee50

    def future(self, mask: int, upper: int, yahtzee50: int) -> float:
        """Expected points still to come from a state between turns (upper bonus included)."""
        i = self.index(mask, upper, yahtzee50)
        if not self.reachable[i]:
            raise SolverError(
                f"no legal game reaches this position (upper subtotal {upper} with these "
                "upper boxes filled)"
            )
        return float(self.values[i])

    @property
    def expected_score(self) -> float:
        """Expected final score of optimal play from the empty card."""
        return self.future(0, 0, 0)

    def state_of(self, boxes: dict[Box, int], bonus_checks: int = 0) -> State:
        """The state of a card in progress (filled boxes and their values)."""
        mask = 0
        for box in boxes:
            mask |= 1 << ALL_BOXES.index(box)
        upper = sum(v for b, v in boxes.items() if b in UPPER)
        y = 1 if boxes.get(Box.YAHTZEE) == 50 else 0
        points = sum(boxes.values()) + bonus_checks * self.rules.yahtzee_bonus
        if upper < 0:
            raise SolverError("an upper subtotal below zero is not a position")
        return State(mask, min(upper, self.threshold), y, points)

    def turn(self, state: State) -> TurnArrays:
        """The within-turn arrays of a state (cached)."""
        key = (state.mask, state.upper, state.yahtzee50)
        with self._lock:
            hit = self._turn_cache.get(key)
        if hit is not None:
            return hit
        if state.mask == FULL_MASK:
            raise SolverError("the card is full: no turn left to play")
        self.future(*key)  # raises for unreachable positions
        arrays = [np.zeros(NKEEPS) for _ in range(5)]
        value = _kernel.eval_state(
            state.mask, state.upper, state.yahtzee50, self.values, self.threshold, self.nu,
            *self.placement.kernel_arrays, self.placement.joker,
            float(self.placement.yahtzee_bonus), *arrays,
        )
        result = TurnArrays(arrays[0], arrays[1], arrays[2], arrays[3], arrays[4],
                            value=float(value))
        with self._lock:
            if len(self._turn_cache) > 4096:
                self._turn_cache.clear()
            self._turn_cache[key] = result
        return result

    def after_box(self, state: State, box: Box, value: int, bonus: int) -> float:
        """Expected final score after writing ``value`` in ``box`` (``bonus`` points earned)."""
        i = ALL_BOXES.index(box)
        mask = state.mask | (1 << i)
        upper = state.upper + value if box in UPPER else state.upper
        y = (1 if value == 50 else 0) if box is Box.YAHTZEE else state.yahtzee50
        return state.points + value + bonus + self.future(mask, upper, y)

    # -- persistence ----------------------------------------------------------------
    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, key=np.array(self.key), values=self.values, reachable=self.reachable,
                     natural=self.placement.natural, joker=self.placement.joker,
                     yahtzee_bonus=np.array(self.placement.yahtzee_bonus))
        os.replace(tmp, path)

    @classmethod
    def load(cls, rules: RuleSet, path: Path) -> OptimalTable | None:
        """The cached table at ``path``, or None when missing, stale or unreadable."""
        key = table_key(rules)
        try:
            with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as data:
                if str(data["key"]) != key:
                    return None
                placement = PlacementTables(natural=data["natural"], joker=data["joker"],
                                            yahtzee_bonus=int(data["yahtzee_bonus"]))
                return cls(rules, key, data["values"], data["reachable"], placement)
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
            return None  # a truncated or foreign file is rebuilt, never an error


def build_table(rules: RuleSet | str | dict[str, Any] | None = None,
                progress: Callable[[int, int], None] | None = None) -> OptimalTable:
    """Solve the rule set from scratch (no cache)."""
    rs = get_rules(rules)
    start = time.perf_counter()
    placement = build_placement_tables(rs)
    threshold = rs.upper_bonus_threshold
    nu = threshold + 1
    values = np.zeros((FULL_MASK + 1) * nu * 2, dtype=np.float64)
    reachable = np.zeros(values.shape, dtype=np.bool_)
    groups = enumerate_states(threshold)
    full = groups[NBOXES]
    idx = (full[:, 0] * nu + full[:, 1]) * 2 + full[:, 2]  # the full card: bonus or not
    values[idx] = np.where(full[:, 1] >= threshold, float(rs.upper_bonus), 0.0)
    reachable[idx] = True
    def flat(st: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return (st[:, 0] * nu + st[:, 1]) * 2 + st[:, 2]

    for n in range(NBOXES - 1, -1, -1):
        alive, copies, canon = split_dead_upper(groups[n], threshold)
        _kernel.solve_level(alive, values, threshold, nu, *placement.kernel_arrays,
                            placement.joker, float(placement.yahtzee_bonus))
        values[flat(copies)] = values[flat(canon)]
        reachable[flat(groups[n])] = True
        if progress:
            progress(NBOXES - n, NBOXES)
    elapsed = time.perf_counter() - start
    return OptimalTable(rs, table_key(rs), values, reachable, placement, build_seconds=elapsed)


MEMO_TABLES = 8
_MEMO: dict[str, OptimalTable] = {}
_MEMO_LOCK = threading.Lock()
_BUILD_LOCK = threading.Lock()


def get_table(rules: RuleSet | str | dict[str, Any] | None = None, *, use_cache: bool = True,
              directory: Path | None = None,
              progress: Callable[[int, int], None] | None = None) -> OptimalTable:
    """The table of a rule set: from memory, else the disk cache, else solved (and cached).

    ``progress(done, total)`` is called as a build goes (not when the table is loaded)."""
    rs = get_rules(rules)
    key = table_key(rs)
    with _MEMO_LOCK:
        if use_cache and key in _MEMO:
            return _MEMO[key]
    # One build at a time per process: concurrent requests wait for the first one's table.
    with _BUILD_LOCK:
        with _MEMO_LOCK:
            if use_cache and key in _MEMO:
                return _MEMO[key]
        return _load_or_build(rs, key, use_cache, directory, progress)


def _load_or_build(rs: RuleSet, key: str, use_cache: bool, directory: Path | None,
                   progress: Callable[[int, int], None] | None = None) -> OptimalTable:
    path = cache_path(rs, directory)
    table = OptimalTable.load(rs, path) if use_cache else None
    if table is not None:
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: the last to be pruned
    if table is None:
        table = build_table(rs, progress)
        if use_cache:
            try:
                table.save(path)
                for stale in path.parent.glob(f"table-{_rules_hash(rs)}-*.npz"):
                    if stale != path:
                        stale.unlink(missing_ok=True)  # these rules under an older engine
                prune_cache(path.parent)
            except OSError:
                pass  # an unwritable cache only costs a rebuild next time
    table.warm_up()
    with _MEMO_LOCK:
        _MEMO[key] = table
        while len(_MEMO) > MEMO_TABLES:  # about 12 MB a table: keep the newest few
            _MEMO.pop(next(iter(_MEMO)))
    return table


def table_available(rules: RuleSet | str | dict[str, Any] | None = None) -> bool:
    """True when the table is in memory or in the disk cache (so no build is needed)."""
    rs = get_rules(rules)
    with _MEMO_LOCK:
        if table_key(rs) in _MEMO:
            return True
    return cache_path(rs).exists()


def _rules_hash(rules: RuleSet) -> str:
    """The rule set's scoring content (never its name) as a short hash."""
    text = json.dumps(rules_fingerprint(rules), sort_keys=True).encode()
    return hashlib.sha256(text).hexdigest()[:16]


def cache_path(rules: RuleSet | str | dict[str, Any] | None = None,
               directory: Path | None = None) -> Path:
    """``table-RULES-KEY.npz``: RULES hashes the rule set's scoring fields, KEY those and the
    engine's source. Two rule sets with the same content share a file whatever their names,
    and no name can take another rule set's file."""
    rs = get_rules(rules)
    return (directory or cache_dir()) / f"table-{_rules_hash(rs)}-{table_key(rs)}.npz"


def max_cached_tables() -> int:
    """Custom rule sets' tables kept on disk ($SCOREPAD_CACHE_MAX_TABLES, default 32; about
    12 MB each); the built-in rule sets' tables are always kept."""
    try:
        return max(0, int(os.environ.get("SCOREPAD_CACHE_MAX_TABLES", "32")))
    except ValueError:
        return 32


def prune_cache(directory: Path | None = None, keep: int | None = None) -> None:
    """Delete the least recently used tables of custom rule sets beyond ``keep``."""
    keep = max_cached_tables() if keep is None else keep
    builtin = {_rules_hash(rs) for rs in REGISTRY.all()}
    files = []
    for p in (directory or cache_dir()).glob("table-*-*.npz"):
        if p.name.split("-")[1] in builtin:
            continue
        with contextlib.suppress(OSError):
            files.append((p.stat().st_mtime, p))
    files.sort(reverse=True)
    for _, p in files[keep:]:
        p.unlink(missing_ok=True)
