from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimgraph.loaders.paper_ids import HASH_LENGTH, MAX_ID_LENGTH, PAPER_ID_PATTERN, paper_id_from_text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("s41467-025-55907-w", "s41467-025-55907-w"),
        ("My Paper", "my-paper"),
        ("Café au lait", "cafe-au-lait"),
        ("  --leading and trailing--  ", "leading-and-trailing"),
        ("x²", "x2"),
    ],
)
def test_ascii_slugs_stay_readable(text: str, expected: str) -> None:
    assert paper_id_from_text(text) == expected


def test_texts_without_ascii_get_distinct_stable_hash_ids() -> None:
    japanese, korean = paper_id_from_text("日本語の論文"), paper_id_from_text("한국어 논문")
    assert japanese != korean
    assert japanese == paper_id_from_text("日本語の論文")
    assert japanese.startswith("paper-") and len(japanese) == len("paper-") + HASH_LENGTH
    assert paper_id_from_text("") != paper_id_from_text("---")


def test_dropped_letters_add_a_hash_so_texts_that_share_their_ascii_part_stay_apart() -> None:
    first, second = paper_id_from_text("日本語-1"), paper_id_from_text("中文-1")
    assert first != second
    assert first.startswith("1-") and second.startswith("1-")


def test_long_texts_are_cut_with_a_hash_so_a_shared_prefix_does_not_merge_them() -> None:
    first, second = paper_id_from_text("a" * 300 + "x"), paper_id_from_text("a" * 300 + "y")
    assert first != second
    assert len(first) <= MAX_ID_LENGTH and PAPER_ID_PATTERN.match(first)


def test_a_lone_surrogate_does_not_break_the_hash() -> None:
    assert PAPER_ID_PATTERN.match(paper_id_from_text("\ud800"))


@settings(max_examples=300)
@given(st.text())
def test_every_text_gives_an_id_the_iri_scheme_accepts(text: str) -> None:
    assert PAPER_ID_PATTERN.match(paper_id_from_text(text))


@settings(max_examples=200)
@given(
    st.text(alphabet=st.characters(min_codepoint=0x3040, max_codepoint=0x9FFF), min_size=1),
    st.text(alphabet=st.characters(min_codepoint=0x3040, max_codepoint=0x9FFF), min_size=1),
)
def test_different_non_ascii_texts_never_share_an_id(first: str, second: str) -> None:
    if first != second:
        assert paper_id_from_text(first) != paper_id_from_text(second)
