"""Checks every Document passes before it leaves ``load_document``: sizes, and strings a store can hold."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from claimgraph.errors import LoaderError
from claimgraph.loaders.document import Document
from claimgraph.loaders.limits import MAX_SENTENCE_CHARS, MAX_SENTENCES, MAX_VIEWPOINTS, limit_error
from claimgraph.loaders.paper_ids import PAPER_ID_PATTERN

# NUL, and lone UTF-16 surrogates (JSON "\ud800" decodes to one; UTF-8 cannot encode it).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def check_text(path: Path, where: str, text: str) -> None:
    """Refuse a text longer than MAX_SENTENCE_CHARS, or holding a character no UTF-8 store can keep."""
    if len(text) > MAX_SENTENCE_CHARS:
        raise limit_error(path, f"{where} is {len(text):,} characters long", "MAX_SENTENCE_CHARS")
    found = _UNSTORABLE.search(text)
    if found is None:
        return
    if found.group() == "\x00":
        raise LoaderError(path, f"{where} holds a NUL character (character {found.start()})")
    raise LoaderError(
        path,
        f"{where} holds a lone surrogate U+{ord(found.group()):04X} (character {found.start()}), "
        "which is not a character and cannot be stored as UTF-8; fix the \\u escape",
    )


def check_document(path: Path, document: Document) -> None:
    """Sizes within the limits, a usable paper id, and every string storable."""
    if not PAPER_ID_PATTERN.match(document.paper_id):
        raise LoaderError(path, f"paper id {document.paper_id!r} is not usable in an IRI")
    sentences = sum(len(passage.sentences) for passage in document.passages)
    if sentences > MAX_SENTENCES:
        raise limit_error(path, f"has {sentences:,} sentences", "MAX_SENTENCES")
    if len(document.viewpoints) > MAX_VIEWPOINTS:
        raise limit_error(path, f"has {len(document.viewpoints):,} viewpoints", "MAX_VIEWPOINTS")
    for where, text in _texts(document):
        check_text(path, where, text)


def _texts(document: Document) -> Iterator[tuple[str, str]]:
    yield "the title", document.title
    for key, value in document.metadata.items():
        yield f"metadata {key!r}", value
    for passage in document.passages:
        yield f"the heading of passage {passage.index}", passage.heading
        for sentence in passage.sentences:
            yield f"sentence {sentence.index}", sentence.text
    for viewpoint in document.viewpoints:
        yield f"viewpoint {viewpoint.source}", viewpoint.text
    for number, reference in document.references.items():
        yield f"the label of reference {number}", reference.label
