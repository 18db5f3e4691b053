"""Rule sets as data: frozen dataclasses in a registry with aliases.

Every rule difference between the seed rule books is a field here, so that a
verdict can always name the rule set (and the book lines) it was reached under.
Book references are ``(book, lines)`` into ``shared/seeds/``: 000 the
multi-game book (Yahtzee part), 001 the official Yahtzee book, 002 Yardzee,
003 Yahtzee Classic, 004 Travel Yahtzee.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .sheetspec import bad_text


class JokerRule(str, Enum):
    """What a Yahtzee rolled while the YAHTZEE box is already filled may do."""

    FORCED = "forced"  # 001 136-162, 000 428-440: upper box first, then any lower, then upper zero
    PRIORITY = "priority"  # 003 101-115: upper box, then 3K/4K, then Chance or steal FH/SS/LS
    CONDITIONAL = "conditional"  # 004 178-194, 002 47-69: joker only once the upper box is filled
    NONE = "none"  # house rule: no joker at all; the roll scores only what it naturally is


# The rule-set fields a house rule may set, in the order every listing shows them (the
# registry's rule sets, `scorepad rules`, the sheet format, the JSON Schema, the web page).
RULE_FIELDS: tuple[str, ...] = (
    "joker", "upper_bonus_threshold", "upper_bonus", "yahtzee_bonus",
    "five_of_a_kind_full_house", "zero_in_chance", "joker_zero",
)
RULE_INT_RANGES: dict[str, tuple[int, int]] = {
    "upper_bonus_threshold": (0, 105), "upper_bonus": (0, 1000), "yahtzee_bonus": (0, 10000),
}
RULE_BOOL_FIELDS: tuple[str, ...] = ("five_of_a_kind_full_house", "zero_in_chance", "joker_zero")
# A house rule's own text: its name, and its title and summary.
MAX_RULES_NAME = 64
MAX_RULES_TEXT = 500
RULE_TEXT_FIELDS: tuple[str, ...] = ("title", "summary")
CUSTOM_KEYS: tuple[str, ...] = ("name", "base", *RULE_TEXT_FIELDS, *RULE_FIELDS)


@dataclass(frozen=True)
class Citation:
    """A rule-book passage a rule rests on."""

    book: str
    lines: str
    says: str

    def __str__(self) -> str:
        return f"{self.book}:{self.lines}"


@dataclass(frozen=True)
class RuleSet:
    """One complete set of scoring rules for a Yahtzee card."""

    name: str
    title: str
    summary: str
    joker: JokerRule
    aliases: tuple[str, ...] = ()
    game: str = "yahtzee"  # room for other pads (SCRABBLE, SORRY!) later
    upper_bonus_threshold: int = 63
    upper_bonus: int = 35
    yahtzee_bonus: int = 100  # per check mark; 0 switches Yahtzee bonuses off
    # Open points of the books, as options (see OPTION_NOTES for the book lines).
    five_of_a_kind_full_house: bool = False
    zero_in_chance: bool = True
    joker_zero: bool = True
    citations: Mapping[str, tuple[Citation, ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def cite(self, topic: str) -> tuple[Citation, ...]:
        """Book passages behind ``topic`` under this rule set (may be empty)."""
        return self.citations.get(topic, ()) or _COMMON_CITATIONS.get(topic, ())

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "aliases": list(self.aliases),
            "game": self.game,
            **{f: self.option(f) for f in RULE_FIELDS},
        }

    def option(self, field_name: str) -> Any:
        """One of RULE_FIELDS as JSON (the joker rule by its value)."""
        v = getattr(self, field_name)
        return v.value if isinstance(v, JokerRule) else v


def _c(book: str, lines: str, says: str) -> Citation:
    return Citation(book, lines, says)


# Passages every book shares; rule sets add or override per topic.
_COMMON_CITATIONS: dict[str, tuple[Citation, ...]] = {
    "box_values": (
        _c("001", "71-130", "upper boxes count one face; 3K/4K/Chance the dice total; "
           "FH 25, SS 30, LS 40, YAHTZEE 50"),
    ),
    "zero": (
        _c("001", "65", "if you can't (or don't want to) enter a score, you must enter a zero"),
    ),
    "upper_bonus": (
        _c("001", "81", "a total of at least 63 points earns a 35-point bonus"),
        _c("001", "168", "enter the 35-point bonus in the BONUS box if you scored 63 or more"),
    ),
    "yahtzee_bonus": (
        _c("001", "136-140", "a YAHTZEE rolled with 50 already in the YAHTZEE box earns 100 "
           "and a check mark"),
        _c("001", "142", "no bonus when the YAHTZEE box holds a zero"),
    ),
    "totals": (
        _c("001", "166-172", "TOTAL SCORE, BONUS, TOTAL; TOTAL of lower section plus 100 per "
           "check; GRAND TOTAL is upper plus lower"),
    ),
    "turn": (
        _c("001", "51-63", "up to 3 rolls; reroll any or all dice; then fill one box"),
        _c("001", "65", "fill in each box only once"),
    ),
    "full_house": (
        _c("001", "106", "three of one number and two of another"),
    ),
    "multi_game": (
        _c("004", "11", "highest score for one or more games wins; optionally the winner "
           "earns the difference"),
    ),
}

_FORCED_JOKER = (
    _c("001", "144-160", "score the dice total in the matching upper box; if filled, any open "
       "lower box at 3K/4K/Chance total, FH 25, SS 30, LS 40; if those are filled too, "
       "a zero in any open upper box"),
    _c("000", "434-440", "the same joker rules"),
)
_PRIORITY_JOKER = (
    _c("003", "105-115", "1. the matching upper box; 2. 3 or 4 of a Kind; 3. Chance or steal "
       "FH/SS/LS at 25/30/40"),
)
_CONDITIONAL_JOKER = (
    _c("004", "178-190", "a Yahtzee is a lower-section joker only when the YAHTZEE box and the "
       "matching upper box are already filled"),
    _c("004", "192-194", "a later Yahtzee may also be scored in the matching upper box"),
    _c("002", "47-69", "jokers in the lower section once the YAHTZEE box and the matching "
       "upper box are filled"),
)

HASBRO = RuleSet(
    name="hasbro",
    title="Official rules, forced joker (001)",
    summary="The official Milton Bradley/Hasbro rules: a bonus Yahtzee must go in its upper "
    "box if open, else any lower box at joker values, else a zero in an upper box.",
    joker=JokerRule.FORCED,
    aliases=("official", "forced", "milton-bradley", "default"),
    citations={
        "joker": _FORCED_JOKER,
        "zero_in_chance": (_c("001", "130", "Chance: when you can't (or don't want to) score "
                              "elsewhere and don't want to enter a zero"),
                           _c("001", "65", "a zero whenever you can't or don't want to score")),
        "joker_zero": (_c("001", "65", "if you can't (or don't want to) enter a score, "
                          "you must enter a zero"),),
    },
)

CLASSIC = RuleSet(
    name="classic",
    title="Yahtzee Classic priority joker (003)",
    summary="Hasbro's Yahtzee Classic leaflet: a bonus Yahtzee goes in its upper box, else "
    "3 or 4 of a Kind, else Chance or a stolen FH/SS/LS. A zero only when nothing else suits.",
    joker=JokerRule.PRIORITY,
    aliases=("priority", "yahtzee-classic"),
    zero_in_chance=False,
    joker_zero=False,
    citations={
        "joker": _PRIORITY_JOKER,
        "upper_bonus": (_c("003", "54-55", "'over 63' but three of each face (exactly 63) "
                           "earns it: read as 63 or more"),),
        "zero": (_c("003", "34", "if your roll doesn't suit any of your empty boxes, you have "
                    "to enter a ZERO"),
                 _c("003", "97", "if you don't have a score to enter, you must enter ZERO")),
        "zero_in_chance": (_c("003", "34", "a zero only when the roll suits no empty box; "
                              "Chance suits every roll"),
                           _c("003", "86-87", "Chance: a catch-all safety net")),
        "joker_zero": (_c("003", "108-112", "the joker steps name where the dice go; "
                          "a zero only when nothing suits (line 34)"),),
    },
)

TRAVEL = RuleSet(
    name="travel",
    title="Travel Yahtzee conditional joker (004, 002)",
    summary="Travel Yahtzee and Yardzee: zeros anywhere; a later Yahtzee may go in its upper "
    "box or naturally, and is a lower-section joker only once its upper box is filled.",
    joker=JokerRule.CONDITIONAL,
    aliases=("conditional", "travel-yahtzee", "yardzee"),
    citations={
        "joker": _CONDITIONAL_JOKER,
        "zero": (_c("004", "66", "you can place a zero rather than a score in a box"),),
        "zero_in_chance": (_c("004", "66", "a zero rather than a score, if you believe it an "
                              "advantage"),),
        "joker_zero": (_c("004", "66", "a zero rather than a score in any box"),),
        "upper_bonus": (_c("004", "102", "63 points or more earns a 35 point bonus"),),
        "yahtzee_bonus": (_c("004", "174-176", "100 per later Yahtzee, only with 50 in the "
                             "YAHTZEE box"),
                          _c("002", "47-56", "no bonus with the box empty or zero")),
        "full_house": (_c("004", "136", "three of one number and two of another number"),),
    },
)

# Book lines behind each open option's default, for `scorepad rules` and the README.
OPTION_NOTES: dict[str, str] = {
    "five_of_a_kind_full_house": "Whether five of a kind is a Full House when no joker "
    "applies. Default no: 001 line 106 and 004 line 136 say 'three of one number and two of "
    "another'.",
    "zero_in_chance": "Whether a zero may be written in Chance (every roll has a Chance "
    "score, so a zero there is always by choice). Default yes for hasbro (001 line 65: 'or "
    "don't want to') and travel (004 line 66); no for classic (003 line 34 allows a zero when "
    "the roll suits no empty box, and Chance suits every roll). Zeros in other boxes are "
    "allowed under every rule set: a card cannot show whether the roll suited another box.",
    "joker_zero": "Whether a joker may be scored as a zero in a LOWER box instead of its joker "
    "value. Default yes for hasbro (001 line 65) and travel (004 line 66); no for classic "
    "(003 lines 34 and 108-112). It never covers the joker's own upper box: 001 lines "
    "144-145 prescribe 'score the total of all 5 dice' there.",
}

DEFAULT_RULES = "hasbro"


class UnknownRuleSet(KeyError):
    """No rule set has that name or alias."""

    def __str__(self) -> str:
        return f"unknown rule set {self.args[0]!r}; known: {', '.join(sorted(REGISTRY))}"


class RuleSetError(ValueError):
    """A custom rule set is malformed."""


class Registry:
    """Rule sets by name, with aliases."""

    def __init__(self, *rule_sets: RuleSet) -> None:
        self._by_name: dict[str, RuleSet] = {}
        self._aliases: dict[str, str] = {}
        for rs in rule_sets:
            self.add(rs)

    def add(self, rs: RuleSet) -> None:
        self._by_name[rs.name] = rs
        for alias in rs.aliases:
            self._aliases[alias] = rs.name

    def get(self, name: str) -> RuleSet:
        key = name.strip().lower()
        key = self._aliases.get(key, key)
        try:
            return self._by_name[key]
        except KeyError:
            raise UnknownRuleSet(name) from None

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._by_name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (
            name.strip().lower() in self._by_name or name.strip().lower() in self._aliases
        )

    def all(self) -> list[RuleSet]:
        return list(self._by_name.values())


REGISTRY = Registry(HASBRO, CLASSIC, TRAVEL)


def book_quotes() -> dict[str, str]:
    """What each passage a finding cites says, by its citation (``"001:166-172"``)."""
    out: dict[str, str] = {}
    for rs in REGISTRY.all():
        for cites in (*_COMMON_CITATIONS.values(), *rs.citations.values()):
            for c in cites:
                out.setdefault(str(c), c.says)
    return out


def get_rules(spec: str | RuleSet | Mapping[str, Any] | None = None) -> RuleSet:
    """Resolve a rule-set name, alias, RuleSet or custom dict (None: the default)."""
    if spec is None:
        return REGISTRY.get(DEFAULT_RULES)
    if isinstance(spec, RuleSet):
        return spec
    if isinstance(spec, str):
        return REGISTRY.get(spec)
    if not isinstance(spec, Mapping):  # e.g. a JSON file holding [1, 2], 5 or true
        raise RuleSetError("a rule set is a name or an object of rule-set fields, "
                           f"not {type(spec).__name__}")
    return custom_rules(spec)


def custom_rules(data: Mapping[str, Any]) -> RuleSet:
    """Build a house-rule set from a dict: ``{"name": "...", "base": "hasbro", ...}``.

    Fields not given are taken from ``base`` (default hasbro). Unknown fields are an error.
    """
    unknown = sorted(str(k) for k in set(data) - set(CUSTOM_KEYS))
    if unknown:
        raise RuleSetError(f"unknown rule-set field(s): {', '.join(unknown)}")
    base_name = data.get("base", DEFAULT_RULES)
    if not isinstance(base_name, str):
        raise RuleSetError("'base' must be the name of a rule set")
    base = REGISTRY.get(base_name)
    name = data.get("name", f"custom-{base.name}")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_RULES_NAME:
        raise RuleSetError("'name' must be a non-empty string of at most "
                           f"{MAX_RULES_NAME} characters")
    if bad_text(name):
        raise RuleSetError(f"'name' {bad_text(name)}")
    if name in REGISTRY:
        raise RuleSetError(f"'name' {name.strip()!r} is a built-in rule set's name or alias: "
                           "give house rules a name of their own")
    changes: dict[str, Any] = {"name": name.strip(), "aliases": ()}
    for key in RULE_TEXT_FIELDS:
        if key in data:
            if not isinstance(data[key], str) or len(data[key]) > MAX_RULES_TEXT:
                raise RuleSetError(f"'{key}' must be a string of at most {MAX_RULES_TEXT} "
                                   "characters")
            if bad_text(data[key]):
                raise RuleSetError(f"'{key}' {bad_text(data[key])}")
            changes[key] = data[key]
    changes.setdefault("title", f"House rules based on {base.name}")
    if "joker" in data:
        try:
            changes["joker"] = JokerRule(data["joker"])
        except ValueError:
            raise RuleSetError(
                f"'joker' must be one of {', '.join(j.value for j in JokerRule)}"
            ) from None
    for key, (lo, hi) in RULE_INT_RANGES.items():
        if key in data:
            v = data[key]
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise RuleSetError(f"'{key}' must be an integer from {lo} to {hi}")
            changes[key] = v
    for key in RULE_BOOL_FIELDS:
        if key in data:
            if not isinstance(data[key], bool):
                raise RuleSetError(f"'{key}' must be true or false")
            changes[key] = data[key]
    return dataclasses.replace(base, **changes)
