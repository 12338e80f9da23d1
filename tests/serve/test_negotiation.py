"""Content negotiation picks what RFC 9110 says: the most specific range decides a type's quality."""

from __future__ import annotations

import pytest

from claimgraph.serve.negotiation import charset_of, choose, media_type_of, parse_accept

RESULTS = ("application/sparql-results+json", "application/sparql-results+xml", "text/csv", "text/tab-separated-values")


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        (None, "application/sparql-results+json"),
        ("", "application/sparql-results+json"),
        ("*/*", "application/sparql-results+json"),
        ("text/csv", "text/csv"),
        ("text/*", "text/csv"),
        ("text/tab-separated-values, text/csv;q=0.5", "text/tab-separated-values"),
        ("application/sparql-results+xml;q=0.9, */*;q=0.1", "application/sparql-results+xml"),
        ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "application/sparql-results+json"),
        ("TEXT/CSV", "text/csv"),
        ("*/*, application/sparql-results+json;q=0", "application/sparql-results+xml"),
        ("text/*;q=0, */*", "application/sparql-results+json"),
    ],
)
def test_the_preferred_offered_type_wins(accept: str | None, expected: str) -> None:
    assert choose(accept, RESULTS) == expected


@pytest.mark.parametrize("accept", ["image/png", "text/html", "application/sparql-results+json;q=0", "text/csv;q=0, image/*"])
def test_nothing_acceptable_gives_none(accept: str) -> None:
    assert choose(accept, RESULTS) is None


def test_the_most_specific_range_sets_the_quality_even_when_lower() -> None:
    # text/* would allow CSV at 1.0, but text/csv itself says 0.1
    assert choose("text/*, text/csv;q=0.1", ("text/csv", "text/tab-separated-values")) == "text/tab-separated-values"


def test_malformed_ranges_are_skipped_not_fatal() -> None:
    assert [r.type for r in parse_accept("garbage, text/csv;q=abc, /json, */csv, text/csv;q=2, text/tab-separated-values")] == ["text"]
    assert choose("garbage", RESULTS) == RESULTS[0]


def test_content_type_parts() -> None:
    assert media_type_of("Application/SPARQL-Query; charset=UTF-8") == "application/sparql-query"
    assert media_type_of(None) == ""
    assert charset_of("application/sparql-query; charset=\"ISO-8859-1\"") == "iso-8859-1"
    assert charset_of("application/sparql-query") == "utf-8"
