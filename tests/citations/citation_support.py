"""JATS papers written for the citation tests (each names its own identifiers and the works it cites), and reading the links back."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from claimgraph.citations.links import CitationUpdate
from claimgraph.context import Context


@dataclass(frozen=True)
class Cited:
    """One entry of a reference list; empty fields are left out of the XML."""

    doi: str = ""
    pmid: str = ""
    title: str = ""
    year: str = ""
    surname: str = ""

    def xml(self, rid: str) -> str:
        parts = [f"<person-group person-group-type=\"author\"><name><surname>{self.surname}</surname></name></person-group>" if self.surname else "",
                 f"<article-title>{self.title}</article-title><source>Journal of Tests</source>" if self.title else "",
                 f"<year>{self.year}</year>" if self.year else "",
                 f'<pub-id pub-id-type="doi">{self.doi}</pub-id>' if self.doi else "",
                 f'<pub-id pub-id-type="pmid">{self.pmid}</pub-id>' if self.pmid else ""]
        return f'<ref id="{rid}"><element-citation publication-type="journal">{"".join(parts)}</element-citation></ref>'


def jats_article(title: str, cites: Sequence[Cited], doi: str = "", pmid: str = "", year: str = "", surname: str = "") -> str:
    ids = (f'<article-id pub-id-type="doi">{doi}</article-id>' if doi else "") + (f'<article-id pub-id-type="pmid">{pmid}</article-id>' if pmid else "")
    contrib = f'<contrib-group><contrib contrib-type="author"><name><surname>{surname}</surname></name></contrib></contrib-group>' if surname else ""
    date = f'<pub-date pub-type="epub"><year>{year}</year></pub-date>' if year else ""
    xrefs = " ".join(f'<xref ref-type="bibr" rid="bib{number}">{number}</xref>' for number in range(1, len(cites) + 1))
    refs = "".join(cited.xml(f"bib{number}") for number, cited in enumerate(cites, start=1))
    return (f'<?xml version="1.0"?><article><front><article-meta>{ids}<title-group><article-title>{title}</article-title></title-group>'
            f'{contrib}{date}</article-meta></front><body><sec><title>Introduction</title><p>Earlier work is cited here {xrefs}. '
            f'Nothing is cited here.</p></sec></body><back><ref-list>{refs}</ref-list></back></article>')


Ingest = Callable[..., CitationUpdate]
"""Store a JATS paper (name, cited works, its own identifiers) and update its citation links."""


def links(ctx: Context) -> set[tuple[str, str]]:
    """The citations graph as (citing paper id, cited paper id) pairs."""
    found = set()
    for triple in ctx.store.triples(ctx.iris.citations_graph()):
        citing, cited = ctx.iris.paper_id_of(triple.subject), ctx.iris.paper_id_of(triple.object)  # type: ignore[arg-type]
        found.add((citing, cited))
    return found
