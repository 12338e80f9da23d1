"""Peircean reasoning graphs (ARCHE/PEARL) from an LLM response: what a response holds, ready to be repaired and stored.

A response for a paper already in the store (its ARCHE JSON ingested) is parsed
by claimgraph.reasoning.materialize; node labels give the text, the (x, y, z)
source tuple, a role prefix and a root mark (claimgraph.reasoning.labels);
source tuples resolve to the paper's viewpoints, sentences or cited references
(claimgraph.reasoning.anchors). ``reasoning_content`` returns that content with
the anchors it names and the writer that stores it; the workflow repairs and
gates it like any extraction (``quality.repair.repair_and_gate``: the profile's
scripts, gate measures and rules on a working copy), and the writer's one
update replaces the paper's previous reasoning content in its raw graph (the
response as read) and its paper graph (as repaired, with its residual labels)
and appends the audit trail. See docs/peirce.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pyoxigraph import Literal, Triple

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.papers.audit import Activity, now
from claimgraph.quality.repair import Content, HeldContent, PaperRepair
from claimgraph.rdf.binding import bind
from claimgraph.rdf.queries import read_sparql
from claimgraph.rdf.vocab import CG
from claimgraph.reasoning.anchors import load_anchors
from claimgraph.reasoning.labels import IMPLICIT, NodeContent, Source, node_content, parse_node_label
from claimgraph.reasoning.materialize import ParsedGraph, materialize
from claimgraph.reasoning.triples import Materialized, reasoning_triples, stated_confidence

__all__ = ["IMPLICIT", "Materialized", "NodeContent", "ReasoningContent", "ReasoningError", "ReasoningResult", "Source",
           "materialize_activity", "node_content", "parse_node_label", "reasoning_content", "stated_confidence"]


class ReasoningError(ClaimgraphError):
    """A reasoning response cannot be stored for a paper (paper missing, unreadable file)."""


@dataclass
class ReasoningResult:
    paper_id: str
    parsed: ParsedGraph
    materialized: Materialized
    repair: PaperRepair


@dataclass
class ReasoningContent:
    """A response read for a paper: what it parsed to, what it materialized to, the content to repair and the activity."""

    paper_id: str
    parsed: ParsedGraph
    materialized: Materialized
    held: HeldContent
    activity: Activity


def reasoning_content(ctx: Context, paper_id: str, response: str, source_name: str, after: str = "") -> ReasoningContent:
    """Materialize a response for a stored paper into content the workflow repairs, gates and stores.

    ``after``: an update (terms bound) sent in the same request as the content, after it (a run graph's snapshot).
    """
    store, iris = ctx.store, ctx.iris
    paper = iris.paper(paper_id)
    if not store.ask("ASK WHERE { GRAPH ?paper { ?paper a ?type } }", {"paper": paper, "type": CG.Paper}):
        raise ReasoningError(f"no paper {paper_id!r} in the store at {store.location}; ingest its ARCHE JSON first")
    started = now()
    parsed = materialize(response)
    made = reasoning_triples(parsed, ctx.profile, iris, paper_id, load_anchors(store, iris, paper_id))
    raw = iris.raw_graph(paper_id)
    clear = read_sparql("internal", "clear-reasoning.ru")
    nodes = Literal(iris.extracted_node(paper_id, "x").value[:-1])
    before = " ;\n".join(bind(clear, {"target": target, "paper": paper, "nodes": nodes}) for target in (paper, raw))

    def write(repaired: list[Triple], residuals: list[Triple], audit: str) -> None:
        store.insert({raw: made.triples, paper: [*repaired, *residuals]}, before=f"{before} ;\n{audit}", after=after)

    notes = {"parser branch": parsed.branch, "tuple reading": made.reading}
    content = Content(made.triples, made.context, made.spans, made.findings, stated_counts(parsed, made), notes)
    return ReasoningContent(paper_id, parsed, made, HeldContent(content, write), materialize_activity(parsed, made, source_name, started))


def stated_counts(parsed: ParsedGraph, made: Materialized) -> dict[str, int]:
    """What the response states, for the gate's per-paper figures."""
    ends = {end for edge in parsed.edges for end in (edge.source, edge.target)}
    return {
        "nodes": len(parsed.nodes | dict.fromkeys(ends)),
        "edges": len(parsed.edges) + parsed.duplicate_edges,
        "statements_skipped": parsed.skipped + parsed.cut_statements,
        "nodes_without_text": made.nodes_without_text,
    }


def materialize_activity(parsed: ParsedGraph, made: Materialized, source_name: str, started: datetime) -> Activity:
    counts = {
        "nodes_admitted": made.nodes,
        "edges_admitted": made.edges,
        "nodes_without_text": made.nodes_without_text,
        "statements_skipped": parsed.skipped,
        "statements_with_graph_material_skipped": parsed.skipped_material,
        "statements_cut": parsed.cut_statements,
        "duplicate_edges_collapsed": parsed.duplicate_edges,
        "graphs_after_the_first": parsed.extra_graphs,
        "off_profile_roles": sum(made.off_profile_roles.values()),
        "default_source_nodes": made.default_sources,
        "conflicting_source_nodes": made.conflicting_anchors,
        **{f"anchors_{status}": count for status, count in sorted(made.anchors.items())},
    }
    notes = {"parser_branch": parsed.branch, "response": Path(source_name).name, "tuple_reading": made.reading}
    problems = [f"{finding.residual or 'note'}: {finding.reason}" for finding in made.findings]
    if problems:
        notes["findings"] = " | ".join(problems)
    return Activity("extract", "materialize reasoning response", counts, notes=notes, started=started, ended=now())
