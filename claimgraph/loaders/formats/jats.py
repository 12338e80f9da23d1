"""JATS XML (PubMed Central ``.nxml``/``.xml``): abstract and body sections become passages.

Title from ``front/article-meta/title-group/article-title``, DOI and PubMed id
from its ``article-id`` elements (``pub-id-type`` doi / pmid); paragraphs (``p``)
of the abstract, then of each body ``sec`` (heading: the nearest ``title``);
figures, tables, display formulas and footnotes are left out. In-text
citations ``<xref ref-type="bibr" rid="...">`` become References numbered in
``back/ref-list`` order. The paper id is the file name, like the other loaders.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from claimgraph.loaders.document import Document
from claimgraph.loaders.formats.identifiers import identifier_metadata
from claimgraph.loaders.formats.text import build_document
from claimgraph.loaders.xml_input import (
    Layout,
    Sections,
    attach_citations,
    children,
    collect_sections,
    first,
    local_name,
    numbered,
    plain_text,
)

SKIP = frozenset({"fig", "fig-group", "table-wrap", "table-wrap-group", "disp-formula", "fn", "fn-group", "supplementary-material", "ref-list"})


def _citation_keys(element: etree._Element) -> list[str] | None:
    if local_name(element) == "xref" and element.get("ref-type") == "bibr":
        return (element.get("rid") or "").split()
    return None


LAYOUT = Layout(section="sec", heading="title", citation_keys=_citation_keys, skip=SKIP)


def jats_document(root: etree._Element, path: Path) -> Document:
    meta = first(root, "front", "article-meta")
    title = plain_text(first(meta, "title-group", "article-title"))
    sections: Sections = []
    for abstract in children(meta, "abstract") if meta is not None else []:
        collect_sections(abstract, "Abstract", LAYOUT, sections)
    body = first(root, "body")
    if body is not None:
        collect_sections(body, "", LAYOUT, sections)
    document = build_document(path, "jats", sections, title)
    article_ids = children(meta, "article-id") if meta is not None else []
    document.metadata.update(identifier_metadata((element.get("pub-id-type", ""), plain_text(element)) for element in article_ids))
    ref_list = first(root, "back", "ref-list")
    keyed = [(ref.get("id", ""), ref) for ref in (children(ref_list, "ref") if ref_list is not None else []) if ref.get("id")]
    numbers = numbered(key for key, _ in keyed)
    attach_citations(document, numbers, {numbers[key]: _reference_text(ref) for key, ref in keyed})
    return document


def _reference_text(ref: etree._Element) -> str:
    for name in ("mixed-citation", "element-citation", "citation"):
        citation = first(ref, name)
        if citation is not None:
            return plain_text(citation)
    return plain_text(ref)
