"""What reading a response found: undeclared ids are dangling edges, and a cut closed again is truncated, not renamed."""

from __future__ import annotations

from pyoxigraph import NamedNode

from claimgraph.reasoning.findings import response_findings
from claimgraph.reasoning.parsed import ParsedGraph

PAPER = NamedNode("https://claimgraph.example/paper/p1")


def graph(statements: list[tuple[str, ...]]) -> ParsedGraph:
    """Statements in order: ("node", id) or ("edge", source, target)."""
    parsed = ParsedGraph("dot-strict")
    for statement in statements:
        if statement[0] == "node":
            parsed.add_node(statement[1], {"label": f"text of {statement[1]}"})
        else:
            parsed.add_edge(statement[1], statement[2], {"label": "DR"})
    return parsed


def residuals(parsed: ParsedGraph) -> list[str | None]:
    return sorted(finding.residual for finding in response_findings(parsed, set(parsed.nodes), PAPER) if finding.residual)


def test_a_renamed_node_is_a_dangling_edge() -> None:
    parsed = graph([("node", "a"), ("node", "b2"), ("node", "c"), ("edge", "a", "c"), ("edge", "b", "c")])
    assert residuals(parsed) == ["dangling_edge"]


def test_ids_lost_from_the_end_of_an_edges_first_answer_are_a_truncation() -> None:
    parsed = graph([("edge", "a", "c"), ("edge", "b", "c"), ("node", "a")])
    assert residuals(parsed) == ["dangling_edge", "truncated_response"]


def test_a_ghost_in_a_nodes_first_answer_is_only_dangling() -> None:
    parsed = graph([("node", "a"), ("node", "c"), ("edge", "a", "c"), ("edge", "ghost", "c")])
    assert residuals(parsed) == ["dangling_edge"]


def test_a_parse_failure_is_parse_failed() -> None:
    assert [finding.residual for finding in response_findings(ParsedGraph("none"), set(), PAPER)] == ["parse_failed"]
