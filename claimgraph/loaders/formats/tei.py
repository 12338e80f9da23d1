"""GROBID TEI XML (``.tei.xml``): abstract and body ``div``s become passages.

Title from ``teiHeader/fileDesc/titleStmt/title``, DOI and PubMed id from the
``idno`` elements (``type`` DOI / PMID) of ``fileDesc/sourceDesc/biblStruct``; paragraphs (``p``) of
``profileDesc/abstract``, then of each ``text/body/div`` (heading: its ``head``);
figures, tables, formulas and notes are left out. Each ``biblStruct`` of
``text/back`` (the ``listBibl``) becomes a Reference, numbered in order, with
its ``idno`` DOI, PMID and PMCID, title (``analytic``, else ``monogr``), year
(``imprint/date/@when``), first author's surname and journal (``monogr``
title of level ``j``). In-text citations ``<ref type="bibr" target="#b0">``
say which sentences cite which reference. The paper's own year and first
author come from the ``sourceDesc`` ``biblStruct``. The paper id is the file
name (without ``.tei``).
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from claimgraph.loaders.document import Bibliographic, Document, Reference
from claimgraph.loaders.formats.identifiers import doi_in_text, identifier_metadata, year_in_text
from claimgraph.loaders.formats.text import build_document
from claimgraph.loaders.paper_ids import paper_id_from_text
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

XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
SKIP = frozenset({"figure", "table", "formula", "note", "listBibl"})


def _citation_keys(element: etree._Element) -> list[str] | None:
    if local_name(element) == "ref" and element.get("type") == "bibr":
        return [target.lstrip("#") for target in (element.get("target") or "").split()]
    return None


LAYOUT = Layout(
    section="div", heading="head", citation_keys=_citation_keys, skip=SKIP,
    skip_section_types=frozenset({"references", "acknowledgement", "annex"}),
)


def tei_document(root: etree._Element, path: Path) -> Document:
    header = first(root, "teiHeader")
    title = plain_text(first(header, "fileDesc", "titleStmt", "title"))
    sections: Sections = []
    abstract = first(header, "profileDesc", "abstract")
    if abstract is not None:
        collect_sections(abstract, "Abstract", LAYOUT, sections)
    body = first(root, "text", "body")
    if body is not None:
        collect_sections(body, "", LAYOUT, sections)
    document = build_document(path, "tei", sections, title)
    document.paper_id = paper_id_from_text(re.sub(r"\.tei$", "", path.stem, flags=re.IGNORECASE))
    source = first(header, "fileDesc", "sourceDesc", "biblStruct")
    document.metadata.update(_identifiers(source))
    own = _bibliographic(source) if source is not None else Bibliographic()
    document.year, document.first_author = own.year, own.first_author
    back = first(root, "text", "back")
    bibliography = [element for element in back.iter() if local_name(element) == "biblStruct"] if back is not None else []
    numbers: dict[str, int] = {}
    references: dict[int, Reference] = {}
    for number, element in enumerate(bibliography, start=1):
        if element.get(XML_ID):
            numbers.setdefault(element.get(XML_ID, ""), number)
        references[number] = Reference(number=number, label=plain_text(element, " "), work=_bibliographic(element))
    attach_citations(document, numbers, references)
    return document


def _descendants(element: etree._Element | None, name: str) -> list[etree._Element]:
    return [child for child in element.iter() if local_name(child) == name] if element is not None else []


def _identifiers(bibl: etree._Element | None) -> dict[str, str]:
    return identifier_metadata((element.get("type", ""), plain_text(element)) for element in _descendants(bibl, "idno"))


def _titled(part: etree._Element | None, *levels: str) -> str:
    """The first title of ``part`` whose level is one of ``levels`` (a title without a level counts as any)."""
    for title in children(part, "title") if part is not None else []:
        if title.get("level", levels[0]) in levels and title.get("type", "main") == "main":
            return plain_text(title)
    return ""


def _bibliographic(bibl: etree._Element) -> Bibliographic:
    ids = _identifiers(bibl)
    analytic, monogr = first(bibl, "analytic"), first(bibl, "monogr")
    dates = [date for date in _descendants(monogr, "date") if date.get("type", "published") == "published"]
    year = year_in_text(dates[0].get("when") or plain_text(dates[0])) if dates else ""
    authors = _descendants(analytic, "author") or _descendants(monogr, "author")
    person = first(authors[0], "persName") if authors else None
    surname = plain_text(first(person, "surname")) or plain_text(person) or plain_text(first(authors[0], "orgName")) if authors else ""
    links = " ".join(element.get("target", "") for element in _descendants(bibl, "ptr"))
    return Bibliographic(
        doi=ids.get("doi") or doi_in_text(links) or "", pmid=ids.get("pmid", ""), pmcid=ids.get("pmcid", ""),
        title=_titled(analytic, "a") or _titled(monogr, "m", "j"), year=year, first_author=surname,
        journal=_titled(monogr, "j") if analytic is not None else "",
    )
