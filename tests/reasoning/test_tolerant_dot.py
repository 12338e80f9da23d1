"""The tolerant DOT branch reports what it could not close or read, and never admits the statement a cut ends inside."""

from __future__ import annotations

import pytest

from claimgraph.reasoning.materialize import materialize
from claimgraph.reasoning.parsed import MALFORMED, TRUNCATED
from claimgraph.reasoning.tolerant_dot import parse_dot_tolerant

NODES = [f'  n{i} [label="({i + 1},0,1) statement number {i}"];' for i in range(8)]
EDGES = ['  n1 -> n0 [label="DR"];', '  n2 -> n0 [label="DC"];', '  n3 -> n1 [label="AP"];', '  n4 -> n1 [label="AK"];',
         '  n5 -> n2 [label="ICo"];', '  n6 -> n2 [label="ICa"];', '  n7 -> n2 [label="ICa"];']
CLEAN = "digraph G {\n" + "\n".join(NODES + EDGES) + "\n}"


def test_a_clean_graph_has_no_problem() -> None:
    graph = materialize("Sure! Here is the graph:\n```dot\n" + CLEAN + "\n```\n")
    assert (len(graph.nodes), len(graph.edges), graph.skipped, graph.problems) == (8, 7, 0, [])


@pytest.mark.parametrize("share", [0.25, 0.5, 0.6, 0.75, 0.9])
def test_a_cut_response_is_truncated_and_never_admits_a_broken_statement(share: float) -> None:
    full = "Sure! Here is the graph:\n```dot\n" + CLEAN + "\n```\n"
    graph = materialize(full[: round(share * len(full))])
    assert graph.residuals == [TRUNCATED]
    for node in graph.nodes.values():
        assert node.attrs["label"].endswith(f"statement number {node.id[1:]}")
    assert all(edge.label in {"DR", "DC", "AP", "AK", "ICo", "ICa"} for edge in graph.edges)


def test_the_statement_a_cut_ends_inside_is_counted_not_admitted() -> None:
    text = CLEAN[: CLEAN.index('n7 -> n2 [label="IC') + len('n7 -> n2 [label="IC')]
    graph = parse_dot_tolerant(text)
    assert graph.cut_statements == 1 and len(graph.edges) == 6
    assert "was not admitted" in graph.problems[0].reason


def test_a_cut_at_a_statement_boundary_keeps_every_whole_statement() -> None:
    text = CLEAN[: CLEAN.index('  n7 -> n2')]
    graph = parse_dot_tolerant(text)
    assert graph.residuals == [TRUNCATED] and graph.cut_statements == 0 and len(graph.edges) == 6


def test_an_unclosed_quote_in_an_edge_label_is_malformed_and_the_other_edges_are_kept() -> None:
    broken = CLEAN.replace('[label="AP"]', '[label="AP]', 1)
    graph = materialize(broken)
    assert graph.residuals == [MALFORMED]
    assert len(graph.edges) == 7 and len(graph.nodes) == 8


def test_skipped_prose_is_a_note_and_skipped_graph_material_is_malformed() -> None:
    prose = parse_dot_tolerant(CLEAN.replace("\n}", "\n  That is the whole graph.\n}"))
    assert (prose.skipped, prose.skipped_material, prose.residuals) == (1, 0, [])
    assert any(problem.residual is None and "prose" in problem.reason for problem in prose.problems)
    garbled = parse_dot_tolerant(CLEAN.replace("\n}", '\n  n7 -> [label="ICa"]\n}'))
    assert (garbled.skipped_material, garbled.residuals) == (1, [MALFORMED])
    assert "n7 -> [label=" in garbled.problems[-1].reason


def test_nodes_declared_after_an_edge_are_noticed() -> None:
    assert not parse_dot_tolerant(CLEAN).nodes_after_edges
    assert parse_dot_tolerant("digraph {\n" + "\n".join(EDGES + NODES) + "\n}").nodes_after_edges


def test_a_header_and_nothing_else_is_parse_failed_and_truncated() -> None:
    graph = materialize("Here it is:\n```dot\ndigraph G {\n")
    assert graph.branch == "none" and graph.residuals == [TRUNCATED]
