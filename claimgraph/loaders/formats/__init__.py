"""The built-in input formats as loader plugins (registered in pyproject.toml like any plugin's).

Each loader function imports its parsing library when it runs, so listing the
formats (to expand a folder, or for ``--help``) loads no parser.
"""

from __future__ import annotations

from pathlib import Path

from claimgraph.errors import LoaderError
from claimgraph.loaders.document import Document
from claimgraph.plugins import LoaderPlugin


def load_arche(path: Path) -> Document:
    from claimgraph.loaders.formats.arche import load_arche as load

    return load(path)


def load_xml(path: Path) -> Document:
    """JATS (root ``article``) or GROBID TEI (root ``TEI``), told apart by the root element."""
    from claimgraph.loaders.formats.jats import jats_document
    from claimgraph.loaders.formats.tei import tei_document
    from claimgraph.loaders.xml_input import local_name, parse_xml

    root = parse_xml(path)
    name = local_name(root)
    if name == "article":
        return jats_document(root, path)
    if name == "TEI":
        return tei_document(root, path)
    raise LoaderError(path, f"XML root element <{name}> is neither JATS <article> nor TEI <TEI>")


def load_pdf(path: Path) -> Document:
    from claimgraph.loaders.formats.pdf import load_pdf as load

    return load(path)


def load_markdown(path: Path) -> Document:
    from claimgraph.loaders.formats.markdown import load_markdown as load

    return load(path)


def load_text(path: Path) -> Document:
    from claimgraph.loaders.formats.text import load_text as load

    return load(path)


ARCHE = LoaderPlugin("arche", (".json",), load_arche)
XML = LoaderPlugin("xml", (".xml", ".nxml"), load_xml)
PDF = LoaderPlugin("pdf", (".pdf",), load_pdf)
MARKDOWN = LoaderPlugin("markdown", (".md", ".markdown"), load_markdown)
TEXT = LoaderPlugin("text", (".txt", ".text"), load_text)
