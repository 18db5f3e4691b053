"""What the SCRABBLE and SORRY! checks share: finding codes with severities, findings, the
report, and rule sets as frozen dataclasses in a registry (house rules as objects)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from ..findings import Severity
from ..rules import MAX_RULES_NAME, MAX_RULES_TEXT, Citation, RuleSetError, UnknownRuleSet
from ..sheetspec import bad_text

__all__ = ["Citation", "GameCode", "GameFinding", "GameReport", "GameRules", "OptionRegistry",
           "RuleSetError", "Severity", "UnknownGameRules", "UnknownRuleSet"]

_SEVERITY: dict[str, Severity] = {}  # codes that are not errors, by value


class GameCode(str, Enum):
    """A finding code of one game (subclassed per game). Codes never change meaning."""

    @property
    def severity(self) -> Severity:
        return _SEVERITY.get(self.value, Severity.ERROR)


def set_severities(severities: Mapping[GameCode, Severity]) -> None:
    _SEVERITY.update({c.value: s for c, s in severities.items()})


@dataclass
class GameFinding:
    """One problem (or note) at one place on a SCRABBLE or SORRY! sheet."""

    code: GameCode
    rule_set: str
    game: int | None = None  # 1-based, in sheet order
    player: int | None = None  # index into the game's players
    player_name: str | None = None
    field: str | None = None  # a JSON path below the game: "players[0].turns[3].total"
    written: Any = None
    expected: Any = None
    rules: list[str] = dataclasses.field(default_factory=list)  # "000:321"
    details: dict[str, Any] = dataclasses.field(default_factory=dict)
    message: str = ""

    @property
    def severity(self) -> Severity:
        return self.code.severity

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code.value, "severity": self.severity.value, "player": self.player,
            "player_name": self.player_name, "game": self.game, "field": self.field,
            "written": self.written, "expected": self.expected, "message": self.message,
            "rule_set": self.rule_set, "rules": list(self.rules), "details": self.details,
        }


class UnknownGameRules(UnknownRuleSet):
    """No rule set of this game has that name or alias."""

    def __str__(self) -> str:
        return f"unknown rule set {self.args[0]!r}; known: {', '.join(self.args[1])}"


@dataclass(frozen=True)
class GameRules:
    """A rule set of one game: subclassed per game with its ``game``, its options (dataclass
    fields named in ``option_fields``) and its book lines (``citations``, by topic)."""

    option_fields: ClassVar[tuple[str, ...]] = ()

    name: str
    title: str
    summary: str
    aliases: tuple[str, ...] = ()
    game: str = ""
    citations: Mapping[str, tuple[Citation, ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False)

    def cite(self, topic: str) -> list[str]:
        return [str(c) for c in self.citations.get(topic, ())]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "summary": self.summary,
                "aliases": list(self.aliases), "game": self.game,
                **{k: getattr(self, k) for k in self.option_fields}}


class _Rules(Protocol):
    @property
    def name(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


@dataclass
class GameReport:
    """Every finding on a sheet, the games as checked and the tally, under one rule set."""

    game: str
    rule_set: _Rules
    findings: list[GameFinding] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    tally: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    @property
    def verdict(self) -> str:
        return "correct" if self.ok else "errors"

    def counts(self) -> dict[str, int]:
        c = Counter(f.severity.value for f in self.findings)
        return {s.value: c.get(s.value, 0) for s in Severity}

    def codes(self) -> list[str]:
        return [f.code.value for f in self.findings]

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "rule_set": self.rule_set.to_dict(), "ok": self.ok,
                "verdict": self.verdict, "counts": self.counts(),
                "findings": [f.to_dict() for f in self.findings], "games": self.games,
                "tally": self.tally}


class _Named(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def aliases(self) -> tuple[str, ...]: ...


R = TypeVar("R", bound=_Named)


class OptionRegistry(Generic[R]):
    """One game's rule sets by name and alias; a house rule is an object naming a ``base``
    and the options it changes (``fields``: each option's check, returning an error or
    None), as for Yahtzee (``scorepad.rules.custom_rules``)."""

    def __init__(self, default: str, rule_sets: tuple[R, ...],
                 fields: Mapping[str, Callable[[Any], str | None]]) -> None:
        self.default = default
        self.fields = dict(fields)
        self._by_name: dict[str, R] = {}
        for rs in rule_sets:
            for n in (rs.name, *rs.aliases):
                self._by_name[n] = rs

    def names(self) -> list[str]:
        return sorted({rs.name for rs in self._by_name.values()})

    def all(self) -> list[R]:
        return [self._by_name[n] for n in self.names()]

    def get(self, spec: Any, kind: type[R]) -> R:
        if spec is None:
            return self._by_name[self.default]
        if isinstance(spec, kind):
            return spec
        if isinstance(spec, str):
            key = " ".join(spec.split()).casefold()
            if key not in self._by_name:
                raise UnknownGameRules(spec, self.names())
            return self._by_name[key]
        if not isinstance(spec, Mapping):
            raise RuleSetError("a rule set is a name or an object of rule-set fields, "
                               f"not {type(spec).__name__}")
        return self.custom(spec)

    def custom(self, data: Mapping[str, Any]) -> R:
        allowed = ("name", "base", "title", "summary", *self.fields)
        unknown = sorted(str(k) for k in data if k not in allowed)
        if unknown:
            raise RuleSetError(f"unknown rule-set field(s): {', '.join(unknown)}; "
                               f"known: {', '.join(allowed)}")
        base_name = data.get("base", self.default)
        if not isinstance(base_name, str):
            raise RuleSetError("'base' must be the name of a rule set")
        base = self.get(base_name, type(self._by_name[self.default]))
        changes: dict[str, Any] = {}
        for key, check in self.fields.items():
            if key in data:
                problem = check(data[key])
                if problem:
                    raise RuleSetError(f"{key}: {problem}")
                changes[key] = data[key]
        for key in ("name", "title", "summary"):
            value = data.get(key)
            if value is None:
                continue
            if not isinstance(value, str) or len(value) > MAX_RULES_TEXT:
                raise RuleSetError(f"{key}: a text of at most {MAX_RULES_TEXT} characters")
            if key == "name" and (not value.strip() or len(value) > MAX_RULES_NAME):
                raise RuleSetError(f"name: 1 to {MAX_RULES_NAME} characters, not only spaces")
            if bad_text(value):
                raise RuleSetError(f"{key}: {bad_text(value)}")
            changes[key] = value
        changes.setdefault("name", f"custom-{base.name}")
        if " ".join(changes["name"].split()).casefold() in self._by_name:
            raise RuleSetError(f"name: {changes['name']!r} is a built-in rule set")
        changes.setdefault("title", f"House rules on {base.name}")
        changes["aliases"] = ()
        return dataclasses.replace(base, **changes)  # type: ignore[type-var]


def int_option(lo: int, hi: int) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        ok = isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
        return None if ok else f"an integer from {lo} to {hi}"
    return check


def bool_option(v: Any) -> str | None:
    return None if isinstance(v, bool) else "true or false"


def choice_option(*choices: str) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        return None if v in choices else f"one of {', '.join(choices)}"
    return check
