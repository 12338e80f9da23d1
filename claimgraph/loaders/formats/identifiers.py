"""Bibliographic identifiers of a paper (DOI, PubMed id) as the loaders find them, checked and normalized.

A DOI is ``10.<registrant>/<suffix>`` (a ``doi:`` or ``https://doi.org/``
prefix is dropped); a PubMed id is a number. A value of another form is left
out rather than stored wrong. The first valid value of each kind wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

DOI = re.compile(r"^10\.\d{4,9}/\S{1,300}$")
PMID = re.compile(r"^\d{1,9}$")
_DOI_PREFIX = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.IGNORECASE)


def normalized_doi(text: str) -> str | None:
    value = _DOI_PREFIX.sub("", text.strip())
    return value if DOI.match(value) else None


def normalized_pmid(text: str) -> str | None:
    value = re.sub(r"^pmid:\s*", "", text.strip(), flags=re.IGNORECASE)
    return value if PMID.match(value) else None


def identifier_metadata(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``{"doi": ..., "pmid": ...}`` from (type, value) pairs such as JATS article-id or TEI idno elements."""
    found: dict[str, str] = {}
    for kind, text in pairs:
        kind = kind.strip().lower()
        if kind == "doi" and "doi" not in found and (doi := normalized_doi(text)):
            found["doi"] = doi
        elif kind in ("pmid", "pubmed") and "pmid" not in found and (pmid := normalized_pmid(text)):
            found["pmid"] = pmid
    return found
