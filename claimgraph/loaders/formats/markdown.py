"""Markdown: ATX headings (``#``..``######``) open sections; paragraphs become passages.

A paragraph is a run of non-blank lines; a heading, a blank line or a code
fence ends it. Fenced code blocks are left out. Emphasis, links, images,
list markers and quote markers are stripped to their text. The first heading
is the title. Lines are read one at a time and paragraphs are handed on as
they end, so memory stays near the size of the text itself; every pattern
runs in time linear in the line or paragraph it looks at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from claimgraph.loaders.document import Document
from claimgraph.loaders.formats.text import build_document
from claimgraph.loaders.text_input import read_text

_FENCE = re.compile(r"[ \t]{0,3}(```|~~~)")
_HEADING = re.compile(r"[ \t]{0,3}(#{1,6})[ \t]+")
_BLANK = re.compile(r"\s*")
_STRIPS: tuple[tuple[re.Pattern[str], int | None], ...] = (
    (re.compile(r"!\[([^\[\]\n]*)\]\([^()\n]*\)"), 1),
    (re.compile(r"\[([^\[\]\n]+)\]\([^()\n]*\)"), 1),
    (re.compile(r"\*\*(\S(?:[^*\n]*\S)?)\*\*"), 1),
    (re.compile(r"(?<!\w)__(\S(?:[^_\n]*\S)?)__(?!\w)"), 1),
    (re.compile(r"\*(\S(?:[^*\n]*\S)?)\*"), 1),
    (re.compile(r"(?<!\w)_(\S(?:[^_\n]*\S)?)_(?!\w)"), 1),
    (re.compile(r"`([^`\n]+)`"), 1),
    (re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+", re.MULTILINE), None),
    (re.compile(r"^[ \t]*>[ \t]?", re.MULTILINE), None),
)
"""Inline syntax and line markers, each with the group that replaces a match (None: removed)."""
_JOIN_EVERY = 4096


def _substitute(pattern: re.Pattern[str], keep: int | None, text: str) -> str:
    """``pattern.sub`` with the group ``keep``, in working memory near the size of the result.

    ``re.sub`` holds two strings per match until it joins them all: gigabytes
    for a paragraph with millions of matches. Here pieces are joined as they go.
    """
    if pattern.search(text) is None:
        return text
    done: list[str] = []
    pieces: list[str] = []
    last = 0
    for match in pattern.finditer(text):
        pieces.append(text[last:match.start()])
        pieces.append(match.group(keep) if keep is not None else "")
        last = match.end()
        if len(pieces) >= _JOIN_EVERY:
            done.append("".join(pieces))
            pieces.clear()
    pieces.append(text[last:])
    done.append("".join(pieces))
    return "".join(done)


def strip_markdown(text: str) -> str:
    """The paragraph's text without inline Markdown syntax."""
    for pattern, keep in _STRIPS:
        text = _substitute(pattern, keep, text)
    return text


def _heading_text(line: str) -> str:
    """A heading line's text without its opening and optional closing ``#`` run."""
    text = line.strip()
    closed = text.rstrip("#")
    if closed != text and (not closed or closed[-1] in " \t"):
        text = closed.rstrip()
    return text


@dataclass
class MarkdownSections:
    """Iterates (heading, [paragraph]) pairs of a Markdown text; ``title`` is the first heading seen."""

    text: str
    title: str = ""

    def __iter__(self) -> Iterator[tuple[str, list[str]]]:
        text, heading, paragraph_start, in_fence = self.text, "", -1, False
        for start, end in _lines(text):
            fence = _FENCE.match(text, start, end) is not None
            heading_match = None if in_fence or fence else _HEADING.match(text, start, end)
            ends_paragraph = in_fence or fence or heading_match is not None or _BLANK.fullmatch(text, start, end)
            if ends_paragraph and paragraph_start >= 0:
                yield heading, [strip_markdown(text[paragraph_start:start])]
                paragraph_start = -1
            if fence:
                in_fence = not in_fence
            elif heading_match is not None:
                heading = _heading_text(text[heading_match.end():end])
                self.title = self.title or heading
            elif not ends_paragraph and paragraph_start < 0:
                paragraph_start = start
        if paragraph_start >= 0:
            yield heading, [strip_markdown(text[paragraph_start:])]


def _lines(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) offsets of each line, without its newline."""
    start, length = 0, len(text)
    while start < length:
        end = text.find("\n", start)
        end = length if end < 0 else end
        yield start, end
        start = end + 1


def load_markdown(path: Path) -> Document:
    sections = MarkdownSections(read_text(path))
    document = build_document(path, "markdown", sections)
    document.title = sections.title
    return document
