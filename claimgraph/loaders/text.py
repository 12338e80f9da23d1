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
from claimgraph.loaders.limits import MAX_SENTENCES, limit_error
from claimgraph.loaders.paper_ids import paper_id_from_text
from claimgraph.loaders.sentences import iter_sentences
from claimgraph.loaders.text_input import read_text

Sections = Iterable[tuple[str, Iterable[str]]]
"""(heading, paragraphs) pairs, in reading order."""

_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_VISIBLE = re.compile(r"\S")
TITLE_MAX_CHARS = 200


def paragraphs(text: str) -> Iterator[str]:
    """The blank-line separated paragraphs of ``text``, stripped, one at a time."""
    start = 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        if _VISIBLE.search(text, start, match.start()):
            yield text[start:match.start()].strip()
        start = match.end()
    if _VISIBLE.search(text, start):
        yield text[start:].strip()


def build_document(path: Path, fmt: str, sections: Sections, title: str = "") -> Document:
    """A Document from sections; each paragraph with a sentence is a passage, sentence indices run over the paper."""
    document = Document(paper_id=paper_id_from_text(path.stem), source=str(path), format=fmt, title=title)
    count = 0
    for heading, section_paragraphs in sections:
        for paragraph in section_paragraphs:
            passage = Passage(index=len(document.passages) + 1, heading=heading)
            for text in iter_sentences(paragraph):
                count += 1
                if count > MAX_SENTENCES:
                    raise limit_error(path, f"has more than {MAX_SENTENCES:,} sentences", "MAX_SENTENCES")
                check_text(path, f"sentence {count}", text)
                passage.sentences.append(Sentence(count, text, passage.index))
            if passage.sentences:
                document.passages.append(passage)
    if not document.passages:
        raise LoaderError(path, "no sentences found")
    return document


def load_text(path: Path) -> Document:
    blocks = paragraphs(read_text(path))
    first = next(blocks, "")
    looks_like_title = "\n" not in first and len(first) <= TITLE_MAX_CHARS and not first.endswith(".")
    body = blocks if looks_like_title else chain([first], blocks)
    return build_document(path, "text", [("", body)], first if looks_like_title else "")
