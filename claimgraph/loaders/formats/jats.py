"""JATS XML (PubMed Central ``.nxml``/``.xml``): abstract and body sections become passages.

Title from ``front/article-meta/title-group/article-title``, DOI and PubMed id
from its ``article-id`` elements (``pub-id-type`` doi / pmid); paragraphs (``p``)
of the abstract, then of each body ``sec`` (heading: the nearest ``title``);
figures, tables, display formulas and footnotes are left out. Each ``ref`` of
``back/ref-list`` becomes a Reference, numbered in list order, with what its
``element-citation`` or ``mixed-citation`` marks up: ``pub-id`` DOI, PMID and
PMCID (else a DOI written in its text or links), ``article-title`` (a book's
``source``), ``year``, the first author's ``surname`` (or ``collab``) and the
journal (``source``). In-text citations ``<xref ref-type="bibr" rid="...">``
(several ids in one ``rid`` cite each) say which sentences cite which
reference. The paper's own year and first author come from ``pub-date`` and
``contrib-group``. The paper id is the file name, like the other loaders.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from claimgraph.loaders.document import Bibliographic, Document, Reference
from claimgraph.loaders.formats.identifiers import doi_in_text, identifier_metadata, year_in_text
from claimgraph.loaders.formats.text import build_document
from claimgraph.loaders.xml_input import (
    Layout,
    Sections,
    attach_citations,
    children,
    collect_sections,
    first,
    local_name,
    plain_text,
)

XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
CITATIONS = ("element-citation", "mixed-citation", "citation", "nlm-citation")

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
    document.year = _publication_year(meta)
    document.first_author = _first_author(first(meta, "contrib-group"))
    ref_list = first(root, "back", "ref-list")
    refs = [ref for ref in ref_list.iter() if local_name(ref) == "ref"] if ref_list is not None else []
    numbers: dict[str, int] = {}
    references: dict[int, Reference] = {}
    for number, ref in enumerate(refs, start=1):
        if ref.get("id"):
            numbers.setdefault(ref.get("id", ""), number)
        citation = _citation(ref)
        references[number] = Reference(number=number, label=plain_text(citation if citation is not None else ref, " "),
                                       work=_bibliographic(citation if citation is not None else ref))
    attach_citations(document, numbers, references)
    return document


def _descendants(element: etree._Element | None, *names: str) -> list[etree._Element]:
    return [child for child in element.iter() if local_name(child) in names] if element is not None else []


def _citation(ref: etree._Element) -> etree._Element | None:
    found = _descendants(ref, *CITATIONS)
    return found[0] if found else None


def _pub_ids(citation: etree._Element) -> dict[str, str]:
    pairs = [(element.get("pub-id-type", ""), plain_text(element)) for element in _descendants(citation, "pub-id", "object-id")]
    return identifier_metadata(pairs)


def _bibliographic(citation: etree._Element) -> Bibliographic:
    """The fields of one citation; a DOI only written in its text or a link is found there."""
    ids = _pub_ids(citation)
    links = " ".join(element.get(XLINK_HREF, "") for element in _descendants(citation, "ext-link", "uri"))
    article_title = plain_text(next(iter(_descendants(citation, "article-title", "chapter-title", "data-title")), None))
    source = plain_text(next(iter(_descendants(citation, "source")), None))
    year_field = plain_text(next(iter(_descendants(citation, "year")), None))
    year = year_in_text(year_field) if year_field else year_in_text(plain_text(citation, " "), prose=True)
    return Bibliographic(
        doi=ids.get("doi") or doi_in_text(links) or doi_in_text(plain_text(citation, " ")) or "",
        pmid=ids.get("pmid", ""), pmcid=ids.get("pmcid", ""),
        title=article_title or source, year=year, first_author=_first_author(citation),
        journal=source if article_title else "",
    )


def _first_author(element: etree._Element | None) -> str:
    """The family name of the first author under ``element`` (an author group when marked as one), or a group name."""
    groups = [group for group in _descendants(element, "person-group", "contrib-group") if group.get("person-group-type", "author") == "author"]
    scope = groups[0] if groups else element
    for candidate in _descendants(scope, "name", "string-name", "collab"):
        if local_name(candidate) == "collab":
            return plain_text(candidate)
        contrib = candidate.getparent()
        if contrib is not None and local_name(contrib) == "contrib" and contrib.get("contrib-type", "author") != "author":
            continue
        return plain_text(first(candidate, "surname")) or plain_text(candidate)
    return ""


def _publication_year(meta: etree._Element | None) -> str:
    """The year of the first ``pub-date`` that has one."""
    for date in _descendants(meta, "pub-date"):
        year = year_in_text(plain_text(first(date, "year")))
        if year:
            return year
    return ""
