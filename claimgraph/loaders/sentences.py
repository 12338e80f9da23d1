"""Splitting prose into sentences, lazily and in time linear in the text's length."""

from __future__ import annotations

import re
from collections.abc import Iterator

# Abbreviations after which a period does not end a sentence.
_ABBREVIATIONS = frozenset({
    "al", "e.g", "i.e", "etc", "fig", "figs", "eq", "eqs", "ref", "refs", "vs", "cf",
    "no", "dr", "mr", "mrs", "ms", "prof", "approx", "ca", "sec", "tab", "suppl", "resp", "st",
})
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_WHITESPACE = re.compile(r"\s+")


def _ends_with_abbreviation(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` ends with an abbreviation or an initial ("et al.", "J.").

    Only the last word is looked at (found backwards from ``end``), so checking
    every candidate boundary of a paragraph costs time linear in its length.
    """
    word_start = max(text.rfind(" ", start, end) + 1, start)
    last = text[word_start:end].strip("([{\"'").rstrip(".").lower()
    return last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha())


def iter_sentences(text: str) -> Iterator[str]:
    """The sentences of ``text`` (whitespace collapsed), one at a time; keeps 'et al.' and 'Fig.' inside."""
    text = _WHITESPACE.sub(" ", text).strip()
    start = 0
    for match in _BOUNDARY.finditer(text):
        if _ends_with_abbreviation(text, start, match.start()):
            continue
        yield text[start:match.end()].strip()
        start = match.end()
    tail = text[start:].strip()
    if tail:
        yield tail


def split_sentences(text: str) -> list[str]:
    """All sentences of ``text`` (see ``iter_sentences``)."""
    return list(iter_sentences(text))
