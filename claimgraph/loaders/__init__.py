"""Input formats -> the common Document. ``load_document`` picks the loader by file type."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from claimgraph.errors import LoaderError
from claimgraph.loaders.arche import load_arche
from claimgraph.loaders.document import Document, Passage, Reference, Sentence, Viewpoint
from claimgraph.loaders.text import load_markdown, load_text

Loader = Callable[[Path], Document]

LOADERS: dict[str, Loader] = {
    ".json": load_arche,
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
