"""Undoing canonicalization: take a node out of a CANON_ node, or dissolve a CANON_ node entirely.

A merge or a hub attachment is a link in the canonical graph, so undoing it
touches only that graph (``sparql/merge/unlink-member.ru``): the link and its
annotation go, the member count goes down, a hub left empty is removed, and
the node is held apart from that hub so that later runs do not link it again
(until ``claimgraph release`` lifts the mark: ``links/release.py``). The mark names
the node and records its text, so it holds through a re-ingest of the same text.
Each member's paper gets an ``unmerge`` activity in its audit graph, all in one
request; a re-ingest keeps it. Running the same unmerge again does nothing and
says so. The sidecar notices the change through its fingerprint and is rebuilt
on the next canonicalization run.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.canonical.links.section import single_writer
from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.papers.audit import Activity, now, numbered_triples
from claimgraph.rdf.binding import Term, bind
from claimgraph.rdf.queries import join_updates, read_named_query, read_sparql
from claimgraph.rdf.vocab import CG, local_name
from claimgraph.store.base import insert_data_update


class UnmergeError(ClaimgraphError):
    """Nothing to unmerge: the IRI is neither a CANON_ node nor a node linked to one."""


@dataclass(frozen=True)
class Unlinked:
    member: str
    hub: str
    paper: str
    type: str
    link: str
    similarity: str


def find_links(ctx: Context, *, member: NamedNode | None = None, hub: NamedNode | None = None) -> list[Unlinked]:
    """The links a member has, or a hub's links, from the canonical graph."""
    bindings = {"canonical": ctx.iris.canonical_graph()}
    if member is not None:
        bindings["member"] = member
    if hub is not None:
        bindings["hub"] = hub
    rows = ctx.store.select(read_named_query("hub-members"), bindings)
    return [Unlinked(row["member"].value, row["hub"].value, row["paper"].value, row["type"].value,
                     local_name(row["link"].value), row["similarity"].value) for row in rows]


def unmerge(ctx: Context, *, member: NamedNode | None = None, hub: NamedNode | None = None, reason: str = "") -> list[Unlinked]:
    """Undo one member's link (``member``, optionally only to ``hub``) or every link of ``hub``; returns what was undone,
    nothing when that unmerge already took effect (so a retried command succeeds)."""
    what = _described(member, hub)
    with single_writer(ctx):
        links = find_links(ctx, member=member, hub=hub)
        if links:
            undo_links(ctx, links, "hub" if member is None else "member", reason)
            return links
        if already_apart(ctx, member=member, hub=hub):
            return []
        raise UnmergeError(f"{what} has no merge or hub attachment in the canonical graph of {ctx.store.location}; "
                           "list them with `claimgraph query hub-members`")


def _described(member: NamedNode | None, hub: NamedNode | None) -> str:
    """What an unmerge names, for its messages (the member when both are given)."""
    if member is not None:
        return f"node <{member.value}>"
    if hub is not None:
        return f"CANON_ node <{hub.value}>"
    raise UnmergeError("name a member node or a CANON_ node to unmerge")


def already_apart(ctx: Context, *, member: NamedNode | None = None, hub: NamedNode | None = None) -> bool:
    """Whether an unmerge of ``member`` (or of ``hub``) already took effect: a hold-apart mark names them."""
    bindings: dict[str, Term] = {"canonical": ctx.iris.canonical_graph()}
    if member is not None:
        bindings["node"] = member
    if hub is not None:
        bindings["other"] = hub
    rows = ctx.store.select(read_named_query("held-apart"), bindings)
    return any(row["verdict"].value == CG.heldApartFrom.value for row in rows)


def undo_links(ctx: Context, links: list[Unlinked], by: str, reason: str = "", judge: str | None = None) -> None:
    """Undo ``links`` and write an ``unmerge`` activity for each (``by``: what named them), in one request;
    a ``judge``'s DIFFERENT is also named on each hold-apart mark (``sparql/merge/judge-hold-apart.ru``)."""
    canonical = ctx.iris.canonical_graph()
    operations = []
    for link in links:
        bindings: dict[str, Term] = {"member": NamedNode(link.member), "hub": NamedNode(link.hub), "canonical": canonical}
        if judge is not None:
            operations.append(bind(read_sparql("merge", "judge-hold-apart.ru"), {**bindings, "judge": Literal(judge)}))
        operations.append(bind(read_sparql("merge", "unlink-member.ru"), bindings))
    operations.append(bind(read_sparql("merge", "remove-empty-hubs.ru"), {"canonical": canonical}))
    operations.append(insert_data_update(_audit(ctx, links, by, reason)))
    ctx.store.update(join_updates([operation for operation in operations if operation]))


def links_by_paper(ctx: Context, links: list[Unlinked]) -> list[tuple[str, list[Unlinked]]]:
    """The links grouped by the id of the member's paper, in paper order (links of no known paper left out)."""
    by_paper: dict[str, list[Unlinked]] = defaultdict(list)
    for link in links:
        paper_id = ctx.iris.paper_id_of(NamedNode(link.paper))
        if paper_id is not None:
            by_paper[paper_id].append(link)
    return sorted(by_paper.items())


def _audit(ctx: Context, links: list[Unlinked], by: str, reason: str) -> dict[NamedNode, list[Triple]]:
    """One ``unmerge`` activity per member, in its paper's audit graph."""
    ended = now()
    return numbered_triples(ctx.store, ctx.iris, {paper_id: [
        Activity("unmerge", f"unmerge from {local_name(link.type)} CANON_ node", {"unlinked": 1}, [NamedNode(link.member), NamedNode(link.hub)],
                 {"member": link.member, "hub": link.hub, "link": link.link, "similarity": link.similarity,
                  "by": by, **({"reason": reason} if reason else {})}, ended=ended)
        for link in items] for paper_id, items in links_by_paper(ctx, links)})
