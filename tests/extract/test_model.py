"""The RDF form of an extraction: every extracted statement carries its passage, source tuple and derivation, which
the shapes require; dangling names survive in their IRIs."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from pyoxigraph import NamedNode

from claimgraph.context import Context
from claimgraph.extract.model import Node, PaperExtraction, dangling_iri, dangling_name, extraction_triples
from claimgraph.loaders.formats.text import build_document
from claimgraph.profile.manifest import load_profile
from claimgraph.quality.validation import validate_graph
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, PROV
from claimgraph.store import EmbeddedStore

IRIS = IriScheme()
PROFILE = load_profile("discourse")
DOCUMENT = build_document(Path("moss.md"), "markdown", [("Results", ["Shade slowed moss. Light limits moss. Does light limit moss?"])])
FIELDS = {
    "passage": (CG.inPassage,),
    "source tuple": (CG.sourceSentence, CG.sourceReference, CG.sourceViewpoint),
    "derivation": (PROV.wasDerivedFrom,),
}
REASONS = {
    "passage": "cg:inPassage: expected exactly 1, found 0",
    "source tuple": "cg:sourceSentence: expected exactly 1, found 0",
    "derivation": "prov:wasDerivedFrom: expected at least 1, found 0",
}


def extraction() -> PaperExtraction:
    nodes = [Node("E1", "Evidence", "Shaded moss grew less", 1, 1, Decimal("0.8")),
             Node("E2", "Claim", "Light limits moss growth", 1, 2, Decimal("0.7")),
             Node("E3", "Hypothesis", "Light is the limit", 1, None, Decimal("0.6")),  # no sentence: anchored to the passage
             Node("E4", "ResearchQuestion", "Does light limit moss?", 1, 3, Decimal("0.9"))]
    return PaperExtraction(DOCUMENT, {(node.passage, node.id): node for node in nodes})


def failures(triples: list) -> list[tuple[str, str]]:
    store = EmbeddedStore(None)
    graph = IRIS.paper(DOCUMENT.paper_id)
    store.replace_graph(graph, triples)
    report = validate_graph(Context(store, IRIS, PROFILE), graph)
    return sorted((result.focus.value.rsplit("/", 1)[1], result.reason) for result in report.failures)


def test_extracted_statements_carry_every_required_field_and_validate() -> None:
    triples = list(extraction_triples(extraction(), IRIS, PROFILE))
    assert failures(triples) == []
    hypothesis = IRIS.extracted_node(DOCUMENT.paper_id, "p1-E3")
    derived = {t.object for t in triples if t.subject == hypothesis and t.predicate == PROV.wasDerivedFrom}
    assert derived == {IRIS.node(DOCUMENT.paper_id, "passage", "1")}


@pytest.mark.parametrize("kind", ["Evidence", "Claim", "Hypothesis"])
@pytest.mark.parametrize("field", list(FIELDS))
def test_a_statement_missing_a_required_field_fails_its_shape(kind: str, field: str) -> None:
    node = next(n for n in extraction().nodes.values() if n.type == kind)
    subject = IRIS.extracted_node(DOCUMENT.paper_id, f"p1-{node.id}")
    triples = [t for t in extraction_triples(extraction(), IRIS, PROFILE) if not (t.subject == subject and t.predicate in FIELDS[field])]
    assert failures(triples) == [(f"p1-{node.id}", REASONS[field])]


def test_a_claim_with_only_a_type_and_a_text_fails_until_each_field_is_there() -> None:
    from pyoxigraph import Literal, Triple

    from claimgraph.papers.document_graph import document_triples, source_tuple_triples
    from claimgraph.rdf.vocab import RDF

    bare = NamedNode(IRIS.paper(DOCUMENT.paper_id).value + "/node/bare")
    passage = IRIS.node(DOCUMENT.paper_id, "passage", "1")
    triples = [*document_triples(DOCUMENT, IRIS), Triple(bare, RDF.type, CG.Claim), Triple(bare, CG.text, Literal("A claim"))]
    assert failures(triples) == [("bare", REASONS["passage"])]
    triples.append(Triple(bare, CG.inPassage, passage))
    assert failures(triples) == [("bare", REASONS["source tuple"])]
    triples.extend(source_tuple_triples(bare, (0, 0, 0)))
    assert failures(triples) == [("bare", REASONS["derivation"])]
    triples.append(Triple(bare, PROV.wasDerivedFrom, passage))
    assert failures(triples) == []


@pytest.mark.parametrize("name", ["Trotsky", "the \"dark\" kind / of moss", "ü 中文 🧪 #?&", "x" * 500])
def test_a_dangling_name_survives_in_its_iri(name: str) -> None:
    iri = dangling_iri(IRIS, "paper-a", 3, name)
    passage, recovered = dangling_name(IRIS, "paper-a", iri)  # type: ignore[misc]
    assert passage == 3
    assert recovered == name if len(name) < 100 else recovered.startswith("h-")
    assert dangling_name(IRIS, "paper-a", IRIS.node("paper-a", "sentence", "1")) is None
