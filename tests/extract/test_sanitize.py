from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from claimgraph.extract.sanitize import DEFAULT_CONFIDENCE, clamp_confidence, clean_text
from claimgraph.papers.annotations import CONFIDENCE_DECIMALS, confidence_literal


@pytest.mark.parametrize(
    ("value", "expected", "noted"),
    [
        (0.12345, "0.123", False), (0.1235, "0.124", False), ("0.8", "0.800", False), ("85%", "0.850", False),
        (1, "1.000", False), (1.7, "1.000", True), (-2, "0.000", True), (float("inf"), "1.000", True),
        ("high", "0.500", True), (None, "0.500", True), (True, "0.500", True), (float("nan"), "0.500", True),
        ([0.3], "0.500", True),
    ],
)
def test_confidence_is_clamped_rounded_or_defaulted_with_a_note(value: object, expected: str, noted: bool) -> None:
    confidence, note = clamp_confidence(value)
    assert str(confidence) == expected
    assert (note is not None) == noted


@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(), st.text(), st.none(), st.decimals()))
def test_confidence_is_always_in_range_with_fixed_decimals(value: object) -> None:
    confidence, _ = clamp_confidence(value)
    assert Decimal(0) <= confidence <= Decimal(1)
    assert confidence.as_tuple().exponent == -CONFIDENCE_DECIMALS


def test_default_and_literal() -> None:
    assert clamp_confidence(None)[0] == DEFAULT_CONFIDENCE
    assert str(confidence_literal(Decimal("0.250"))) == '"0.25"^^<http://www.w3.org/2001/XMLSchema#decimal>'
    assert str(confidence_literal(1)) == '"1"^^<http://www.w3.org/2001/XMLSchema#decimal>'


def test_labels_are_nfc_single_spaced_and_stripped() -> None:
    assert clean_text("  Prote\u0301in \t X\n\u2028(mouse)\x07  ") == "Protéin X (mouse)"
    assert clean_text(None) == "" and clean_text(42) == "42"


@given(st.text())
def test_label_normalization_is_idempotent(text: str) -> None:
    once = clean_text(text)
    assert clean_text(once) == once
    assert once == once.strip() and "  " not in once
