"""The tolerant materializer on a corpus of malformed LLM responses: exactly the stated nodes and edges, and the branch."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from claimgraph.profile.manifest import load_profile
from claimgraph.reasoning.dot_grammar import parse_dot_strict
from claimgraph.reasoning.materialize import materialize
from claimgraph.reasoning.parsed import DotSyntaxError
from claimgraph.reasoning.peirce import node_content, parse_node_label

RESPONSES = Path(__file__).parent / "responses"
EXPECTED = tomllib.loads((RESPONSES / "expected.toml").read_text(encoding="utf-8"))
PEIRCE = load_profile("peirce")


def test_the_corpus_has_at_least_30_responses_each_with_an_expectation() -> None:
    names = sorted(path.stem for path in RESPONSES.glob("*.txt"))
    assert len(names) >= 30 and names == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_materializer_admits_exactly_the_stated_nodes_and_edges(name: str) -> None:
    expected = EXPECTED[name]
    graph = materialize((RESPONSES / f"{name}.txt").read_text(encoding="utf-8"))
    nodes = []
    for node in graph.nodes.values():
        content = node_content(PEIRCE, node)
        if content.text:
            nodes.append([node.id, list(content.source or ()), content.role or "", content.text])
    assert graph.branch == expected["branch"]
    assert nodes == expected["nodes"]
    assert [[edge.source, edge.label or "", edge.target] for edge in graph.edges] == expected["edges"]
    assert (graph.skipped, graph.duplicate_edges) == (expected["skipped"], expected["duplicate_edges"])


@pytest.mark.parametrize("branch", ["dot-strict", "dot-tolerant", "xml", "plist", "json", "none"])
def test_every_parser_branch_is_exercised_by_the_corpus(branch: str) -> None:
    assert any(case["branch"] == branch for case in EXPECTED.values())


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("(3,1,2) text", ("text", (3, 1, 2), None)),
        ("Source: (3,1,2)\ntext", ("text", (3, 1, 2), None)),
        ("text\nsource tuple = (4, 2, 1)", ("text", (4, 2, 1), None)),
        ("(3, 2) legacy", ("legacy", (3, 0, 2), None)),
        ("DR: (1,0,1) rule", ("rule", (1, 0, 1), "deduction-rule")),
        ("Abduction phenomenon: seen (2,0,1)", ("seen", (2, 0, 1), "abduction-phenomenon")),
        ("Note: not a role", ("Note: not a role", None, None)),
        ("ratio (1, 2, 3) in the middle stays", ("ratio (1, 2, 3) in the middle stays", None, None)),
    ],
)
def test_node_labels_give_text_source_tuple_and_role(label: str, expected: tuple) -> None:
    content = parse_node_label(PEIRCE, label)
    assert (content.text, content.source, content.role) == expected


def test_strict_dot_rejects_prose_and_ports() -> None:
    for text in ["digraph { a -> b } trailing", "a -> b", "digraph { a -> b:port }"]:
        with pytest.raises(DotSyntaxError):
            parse_dot_strict(text)
