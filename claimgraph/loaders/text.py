"""Plain text and Markdown: sections become passages, passages become sentences.

Markdown headings (``#``..``######``) open a new passage; in plain text, blank
lines separate paragraphs and each paragraph is a passage. The first heading
(or the first line of plain text when it is short) becomes the title.
"""

from __future__ import annotations

import re
from pathlib import Path

from claimgraph.errors import LoaderError
from claimgraph.rdf.iris import slugify
from claimgraph.loaders.document import Document, Passage, Sentence
from claimgraph.loaders.text_input import read_text, split_sentences

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _markdown_sections(text: str) -> list[tuple[str, str]]:
    sections: list[tuple[str, list[str]]] = [("", [])]
    in_fence = False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        heading = _HEADING.match(line)
        if heading:
            sections.append((heading.group(2).strip(), []))
        else:
            sections[-1][1].append(line)
    return [(title, "\n".join(lines)) for title, lines in sections]


def _paragraphs(text: str) -> list[str]:
    return [block.strip() for block in re.split(r"\n\s*\n", text) if block.strip()]


def _strip_markdown(text: str) -> str:
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1", r"\2", text)
    text = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text, flags=re.MULTILINE)
    return re.sub(r"^\s*>\s?", "", text, flags=re.MULTILINE)


def build_document(path: Path, fmt: str, sections: list[tuple[str, list[str]]], title: str) -> Document:
    """A Document from (heading, paragraphs) sections; sentence indices run over the paper."""
    document = Document(paper_id=slugify(path.stem), source=str(path), format=fmt, title=title)
    sentence_index = 0
    for heading, paragraphs in sections:
        for paragraph in paragraphs:
            sentences = split_sentences(paragraph)
            if not sentences:
                continue
            passage = Passage(index=len(document.passages) + 1, heading=heading)
            for text in sentences:
                sentence_index += 1
                passage.sentences.append(Sentence(sentence_index, text, passage.index))
            document.passages.append(passage)
    if not document.passages:
        raise LoaderError(path, "no sentences found")
    return document


def load_markdown(path: Path) -> Document:
    text = read_text(path)
    sections = _markdown_sections(text)
    title = next((heading for heading, _ in sections if heading), "")
    parsed = [(heading, _paragraphs(_strip_markdown(body))) for heading, body in sections]
    return build_document(path, "markdown", parsed, title)


def load_text(path: Path) -> Document:
    paragraphs = _paragraphs(read_text(path))
    title = ""
    if paragraphs and "\n" not in paragraphs[0] and len(paragraphs[0]) <= 200 and not paragraphs[0].endswith("."):
        title = paragraphs.pop(0)
    return build_document(path, "text", [("", paragraphs)], title)
