"""Each ShEx shape accepts a conforming node and rejects a broken one with an exact one-line reason.

The graphs are tests/shapes_fixtures/*.ttl plus a few Turtle lines per case,
stored as the named graph of paper p1 and validated through validate_graph.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, RdfFormat, Triple, parse

from claimgraph.context import Context
from claimgraph.profile.manifest import load_profile
from claimgraph.quality.reports import ValidationReport
from claimgraph.quality.shapes import compile_profile
from claimgraph.quality.validation import validate_graph
from claimgraph.rdf.vocab import CG, RDF
from claimgraph.store import EmbeddedStore

FIXTURES = Path(__file__).parent / "shapes_fixtures"
GRAPH = NamedNode("https://claimgraph.example/paper/p1")
NODE = "https://claimgraph.example/paper/p1/"
PREFIXES = """
@prefix cg: <https://w3id.org/claimgraph/ontology/v1#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix p: <https://claimgraph.example/paper/p1/> .
@prefix n: <https://claimgraph.example/paper/p1/node/> .
"""
TUPLE = "cg:sourceSentence 0 ; cg:sourceReference 0 ; cg:sourceViewpoint 0"


def validate(fixture: str, extra: str = "", edit: str | tuple[str, str] = "", profile: str = "discourse") -> ValidationReport:
    """Validate a fixture with ``extra`` Turtle added and ``edit`` (text to drop, or (old, new)) applied."""
    text = (FIXTURES / fixture).read_text(encoding="utf-8")
    if edit:
        old, new = (edit, "") if isinstance(edit, str) else edit
        assert old in text, f"fixture {fixture} lacks {old!r}"
        text = text.replace(old, new)
    store = EmbeddedStore(None)
    store.replace_graph(GRAPH, parse(text + PREFIXES + extra, format=RdfFormat.TURTLE))
    return validate_graph(Context(store, profile=load_profile(profile)), GRAPH)


def failures(report: ValidationReport) -> list[tuple[str, str, str]]:
    """(focus relative to the paper, shape local name, reason) of each failed shape check."""
    return sorted(
        (result.focus.value.removeprefix(NODE), result.shape.value.rsplit("#", 1)[1] if result.shape else "", result.reason)
        for result in report.failures
    )


def shape_names(profile: str) -> set[str]:
    return {shape.rsplit("#", 1)[1] for shape in compile_profile(load_profile(profile)).shape_of_class.values()}


def test_the_discourse_fixture_conforms_and_exercises_every_node_shape_but_canonical() -> None:
    report = validate("discourse_valid.ttl")
    assert failures(report) == [] and report.violations == [] and report.conforms
    validated = {result.shape.value.rsplit("#", 1)[1] for result in report.results if result.shape}
    assert validated == shape_names("discourse") - {"CanonicalNodeShape"}
    assert report.nodes_validated == 16


def test_the_peirce_fixture_conforms_to_shapes_and_rules() -> None:
    report = validate("peirce_valid.ttl", profile="peirce")
    assert report.conforms and report.nodes_validated == 8


def test_a_canonical_hub_conforms() -> None:
    hub = "p:hub cg:representativeText \"smoking\" ; a cg:CanonicalNode ; cg:memberCount 3 ; cg:memberType cg:Viewpoint ."
    assert failures(validate("discourse_valid.ttl", hub)) == []


def test_a_canonical_hub_needs_its_member_type_and_count() -> None:
    hub = "p:hub cg:representativeText \"smoking\" ; a cg:CanonicalNode ."
    assert failures(validate("discourse_valid.ttl", hub)) == [
        ("hub", "CanonicalNodeShape", "cg:memberType: expected exactly 1, found 0"),
    ]


FAILING = [
    # (case, fixture, extra turtle, edit of the fixture (text to drop or (old, new)), expected failures)
    ("association missing arg1", "discourse_valid.ttl", "", " ;\n    cg:arg1 p:factor\\/cancer",
     [("association/1", "AssociationShape", "cg:arg1: expected exactly 1, found 0")]),
    ("association with two arg1", "discourse_valid.ttl", "p:association\\/1 cg:arg1 p:factor\\/smoking .", "",
     [("association/1", "AssociationShape", "cg:arg1: expected exactly 1, found 2")]),
    ("arg1 to a node missing from the graph", "discourse_valid.ttl",
     "p:association\\/1 cg:arg1 p:factor\\/ghost .", " ;\n    cg:arg1 p:factor\\/cancer",
     [("association/1", "AssociationShape",
       f"cg:arg1 <{NODE}factor/ghost>: not a valid FactorShape (rdf:type: expected exactly 1, found 0)")]),
    ("arg1 to an untyped node", "discourse_valid.ttl",
     "p:association\\/1 cg:arg1 p:factor\\/untyped . p:factor\\/untyped cg:text \"x\" .", " ;\n    cg:arg1 p:factor\\/cancer",
     [("association/1", "AssociationShape",
       f"cg:arg1 <{NODE}factor/untyped>: not a valid FactorShape (rdf:type: expected exactly 1, found 0)"),
      ("factor/untyped", "", "no rdf:type, so no shape checks it (it has cg:text)")]),
    ("confidence 1.5", "discourse_valid.ttl", "p:factor\\/x a cg:Factor ; cg:text \"x\" ; cg:confidence 1.5 .", "",
     [("factor/x", "FactorShape", "cg:confidence: 1.5 is above the maximum 1")]),
    ("confidence below 0", "discourse_valid.ttl", "p:claim\\/1 cg:confidence -0.1 .", "cg:confidence 0.9 ;",
     [("claim/1", "ClaimShape", "cg:confidence: -0.1 is below the minimum 0")]),
    ("confidence as a double", "discourse_valid.ttl", "p:variable\\/1 cg:confidence 5e-1 .", "",
     [("variable/1", "VariableShape", "cg:confidence: expected xsd:decimal, found xsd:double")]),
    ("unknown edge label", "discourse_valid.ttl", "p:claim\\/1 cg:enables p:hypothesis\\/1 .", "",
     [("claim/1", "ClaimShape", "cg:enables: not allowed on Claim (closed shape)")]),
    ("hypothesis cannot support", "discourse_valid.ttl", "p:hypothesis\\/1 cg:supports p:claim\\/1 .", "",
     [("hypothesis/1", "HypothesisShape", "cg:supports: not allowed on Hypothesis (closed shape)")]),
    ("evidence supports a question", "discourse_valid.ttl", "p:evidence\\/1 cg:supports p:question\\/1 .", "",
     [("evidence/1", "EvidenceShape",
       f"cg:supports <{NODE}question/1>: not a valid ClaimOrHypothesisRef (rdf:type: cg:ResearchQuestion is not one of the allowed values)")]),
    ("hypothesis addresses a claim", "discourse_valid.ttl", "p:hypothesis\\/1 cg:addresses p:claim\\/1 .", "",
     [("hypothesis/1", "HypothesisShape",
       f"cg:addresses <{NODE}claim/1>: not a valid ResearchQuestionRef (rdf:type: cg:Claim is not one of the allowed values)")]),
    ("empty text", "discourse_valid.ttl", "p:design\\/1 cg:text \"\" .", " ; cg:text \"prospective cohort\"",
     [("design/1", "StudyDesignShape", "cg:text: text shorter than 1 character")]),
    ("missing text", "discourse_valid.ttl", "", " ; cg:text \"Cox regression\"",
     [("method/1", "StatisticalMethodShape", "cg:text: expected exactly 1, found 0")]),
    ("partial source tuple", "discourse_valid.ttl", "", ("Does smoking cause lung cancer?\" ;\n    cg:inPassage p:passage\\/1 ; cg:sourceSentence 1 ; cg:sourceReference 0 ; cg:sourceViewpoint 0 ;",
                                                         "Does smoking cause lung cancer?\" ;\n    cg:inPassage p:passage\\/1 ; cg:sourceSentence 1 ; cg:sourceReference 0 ;"),
     [("question/1", "ResearchQuestionShape", "cg:sourceViewpoint: expected exactly 1, found 0")]),
    ("negative source tuple", "discourse_valid.ttl", "", ("drives the risk.\" ;\n    cg:inPassage p:passage\\/1 ; cg:sourceSentence 1 ;",
                                                          "drives the risk.\" ;\n    cg:inPassage p:passage\\/1 ; cg:sourceSentence -1 ;"),
     [("hypothesis/1", "HypothesisShape", "cg:sourceSentence: -1 is below the minimum 0")]),
    ("sentence index 0", "discourse_valid.ttl", "", ("    cg:index 1 ;\n    cg:text \"Smoking", "    cg:index 0 ;\n    cg:text \"Smoking"),
     [("sentence/1", "SentenceShape", "cg:index: 0 is below the minimum 1")]),
    ("sentence in a missing passage", "discourse_valid.ttl", "p:sentence\\/1 cg:inPassage p:passage\\/9 .", "    cg:inPassage p:passage\\/1 ;\n",
     [("sentence/1", "SentenceShape",
       f"cg:inPassage <{NODE}passage/9>: not a valid PassageShape (rdf:type: expected exactly 1, found 0)")]),
    ("passage without paper", "discourse_valid.ttl", "",
     ("    dcterms:isPartOf <https://claimgraph.example/paper/p1> ;\n    cg:index 1 ;\n    rdfs:label", "    cg:index 1 ;\n    rdfs:label"),
     [("passage/1", "PassageShape", "dcterms:isPartOf: expected exactly 1, found 0"),
      ("sentence/1", "SentenceShape",
       f"cg:inPassage <{NODE}passage/1>: not a valid PassageShape (dcterms:isPartOf: expected exactly 1, found 0)")]),
    ("reference with index 0", "discourse_valid.ttl", "", ("    cg:index 1 .\n\np:viewpoint", "    cg:index 0 .\n\np:viewpoint"),
     [("reference/1", "ReferenceShape", "cg:index: 0 is below the minimum 1")]),
    ("viewpoint citing a sentence as reference", "discourse_valid.ttl", "p:viewpoint\\/1-1-1 cg:fromReference p:sentence\\/1 .",
     "    cg:fromReference p:reference\\/1 ;\n",
     [("viewpoint/1-1-1", "ViewpointShape",
       f"cg:fromReference <{NODE}sentence/1>: not a valid ReferenceRef (rdf:type: cg:Sentence is not one of the allowed values)")]),
    # an undeclared residual label is the residual_types rule's to report (tests/quality/test_gate.py); the shape wants a label
    ("paper with an empty residual", "discourse_valid.ttl", "<https://claimgraph.example/paper/p1> cg:residual \"\" .", "",
     [("https://claimgraph.example/paper/p1", "PaperShape", "cg:residual: text shorter than 1 character")]),
    ("annotation of an unknown edge property", "discourse_valid.ttl",
     "p:stmt\\/cea79ded7f7edb4d rdf:predicate cg:enables .", "    rdf:predicate cg:supports ;\n",
     [("stmt/cea79ded7f7edb4d", "EdgeAnnotationShape", "rdf:predicate: cg:enables is not one of the allowed values")]),
    ("annotation without confidence", "discourse_valid.ttl", "", "    cg:confidence 0.75 ;\n",
     [("stmt/cea79ded7f7edb4d", "EdgeAnnotationShape", "cg:confidence: expected exactly 1, found 0")]),
    ("annotation not typed rdf:Statement", "discourse_valid.ttl", "", (", rdf:Statement ;", " ;"),
     [("stmt/cea79ded7f7edb4d", "EdgeAnnotationShape", "rdf:type: expected exactly 2, found 1")]),
    ("node with two classes", "discourse_valid.ttl", "p:variable\\/1 a cg:Factor .", "",
     [("variable/1", "FactorShape", "rdf:type: expected exactly 1, found 2"),
      ("variable/1", "VariableShape", "rdf:type: expected exactly 1, found 2")]),
    ("class without a shape", "discourse_valid.ttl", "p:x a cg:Claimm ; cg:text \"x\" .", "",
     [("x", "", "rdf:type cg:Claimm: no shape for this class in profile discourse")]),
    ("reasoning node without source tuple", "peirce_valid.ttl", "",
     "    cg:sourceSentence 5 ; cg:sourceReference 0 ; cg:sourceViewpoint 1 ;\n",
     [("node/n5", "ReasoningNodeShape", "cg:sourceSentence: expected exactly 1, found 0")]),
    ("reasoning edge with an unknown label", "peirce_valid.ttl", "n:n1 cg:supports n:n3 .", "",
     [("node/n1", "ReasoningNodeShape", "cg:supports: not allowed on ReasoningNode (closed shape)")]),
    ("reasoning edge to a non-reasoning node", "peirce_valid.ttl", "n:n9 a cg:Factor ; cg:text \"x\" . n:n1 cg:deductionRule n:n9 .", "",
     [("node/n1", "ReasoningNodeShape",
       f"cg:deductionRule <{NODE}node/n9>: not a valid ReasoningNodeRef (rdf:type: cg:Factor is not one of the allowed values)")]),
    ("isRoot not a boolean", "peirce_valid.ttl", "", ("cg:isRoot true .", "cg:isRoot \"yes\" ."),
     [("node/n5", "ReasoningNodeShape", "cg:isRoot: expected xsd:boolean, found xsd:string")]),
]


@pytest.mark.parametrize(("fixture", "extra", "edit", "expected"), [case[1:] for case in FAILING], ids=[case[0] for case in FAILING])
def test_a_broken_node_fails_its_shape_with_an_exact_reason(
    fixture: str, extra: str, edit: str | tuple[str, str], expected: list[tuple[str, str, str]]
) -> None:
    profile = "peirce" if fixture.startswith("peirce") else "discourse"
    assert failures(validate(fixture, extra, edit, profile)) == expected


def test_every_shape_has_a_failing_case() -> None:
    failing_shapes = {shape for case in FAILING for _, shape, _ in case[4]}
    assert shape_names("peirce") - {"CanonicalNodeShape"} <= failing_shapes


def test_a_hostile_text_label_still_validates() -> None:
    hostile = '"} ; DROP ALL ; <x> { ?graph $x @:FactorShape \n\t\\ \x00 \u202e \u27e8\u27e9 \'\'\' """ '
    factor = NamedNode(NODE + "factor/x")
    store = EmbeddedStore(None)
    triples = list(parse((FIXTURES / "discourse_valid.ttl").read_text(encoding="utf-8"), format=RdfFormat.TURTLE))
    triples += [Triple(factor, RDF.type, CG.Factor), Triple(factor, CG.text, Literal(hostile))]
    store.replace_graph(GRAPH, triples)
    report = validate_graph(Context(store), GRAPH)
    assert report.conforms and report.nodes_validated == 17
    assert store.triples(GRAPH).count(Triple(factor, CG.text, Literal(hostile))) == 1
