"""The validator boundary: values from LLM output made safe and stable before they become RDF.

- Confidence: a number in [0, 1] rounded half-up to CONFIDENCE_DECIMALS (3)
  decimals, as an exact Decimal for an ``xsd:decimal`` literal. Out-of-range
  values are clamped; a missing or non-numeric value (text, a boolean, NaN)
  becomes DEFAULT_CONFIDENCE (0.5, "no information either way"). Each change
  comes with a note for the paper's audit graph.
- Labels: Unicode NFC, control characters removed, runs of whitespace (any
  Unicode space, tab, newline) collapsed to one space, ends stripped.
"""

from __future__ import annotations

import math
import re
import unicodedata
from decimal import Decimal, InvalidOperation

from claimgraph.papers.annotations import round_confidence

DEFAULT_CONFIDENCE = Decimal("0.500")
_WHITESPACE = re.compile(r"\s+")


def _as_decimal(value: object) -> Decimal | None:
    """The number a value holds (int, float, Decimal, or numeric text such as "0.8" or "85%"), else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, (int, float, Decimal)):
        number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
        return None if number.is_nan() else number
    if isinstance(value, str):
        text = value.strip()
        percent = text.endswith("%")
        try:
            number = Decimal(text.rstrip("%").strip())
        except InvalidOperation:
            return None
        if number.is_nan():
            return None
        return number / 100 if percent else number
    return None


def clamp_confidence(value: object) -> tuple[Decimal, str | None]:
    """(confidence in [0, 1] with 3 decimals, note or None when the value was used as given)."""
    number = _as_decimal(value)
    if number is None:
        shown = "missing" if value is None else f"non-numeric {str(value)[:40]!r}"
        return DEFAULT_CONFIDENCE, f"confidence {shown}; default {DEFAULT_CONFIDENCE} used"
    clamped = min(max(number, Decimal(0)), Decimal(1))
    rounded = round_confidence(clamped)
    if clamped != number:
        return rounded, f"confidence {value} outside [0, 1]; clamped to {rounded}"
    return rounded, None


def clean_text(value: object) -> str:
    """A label as stored: NFC, no control characters, single spaces, stripped; None becomes ""."""
    text = "" if value is None else value if isinstance(value, str) else str(value)
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if char.isspace() else char for char in text if char.isspace() or unicodedata.category(char) != "Cc")
    return _WHITESPACE.sub(" ", text).strip()
