"""Shared by the XML loaders (JATS, TEI): safe parsing, root sniffing, paragraph text with citations.

Parsing never fetches a DTD or the network, and refuses documents that declare
entities or nest too deep (see ``parse_xml``). In-text citations are kept as
invisible markers while the paragraph goes through the common sentence
splitter, then ``attach_citations`` notes the sentence that holds each marker as
citing that marker's Reference (one per entry of the reference list) and removes it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from claimgraph.errors import LoaderError
from claimgraph.loaders.document import Document, Reference, Sentence
from claimgraph.loaders.limits import MAX_NESTING_DEPTH, MAX_XML_BYTES, limit_error
from claimgraph.loaders.text_input import read_bytes

# U+FFFE and U+FFFF are not XML characters, so no parsed text can hold one and forge a marker.
_MARK_OPEN, _MARK_CLOSE = "\ufffe", "\uffff"
_MARKER = re.compile(f"{_MARK_OPEN}([^{_MARK_CLOSE}]*){_MARK_CLOSE}")

_POSITION_SUFFIX = re.compile(r",?\s*line \d+, column \d+$")

CitationKeys = Callable[[etree._Element], list[str] | None]


def parse_xml(path: Path) -> etree._Element:
    """The root element of an XML file, or a LoaderError saying what is wrong with it.

    The encoding is the parser's business (BOM, then the XML declaration).
    Refused: files over MAX_XML_BYTES, documents that are not
    well-formed, any entity declaration (internal entities could expand to
    gigabytes, external ones read local files; claimgraph expands neither, so
    their text would be lost), and elements nested deeper than MAX_NESTING_DEPTH.
    """
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(read_bytes(path, MAX_XML_BYTES, "MAX_XML_BYTES"), parser)
    except etree.XMLSyntaxError as error:
        raise _syntax_error(path, error) from error
    dtd = root.getroottree().docinfo.internalDTD
    entities = sorted({entity.name for entity in dtd.iterentities()}) if dtd is not None else []
    if entities:
        names = ", ".join(entities[:5]) + (", ..." if len(entities) > 5 else "")
        raise LoaderError(
            path,
            f"declares XML entities ({names}); claimgraph never expands entities (they can read local files "
            "or expand to gigabytes): replace each reference by its text",
        )
    if _DEEPER_THAN_LIMIT(root):
        raise limit_error(path, f"XML elements nest more than {MAX_NESTING_DEPTH} deep", "MAX_NESTING_DEPTH")
    return root


def _syntax_error(path: Path, error: etree.XMLSyntaxError) -> LoaderError:
    message = _POSITION_SUFFIX.sub("", (error.msg or str(error)).splitlines()[0].strip())
    if "Excessive depth" in message:
        return limit_error(path, "XML elements nest too deep to parse", "MAX_NESTING_DEPTH")
    if "amplification" in message.lower() or "entity reference loop" in message.lower():
        return LoaderError(path, f"XML entities expand without bound (an entity expansion bomb?): {message}")
    line, column = error.position
    return LoaderError(path, f"not well-formed XML (line {line}, column {column}: {message})")


_DEEPER_THAN_LIMIT = etree.XPath("boolean(" + "/*" * (MAX_NESTING_DEPTH + 1) + ")")
"""Whether any element sits deeper than MAX_NESTING_DEPTH (the root element is depth 1), evaluated in C."""


def local_name(element: etree._Element) -> str:
    """The tag without its namespace ('' for comments and processing instructions)."""
    tag = element.tag
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def children(element: etree._Element, name: str) -> list[etree._Element]:
    return [child for child in element if local_name(child) == name]


def first(element: etree._Element | None, *path: str) -> etree._Element | None:
    """The first element down a path of local names, or None."""
    for name in path:
        if element is None:
            return None
        found = children(element, name)
        element = found[0] if found else None
    return element


def plain_text(element: etree._Element | None, separator: str = "") -> str:
    """The element's text with whitespace collapsed; ``separator`` goes between text nodes."""
    return re.sub(r"\s+", " ", separator.join(element.itertext())).strip() if element is not None else ""


def citation_marker(key: str) -> str:
    return f"{_MARK_OPEN}{key}{_MARK_CLOSE}"


def paragraph_text(element: etree._Element, citation_keys: CitationKeys, skip: frozenset[str]) -> str:
    """The text of a paragraph; elements named in ``skip`` are left out, citations get markers.

    A marker goes after the citation's visible text, where it cannot stop the
    sentence splitter from seeing a capital letter that starts a sentence. A
    citation nested in another (eLife wraps a group of citations in one) cites too.
    """
    parts = [element.text or ""]
    for child in element:
        name = local_name(child)
        if name and name not in skip:
            keys = citation_keys(child)
            if keys is not None:
                nested = [key for inner in child.iterdescendants() for key in citation_keys(inner) or []]
                parts.append(plain_text(child))
                parts.extend(citation_marker(key) for key in dict.fromkeys(keys + nested))
            else:
                parts.append(paragraph_text(child, citation_keys, skip))
        parts.append(child.tail or "")
    return "".join(parts)


@dataclass(frozen=True)
class Layout:
    """How one XML format marks sections up: JATS ``sec``/``title``, TEI ``div``/``head``."""

    section: str
    heading: str
    citation_keys: CitationKeys
    skip: frozenset[str]
    skip_section_types: frozenset[str] = frozenset()


Sections = list[tuple[str, list[str]]]


def collect_sections(element: etree._Element, heading: str, layout: Layout, sections: Sections) -> None:
    """Paragraphs (``p``) directly under ``element`` form one section; nested sections follow, in order.

    A section without its own heading keeps its parent's.
    """
    title = plain_text(first(element, layout.heading)) or heading
    paragraphs: list[str] = []
    sections.append((title, paragraphs))
    for child in element:
        name = local_name(child)
        if name == "p":
            paragraphs.append(paragraph_text(child, layout.citation_keys, layout.skip))
        elif name == layout.section and child.get("type") not in layout.skip_section_types:
            collect_sections(child, title, layout, sections)
            paragraphs = []
            sections.append((title, paragraphs))


def attach_citations(document: Document, numbers: Mapping[str, int], references: Mapping[int, Reference]) -> None:
    """Give the document the reference list's References (numbered by ``numbers``), note which sentences cite
    each, and strip the citation markers from the sentences. A citation of a key the list lacks is dropped."""
    document.references = dict(sorted(references.items()))
    for passage in document.passages:
        cleaned = []
        for sentence in passage.sentences:
            for key in _MARKER.findall(sentence.text):
                reference = document.references.get(numbers.get(key, 0))
                if reference is not None and sentence.index not in reference.cited_by:
                    reference.cited_by.append(sentence.index)
            text = re.sub(r"\s+", " ", _MARKER.sub("", sentence.text)).strip()
            cleaned.append(Sentence(sentence.index, text, sentence.passage_index))
        passage.sentences = cleaned

