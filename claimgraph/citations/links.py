"""Keeping the citations graph current, and counting the papers each kind of link joins.

A paper's references name the works they cite (``cg:citedWork``, by work key);
a stored paper realizes the works its own keys name (``frbr:realizationOf``).
When the two meet, the citations graph ``<base>graph/citations`` holds
``<citing paper> cito:cites <cited paper>``. Either paper can arrive first, and
either can be re-ingested without the reference or the identifier, so
``update_citation_links`` recomputes every link touching the given papers from
the paper graphs, in one update that also records, in the citing paper's
audit graph, which links it added and removed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from pyoxigraph import NamedNode

from claimgraph.context import Context
from claimgraph.papers.audit import Activity, now, numbered_triples
from claimgraph.rdf.binding import bind
from claimgraph.rdf.queries import join_updates, read_sparql
from claimgraph.store.base import insert_data_update

Link = tuple[str, str]
"""(citing paper IRI, cited paper IRI)."""

LINK_KINDS = ("citation", "shared-work", "hub")


@dataclass(frozen=True)
class CitationUpdate:
    """What one ``update_citation_links`` call changed: the links added and removed (as paper IRI pairs)."""

    papers: tuple[str, ...]
    added: frozenset[Link] = field(default_factory=frozenset)
    removed: frozenset[Link] = field(default_factory=frozenset)
    kept: frozenset[Link] = field(default_factory=frozenset)

    @property
    def changed(self) -> bool:
        return bool(self.added or self.removed)


def _links(ctx: Context, papers: list[NamedNode], stated: bool) -> set[Link]:
    """The links touching the papers: those the citations graph holds, or (``stated``) those the paper graphs state."""
    found: set[Link] = set()
    for paper in papers:
        bindings = {"paper": paper} if stated else {"paper": paper, "citations": ctx.iris.citations_graph()}
        rows = ctx.store.select(read_sparql("citations", "stated-links.rq" if stated else "current-links.rq"), bindings)
        found |= {(row["citing"].value, row["cited"].value) for row in rows}
    return found


def update_citation_links(ctx: Context, paper_ids: Iterable[str]) -> CitationUpdate:
    """Recompute every citations-graph link that touches the papers (citing or cited), in one atomic update.

    A paper id no longer stored only loses its links. Each citing paper still
    stored gets a ``citations`` activity in its audit graph naming the links
    added and removed (none when nothing changed for it).
    """
    ids = tuple(dict.fromkeys(paper_ids))
    papers = [ctx.iris.paper(paper_id) for paper_id in ids]
    before, after = _links(ctx, papers, stated=False), _links(ctx, papers, stated=True)
    update = CitationUpdate(ids, frozenset(after - before), frozenset(before - after), frozenset(after & before))
    if not update.changed:
        return update
    citations = ctx.iris.citations_graph()
    unlink, link = read_sparql("citations", "unlink-paper.ru"), read_sparql("citations", "link-paper.ru")
    operations = [bind(unlink, {"paper": paper, "citations": citations}) for paper in papers]
    operations += [bind(link, {"paper": paper, "citations": citations}) for paper in papers]
    operations.append(insert_data_update(numbered_triples(ctx.store, ctx.iris, _activities(ctx, update))))
    ctx.store.update(join_updates([operation for operation in operations if operation]))
    return update


def _activities(ctx: Context, update: CitationUpdate) -> dict[str, list[Activity]]:
    """One ``citations`` activity per stored citing paper whose links changed, naming each link added or removed."""
    added: dict[str, list[str]] = defaultdict(list)
    removed: dict[str, list[str]] = defaultdict(list)
    for citing, cited in sorted(update.added):
        added[citing].append(cited)
    for citing, cited in sorted(update.removed):
        removed[citing].append(cited)
    ended = now()
    activities: dict[str, list[Activity]] = {}
    for citing in sorted(added.keys() | removed.keys()):
        paper_id = ctx.iris.paper_id_of(NamedNode(citing))
        if paper_id is None or not _stored(ctx, NamedNode(citing)):
            continue
        notes = {name: " ".join(iris) for name, iris in (("added", added[citing]), ("removed", removed[citing])) if iris}
        touched = [NamedNode(iri) for iri in added[citing] + removed[citing]]
        activities[paper_id] = [Activity("citations", "paper-to-paper citation links",
                                         {"added": len(added[citing]), "removed": len(removed[citing])}, touched, notes, ended=ended)]
    return activities


def _stored(ctx: Context, paper: NamedNode) -> bool:
    return ctx.store.ask(read_sparql("citations", "paper-stored.rq"), {"paper": paper})


def citation_link_counts(ctx: Context) -> dict[str, int]:
    """Papers linked to at least one other stored paper, by kind of link (LINK_KINDS, in that order)."""
    rows = ctx.store.select(read_sparql("citations", "link-counts.rq"),
                            {"citations": ctx.iris.citations_graph(), "canonical": ctx.iris.canonical_graph()})
    found = {row["kind"].value: int(row["papers"].value) for row in rows}
    return {kind: found.get(kind, 0) for kind in LINK_KINDS}
