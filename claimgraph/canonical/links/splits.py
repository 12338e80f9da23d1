"""Finding and healing split CANON_ nodes: two hubs of one type with the same representative text.

Serial canonicalization never splits a text: a node whose text is already a
hub's joins that hub. Writers that bypassed the canonical graph's lease (an
older claimgraph, or a store edited by hand) can leave two hubs for one text,
each with part of the members. ``reindex`` folds each group into the hub with
the most members (the smallest IRI on a tie): the other hubs' links are written
again to it with their similarity, basis and judge, and verdicts naming them
name it. A group of merges (``skos:exactMatch``) whose members would then put
two nodes of one paper in one merge is left as it is and reported.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from pyoxigraph import NamedNode, Triple

from claimgraph.canonical.links.writes import SKOS, link_triples
from claimgraph.canonical.plan import Link
from claimgraph.context import Context
from claimgraph.rdf.binding import bind
from claimgraph.rdf.queries import join_updates, read_internal_query, read_named_query, read_sparql
from claimgraph.rdf.rows import iri_of, number_of, text_of
from claimgraph.rdf.vocab import CG
from claimgraph.store.base import insert_data_update
from claimgraph.store.lease import Held


@dataclass
class SplitReport:
    """``groups``: hubs sharing a type and text, before healing; ``folded``: hubs folded into another;
    ``kept``: groups left split (merges that would join two nodes of one paper)."""

    groups: list[list[str]] = field(default_factory=list)
    folded: int = 0
    kept: list[list[str]] = field(default_factory=list)


def split_hubs(ctx: Context) -> list[list[str]]:
    """Each group of CANON_ nodes sharing a member type and representative text, the one to keep first."""
    rows = ctx.store.select(read_internal_query("split-hubs"), {"canonical": ctx.iris.canonical_graph()})
    groups: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)
    for row in rows:
        members = int(row["members"].value) if "members" in row else 0
        groups[(row["type"].value, row["text"].value)].append((-members, row["hub"].value))
    return [[hub for _, hub in sorted(group)] for _, group in sorted(groups.items())]


def heal_splits(ctx: Context, held: Held | None = None) -> SplitReport:
    """Fold every split group into one CANON_ node, one request per group."""
    report = SplitReport(groups=split_hubs(ctx))
    for group in report.groups:
        operations = _fold(ctx, group)
        if operations is None:
            report.kept.append(group)
            continue
        if held is not None:
            held.check()
        ctx.store.update(join_updates(operations))
        report.folded += len(group) - 1
    return report


def _fold(ctx: Context, group: list[str]) -> list[str] | None:
    """The updates that fold ``group[1:]`` into ``group[0]``; None when that would merge two nodes of one paper."""
    canonical = ctx.iris.canonical_graph()
    into = NamedNode(group[0])
    members = {hub: ctx.store.select(read_named_query("hub-members"), {"canonical": canonical, "hub": NamedNode(hub)}) for hub in group}
    merge = any(row["link"] == SKOS.exactMatch for rows in members.values() for row in rows)
    papers = [row["paper"].value for rows in members.values() for row in rows]
    if merge and len(papers) != len(set(papers)):
        return None
    operations = [bind(read_sparql("merge", "fold-hub.ru"), {"from": NamedNode(hub), "into": into, "canonical": canonical})
                  for hub in group[1:]]
    triples: list[Triple] = []
    for hub in group[1:]:
        for row in members[hub]:
            link = Link(iri_of(row, "member"), iri_of(row, "paper"), into, number_of(row, "similarity"), iri_of(row, "link"),
                        text_of(row, "type"), text_of(row, "text") if "text" in row else "", "aggressive" if merge else "cautious",
                        iri_of(row, "basis") if "basis" in row else CG.similarity, text_of(row, "judge") if "judge" in row else None)
            triples.extend(link_triples(ctx.iris, link))
    operations.append(insert_data_update({canonical: triples}))
    operations.append(bind(read_sparql("merge", "recount-hub-members.ru"), {"canonical": canonical}))
    return operations


