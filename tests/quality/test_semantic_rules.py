"""Semantic rules: each rule fires on a graph that violates it (naming the nodes) and stays silent on one that does not."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.context import Context
from claimgraph.errors import ProfileError
from claimgraph.profile.manifest import load_profile
from claimgraph.quality.reports import RuleViolation
from claimgraph.quality.rules import load_rule
from claimgraph.quality.semantic import check_polarity, semantic_rules, semantic_violations
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, DCTERMS, RDF, XSD
from claimgraph.store import EmbeddedStore, Store

PAPER = "p-semantic"
Source = tuple[int, int, int]


def integer(value: int) -> Literal:
    return Literal(str(value), datatype=XSD.integer)


class Graph:
    """A small paper graph: typed nodes with a text and a source tuple, and edges by local name."""

    def __init__(self, iris: IriScheme) -> None:
        self.iris = iris
        self.nodes: dict[str, tuple[str, str, Source]] = {}
        self.edges: set[tuple[str, str, str]] = set()

    def node(self, local: str, kind: str, source: Source, text: str | None = None) -> Graph:
        self.nodes[local] = (kind, text or f"statement {local} of the test paper", source)
        return self

    def edge(self, source: str, label: str, target: str) -> Graph:
        self.edges.add((source, label, target))
        return self

    def iri(self, local: str) -> NamedNode:
        return self.iris.node(PAPER, "node", local)

    def triples(self) -> list[Triple]:
        paper = self.iris.paper(PAPER)
        triples = [Triple(paper, RDF.type, CG.Paper), Triple(paper, DCTERMS.identifier, Literal(PAPER))]
        for local, (kind, text, (x, y, z)) in self.nodes.items():
            node = self.iri(local)
            triples += [Triple(node, RDF.type, CG[kind]), Triple(node, CG.text, Literal(text)), Triple(node, CG.sourceSentence, integer(x)),
                        Triple(node, CG.sourceReference, integer(y)), Triple(node, CG.sourceViewpoint, integer(z))]
        triples += [Triple(self.iri(source), CG[label], self.iri(target)) for source, label, target in self.edges]
        return triples


def run_rules(store: Store, profile: str, graph: Graph) -> list[RuleViolation]:
    ctx = Context(store, graph.iris, load_profile(profile))
    store.replace_graph(graph.iris.paper(PAPER), graph.triples())
    return semantic_violations(ctx, PAPER)


def discourse_graph(iris: IriScheme) -> Graph:
    """A clean argument: a question, a hypothesis with three independent lines, an association."""
    graph = Graph(iris)
    for local, kind, source in [("q1", "ResearchQuestion", (1, 0, 1)), ("h1", "Hypothesis", (2, 0, 1)), ("e1", "Evidence", (3, 0, 1)),
                                ("e2", "Evidence", (5, 0, 1)), ("c1", "Claim", (4, 0, 1)), ("e3", "Evidence", (6, 1, 1)),
                                ("a1", "Association", (7, 0, 1)), ("f1", "Factor", (7, 0, 1)), ("f2", "Factor", (7, 0, 2))]:
        graph.node(local, kind, source)
    for edge in [("h1", "addresses", "q1"), ("e1", "supports", "h1"), ("e2", "supports", "h1"), ("c1", "supports", "h1"),
                 ("e3", "supports", "c1"), ("a1", "arg0", "f1"), ("a1", "arg1", "f2"), ("e2", "supports", "a1")]:
        graph.edge(*edge)
    return graph


def peirce_graph(iris: IriScheme) -> Graph:
    """A clean reasoning tree: a deduction into the root, an induction and an abduction under its premises."""
    graph = Graph(iris)
    for local, source in [("r", (1, 0, 1)), ("p1", (2, 0, 1)), ("p2", (3, 0, 1)), ("p3", (4, 0, 1)), ("p4", (5, 0, 1)),
                          ("p5", (6, 1, 1)), ("p6", (7, 0, 1)), ("p7", (8, 0, 1))]:
        graph.node(local, "ReasoningNode", source)
    for edge in [("p1", "deductionRule", "r"), ("p2", "deductionCase", "r"), ("p3", "inductionCommon", "p1"), ("p4", "inductionCase", "p1"),
                 ("p5", "inductionCase", "p1"), ("p6", "abductionPhenomenon", "p2"), ("p7", "abductionKnowledge", "p2")]:
        graph.edge(*edge)
    return graph


@pytest.fixture
def embedded(tmp_path: Path) -> EmbeddedStore:
    return EmbeddedStore(tmp_path / "store")


Mutation = Callable[[Graph], object]

DISCOURSE_CASES: list[tuple[str, Mutation, str]] = [
    ("discourse_argument_endpoints", lambda g: g.edge("e1", "supports", "e2"), "e1"),
    ("discourse_argument_endpoints", lambda g: g.edge("q1", "supports", "h1"), "q1"),
    ("discourse_circular_support", lambda g: g.edge("h1", "supports", "c1"), "c1"),
    ("discourse_support_and_oppose", lambda g: g.edge("e1", "opposes", "h1"), "e1"),
    ("discourse_association_self", lambda g: g.edges.discard(("a1", "arg1", "f2")) or g.edge("a1", "arg1", "f1"), "a1"),
    ("discourse_polarity_consistency", lambda g: g.edge("e1", "opposes", "c1"), "c1"),
    ("discourse_hypothesis_independent_evidence",
     lambda g: g.node("h2", "Hypothesis", (9, 0, 1)).node("e4", "Evidence", (8, 0, 1)).node("e5", "Evidence", (8, 0, 2))
     .edge("e4", "supports", "h2").edge("e5", "supports", "h2"), "h2"),
    ("discourse_hypothesis_independent_evidence",
     lambda g: g.node("h2", "Hypothesis", (9, 0, 1)).node("e4", "Evidence", (0, 0, 0)).edge("e4", "supports", "h2"), "h2"),
    ("discourse_contested_hypothesis", lambda g: g.node("e6", "Evidence", (9, 0, 1)).edge("e6", "opposes", "h1"), "h1"),
    ("discourse_evidence_unused", lambda g: g.node("e7", "Evidence", (9, 0, 1)), "e7"),
    ("discourse_claim_unsupported", lambda g: g.node("c3", "Claim", (9, 0, 1)).edge("c3", "supports", "h1"), "c3"),
    ("discourse_question_unaddressed", lambda g: g.node("q2", "ResearchQuestion", (9, 0, 1)), "q2"),
]

PEIRCE_CASES: list[tuple[str, Mutation, str]] = [
    ("peirce_premise_restates_conclusion", lambda g: g.node("p2", "ReasoningNode", (3, 0, 1), "Statement r of the TEST paper!"), "r"),
    ("peirce_unit_shared_anchor", lambda g: g.node("p2", "ReasoningNode", (2, 0, 1)), "r"),
    ("peirce_ungrounded_unit", lambda g: g.node("p6", "ReasoningNode", (0, 0, 0)).node("p7", "ReasoningNode", (0, 0, 0)), "p2"),
    ("peirce_induction_independent_cases", lambda g: g.node("p5", "ReasoningNode", (5, 0, 2)), "p1"),
]


def test_every_rule_of_both_profiles_has_a_violating_case_here() -> None:
    covered = {name for name, _, _ in DISCOURSE_CASES + PEIRCE_CASES}
    shipped = {rule.name for profile in ("discourse", "peirce") for rule in semantic_rules(load_profile(profile))}
    assert shipped == covered
    assert len(shipped) >= 8


def test_the_clean_graphs_violate_no_semantic_rule(embedded: Store, iris: IriScheme) -> None:
    assert run_rules(embedded, "discourse", discourse_graph(iris)) == []
    assert run_rules(embedded, "peirce", peirce_graph(iris)) == []


@pytest.mark.parametrize(("rule", "mutate", "focus"), DISCOURSE_CASES, ids=[f"{case[0]}-{n}" for n, case in enumerate(DISCOURSE_CASES)])
def test_a_discourse_rule_fires_on_its_violation_and_names_the_node(embedded: Store, iris: IriScheme, rule: str, mutate: Mutation, focus: str) -> None:
    graph = discourse_graph(iris)
    mutate(graph)
    fired = [violation for violation in run_rules(embedded, "discourse", graph) if violation.rule == rule]
    assert graph.iri(focus) in {violation.focus for violation in fired}
    assert all(f"node/{focus}" in violation.reason for violation in fired if violation.focus == graph.iri(focus))


@pytest.mark.parametrize(("rule", "mutate", "focus"), PEIRCE_CASES, ids=[case[0] for case in PEIRCE_CASES])
def test_a_peirce_rule_fires_on_its_violation_and_names_the_node(embedded: Store, iris: IriScheme, rule: str, mutate: Mutation, focus: str) -> None:
    graph = peirce_graph(iris)
    mutate(graph)
    fired = [violation for violation in run_rules(embedded, "peirce", graph) if violation.rule == rule]
    assert [violation.focus for violation in fired] == [graph.iri(focus)]
    assert f"node/{focus}" in fired[0].reason


def test_mixed_evidence_on_a_hypothesis_is_contested_but_not_a_polarity_conflict(embedded: Store, iris: IriScheme) -> None:
    graph = discourse_graph(iris).node("e6", "Evidence", (9, 0, 1)).edge("e6", "opposes", "h1")
    fired = {violation.rule: violation for violation in run_rules(embedded, "discourse", graph)}
    assert set(fired) == {"discourse_contested_hypothesis"}
    assert fired["discourse_contested_hypothesis"].severity == "warning"


def test_a_polarity_conflict_is_critical_and_names_every_edge_of_the_odd_loop(embedded: Store, iris: IriScheme) -> None:
    graph = discourse_graph(iris).edge("e1", "opposes", "c1")
    (conflict,) = [violation for violation in run_rules(embedded, "discourse", graph) if violation.rule == "discourse_polarity_consistency"]
    assert conflict.severity == "critical" and conflict.residual == "polarity_conflict"
    for stated in ("node/e1 opposes node/c1", "node/e1 supports node/h1", "node/c1 supports node/h1"):
        assert stated in conflict.reason


def test_two_references_cited_by_one_sentence_are_independent_lines(embedded: Store, iris: IriScheme) -> None:
    graph = discourse_graph(iris).node("h2", "Hypothesis", (9, 0, 1)).node("e4", "Evidence", (8, 1, 1)).node("e5", "Evidence", (8, 2, 1))
    graph.edge("e4", "supports", "h2").edge("e5", "supports", "h2").edge("h2", "addresses", "q1")
    assert run_rules(embedded, "discourse", graph) == []
    peirce = peirce_graph(iris).node("p4", "ReasoningNode", (6, 2, 1))
    assert run_rules(embedded, "peirce", peirce) == []


def test_an_evidence_line_counts_the_sources_of_everything_that_supports_it(embedded: Store, iris: IriScheme) -> None:
    """h2's two lines look disjoint (sentences 8 and 9) until c2's supporter, from sentence 8 too, is counted."""
    graph = discourse_graph(iris).node("h2", "Hypothesis", (10, 0, 1)).node("e4", "Evidence", (8, 0, 1)).node("c2", "Claim", (9, 0, 1))
    graph.edge("e4", "supports", "h2").edge("c2", "supports", "h2").edge("h2", "addresses", "q1")
    graph.node("e5", "Evidence", (11, 0, 1)).edge("e5", "supports", "c2")
    assert run_rules(embedded, "discourse", graph) == []
    graph.node("e5", "Evidence", (8, 0, 3))
    fired = [violation for violation in run_rules(embedded, "discourse", graph) if violation.rule == "discourse_hypothesis_independent_evidence"]
    assert [violation.focus for violation in fired] == [graph.iri("h2")]
    assert "sentence 8" in fired[0].reason and "sentence 9" in fired[0].reason


def test_semantic_rules_give_the_same_violations_on_a_remote_store(store: Store, iris: IriScheme) -> None:
    graph = discourse_graph(iris).edge("e1", "opposes", "c1").node("q2", "ResearchQuestion", (9, 0, 1))
    fired = sorted((violation.rule, violation.focus.value) for violation in run_rules(store, "discourse", graph))
    assert fired == sorted([("discourse_polarity_consistency", graph.iri("c1").value),
                            ("discourse_question_unaddressed", graph.iri("q2").value)])


def test_check_polarity_reports_independent_conflicts_one_core_each() -> None:
    nodes = {name: NamedNode(f"http://example.org/paper/x/node/{name}") for name in "abcdef"}
    supports, opposes = CG.supports, CG.opposes
    rows = [{"source": nodes[s], "edge": p, "target": nodes[t]} for s, p, t in [
        ("a", supports, "b"), ("b", supports, "c"), ("a", opposes, "c"),
        ("d", opposes, "e"), ("e", opposes, "f"), ("d", opposes, "f"),
    ]]
    findings = check_polarity(rows)
    assert len(findings) == 2
    assert {finding.focus for finding in findings} <= {nodes["c"], nodes["e"], nodes["f"]}
    assert {frozenset(finding.nodes) for finding in findings} == {frozenset(nodes[n] for n in "abc"), frozenset(nodes[n] for n in "def")}


def test_an_even_loop_of_oppositions_is_consistent() -> None:
    nodes = [NamedNode(f"http://example.org/paper/x/node/{n}") for n in range(4)]
    rows = [{"source": nodes[0], "edge": CG.opposes, "target": nodes[1]}, {"source": nodes[1], "edge": CG.opposes, "target": nodes[2]},
            {"source": nodes[0], "edge": CG.supports, "target": nodes[2]}, {"source": nodes[3], "edge": CG.supports, "target": nodes[2]}]
    assert check_polarity(rows) == []


def test_a_profile_may_override_a_rule_severity(tmp_path: Path, embedded: Store, iris: IriScheme) -> None:
    base = load_profile("discourse")
    manifest = tmp_path / "discourse.toml"
    manifest.write_text(base.manifest.read_text(encoding="utf-8").replace(
        "[semantic]\n", '[semantic]\nseverity = { discourse_question_unaddressed = "critical" }\n'), encoding="utf-8")
    profile = replace(base, manifest=manifest)
    (rule,) = [rule for rule in semantic_rules(profile) if rule.name == "discourse_question_unaddressed"]
    assert rule.severity == "critical"
    ctx = Context(embedded, iris, profile)
    graph = discourse_graph(iris).node("q2", "ResearchQuestion", (9, 0, 1))
    embedded.replace_graph(iris.paper(PAPER), graph.triples())
    assert [violation.severity for violation in semantic_violations(ctx, PAPER)] == ["critical"]


def test_a_bad_severity_or_solver_header_is_refused_with_the_file_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad_rule.rq"
    bad.write_text("# severity: fatal\nSELECT ?focus WHERE { ?focus ?p ?o }\n", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"bad_rule\.rq.*critical, warning"):
        load_rule(bad)
    bad.write_text("# solver: prolog polarity\nSELECT ?focus WHERE { ?focus ?p ?o }\n", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"bad_rule\.rq.*z3 CHECK"):
        load_rule(bad)


def test_rules_without_a_severity_header_stay_critical() -> None:
    rule = load_rule(Path(load_profile("peirce").rule_files[0]))
    assert rule.severity == "critical"
