"""Best-effort references from the plain text of a reference list (a PDF's, where nothing is marked up).

When the list's first line starts with a number (``[12]``, ``12.``,
``12 Author``), the lines are cut into entries where a line starts with one;
otherwise each DOI written in the text closes one entry (reference lists
usually end an entry with its DOI). Of an entry only its DOI and year are
read: titles and authors cannot be told apart reliably in free text, so an
entry without a DOI keeps just its text as its label, and names no work
another paper can share.

In-text citations are read only where they are bracketed numbers (``[3]``,
``[1, 4]``, ``[2-5]``) and the list's entries carry printed numbers (``[3]``
or ``3.``): a sentence holding one cites the entry printed with that number. Superscript
numbers and author-year citations are not told apart from other text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from claimgraph.loaders.document import Bibliographic, Document, Reference
from claimgraph.loaders.formats.identifiers import DOI_IN_TEXT, doi_in_text, year_in_text

LABEL_MAX_CHARS = 500
_ENTRY_START = re.compile(r"^(?:\[\d{1,4}\]|\d{1,4}\.\s|\d{1,4}\s+[A-Z])")
_PRINTED_NUMBER = re.compile(r"^(?:\[(\d{1,4})\]|(\d{1,4})\.\s)")
_BRACKETED = re.compile(r"\[(\d{1,4}(?:\s*[,;\u2013-]\s*\d{1,4})*)\]")
_MAX_RANGE = 50
_DOI_BREAK = re.compile(r"(10\.\d{4,9}/(?:\S*[-/_])?)\s+(?=[0-9A-Za-z])")


def _numbered_entries(lines: Sequence[str]) -> list[str]:
    entries: list[str] = []
    for line in (line.strip() for line in lines):
        if not line:
            continue
        if _ENTRY_START.match(line) or not entries:
            entries.append(line)
        else:
            entries[-1] += " " + line
    return entries if entries and _ENTRY_START.match(entries[0]) else []


def _entries_by_doi(text: str) -> list[str]:
    entries, start = [], 0
    for found in DOI_IN_TEXT.finditer(text):
        entries.append(text[start:found.end()].strip())
        start = found.end()
    return entries


def references_from_lines(lines: Sequence[str]) -> dict[int, Reference]:
    """The entries of a reference list's lines as References numbered from 1, with the DOI and year each gives."""
    entries = _numbered_entries(lines) or _entries_by_doi(_DOI_BREAK.sub(r"\1", " ".join(line.strip() for line in lines)))
    references = {}
    for number, entry in enumerate(entries, start=1):
        text = _DOI_BREAK.sub(r"\1", entry)
        work = Bibliographic(doi=doi_in_text(text) or "", year=year_in_text(text, prose=True))
        references[number] = Reference(number=number, label=" ".join(entry.split())[:LABEL_MAX_CHARS], work=work)
    return references


def _cited_numbers(group: str) -> list[int]:
    """The numbers a bracketed group names: '1, 4' gives 1 and 4, '2-5' (or 2\u20135) gives 2 to 5 (a range of at most _MAX_RANGE)."""
    numbers: list[int] = []
    for part in re.split(r"\s*[,;]\s*", group):
        bounds = [int(bound) for bound in re.split(r"\s*[\u2013-]\s*", part) if bound]
        if len(bounds) == 2 and 0 <= bounds[1] - bounds[0] <= _MAX_RANGE:
            numbers += range(bounds[0], bounds[1] + 1)
        elif bounds:
            numbers.append(bounds[0])
    return numbers


def cite_bracketed_numbers(document: Document) -> None:
    """Note which sentences cite which entry by a bracketed number (see the module docstring)."""
    printed: dict[int, Reference] = {}
    for reference in document.references.values():
        found = _PRINTED_NUMBER.match(reference.label)
        if found:
            printed.setdefault(int(found.group(1) or found.group(2)), reference)
    for sentence in document.sentences if printed else []:
        for group in _BRACKETED.findall(sentence.text):
            for number in _cited_numbers(group):
                cited = printed.get(number)
                if cited is not None and sentence.index not in cited.cited_by:
                    cited.cited_by.append(sentence.index)
