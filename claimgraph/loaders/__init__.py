"""Input formats -> the common Document. ``load_document`` picks the loader by file type."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from claimgraph.errors import LoaderError
from claimgraph.loaders.arche import load_arche
from claimgraph.loaders.document import Document, Passage, Reference, Sentence, Viewpoint
from claimgraph.loaders.jats import jats_document
from claimgraph.loaders.pdf import load_pdf
from claimgraph.loaders.tei import tei_document
from claimgraph.loaders.text import load_markdown, load_text
from claimgraph.loaders.xml_input import local_name, parse_xml

Loader = Callable[[Path], Document]


def load_xml(path: Path) -> Document:
    """JATS (root ``article``) or GROBID TEI (root ``TEI``), told apart by the root element."""
    root = parse_xml(path)
    name = local_name(root)
    if name == "article":
        return jats_document(root, path)
    if name == "TEI":
        return tei_document(root, path)
    raise LoaderError(path, f"XML root element <{name}> is neither JATS <article> nor TEI <TEI>")


LOADERS: dict[str, Loader] = {
    ".json": load_arche,
    ".xml": load_xml,
    ".nxml": load_xml,
    ".pdf": load_pdf,
    ".md": load_markdown,
    ".markdown": load_markdown,
    ".txt": load_text,
    ".text": load_text,
}

__all__ = [
    "Document", "Passage", "Reference", "Sentence", "Viewpoint",
    "LOADERS", "load_document", "find_inputs",
]


def load_document(path: Path) -> Document:
    """Load one file with the loader registered for its extension."""
    loader = LOADERS.get(path.suffix.lower())
    if loader is None:
        known = ", ".join(sorted(LOADERS))
        raise LoaderError(path, f"unsupported file type {path.suffix or '(none)'!r}; known: {known}")
    return loader(path)


def find_inputs(paths: Iterable[Path]) -> Iterator[Path]:
    """Files to ingest: each file given, and the supported files inside each folder given."""
    for path in paths:
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.is_file() and child.suffix.lower() in LOADERS and child.name.lower() != "readme.md":
                    yield child
        else:
            yield path
