"""GROBID TEI XML (``.tei.xml``): abstract and body ``div``s become passages.

Title from ``teiHeader/fileDesc/titleStmt/title``, DOI and PubMed id from the
``idno`` elements (``type`` DOI / PMID) of ``fileDesc/sourceDesc/biblStruct``; paragraphs (``p``) of
``profileDesc/abstract``, then of each ``text/body/div`` (heading: its ``head``);
figures, tables, formulas and notes are left out. In-text citations
``<ref type="bibr" target="#b0">`` become References numbered in the order of
the ``biblStruct``s of ``text/back``. The paper id is the file name (without
``.tei``).
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from claimgraph.loaders.document import Document
from claimgraph.loaders.formats.identifiers import identifier_metadata
from claimgraph.loaders.formats.text import build_document
from claimgraph.loaders.paper_ids import paper_id_from_text
from claimgraph.loaders.xml_input import (
    Layout,
    Sections,
    attach_citations,
    collect_sections,
    first,
    local_name,
    numbered,
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
    idnos = [element for element in source.iter() if local_name(element) == "idno"] if source is not None else []
    document.metadata.update(identifier_metadata((element.get("type", ""), plain_text(element)) for element in idnos))
    back = first(root, "text", "back")
    bibliography = [element for element in back.iter() if local_name(element) == "biblStruct" and element.get(XML_ID)] if back is not None else []
    numbers = numbered(element.get(XML_ID, "") for element in bibliography)
    attach_citations(document, numbers, {numbers[element.get(XML_ID, "")]: plain_text(element, " ") for element in bibliography})
    return document
