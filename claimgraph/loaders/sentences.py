"""Splitting prose into sentences, lazily and in time and memory linear in the text's length.

``sentence_spans`` finds sentences in the text as written; ``normalize``
collapses the whitespace of one sentence. Callers that bound sentence length
check a span before normalizing it, so a paragraph of millions of words never
turns into millions of string pieces at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# Abbreviations after which a period does not end a sentence.
_ABBREVIATIONS = frozenset({
    "al", "e.g", "i.e", "etc", "fig", "figs", "eq", "eqs", "ref", "refs", "vs", "cf",
    "no", "dr", "mr", "mrs", "ms", "prof", "approx", "ca", "sec", "tab", "suppl", "resp", "st",
})
_BOUNDARY = re.compile(r"(?<=[.!?])([\"')\]]*)\s+(?=[\"'(\[]?[A-Z0-9])")
_WHITESPACE = re.compile(r"\s+")
_VISIBLE = re.compile(r"\S")
_LAST_WORD = re.compile(r"\S*\Z")
_LONGEST_WORD = 32
"""Words this long or longer are never abbreviations, so only this much text before a boundary is looked at."""


def _ends_with_abbreviation(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` ends with an abbreviation or an initial ("et al.", "J.")."""
    window_start = max(start, end - _LONGEST_WORD)
    window = text[window_start:end]
    last_word = _LAST_WORD.search(window)  # \S*\Z matches every text (maybe empty)
    word = last_word.group() if last_word else ""
    if len(word) == len(window) and window_start > start:
        return False
    last = word.strip("([{\"'").rstrip(".").lower()
    return last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha())


def _visible_end(text: str, start: int) -> int:
    """The index after the last non-whitespace character at or after ``start``, without copying ``text``."""
    end = len(text)
    while end > start:
        piece = text[max(start, end - 4096):end]
        kept = len(piece.rstrip())
        if kept:
            return end - len(piece) + kept
        end -= len(piece)
    return start


def sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each sentence of ``text`` as written, without surrounding whitespace."""
    first = _VISIBLE.search(text)
    if first is None:
        return
    start = first.start()
    stop = _visible_end(text, start)
    for match in _BOUNDARY.finditer(text, start, stop):
        if not _ends_with_abbreviation(text, start, match.start()):
            yield start, match.end(1)
            start = match.end()
    if start < stop:
        yield start, stop


def normalize(sentence: str) -> str:
    """The sentence with each run of whitespace made one space."""
    return _WHITESPACE.sub(" ", sentence)


def iter_sentences(text: str) -> Iterator[str]:
    """The sentences of ``text``, whitespace collapsed, one at a time; keeps 'et al.' and 'Fig.' inside."""
    for start, end in sentence_spans(text):
        yield normalize(text[start:end])


def split_sentences(text: str) -> list[str]:
    """All sentences of ``text`` (see ``iter_sentences``)."""
    return list(iter_sentences(text))
