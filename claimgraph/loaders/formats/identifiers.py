"""Bibliographic identifiers (DOI, PubMed id, PubMed Central id) as the loaders find them, checked and normalized,
and the work keys that name a work across papers.

A DOI is ``10.<registrant>/<suffix>`` (a ``doi:`` or ``https://doi.org/``
prefix is dropped); a PubMed id is a number; a PubMed Central id is ``PMC``
and a number. A value of another form is left out rather than stored wrong.
The first valid value of each kind wins.

A work key names the work a reference cites, so that references of different
papers, and a stored paper, can be found to be the same work: ``doi:`` and the
DOI in lower case (DOIs are case-insensitive), else ``pmid:`` and the PubMed
id, else ``pmcid:`` and the PubMed Central id, else ``ref:`` and the title,
year and first author, each lower-cased with only letters and digits kept.
A reference without an identifier and without a title and year has no key:
it is a work no other paper can be found to share.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from claimgraph.loaders.document import Bibliographic, Document

DOI = re.compile(r"^10\.\d{4,9}/\S{1,300}$")
PMID = re.compile(r"^\d{1,9}$")
PMCID = re.compile(r"^PMC\d{1,9}$")
YEAR = re.compile(r"\b(\d{4})")
YEAR_IN_PROSE = re.compile(r"\b(1[5-9]\d\d|20\d\d)")
DOI_IN_TEXT = re.compile(r"10\.\d{4,9}/[^\s\"<>]{1,300}")
_DOI_PREFIX = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.IGNORECASE)
_DOI_TRAILING = ".,;:)]}'"


def normalized_doi(text: str) -> str | None:
    value = _DOI_PREFIX.sub("", text.strip())
    return value if DOI.match(value) else None


def normalized_pmid(text: str) -> str | None:
    value = re.sub(r"^pmid:\s*", "", text.strip(), flags=re.IGNORECASE)
    return value if PMID.match(value) else None


def normalized_pmcid(text: str) -> str | None:
    value = re.sub(r"^pmcid:\s*", "", text.strip(), flags=re.IGNORECASE).upper()
    value = value if value.startswith("PMC") else "PMC" + value
    return value if PMCID.match(value) else None


def doi_in_text(text: str) -> str | None:
    """The first DOI written in free text (a citation string, a link), without trailing punctuation."""
    found = DOI_IN_TEXT.search(text)
    return normalized_doi(found.group().rstrip(_DOI_TRAILING)) if found else None


def year_in_text(text: str, prose: bool = False) -> str:
    """The first four-digit year of a year field ('2008a' gives '2008', '1267/1859' gives '1267'), else ''.

    In ``prose`` (a whole citation string, where volumes and pages are numbers
    too) only 1500 to 2099 count as years.
    """
    found = (YEAR_IN_PROSE if prose else YEAR).search(text)
    return found.group(1) if found else ""


def identifier_metadata(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``{"doi": ..., "pmid": ..., "pmcid": ...}`` from (type, value) pairs such as JATS article-id or TEI idno elements."""
    found: dict[str, str] = {}
    for kind, text in pairs:
        kind = kind.strip().lower()
        if kind == "doi" and "doi" not in found and (doi := normalized_doi(text)):
            found["doi"] = doi
        elif kind in ("pmid", "pubmed") and "pmid" not in found and (pmid := normalized_pmid(text)):
            found["pmid"] = pmid
        elif kind in ("pmcid", "pmc") and "pmcid" not in found and (pmcid := normalized_pmcid(text)):
            found["pmcid"] = pmcid
    return found


def _compact(text: str) -> str:
    """Lower case, letters and digits only (accents dropped): the form titles and names are compared in."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if char.isalnum())


def title_key(title: str, year: str, first_author: str) -> str | None:
    """``ref:<title>-<year>-<author>`` in compact form, or None without a title or a year."""
    compact_title, compact_year = _compact(title), _compact(year)
    if not compact_title or not compact_year:
        return None
    return f"ref:{compact_title}-{compact_year}-{_compact(first_author)}"


def work_keys(work: Bibliographic) -> list[str]:
    """Every key the work can be found by, best first (see the module docstring)."""
    keys = [f"doi:{work.doi.lower()}" if work.doi else "", f"pmid:{work.pmid}" if work.pmid else "",
            f"pmcid:{work.pmcid}" if work.pmcid else "", title_key(work.title, work.year, work.first_author) or ""]
    return [key for key in keys if key]


def work_key(work: Bibliographic) -> str | None:
    """The one key a reference names its cited work by: the best of ``work_keys``."""
    keys = work_keys(work)
    return keys[0] if keys else None


def document_work(document: Document) -> Bibliographic:
    """The paper itself as a work: its identifiers, title, year and first author."""
    meta = document.metadata
    return Bibliographic(doi=meta.get("doi", ""), pmid=meta.get("pmid", ""), pmcid=meta.get("pmcid", ""),
                         title=document.title, year=document.year, first_author=document.first_author)
