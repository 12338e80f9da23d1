"""The rules that turn what the generator wrote into an expected verdict, on graphs small enough to check by hand."""

from __future__ import annotations

import random

import pytest

from claimgraph.testing.reasoning_cases.cuts import cut_verdict
from claimgraph.testing.reasoning_cases.graphs import CleanEdge, CleanGraph, CleanNode, ReasoningCorpusError
from claimgraph.testing.reasoning_cases.mutations import Surface, build_model
from claimgraph.testing.reasoning_cases.responses import Rendered
from claimgraph.testing.reasoning_cases.verdicts import ACCEPT, EdgeDecl, NodeDecl, Verdict, either, graph_verdict

#        a (root)
#   rule/  \case
#      b    c  <- induction: common d, cases e, f
NODES = [NodeDecl(name, f"claim {name}", (index + 1, 0, 1)) for index, name in enumerate("abcdef")]
TREE = [
    EdgeDecl("b", "a", "deduction-rule"),
    EdgeDecl("c", "a", "deduction-case"),
    EdgeDecl("d", "c", "induction-common"),
    EdgeDecl("e", "c", "induction-case"),
    EdgeDecl("f", "c", "induction-case"),
]


def required(verdict: Verdict) -> set[str]:
    return set(verdict.residuals)


def test_a_tree_of_whole_units_is_accepted() -> None:
    assert graph_verdict(NODES, TREE) == ACCEPT


def test_nodes_without_edges_require_no_edges_and_only_tolerate_isolated_nodes() -> None:
    verdict = graph_verdict(NODES, [])
    assert (required(verdict), set(verdict.tolerated)) == ({"no_edges"}, {"isolated_nodes"})


def test_nothing_stated_is_parse_failed() -> None:
    assert required(graph_verdict([], [])) == {"parse_failed"}


def test_an_edge_to_an_undeclared_id_is_dangling_and_its_loss_shows_in_the_repaired_graph() -> None:
    edges = [*TREE[:1], EdgeDecl("c", "ghost", "deduction-case"), *TREE[2:]]
    assert required(graph_verdict(NODES, edges)) == {"dangling_edge", "single_edge_unit"}


def test_a_premise_left_without_edges_is_isolated() -> None:
    assert required(graph_verdict(NODES, TREE[:4])) == {"isolated_nodes"}


def test_a_copy_with_the_same_folded_text_merges_into_the_original_before_the_rules_run() -> None:
    copy = NodeDecl("g", "  CLAIM   e ", (5, 0, 1))
    edges = [*TREE[:3], EdgeDecl("g", "c", "induction-case"), TREE[4]]
    assert graph_verdict([*NODES, copy], edges) == ACCEPT
    assert required(graph_verdict([*NODES, NodeDecl("g", "claim g", (5, 0, 1))], edges)) == {"isolated_nodes"}


def test_an_unknown_label_on_a_spare_induction_case_of_an_inner_premise_requires_only_unknown_label() -> None:
    nodes = [*NODES, NodeDecl("g", "claim g", (7, 0, 1)), NodeDecl("h", "claim h", (8, 0, 1))]
    edges = [*TREE, EdgeDecl("g", "f", "deduction-rule"), EdgeDecl("h", "f", "deduction-case")]
    edges[4] = EdgeDecl("f", "c", None)
    assert graph_verdict(nodes, edges) == Verdict(frozenset({"unknown_label"}), frozenset({"unit_cardinality"}))


def test_an_unknown_label_in_a_deduction_unit_tolerates_both_readings_of_the_unit() -> None:
    edges = [EdgeDecl("b", "a", None), *TREE[1:]]
    verdict = graph_verdict(NODES, edges)
    assert required(verdict) == {"unknown_label"}
    assert {"single_edge_unit", "unit_cardinality", "isolated_nodes"} <= verdict.tolerated


def test_only_discourse_labels_require_unknown_label_and_tolerate_no_edges() -> None:
    verdict = graph_verdict(NODES, [EdgeDecl(edge.source, edge.target, None) for edge in TREE])
    assert required(verdict) == {"unknown_label"}
    assert "no_edges" in verdict.tolerated


def test_an_edge_from_the_root_back_into_a_unit_is_a_cycle_that_leaves_no_terminal() -> None:
    assert required(graph_verdict(NODES, [*TREE, EdgeDecl("a", "c", "induction-case")])) == {"cycle", "no_root"}


def test_an_edge_from_an_inner_conclusion_back_into_an_induction_unit_is_only_a_cycle() -> None:
    nodes = [*NODES, NodeDecl("g", "claim g", (7, 0, 1)), NodeDecl("h", "claim h", (8, 0, 1))]
    edges = [*TREE, EdgeDecl("g", "e", "induction-common"), EdgeDecl("h", "e", "induction-case"), EdgeDecl("c", "e", "induction-case")]
    assert required(graph_verdict(nodes, edges)) == {"cycle"}


def test_a_root_mark_on_a_premise_is_root_orientation() -> None:
    nodes = [*NODES[:3], NodeDecl("d", "claim d", (4, 0, 1), marked_root=True), *NODES[4:]]
    assert required(graph_verdict(nodes, TREE)) == {"root_orientation"}


def test_a_root_mark_on_the_terminal_is_fine() -> None:
    assert graph_verdict([NodeDecl("a", "claim a", (1, 0, 1), marked_root=True), *NODES[1:]], TREE) == ACCEPT


@pytest.mark.parametrize(("edges", "residual"), [
    ([*TREE, EdgeDecl("d", "a", "abduction-knowledge")], "mixed_family_unit"),
    ([EdgeDecl("b", "a", "deduction-rule"), EdgeDecl("c", "a", "deduction-rule"), *TREE[2:]], "unit_cardinality"),
    ([TREE[0], *TREE[2:], EdgeDecl("c", "a", "induction-case")], "mixed_family_unit"),
    ([*TREE[:2], EdgeDecl("d", "c", "induction-case"), *TREE[3:]], "unit_cardinality"),
])
def test_broken_units_name_their_defect(edges: list[EdgeDecl], residual: str) -> None:
    assert required(graph_verdict(NODES, edges)) == {residual}


def test_a_bogus_tuple_is_unresolved_source() -> None:
    nodes = [*NODES[:5], NodeDecl("f", "claim f", (999, 0, 1), resolves=False)]
    assert required(graph_verdict(nodes, TREE)) == {"unresolved_source"}


def test_a_verdict_admits_exactly_the_required_residuals_plus_any_tolerated() -> None:
    verdict = Verdict(frozenset({"truncated_response"}), frozenset({"isolated_nodes", "no_edges"}))
    assert verdict.admits({"truncated_response", "isolated_nodes"})
    assert not verdict.admits({"isolated_nodes"})
    assert not verdict.admits({"truncated_response", "cycle"})
    assert ACCEPT.admits(set()) and not ACCEPT.admits({"cycle"})


def test_readings_require_what_all_of_them_require() -> None:
    combined = either([Verdict(frozenset({"no_edges"})), Verdict(frozenset({"no_edges", "isolated_nodes"}))])
    assert (required(combined), set(combined.tolerated)) == ({"no_edges"}, {"isolated_nodes"})


def test_a_verdict_refuses_residual_names_outside_the_documented_list() -> None:
    with pytest.raises(ReasoningCorpusError, match="outside the documented list"):
        Verdict(frozenset({"supports"}))


# ---------------------------------------------------------------- cuts, on a three-node deduction written nodes first

GRAPH = CleanGraph(
    (CleanNode("n000", "The conclusion.", (1, 0, 1)), CleanNode("n001", "The rule.", (2, 0, 1)), CleanNode("n002", "The case.", (3, 0, 1))),
    (CleanEdge("n001", "deduction-rule", "n000"), CleanEdge("n002", "deduction-case", "n000")),
    "n000",
)


@pytest.fixture
def rendered() -> tuple[Rendered, Verdict]:
    model = build_model(GRAPH, Surface(style="strict", layout="nodes_first"), random.Random(1))
    draft = model.draft().wrapped("Sure! Here is the graph:", "```dot", "Let me know.")
    return draft.render(), model.verdict()


def test_a_cut_after_the_closing_brace_leaves_the_graph_whole(rendered: tuple[Rendered, Verdict]) -> None:
    text, whole = rendered
    assert cut_verdict(text, text.tail_end + 2, whole, "dot") == ACCEPT


def test_a_cut_in_the_leading_prose_is_parse_failed(rendered: tuple[Rendered, Verdict]) -> None:
    text, whole = rendered
    assert required(cut_verdict(text, 10, whole, "dot")) == {"parse_failed"}


def test_a_cut_after_the_last_node_requires_no_edges(rendered: tuple[Rendered, Verdict]) -> None:
    text, whole = rendered
    assert required(cut_verdict(text, text.placed[2].end, whole, "dot")) == {"truncated_response", "no_edges"}


def test_a_cut_inside_the_first_edge_label_only_requires_truncated_response(rendered: tuple[Rendered, Verdict]) -> None:
    text, whole = rendered
    label = text.placed[3].label
    verdict = cut_verdict(text, label[0] + 4, whole, "dot")
    assert required(verdict) == {"truncated_response"}
    assert {"no_edges", "isolated_nodes", "single_edge_unit", "unknown_label"} <= verdict.tolerated


def test_a_cut_after_the_first_edge_requires_the_unit_and_the_bare_premise(rendered: tuple[Rendered, Verdict]) -> None:
    text, whole = rendered
    verdict = cut_verdict(text, text.placed[3].end, whole, "dot")
    assert verdict == Verdict(frozenset({"truncated_response", "single_edge_unit", "isolated_nodes"}))


def test_a_cut_after_every_statement_but_before_the_brace_is_truncated_only(rendered: tuple[Rendered, Verdict]) -> None:
    text, whole = rendered
    assert cut_verdict(text, text.placed[-1].end, whole, "dot") == Verdict(frozenset({"truncated_response"}))
