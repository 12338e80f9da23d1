"""Plain text, and the Document builder the text-like loaders share.

In plain text, blank lines separate paragraphs and each paragraph is a
passage; the first line becomes the title when it is a short paragraph of its
own that does not end with a period.

``build_document`` reads its sections and paragraphs lazily and stops at the
first sentence over MAX_SENTENCES or over MAX_SENTENCE_CHARS, so a file that
is not one paper is refused before its text is held as millions of objects.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path

from claimgraph.errors import LoaderError
from claimgraph.loaders.document import Document, Passage, Sentence
from claimgraph.loaders.document_checks import check_text
from claimgraph.loaders.limits import MAX_SENTENCE_CHARS, MAX_SENTENCES, limit_error
from claimgraph.loaders.paper_ids import paper_id_from_text
from claimgraph.loaders.sentences import normalize, sentence_spans
from claimgraph.loaders.text_input import read_text

Sections = Iterable[tuple[str, Iterable[str]]]
"""(heading, paragraphs) pairs, in reading order."""

_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_VISIBLE = re.compile(r"\S")
TITLE_MAX_CHARS = 200


def paragraphs(text: str) -> Iterator[str]:
    """The blank-line separated paragraphs of ``text`` that hold more than whitespace, as written, one at a time.

    Not stripped: the sentence splitter skips surrounding whitespace, and a
    file that is one paragraph is then handed on without a copy.
    """
    start = 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        if _VISIBLE.search(text, start, match.start()):
            yield text[start:match.start()]
        start = match.end()
    if _VISIBLE.search(text, start):
        yield text[start:]


def build_document(path: Path, fmt: str, sections: Sections, title: str = "") -> Document:
    """A Document from sections; each paragraph with a sentence is a passage, sentence indices run over the paper."""
    document = Document(paper_id=paper_id_from_text(path.stem), source=str(path), format=fmt, title=title)
    count = 0
    for heading, section_paragraphs in sections:
        for paragraph in section_paragraphs:
            spans = sentence_spans(paragraph)
            first = next(spans, None)
            if first is None:
                continue
            passage = Passage(index=len(document.passages) + 1, heading=heading)
            document.passages.append(passage)
            for start, end in chain([first], spans):
                count += 1
                _check_sentence_span(path, count, end - start)
                text = normalize(paragraph[start:end])
                check_text(path, f"sentence {count}", text)
                passage.sentences.append(Sentence(count, text, passage.index))
    if not document.passages:
        raise LoaderError(path, "no sentences found")
    return document


def _check_sentence_span(path: Path, count: int, length: int) -> None:
    """Refuse the sentence over MAX_SENTENCES, or one too long as written, before it is copied."""
    if count > MAX_SENTENCES:
        raise limit_error(path, f"has more than {MAX_SENTENCES:,} sentences", "MAX_SENTENCES")
    if length > MAX_SENTENCE_CHARS:
        raise limit_error(path, f"sentence {count} is {length:,} characters long", "MAX_SENTENCE_CHARS")


def _title(paragraph: str) -> str:
    """The paragraph when it reads as a title: one short line not ending with a period; else ''."""
    if len(paragraph) > 4 * TITLE_MAX_CHARS:
        return ""
    line = paragraph.strip()
    return line if "\n" not in line and len(line) <= TITLE_MAX_CHARS and not line.endswith(".") else ""


def load_text(path: Path) -> Document:
    blocks = paragraphs(read_text(path))
    first = next(blocks, "")
    title = _title(first)
    return build_document(path, "text", [("", blocks if title else chain([first], blocks))], title)
