"""Reading the store for people: the totals of ``stats``, a paper's audit trail and repair diff, and the checks a query
passes before it runs. Every figure is counted by SPARQL in the store."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pyoxigraph import Triple

from claimgraph.citations.links import citation_link_counts
from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.papers.audit_trail import AuditEntry, audit_trail
from claimgraph.papers.document_graph import unknown_paper
from claimgraph.rdf.binding import Term, tokenize, variables
from claimgraph.rdf.queries import read_internal_query, read_named_query
from claimgraph.rdf.rows import integer_of, iri_of, subject_of, text_of
from claimgraph.rdf.vocab import curie

LINK_LABELS = {"citation": "citation", "shared-work": "a shared cited work", "hub": "a shared CANON_ hub"}
_UPDATE = re.compile(r"^(?:INSERT|DELETE|LOAD|CLEAR|CREATE|DROP|COPY|MOVE|ADD|WITH)$", re.IGNORECASE)


class QueryRefused(ClaimgraphError):
    """A query was refused before it ran: an update, a binding of a variable it lacks, or a SERVICE not allowed."""


class PaperNotFound(ClaimgraphError):
    """The paper id names no paper in the store."""


def check_query(sparql: str, bindings: Mapping[str, Term], allowed_services: Iterable[str]) -> None:
    """Refuse updates, bindings of variables the query lacks, and SERVICE calls to endpoints not allowed."""
    allowed = set(allowed_services)
    tokens = [token for token in tokenize(sparql) if token.kind not in ("space", "comment")]
    words = [token.text for token in tokens if token.kind == "word" and token.text.upper() not in ("PREFIX", "BASE")]
    if words and _UPDATE.match(words[0]):
        raise QueryRefused(
            "`claimgraph query` runs queries, not updates: the store changes only through audited commands "
            "(ingest, repair, canonicalize); to change it by hand use `claimgraph serve --update-token` or the Python API"
        )
    unknown = sorted(set(bindings) - variables(sparql))
    if unknown:
        raise QueryRefused(f"--bind {unknown[0]}: the query has no variable ?{unknown[0]}")
    for position, token in enumerate(tokens):
        if token.kind == "word" and token.text.upper() == "SERVICE":
            target = tokens[position + 1] if position + 1 < len(tokens) else None
            if target is not None and target.kind == "word" and target.text.upper() == "SILENT":
                target = tokens[position + 2] if position + 2 < len(tokens) else None
            endpoint = target.text[1:-1] if target is not None and target.kind == "iri" else None
            if endpoint is None or endpoint not in allowed:
                shown = endpoint or (target.text if target else "(nothing)")
                raise QueryRefused(f"the query calls SERVICE {shown}, which is not allowed; pass --allow-service {shown} to permit it")


def store_stats(ctx: Context) -> list[tuple[str, int]]:
    """Papers, graphs and triples (shipped query store-totals), papers linked to another by each kind of link
    (citation, shared cited work, CANON_ hub), then nodes per type (nodes-per-type, types as CURIEs)."""
    rows = [(text_of(row, "measure"), integer_of(row, "value")) for row in ctx.store.select(read_named_query("store-totals"))]
    rows += [(f"papers linked to another by {LINK_LABELS[kind]}", count) for kind, count in citation_link_counts(ctx).items()]
    rows += [(curie(text_of(row, "type")) or text_of(row, "type"), integer_of(row, "nodes"))
             for row in ctx.store.select(read_named_query("nodes-per-type"))]
    return rows


def audit(ctx: Context, paper_id: str) -> list[AuditEntry]:
    """The paper's audit trail, oldest first; an unknown paper is an error naming it."""
    trail = audit_trail(ctx.store, ctx.iris, paper_id)
    if not trail:
        raise PaperNotFound(f"{unknown_paper(ctx.store, ctx.iris, paper_id)} (no audit trail); `claimgraph query paper-graphs` lists the papers")
    return trail


@dataclass(frozen=True)
class GraphDiff:
    """Triples repair added to and removed from a paper's raw graph."""

    added: list[Triple]
    removed: list[Triple]


def diff(ctx: Context, paper_id: str) -> GraphDiff:
    """The raw graph against the repaired paper graph (shipped internal query graph-diff)."""
    raw, paper = ctx.iris.raw_graph(paper_id), ctx.iris.paper(paper_id)
    if not ctx.store.has_graph(raw):
        raise PaperNotFound(f"{unknown_paper(ctx.store, ctx.iris, paper_id)} (no raw graph); ingest it first")
    changes: dict[str, list[Triple]] = {"added": [], "removed": []}
    for row in ctx.store.select(read_internal_query("graph-diff"), {"from": raw, "to": paper}):
        changes[text_of(row, "change")].append(Triple(subject_of(row, "s"), iri_of(row, "p"), row["o"]))
    return GraphDiff(changes["added"], changes["removed"])
