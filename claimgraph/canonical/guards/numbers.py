"""Numbers with their units, as the numbers guard compares them.

A text's quantities are keyed by value, upper bound and unit on one scale per dimension, so
"12 months" and "1 year", "250 mg" and "0.25 g", "3.3 mm per year" and "3.3 mm annually",
"between 20 and 45 °C" and "20 °C to 45 °C" are the same key. Number words are read as digits
first ("two weeks", "three and a half years", "twice", "by half"); the numbers inside
identifiers ("IL-6", "PM2.5") are keyed as codes. Spellings, rates and conversions are data
(``[numbers]`` of words.toml).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from claimgraph.canonical.guards.vocabulary import GuardWords

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_AT_LEAST, _AT_MOST = "\u2a7e", "\u2a7d"  # marks "more than 20" and "less than 20" (as ⩾ and ⩽) for the quantity that follows
_TIME = frozenset({"s", "ms", "us", "ns", "min", "h", "day", "week", "month", "year"})  # "over 27 years" is a duration, not a bound
_CODE = re.compile(r"[^\s,;:()\[\]{}/]*[A-Za-z][^\s,;:()\[\]{}/]*")


@lru_cache(maxsize=8)
def _quantity_pattern(words: GuardWords) -> re.Pattern[str]:
    unit, rate = _alternation(words.units), _alternation(words.rates)
    return re.compile(
        rf"(?:(?P<bound>[{_AT_LEAST}{_AT_MOST}])\s*)?(?<![\w.])(?<![A-Za-z]-)(?P<sign>-(?=\d))?(?P<lo>{_NUMBER})(?:\^(?P<power>[-+]?\d{{1,3}})(?!\d))?"
        rf"(?:\s*(?:e|[×x]\s*10\^?)(?P<exp>[-+]?\d+))?"
        rf"(?:\s*(?:-|–|to)\s*(?P<hi>{_NUMBER}))?"
        rf"(?:[\s-]?(?P<unit>{unit})(?:\s*/\s*(?P<per>{unit})|\s+per\s+(?P<per_word>{unit})|\s+(?P<rate>{rate}))?)?"
        rf"(?![\w])"
    )


def _alternation(spellings: Iterable[str]) -> str:
    """Spellings as one regular-expression alternation, longest first, any run of spaces between words."""
    ordered = sorted(spellings, key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(part) for part in spelling.split()) for spelling in ordered) or r"(?!)"


@lru_cache(maxsize=8)
def _word_patterns(words: GuardWords) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    counted = _alternation(words.number_words)
    units = _alternation(spelling for spelling in words.units if spelling.isalpha() and len(spelling) > 2)
    return (
        re.compile(rf"(?<![\w-])(?P<word>{counted})[\s-]?fold(?![\w])", re.IGNORECASE),
        re.compile(rf"(?<![\w-])(?P<word>{_alternation(words.folds)})(?![\w-])(?![\s-]+(?:{_alternation(words.not_fold_before)})(?![\w]))",
                   re.IGNORECASE),
        re.compile(rf"(?<![\w-])(?P<word>{counted}|one(?=[\s-]+(?:{units})(?![\w])))(?![\w])(?!-(?!(?:{units})(?![\w])))", re.IGNORECASE),
        re.compile(rf"(?P<number>{_NUMBER})\s+(?P<word>{_alternation(words.scales)})(?![\w])", re.IGNORECASE),
    )


def _digits(value: float) -> str:
    return format(value, "g") if not value.is_integer() or abs(value) >= 1e15 else str(int(value))


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_EXPONENT = re.compile(r"(?<=\d)[⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+")


def spell_numbers(text: str, words: GuardWords) -> str:
    """Number words as digits ("two weeks" -> "2 weeks", "twice" -> "2-fold", "3 million" -> "3000000"),
    a superscript after a digit as a power ("10⁹" -> "10^9", "×10⁻⁵" -> "×10^-5"; "m²" stays a unit), and
    subscript digits as digits ("CO₂" -> "CO2")."""
    text = re.sub(r"(?<=\d)\u00b7(?=\d)", ".", text).replace("\u2212", "-")
    text = _EXPONENT.sub(lambda m: "^" + m.group(0).translate(_SUPERSCRIPTS), text).translate(_SUBSCRIPTS)
    numbered, folded, counted, scaled = _word_patterns(words)
    values = {**words.number_words, "one": 1.0}
    text = _compound_numbers(text, values, words)
    text = numbered.sub(lambda m: f"{_digits(values[m.group('word').lower()])}-fold", text)
    text = folded.sub(lambda m: f"{_digits(words.folds[m.group('word').lower()])}-fold", text)
    text = counted.sub(lambda m: _digits(values[m.group("word").lower()]), text)
    text = scaled.sub(lambda m: _digits(_value(m.group("number")) * words.scales[m.group("word").lower()]), text)
    return _ranges_and_halves(text, words)


def _compound_numbers(text: str, values: dict[str, float], words: GuardWords) -> str:
    """"twenty-seven" -> "27" and "a thousand" -> "1000", before single number words are read."""
    tens = "|".join(name for name, value in values.items() if value in (20, 30, 40, 50, 60, 70, 80, 90))
    ones = "|".join(name for name, value in values.items() if 1 <= value <= 9)
    text = re.sub(rf"\b({tens})[\s-]({ones})\b", lambda m: _digits(values[m.group(1).lower()] + values[m.group(2).lower()]), text,
                  flags=re.IGNORECASE)
    scales = "|".join(re.escape(name) for name in [*words.scales, "hundred"])
    every = {**words.scales, "hundred": 100.0}
    return re.sub(rf"\b(?:a|one)\s+({scales})\b", lambda m: _digits(every[m.group(1).lower()]), text, flags=re.IGNORECASE)


def _ranges_and_halves(text: str, words: GuardWords) -> str:
    """Fractions, folds and ranges written one way: "3 and a half" -> "3.5"; "by half", "halved",
    "half of" -> "50%"; "half an hour" -> "0.5 hour"; "a quarter" / "three quarters" -> "25%" /
    "75%"; "3 times" and "by a factor of 3" -> "3-fold"; "between 20 and 45" and "20 °C to 45 °C"
    -> "20 to 45 °C"; a rate after an "of" phrase moves to its quantity ("2 t of sediment per year"
    -> "2 t per year of sediment"); "more than", "over", "above" / "less than", "under", "below" before
    a number mark it as a bound ("over" before a duration does not)."""
    text = re.sub(rf"(?<![\w.])({_NUMBER})\s+and\s+a\s+half\b", lambda m: _digits(_value(m.group(1)) + 0.5), text)
    text = re.sub(r"\bby\s+(?:a\s+|one\s+)?half\b", "by 50%", text, flags=re.IGNORECASE)
    text = re.sub(r"\bhalv(?:e|es|ed|ing)\b", lambda m: f"{m.group(0)} 50%", text, flags=re.IGNORECASE)
    text = re.sub(r"\bhalf\s+an?\s+(?=[a-z])", "0.5 ", text, flags=re.IGNORECASE)
    text = re.sub(r"\bhalf\s+of\b", "50% of", text, flags=re.IGNORECASE)
    text = re.sub(r"\b(?:a|one)\s+quarter\b(?!\s+of\s+an?\s)", "25%", text, flags=re.IGNORECASE)
    text = re.sub(r"\b3\s+quarters\b", "75%", text, flags=re.IGNORECASE)
    text = re.sub(rf"(?<![\w.])({_NUMBER})\s+times\b", r"\1-fold", text, flags=re.IGNORECASE)
    text = re.sub(rf"\bby\s+a\s+factor\s+of\s+({_NUMBER})(?!\w)", r"by \1-fold", text, flags=re.IGNORECASE)
    text = re.sub(r"\b(?:more|greater|higher)\s+than\s+(?=-?\d|one\b)", _AT_LEAST, text, flags=re.IGNORECASE)
    text = re.sub(r"\b(?:less|fewer|lower)\s+than\s+(?=-?\d|one\b)", _AT_MOST, text, flags=re.IGNORECASE)
    over, rate_after_of, unit_range = _unit_patterns(words)
    text = over.sub(_AT_LEAST, text)
    text = re.sub(r"\b(?:under|below)\s+(?=-?\d)", _AT_MOST, text, flags=re.IGNORECASE)
    text = re.sub(rf"([{_AT_LEAST}{_AT_MOST}])one\b", r"\g<1>1", text, flags=re.IGNORECASE)
    text = rate_after_of.sub(r"\1 \3 \2", text)
    text = re.sub(rf"\bbetween\s+({_NUMBER})\s+and\s+({_NUMBER})(?!\w)", r"\1 to \2", text, flags=re.IGNORECASE)
    return unit_range.sub(r"\1 to \3 \2", text)


@lru_cache(maxsize=8)
def _unit_patterns(words: GuardWords) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The rewrites that need the unit spellings: "over" before a number that is not a duration, a rate
    after an "of" phrase, and a range with its unit written twice."""
    unit, rate = _alternation(words.units), _alternation(words.rates)
    time = _alternation(spelling for spelling, canonical in words.units.items() if canonical in _TIME)
    return (
        re.compile(rf"\b(?:over|above|exceeding)\s+(?=-?\d(?![\d.,]*[\s-]*(?:{time})(?![\w])))", re.IGNORECASE),
        re.compile(rf"(?<![\w.])({_NUMBER}[\s-]?(?:{unit}))\s+(of\s+(?:[^\W\d]+\s+){{1,3}}?)(per\s+(?:{unit})|{rate})(?![\w])"),
        re.compile(rf"(?<![\w.])({_NUMBER})[\s-]?({unit})\s*(?:-|–|to|and)\s*({_NUMBER})[\s-]?\2(?![\w])"),
    )


def _value(number: str) -> float:
    return float(number.replace(",", ""))


def quantities(text: str, words: GuardWords) -> dict[tuple[object, ...], str]:
    """Each quantity of the text, keyed by (value, upper bound, unit), with the span it came from;
    numbers inside identifiers ("IL-6", "PM2.5", "CO2") are keyed ("code", digits)."""
    spelled = spell_numbers(text, words)
    found: dict[tuple[object, ...], str] = {}
    for match in _quantity_pattern(words).finditer(spelled):
        key = _on_base_scale(*_magnitudes(match), _unit(match, words), words)
        span = match.group(0).strip().replace(_AT_LEAST, "more than ").replace(_AT_MOST, "less than ")
        found.setdefault((*key, match.group("bound")) if match.group("bound") else key, span)
    rest = _quantity_pattern(words).sub(" ", spelled)
    for token in _CODE.findall(rest):
        digits = tuple(re.findall(r"\d+(?:\.\d+)?", token))
        if digits:
            found.setdefault(("code", digits), token.strip(".'"))
    return found


def _magnitudes(match: re.Match[str]) -> tuple[float | str, float | None]:
    """The value and upper bound of a matched quantity; one too large for a float ("1e400", "10^999") is kept as written."""
    sign = -1.0 if match.group("sign") else 1.0
    try:
        scale = 10.0 ** int(match.group("exp")) if match.group("exp") else 1.0
        high = round(_value(match.group("hi")) * scale, 12) if match.group("hi") else None
        base = _value(match.group("lo")) ** int(match.group("power") or 1)
        return round(sign * base * scale, 12), high
    except (OverflowError, ZeroDivisionError):
        return match.group(0).strip(), None


def _unit(match: re.Match[str], words: GuardWords) -> tuple[str, str]:
    """The canonical unit of a matched quantity and of its denominator ("" when there is none)."""
    if not match.group("unit"):
        return "", ""
    unit = words.units[" ".join(match.group("unit").split())]
    if match.group("rate"):
        return unit, words.rates[" ".join(match.group("rate").lower().split())]
    per = match.group("per") or match.group("per_word")
    return unit, words.units[" ".join(per.split())] if per else ""


def _on_base_scale(value: float | str, high: float | None, unit: tuple[str, str], words: GuardWords) -> tuple[object, ...]:
    """A quantity's key with its units converted to their base ("12 months" and "1 year" share one)."""
    numerator, denominator = unit
    base, factor = words.conversions.get(numerator, (numerator, 1.0))
    if denominator:
        per_base, per_factor = words.conversions.get(denominator, (denominator, 1.0))
        base, factor = f"{base}/{per_base}", factor / per_factor
    if isinstance(value, str) or factor == 1.0:
        return value, high, base
    return _rounded(value * factor), None if high is None else _rounded(high * factor), base


def _rounded(value: float) -> float:
    """Nine significant digits: 0.1 h and 360 s are one key despite binary fractions."""
    return float(f"{value:.9g}")


def is_number(token: str, words: GuardWords) -> bool:
    """A token that is a number, a number word, a unit, a scale, a fold or a fraction word (left to this guard)."""
    return (token.replace(".", "").replace(",", "").isdigit() or token in words.number_words
            or token in words.units or token in words.unit_words or token in words.scales or token in words.folds
            or token in words.fractions)
