"""The word lists of the canonicalization guards, read from ``words.toml`` and compiled.

The lists are data (see the file's header for its conventions); this module only expands
the brace groups, checks the shape of each table and compiles the phrase lists into
whole-word regular expressions over the guards' normalized text (lower case, hyphens as
spaces).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from claimgraph.errors import ClaimgraphError

DEFAULT_GUARD_WORDS = Path(__file__).with_name("words.toml")
_BRACES = re.compile(r"\{([^{}]*)\}")


class GuardWordsError(ClaimgraphError):
    """The guard word list file is missing or malformed."""


def expand(entry: str) -> list[str]:
    """All spellings of an entry: ``"increas{e,es}"`` -> ``["increase", "increases"]``."""
    match = _BRACES.search(entry)
    if match is None:
        return [" ".join(entry.split())]
    head, tail = entry[:match.start()], entry[match.end():]
    return [spelling for option in match.group(1).split(",") for spelling in expand(head + option + tail)]


def phrase_pattern(phrases: Iterable[str]) -> re.Pattern[str] | None:
    """One whole-word alternation of the phrases, longest first (None when there are none)."""
    spellings = sorted({spelling for phrase in phrases for spelling in expand(phrase)}, key=len, reverse=True)
    if not spellings:
        return None
    alternatives = "|".join(r"\s+".join(re.escape(word) for word in spelling.split()) for spelling in spellings)
    return re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])")


@dataclass(frozen=True, eq=False)
class GuardWords:
    """Compiled word lists; compared by identity, so it can key a cache."""

    source: Path
    negation: re.Pattern[str] | None
    not_negating: re.Pattern[str] | None
    hedge: re.Pattern[str] | None
    not_hedging: re.Pattern[str] | None
    not_hedging_questions: re.Pattern[str] | None
    up: re.Pattern[str] | None
    down: re.Pattern[str] | None
    direction_idioms: re.Pattern[str] | None
    opposites: tuple[tuple[re.Pattern[str], re.Pattern[str], str, str], ...]
    restrictors: re.Pattern[str] | None
    prepositions: tuple[tuple[str, ...], ...]
    clauses: tuple[tuple[str, ...], ...]
    not_qualifiers: tuple[tuple[str, ...], ...]
    argument_heads: frozenset[str]
    boundaries: frozenset[str]
    clause_boundaries: frozenset[str]
    stopwords: frozenset[str]
    fillers: frozenset[str]
    verbs: frozenset[str]
    not_adverbs: frozenset[str]
    role_verbs: tuple[tuple[str, ...], ...]
    symmetric: re.Pattern[str] | None
    reporting: frozenset[str]
    participles: frozenset[str]
    intransitive_after: frozenset[str]
    synonyms: Mapping[str, str]
    number_words: Mapping[str, float]
    scales: Mapping[str, float]
    folds: Mapping[str, float]
    fractions: frozenset[str]
    not_fold_before: frozenset[str]
    unit_words: frozenset[str]
    units: Mapping[str, str]
    rates: Mapping[str, str]
    conversions: Mapping[str, tuple[str, float]]
    openers: frozenset[str]
    min_frame: int
    long_filler: int


def _strings(table: Mapping[str, Any], key: str, where: str) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise GuardWordsError(f"{where}.{key} must be a list of non-empty strings")
    if any(item != item.lower() for item in value):
        raise GuardWordsError(f"{where}.{key} must be lower case (the guards match lower-cased text)")
    return value


def _spellings(table: Mapping[str, Any], key: str, where: str) -> frozenset[str]:
    """Every spelling of the entries of a word list (braces expanded)."""
    return frozenset(spelling for entry in _strings(table, key, where) for spelling in expand(entry))


def _numbers(table: Mapping[str, Any], key: str, where: str) -> dict[str, float]:
    value = table.get(key, {})
    if not isinstance(value, dict) or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value.values()):
        raise GuardWordsError(f"{where}.{key} must be a table of word = number")
    return {word: float(number) for word, number in value.items()}


def _table(data: Mapping[str, Any], name: str, path: Path) -> Mapping[str, Any]:
    table = data.get(name)
    if not isinstance(table, dict):
        raise GuardWordsError(f"{path}: the [{name}] table is missing")
    return table


def _tokens(phrases: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    spellings = {tuple(spelling.split()) for phrase in phrases for spelling in expand(phrase)}
    return tuple(sorted(spellings, key=len, reverse=True))


def _opposites(pairs: Any, where: str) -> tuple[tuple[re.Pattern[str], re.Pattern[str], str, str], ...]:
    if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(w, str) for w in p) for p in pairs):
        raise GuardWordsError(f"{where}.opposites must be a list of [word, opposite] pairs")
    compiled = []
    for first, second in pairs:
        first_pattern, second_pattern = phrase_pattern([first]), phrase_pattern([second])
        if first_pattern is None or second_pattern is None:
            raise GuardWordsError(f"{where}.opposites: empty word in [{first!r}, {second!r}]")
        compiled.append((first_pattern, second_pattern, first, second))
    return tuple(compiled)


def _units(table: Any, where: str) -> dict[str, str]:
    if not isinstance(table, dict):
        raise GuardWordsError(f"{where} must be a table of canonical unit = [spellings]")
    units: dict[str, str] = {}
    for canonical, spellings in table.items():
        if not isinstance(spellings, list) or not all(isinstance(s, str) and s for s in spellings):
            raise GuardWordsError(f"{where}.{canonical} must be a list of spellings")
        for spelling in spellings:
            if units.setdefault(spelling, canonical) != canonical:
                raise GuardWordsError(f"{where}: {spelling!r} is a spelling of both {units[spelling]} and {canonical}")
    return units


def _rates(table: Any, units: Mapping[str, str], where: str) -> dict[str, str]:
    canonical = set(units.values())
    if not isinstance(table, dict) or not all(isinstance(unit, str) and unit in canonical for unit in table.values()):
        raise GuardWordsError(f"{where} must be a table of rate word = canonical unit of [numbers.units]")
    return {" ".join(word.split()): unit for word, unit in table.items()}


def _conversions(table: Any, units: Mapping[str, str], where: str) -> dict[str, tuple[str, float]]:
    canonical = set(units.values())
    if not isinstance(table, dict):
        raise GuardWordsError(f"{where} must be a table of unit = [base unit, factor]")
    conversions = {}
    for unit, entry in table.items():
        if not (isinstance(entry, list) and len(entry) == 2 and entry[0] in canonical and unit in canonical
                and isinstance(entry[1], (int, float)) and not isinstance(entry[1], bool) and entry[1] > 0):
            raise GuardWordsError(f"{where}.{unit} must be [base unit, positive factor], both units of [numbers.units]")
        conversions[unit] = (entry[0], float(entry[1]))
    return conversions


def load_guard_words(path: Path | None = None) -> GuardWords:
    """The compiled lists of ``path`` (default: ``words.toml`` next to this module)."""
    path = path or DEFAULT_GUARD_WORDS
    return _load(path.resolve())


def _count(table: Mapping[str, Any], key: str, where: str) -> int:
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise GuardWordsError(f"{where}.{key} must be a positive whole number")
    return value


@cache
def _load(path: Path) -> GuardWords:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise GuardWordsError(f"guard word list {path} not found; reinstall claimgraph or pass an existing file") from error
    except tomllib.TOMLDecodeError as error:
        raise GuardWordsError(f"guard word list {path} is not valid TOML: {error}") from error
    polarity, numbers, direction = (_table(data, name, path) for name in ("polarity", "numbers", "direction"))
    hedges, scope, roles = _table(data, "hedges", path), _table(data, "scope", path), _table(data, "roles", path)
    frame = _table(data, "frame", path)
    where = f"{path}: "
    synonyms = scope.get("synonyms", {})
    if not isinstance(synonyms, dict) or not all(isinstance(v, str) for v in synonyms.values()):
        raise GuardWordsError(f"{where}scope.synonyms must be a table of word = canonical word")
    prepositions = _tokens(_strings(scope, "prepositions", where + "scope"))
    clauses = _tokens(_strings(scope, "clauses", where + "scope"))
    units = _units(numbers.get("units"), where + "numbers.units")
    return GuardWords(
        source=path,
        negation=phrase_pattern(_strings(polarity, "cues", where + "polarity")),
        not_negating=phrase_pattern(_strings(polarity, "not_negating", where + "polarity")),
        hedge=phrase_pattern(_strings(hedges, "cues", where + "hedges")),
        not_hedging=phrase_pattern(_strings(hedges, "not_hedging", where + "hedges")),
        not_hedging_questions=phrase_pattern(_strings(hedges, "not_hedging_questions", where + "hedges")),
        up=phrase_pattern(_strings(direction, "up", where + "direction")),
        down=phrase_pattern(_strings(direction, "down", where + "direction")),
        direction_idioms=phrase_pattern(_strings(direction, "idioms", where + "direction")),
        opposites=_opposites(direction.get("opposites", []), where + "direction"),
        restrictors=phrase_pattern(_strings(scope, "restrictors", where + "scope")),
        prepositions=prepositions,
        clauses=clauses,
        not_qualifiers=_tokens(_strings(scope, "not_qualifiers", where + "scope")),
        argument_heads=frozenset(_strings(scope, "argument_heads", where + "scope")),
        boundaries=frozenset(_strings(scope, "boundaries", where + "scope")),
        clause_boundaries=frozenset(_strings(scope, "clause_boundaries", where + "scope")),
        stopwords=frozenset(_strings(scope, "stopwords", where + "scope")),
        fillers=frozenset(_strings(scope, "fillers", where + "scope")),
        verbs=_spellings(scope, "verbs", where + "scope"),
        not_adverbs=frozenset(_strings(scope, "not_adverbs", where + "scope")),
        role_verbs=_tokens(_strings(roles, "verbs", where + "roles")),
        symmetric=phrase_pattern(_strings(roles, "symmetric", where + "roles")),
        reporting=_spellings(roles, "reporting", where + "roles"),
        participles=frozenset(_strings(roles, "participles", where + "roles")),
        intransitive_after=frozenset(_strings(roles, "intransitive_after", where + "roles")),
        synonyms=dict(synonyms),
        number_words=_numbers(numbers, "words", where + "numbers"),
        scales=_numbers(numbers, "scales", where + "numbers"),
        folds=_numbers(numbers, "folds", where + "numbers"),
        fractions=frozenset(_strings(numbers, "fractions", where + "numbers")),
        not_fold_before=frozenset(_strings(numbers, "not_fold_before", where + "numbers")),
        unit_words=frozenset(part.lower() for spelling in units for part in spelling.split() if len(spelling.split()) > 1),
        units=units,
        rates=_rates(numbers.get("rates", {}), units, where + "numbers.rates"),
        conversions=_conversions(numbers.get("conversions", {}), units, where + "numbers.conversions"),
        openers=frozenset(phrase[0] for phrase in prepositions + clauses if len(phrase) == 1),
        min_frame=_count(frame, "min_frame", where + "frame"),
        long_filler=_count(frame, "long_filler", where + "frame"),
    )
