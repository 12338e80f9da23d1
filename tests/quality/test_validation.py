"""validate_graph / validate_store on real ARCHE papers, the gate rules, and profile loading."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import NamedNode, RdfFormat, Triple, parse

from claimgraph.context import Context
from claimgraph.errors import ProfileError
from claimgraph.loaders import load_document
from claimgraph.papers.document_graph import document_triples
from claimgraph.profile.manifest import load_profile
from claimgraph.profile.ontology import canonical_edge_label
from claimgraph.quality.validation import validate_graph, validate_store
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG
from claimgraph.store import EmbeddedStore

FIXTURES = Path(__file__).resolve().parents[1] / "profile" / "shapes_fixtures"
PAPERS = ["s41467-025-55907-w", "s41467-025-55999-4", "s41467-025-56034-2"]
GRAPH = NamedNode("https://claimgraph.example/paper/p1")
NODE = "https://claimgraph.example/paper/p1/node/"


@pytest.fixture(scope="module")
def arche_store(arche_dir: Path) -> tuple[EmbeddedStore, dict[str, int]]:
    """Three ARCHE papers as the loader writes them, with each paper's expected node count."""
    store, iris, expected = EmbeddedStore(None), IriScheme(), {}
    for name in PAPERS:
        document = load_document(arche_dir / f"{name}.json")
        store.replace_graph(iris.paper(document.paper_id), document_triples(document, iris))
        store.replace_graph(iris.raw_graph(document.paper_id), [])
        expected[document.paper_id] = (
            1 + len(document.passages) + len(document.sentences) + len(document.references) + len(document.viewpoints)
        )
    store.replace_graph(iris.audit_graph(PAPERS[0]), [Triple(NamedNode("urn:x:a"), CG.text, NamedNode("urn:x:b"))])
    return store, expected


@pytest.mark.parametrize("profile", ["discourse", "peirce"])
def test_real_arche_papers_validate_clean_with_every_node_checked(arche_store, profile: str) -> None:
    store, expected = arche_store
    report = validate_store(Context(store, profile=load_profile(profile)), workers=2)
    assert list(report.lines()) == []
    assert report.conforms and report.nodes_failed == 0
    assert {graph.graph.value.rsplit("/", 1)[1]: graph.nodes_validated for graph in report.graphs} == expected


def test_validate_store_with_paper_ids_validates_only_those_papers(arche_store) -> None:
    store, expected = arche_store
    report = validate_store(Context(store), paper_ids=[PAPERS[1]])
    assert [graph.graph for graph in report.graphs] == [IriScheme().paper(PAPERS[1])]
    assert report.nodes_validated == expected[PAPERS[1]]


def test_validate_graph_reports_a_broken_arche_viewpoint_with_graph_and_reason(arche_store) -> None:
    store, _ = arche_store
    iris = IriScheme()
    graph = iris.paper(PAPERS[0])
    triples = [t for t in store.triples(graph) if not (t.predicate == CG.inSentence and t.subject.value.endswith("/viewpoint/1-0-1"))]
    copy = EmbeddedStore(None)
    copy.replace_graph(graph, triples)
    report = validate_graph(Context(copy), graph)
    assert [(r.graph, r.focus.value.rsplit("/", 1)[1], r.reason) for r in report.failures] == [
        (graph, "1-0-1", "cg:inSentence: expected exactly 1, found 0")
    ]
    assert report.nodes_failed == 1 and report.nodes_validated == len({r.focus for r in report.results})


def store_with(fixture: str, extra: str = "") -> EmbeddedStore:
    store = EmbeddedStore(None)
    text = (FIXTURES / fixture).read_text(encoding="utf-8")
    prefixes = "@prefix cg: <https://w3id.org/claimgraph/ontology/v1#> . @prefix n: <https://claimgraph.example/paper/p1/node/> .\n"
    store.replace_graph(GRAPH, parse(text + prefixes + extra, format=RdfFormat.TURTLE))
    return store


def test_annotation_sync_rule_catches_an_annotation_whose_triple_is_missing() -> None:
    text = (FIXTURES / "discourse_valid.ttl").read_text(encoding="utf-8").replace("    cg:supports p:claim\\/1 ;\n", "")
    store = EmbeddedStore(None)
    store.replace_graph(GRAPH, parse(text, format=RdfFormat.TURTLE))
    report = validate_graph(Context(store), GRAPH)
    assert [(v.rule, v.focus.value, v.reason) for v in report.violations] == [(
        "annotation_sync",
        "https://claimgraph.example/paper/p1/stmt/cea79ded7f7edb4d",
        "annotated edge is missing from the graph: <https://claimgraph.example/paper/p1/evidence/1> "
        "<https://w3id.org/claimgraph/ontology/v1#supports> <https://claimgraph.example/paper/p1/claim/1>",
    )]
    assert report.failures == [] and not report.conforms


def test_annotation_sync_rule_catches_an_annotation_iri_not_derived_from_its_edge() -> None:
    text = (FIXTURES / "discourse_valid.ttl").read_text(encoding="utf-8").replace("cea79ded7f7edb4d a", "other a")
    store = EmbeddedStore(None)
    store.replace_graph(GRAPH, parse(text, format=RdfFormat.TURTLE))
    (violation,) = validate_graph(Context(store), GRAPH).violations
    assert violation.reason == "annotation IRI is not derived from its edge; expected <https://claimgraph.example/paper/p1/stmt/cea79ded7f7edb4d>"


RULE_CASES = [
    ("self loop", "n:n1 cg:deductionCase n:n1 .",
     [("peirce_self_loop", "n1", "self-loop: cg:deductionCase from the node to itself", "self_loop"),
      ("peirce_unit_cardinality", "n1", "deduction unit needs exactly 1 deduction-rule and 1 deduction-case, found 0 and 1", "single_edge_unit")]),
    ("dangling edge", "n:x cg:deductionRule n:n3 .",
     [("peirce_dangling_edge", "x", "cg:deductionRule starts at a node that is not a reasoning node of this graph", "dangling_edge"),
      ("peirce_unit_cardinality", "n3", "deduction unit needs exactly 1 deduction-rule and 1 deduction-case, found 2 and 1", "unit_cardinality")]),
    ("mixed family", "n:n1 cg:inductionCase n:n5 .",
     [("peirce_mixed_family_unit", "n5", "incoming edges mix reasoning families: induction, abduction", "mixed_family_unit")]),
    ("cycle", "n:n5 cg:inductionCase n:n6 .",
     [("peirce_cycle", "n4", "on a directed cycle of reasoning edges", "cycle"),
      ("peirce_cycle", "n5", "on a directed cycle of reasoning edges", "cycle"),
      ("peirce_cycle", "n6", "on a directed cycle of reasoning edges", "cycle"),
      ("peirce_single_root", "", "no terminal root: every reasoning node has an outgoing edge", "no_root"),
      ("peirce_single_root", "n5", "cg:isRoot true on a node with outgoing reasoning edges", "no_root"),
      ("peirce_unit_cardinality", "n6", "induction unit needs exactly 1 induction-common and at least 1 induction-case, found 0 and 1", "single_edge_unit")]),
    ("two roots", 'n:n9 a cg:ReasoningNode ; cg:text "t" ; cg:sourceSentence 0 ; cg:sourceReference 0 ; cg:sourceViewpoint 0 .',
     [("peirce_isolated_nodes", "n9", "isolated: no edge in or out, tied to the graph only by the scaffolding root", "isolated_nodes"),
      ("peirce_single_root", "n5", "one of 2 terminal nodes; a reasoning graph has a single root", "no_root"),
      ("peirce_single_root", "n9", "one of 2 terminal nodes; a reasoning graph has a single root", "no_root")]),
]


@pytest.mark.parametrize(("extra", "expected"), [case[1:] for case in RULE_CASES], ids=[case[0] for case in RULE_CASES])
def test_peirce_rules_report_global_violations_with_their_residual(extra: str, expected: list) -> None:
    report = validate_graph(Context(store_with("peirce_valid.ttl", extra), profile=load_profile("peirce")), GRAPH)
    found = sorted(
        (v.rule, v.focus.value.removeprefix(NODE).removeprefix(GRAPH.value), v.reason, v.residual) for v in report.violations
    )
    assert found == sorted(expected)


def test_peirce_rules_do_not_fire_on_a_graph_without_reasoning_nodes(arche_store) -> None:
    store, _ = arche_store
    assert validate_graph(Context(store, profile=load_profile("peirce")), IriScheme().paper(PAPERS[0])).violations == []


def test_edge_label_aliases_canonicalize_case_spacing_and_abbreviations() -> None:
    peirce, discourse = load_profile("peirce"), load_profile("discourse")
    assert [canonical_edge_label(peirce, raw) for raw in ["ded-rule", "DR", "Deduction-rule", "deduction rule", "Induction_Case"]] == [
        "deduction-rule", "deduction-rule", "deduction-rule", "deduction-rule", "induction-case"
    ]
    assert [canonical_edge_label(discourse, raw) for raw in ["support", "Contradicts", "ADDRESSES", "causes"]] == [
        "supports", "opposes", "addresses", None
    ]


def test_an_unknown_profile_names_the_known_ones() -> None:
    with pytest.raises(ProfileError, match=r"no profile named 'nope' .*known profiles: discourse, peirce"):
        load_profile("nope")


def test_a_profile_lists_its_repairs_and_rules_in_order() -> None:
    profile = load_profile("peirce")
    assert profile.repair_names[0] == "canonicalize_edge_labels" and profile.repair_names[-1] == "single_root"
    assert profile.missing_repairs == [] and [path.stem for path in profile.repair_files] == list(profile.repair_names)
    assert [path.name for path in profile.rule_files][:3] == ["annotation_sync.rq", "closed_edge_labels.rq", "peirce_self_loop.rq"]


# ---------------------------------------------------------------- blind spots and unfinished papers

def failure_lines(extra: str, edit: tuple[str, str] | None = None) -> list[tuple[str, str, str]]:
    text = (FIXTURES / "discourse_valid.ttl").read_text(encoding="utf-8")
    if edit:
        assert edit[0] in text
        text = text.replace(*edit)
    store = EmbeddedStore(None)
    store.replace_graph(GRAPH, parse(text + "\n@prefix p: <https://claimgraph.example/paper/p1/> .\n" + extra, format=RdfFormat.TURTLE))
    report = validate_graph(Context(store), GRAPH)
    return sorted((r.focus.value.removeprefix("https://claimgraph.example/paper/p1/"), r.shape.value.rsplit("#")[-1] if r.shape else "", r.reason)
                  for r in report.failures)


def test_an_untyped_node_with_a_supports_edge_is_reported() -> None:
    assert failure_lines('p:claim\\/9 cg:supports p:claim\\/1 .') == [
        ("claim/9", "", "no rdf:type, so no shape checks it (it has cg:supports)"),
    ]


def test_a_node_typed_only_with_a_foreign_class_is_reported() -> None:
    assert failure_lines('p:person\\/1 a <http://xmlns.com/foaf/0.1/Person> ; cg:supports p:claim\\/1 .') == [
        ("person/1", "", "rdf:type <http://xmlns.com/foaf/0.1/Person>: only classes from outside profile discourse, so no shape checks it"),
    ]


def test_a_literal_in_passage_is_reported_as_a_literal_not_a_missing_type() -> None:
    assert failure_lines('p:sentence\\/1 cg:inPassage "the introduction" .', ("    cg:inPassage p:passage\\/1 ;\n", "")) == [
        ("sentence/1", "SentenceShape", 'cg:inPassage: expected a node (an IRI) valid for PassageShape, found the literal "the introduction"'),
    ]


def test_an_ill_typed_number_gets_a_reason_not_a_template() -> None:
    lines = failure_lines('p:factor\\/x a cg:Factor ; cg:text "x" ; cg:confidence "high"^^<http://www.w3.org/2001/XMLSchema#decimal> .')
    assert lines == [("factor/x", "FactorShape", 'cg:confidence: "high" is not a number')]
    assert not any("{" in reason for _, _, reason in lines)


def test_the_canonical_graph_may_hold_untyped_mention_links(tmp_path: Path) -> None:
    iris = IriScheme()
    store = EmbeddedStore(None)
    hub = iris.canonical_graph()
    store.replace_graph(hub, [Triple(NamedNode("https://claimgraph.example/paper/p1/claim/1"), CG.mentions, NamedNode("https://claimgraph.example/canon/x"))])
    report = validate_store(Context(store), workers=1)
    assert report.failures == []


def test_a_paper_left_with_only_its_load_activity_is_reported_unfinished(tmp_path: Path) -> None:
    from claimgraph.papers.storage import store_document
    from claimgraph.quality.repair import repair_paper

    examples = Path(__file__).resolve().parents[2] / "examples" / "papers"
    store = EmbeddedStore(tmp_path / "store")
    ctx = Context(store)
    documents = [load_document(examples / name) for name in ("synthetic-arche-ripples.json", "soil-warming.md")]
    for document in documents:
        store_document(store, ctx.iris, document)
    repair_paper(ctx, documents[0].paper_id)
    report = validate_store(ctx, workers=1)
    assert report.unfinished == [documents[1].paper_id] and not report.conforms
    (line,) = [line for line in report.lines() if "unfinished" in line]
    assert line.startswith(f"paper {documents[1].paper_id}: unfinished: loaded but never repaired and gated")
    assert validate_store(ctx, [documents[0].paper_id], workers=1).unfinished == []
    repair_paper(ctx, documents[1].paper_id)
    assert validate_store(ctx, workers=1).unfinished == []
    store.close()
