"""Input formats -> the common Document. ``load_document`` picks the loader by file type.

No input file reaches a traceback: whatever is wrong with a file (missing,
unreadable, wrong encoding, malformed, hostile, over a limit of
``claimgraph.loaders.limits``), ``load_document`` raises a LoaderError naming
the file and the problem.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from claimgraph.errors import LoaderError
from claimgraph.loaders import input_paths
from claimgraph.loaders.arche import load_arche
from claimgraph.loaders.document import Document, Passage, Reference, Sentence, Viewpoint
from claimgraph.loaders.document_checks import check_document
from claimgraph.loaders.jats import jats_document
from claimgraph.loaders.markdown import load_markdown
from claimgraph.loaders.pdf import load_pdf
from claimgraph.loaders.tei import tei_document
from claimgraph.loaders.text import load_text
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

__all__ = ["LOADERS", "Document", "Passage", "Reference", "Sentence", "Viewpoint", "find_inputs", "load_document"]


def load_document(path: Path) -> Document:
    """Load one file with the loader registered for its extension; LoaderError for anything wrong with it."""
    input_paths.check_input_path(path, LOADERS)
    loader = LOADERS.get(path.suffix.lower())
    if loader is None:
        known = ", ".join(sorted(LOADERS))
        raise LoaderError(path, f"unsupported file type {path.suffix or '(none)'!r}; known: {known}")
    document = loader(path)
    check_document(path, document)
    return document


def find_inputs(paths: Iterable[Path]) -> Iterator[Path]:
    """Files to ingest: each file given, and the supported files inside each folder given.

    Never raises: a missing path, or a folder without a supported file, is
    yielded as it is so that ``load_document`` reports it for that item.
    """
    return input_paths.find_inputs(paths, LOADERS)
