"""Where the DOT graph is in a response and how the text leaves it: closed, fenced, cut, swallowed by a quote, a stray brace."""

from __future__ import annotations

import pytest

from claimgraph.reasoning.dot_region import scan_region

GRAPH = 'digraph G {\n  a [label="(1,0,1) rule"];\n  b [label="(1,0,2) case"];\n  a -> b [label="DR"];\n}'


def test_a_closed_graph_in_prose_and_a_fence_is_closed_and_its_body_holds_only_the_statements() -> None:
    region = scan_region("Sure! Here is the graph:\n```dot\n" + GRAPH + "\n```\nHope it helps {really}.")
    assert region.state == "closed" and not region.truncated
    assert "Sure" not in region.body and "really" not in region.body and 'a -> b [label="DR"]' in region.body


@pytest.mark.parametrize("cut", [len(GRAPH) // 2, GRAPH.index("DR") + 1, GRAPH.index('a -> b') + 6, len(GRAPH) - 1])
def test_a_text_that_ends_inside_the_graph_is_truncated(cut: int) -> None:
    region = scan_region("```dot\n" + GRAPH[:cut])
    assert region.state == "open" and region.truncated and not region.swallowed and not region.stray_brace


def test_a_cut_inside_a_string_says_so() -> None:
    region = scan_region(GRAPH[: GRAPH.index("rule")])
    assert region.truncated and region.open_string


def test_a_forgotten_brace_closed_by_the_fence_is_not_a_cut() -> None:
    region = scan_region("```dot\n" + GRAPH[:-1] + "```\nThat is all.")
    assert region.state == "fenced" and not region.truncated


def test_a_quote_left_open_in_the_middle_swallows_statements_and_is_found_even_when_a_later_quote_evens_the_count() -> None:
    text = GRAPH.replace('rule"]', "rule]", 1)
    region = scan_region(text)
    assert region.swallowed and not region.truncated and region.line_of_problem == 2
    evened = text.replace('"(1,0,2) case"', '"(1,0,2) \\"case\\""')  # escaped quotes after the open one put the count back in step
    assert scan_region(evened).swallowed


def test_a_multi_line_label_is_not_a_swallowed_statement() -> None:
    region = scan_region('digraph {\n  a [label="rule\nSource: (1,0,1)"];\n  b [label="case"];\n  a -> b [label="DR"];\n}')
    assert region.state == "closed" and not region.swallowed


@pytest.mark.parametrize("after", ["", "\n```\n", "\nThe root is the main claim.\n"])
def test_a_brace_opened_in_the_middle_and_never_closed_is_a_stray_brace_not_a_cut(after: str) -> None:
    text = GRAPH.replace("  a -> b", "  subgraph cluster_premises {\n  a -> b", 1) + after
    region = scan_region(text)
    assert region.stray_brace and not region.truncated and region.line_of_problem == 4


def test_comments_and_braces_inside_strings_do_not_count() -> None:
    region = scan_region('digraph {\n  // a comment with a } brace\n  a [label="text with } and { braces"];\n  # hash comment\n}\ntrailing')
    assert region.state == "closed" and "comment" not in region.body and "{ braces" in region.body


def test_a_text_without_a_header_is_read_whole() -> None:
    assert scan_region('a [label="x"]\nb [label="y"]\na -> b').state == "headless"
