"""Source grounding audit: token F1 and containment against the cited span, implicit and unresolved nodes apart, the audit graph."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.context import Context
from claimgraph.errors import ProfileError
from claimgraph.loaders import Document
from claimgraph.loaders.document import Passage, Reference, Sentence, Viewpoint
from claimgraph.papers.document_graph import document_triples, source_tuple_triples
from claimgraph.profile.manifest import load_profile
from claimgraph.quality.grounding import (
    IMPLICIT,
    SCORED,
    UNRESOLVED,
    GroundingSettings,
    audit_paper,
    fold,
    ground_paper,
    grounding_settings,
    overlap_scores,
    roc_auc,
)
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG, RDF
from claimgraph.store import EmbeddedStore
from claimgraph.testing.reasoning_cases.graphs import grow_graph, paper_viewpoints

SENTENCES = [
    "Capillary ripples travel along the interface between water and air at speeds set by surface tension.",
    "Surfactant films released by ships damp these ripples and leave a smooth wake.",
    "We measured ripple damping in a wave tank with three surfactant concentrations.",
]


def small_document() -> Document:
    document = Document(paper_id="p-ground", source="p-ground.json", format="arche")
    passage = Passage(index=1, heading="Introduction")
    passage.sentences = [Sentence(index=i, text=text, passage_index=1) for i, text in enumerate(SENTENCES, start=1)]
    document.passages.append(passage)
    document.references[4] = Reference(number=4, cited_by=[2])
    document.viewpoints = [Viewpoint("Oil slicks suppress short gravity-capillary waves on the sea.", 2, 4, 1)]
    return document


def reasoning_node(iris: IriScheme, paper_id: str, local: str, text: str, source: tuple[int, int, int]) -> list[Triple]:
    node = iris.extracted_node(paper_id, local)
    return [Triple(node, RDF.type, CG.ReasoningNode), Triple(node, CG.text, Literal(text)), *source_tuple_triples(node, source)]


@pytest.fixture
def ctx(tmp_path: Path) -> Context:
    return Context(EmbeddedStore(tmp_path / "store"), IriScheme(), load_profile("peirce"))


def store_paper(ctx: Context, nodes: list[tuple[str, str, tuple[int, int, int]]]) -> str:
    document = small_document()
    triples = list(document_triples(document, ctx.iris))
    for local, text, source in nodes:
        triples += reasoning_node(ctx.iris, document.paper_id, local, text, source)
    ctx.store.replace_graph(ctx.iris.paper(document.paper_id), triples)
    return document.paper_id


NODES = [
    ("paraphrase", "Surface tension sets the speed at which capillary ripples travel along the water-air interface.", (1, 0, 1)),
    ("wrong", "Surface tension sets the speed at which capillary ripples travel along the water-air interface.", (3, 0, 1)),
    ("implicit", "Damping of ripples reveals surfactant films.", (0, 0, 0)),
    ("missing", "Ripples are damped by films.", (99, 0, 0)),
    ("cited", "Oil slicks suppress short waves on the sea surface.", (2, 4, 1)),
]


def test_overlap_scores_compare_content_words() -> None:
    assert overlap_scores("ripples damp waves", "Ripples damp the waves.") == (1.0, 1.0)
    f1, containment = overlap_scores("ripples damp", "Surfactant films damp ripples behind ships in calm water.")
    assert containment == 1.0 and 0.0 < f1 < 0.6
    assert overlap_scores("surface tension", "The budget of a large telescope.") == (0.0, 0.0)
    assert overlap_scores("of the and", "of the and") == (0.0, 0.0)


def test_the_span_longer_than_the_node_lets_f1_win_over_containment() -> None:
    f1, containment = overlap_scores("ripples damp quickly near ships at dawn in winter", "ripples damp")
    assert f1 > containment


@pytest.mark.parametrize(("word", "folded"), [("studies", "study"), ("waves", "wave"), ("mass", "mass"), ("analysis", "analysis"), ("virus", "virus")])
def test_plural_folding_is_light(word: str, folded: str) -> None:
    assert fold(word) == folded


def test_audit_scores_anchored_nodes_and_sets_implicit_and_unresolved_apart(ctx: Context) -> None:
    paper_id = store_paper(ctx, NODES)
    audit = audit_paper(ctx, paper_id, GroundingSettings(threshold=0.5))
    status = {node.node.value.rsplit("/", 1)[-1]: node for node in audit.nodes}
    assert status["paraphrase"].status == SCORED and status["paraphrase"].score >= 0.8
    assert status["wrong"].status == SCORED and status["wrong"].score < 0.3
    assert status["implicit"].status == IMPLICIT
    assert status["missing"].status == UNRESOLVED and status["missing"].score == 0.0
    assert status["cited"].status == SCORED and status["cited"].score >= 0.5
    assert {node.node.value.rsplit("/", 1)[-1] for node in audit.below} == {"wrong", "missing"}
    measures = audit.measures()
    assert (measures["grounding_nodes"], measures["grounding_scored"], measures["grounding_implicit"], measures["grounding_unresolved"]) == (5, 3, 1, 1)
    assert measures["grounding_below_threshold"] == 2 and measures["grounding_share_permille"] == 500


def test_the_cited_reference_viewpoint_is_part_of_the_span(ctx: Context) -> None:
    paper_id = store_paper(ctx, [("cited", "Oil slicks suppress short waves on the sea surface.", (2, 4, 1)),
                                 ("own", "Oil slicks suppress short waves on the sea surface.", (2, 0, 1))])
    audit = audit_paper(ctx, paper_id)
    cited, own = (audit.node(ctx.iris.extracted_node(paper_id, local)) for local in ("cited", "own"))
    assert cited is not None and own is not None
    assert cited.score > own.score
    assert len(cited.spans) == 2 and len(own.spans) == 1


def test_a_paper_passes_when_most_anchored_nodes_are_grounded_and_few_are_implicit(ctx: Context) -> None:
    paper_id = store_paper(ctx, NODES)
    assert audit_paper(ctx, paper_id, GroundingSettings(0.5, min_grounded_share=0.5, max_implicit_share=0.25)).passed
    assert not audit_paper(ctx, paper_id, GroundingSettings(0.5, min_grounded_share=0.6)).passed
    assert not audit_paper(ctx, paper_id, GroundingSettings(0.5, max_implicit_share=0.1)).passed


def test_ground_paper_records_an_activity_and_a_score_per_node_that_the_shipped_query_reads(ctx: Context) -> None:
    paper_id = store_paper(ctx, NODES)
    ground_paper(ctx, paper_id, GroundingSettings(threshold=0.5))
    rows = ctx.store.select(read_named_query("grounding-scores"), {"paper": ctx.iris.paper(paper_id)})
    by_node = {row["node"].value.rsplit("/", 1)[-1]: row for row in rows}
    assert set(by_node) == {local for local, _, _ in NODES}
    assert by_node["wrong"]["below"].value == "true" and by_node["paraphrase"]["below"].value == "false"
    assert "value" not in by_node["implicit"] and by_node["implicit"]["status"].value == IMPLICIT
    ground_paper(ctx, paper_id, GroundingSettings(threshold=0.0))
    rows = ctx.store.select(read_named_query("grounding-scores"), {"paper": ctx.iris.paper(paper_id)})
    assert len(rows) == len(NODES) and {row["below"].value for row in rows if "below" in row} == {"false"}


def test_scaffolding_and_structure_nodes_are_not_audited(ctx: Context) -> None:
    paper_id = store_paper(ctx, NODES[:1])
    scaffold = NamedNode(ctx.iris.paper(paper_id).value + "/scaffold/root")
    ctx.store.insert({ctx.iris.paper(paper_id): [Triple(scaffold, RDF.type, CG.ReasoningNode), Triple(scaffold, CG.text, Literal("aggregation")),
                                                 Triple(scaffold, CG.isScaffolding, Literal(True))]})
    assert [node.node.value.rsplit("/", 1)[-1] for node in audit_paper(ctx, paper_id).nodes] == ["paraphrase"]


def test_the_profile_threshold_is_read_and_checked(tmp_path: Path) -> None:
    profile = load_profile("peirce")
    assert grounding_settings(profile).threshold == pytest.approx(0.6)
    text = profile.manifest.read_text(encoding="utf-8")
    manifest = tmp_path / "peirce.toml"
    manifest.write_text(f"{text}\n[grounding]\nthreshold = 0.45\n" if "[grounding]" not in text else text, encoding="utf-8")
    if "[grounding]" not in text:
        assert grounding_settings(replace(profile, manifest=manifest)).threshold == pytest.approx(0.45)
    manifest.write_text(text.replace("[grounding]", "[grounding]\nthreshold = 1.5", 1) if "[grounding]" in text else f"{text}\n[grounding]\nthreshold = 1.5\n",
                        encoding="utf-8")
    with pytest.raises(ProfileError, match=r"threshold must be a number from 0 to 1"):
        grounding_settings(replace(profile, manifest=manifest))


def test_roc_auc_counts_ties_half() -> None:
    assert roc_auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert roc_auc([0.1], [0.9]) == 0.0
    assert roc_auc([0.5, 0.5], [0.5]) == 0.5
    assert roc_auc([0.9, 0.4], [0.5, 0.1]) == 0.75


def test_real_anchors_score_above_shuffled_anchors_on_an_arche_paper(tmp_path: Path, arche_documents: list[Document]) -> None:
    """A clean reasoning graph over a real paper's own viewpoints: each node against its own sentence, then against another's."""
    document = max(arche_documents, key=lambda doc: len(doc.viewpoints))
    viewpoints = [(text, source) for text, source in paper_viewpoints(document) if source[1] == 0]
    graph = grow_graph(random.Random(3), viewpoints, min(20, len(viewpoints)))
    sentences = sorted({node.source[0] for node in graph.nodes})
    rng = random.Random(5)
    shuffled = {node.id: (rng.choice([x for x in range(1, len(document.sentences) + 1) if x != node.source[0]]), 0, 0) for node in graph.nodes}
    scores = {}
    for name, sources in (("real", {node.id: node.source for node in graph.nodes}), ("shuffled", shuffled)):
        ctx = Context(EmbeddedStore(tmp_path / name), IriScheme(), load_profile("peirce"))
        triples = list(document_triples(document, ctx.iris))
        for node in graph.nodes:
            triples += reasoning_node(ctx.iris, document.paper_id, node.id, node.text, sources[node.id])
        ctx.store.replace_graph(ctx.iris.paper(document.paper_id), triples)
        scores[name] = [node.score for node in audit_paper(ctx, document.paper_id).nodes]
    assert len(sentences) > 1
    assert roc_auc(scores["real"], scores["shuffled"]) > 0.85
