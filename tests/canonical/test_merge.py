"""Aggressive merges across papers are links in the canonical graph; paper graphs stay as they were (both backends)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pyoxigraph import Literal, NamedNode

from claimgraph.canonical.canonicalizer import Canonicalizer, canonicalize_papers
from claimgraph.canonical.links.writes import SKOS
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.context import Context
from claimgraph.embedding.embedders import HashingEmbedder
from claimgraph.profile.manifest import load_profile
from claimgraph.profile.ontology import merge_policy
from claimgraph.quality.validation import validate_store
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG, RDF, XSD

LOW = CanonicalizeSettings(default_threshold=0.45)  # "smoking habit" vs "smoking habits" share one of two words


def load(store, iris, discourse_paper, paper_id, **parts) -> None:
    store.replace_graph(iris.paper(paper_id), discourse_paper(iris, paper_id, **parts))


def canonical_of(store, iris, node: NamedNode) -> str | None:
    rows = store.select("SELECT ?c WHERE { GRAPH ?g { ?node ?match ?c } }",
                        {"g": iris.canonical_graph(), "node": node, "match": SKOS.exactMatch})
    return rows[0]["c"].value if rows else None


@pytest.fixture
def two_papers(store, iris, discourse_paper):
    """Paper a: factor "smoking habit" (0.9); paper b: "smoking habits" (0.6) with an association and a claim on it."""
    load(store, iris, discourse_paper, "a", factors={"smoking": ("smoking habit", 0.9), "tar": ("tar", 0.9)},
         associations=[("1", "smoking", "tar")])
    load(store, iris, discourse_paper, "b", factors={"smoke": ("smoking habits", 0.6), "cancer": ("lung cancer", 0.7)},
         associations=[("1", "smoke", "cancer")], claims=[("1", "smokers get cancer", "smoke")])
    return store


def test_merge_policy_comes_from_the_ontology_annotations(two_papers, iris, tmp_path: Path) -> None:
    canonicalizer = Canonicalizer(Context(two_papers, iris), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    assert canonicalizer.policies == merge_policy(load_profile("discourse"))
    assert canonicalizer.policies[CG.Factor.value] == "aggressive" and canonicalizer.policies[CG.Claim.value] == "cautious"


def test_a_merge_leaves_every_paper_graph_exactly_as_it_was(two_papers, iris, tmp_path: Path) -> None:
    before = {paper: set(two_papers.triples(iris.paper(paper))) for paper in "ab"}
    summary = canonicalize_papers(Context(two_papers, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    assert summary.merges == 2  # both factors are members of one CANON_ node
    assert {paper: set(two_papers.triples(iris.paper(paper))) for paper in "ab"} == before
    smoking, smoke = iris.node("a", "factor", "smoking"), iris.node("b", "factor", "smoke")
    assert canonical_of(two_papers, iris, smoking) == canonical_of(two_papers, iris, smoke) is not None
    report = validate_store(Context(two_papers, iris), workers=1)
    assert list(report.lines()) == [] and report.conforms


def test_merges_are_listed_with_their_paper_and_similarity(two_papers, iris, tmp_path: Path) -> None:
    canonicalize_papers(Context(two_papers, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    merges = two_papers.select(read_named_query("merges"))
    assert [(row["member"].value, row["paper"].value, row["text"].value) for row in merges] == [
        (iris.node("a", "factor", "smoking").value, iris.paper("a").value, "smoking habit"),
        (iris.node("b", "factor", "smoke").value, iris.paper("b").value, "smoking habits")]
    assert len({row["canonical"].value for row in merges}) == 1
    similarities = sorted(float(row["similarity"].value) for row in merges)
    assert similarities[1] == 1.0 and 0.45 <= similarities[0] < 1.0  # the founder, then the newcomer's cosine
    assert all(len(row["similarity"].value.partition(".")[2]) <= 3 for row in merges)  # one precision: three decimals


def test_the_merged_view_joins_both_papers_at_the_canonical_node(two_papers, iris, tmp_path: Path) -> None:
    canonicalize_papers(Context(two_papers, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    canonical = NamedNode(canonical_of(two_papers, iris, iris.node("a", "factor", "smoking")))
    view = list(two_papers.query(read_named_query("merged-view")))
    arg0 = {triple.subject for triple in view if triple.predicate == CG.arg0 and triple.object == canonical}
    assert arg0 == {iris.node("a", "association", "1"), iris.node("b", "association", "1")}
    assert not [triple for triple in view if iris.node("b", "factor", "smoke") in (triple.subject, triple.object)]


def _merged_nodes(store, iris, bindings: dict | None = None) -> set[NamedNode]:
    """The factor nodes of papers a and b that the merged view replaced by a CANON_ node."""
    view = {triple.subject for triple in store.query(read_named_query("merged-view"), bindings or {})}
    return {node for node in (iris.node("a", "factor", "smoking"), iris.node("b", "factor", "smoke")) if node not in view}


def test_the_merged_view_without_candidates_replaces_only_nodes_merged_by_a_verdict(two_papers, iris, tmp_path: Path) -> None:
    canonicalize_papers(Context(two_papers, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    founder, joined = iris.node("b", "factor", "smoke"), iris.node("a", "factor", "smoking")  # b founded the hub with a's pending node
    assert _merged_nodes(two_papers, iris) == {founder, joined}
    assert _merged_nodes(two_papers, iris, {"withCandidates": Literal("true", datatype=XSD.boolean)}) == {founder, joined}
    without = {"withCandidates": Literal("false", datatype=XSD.boolean)}
    assert _merged_nodes(two_papers, iris, without) == {founder}  # a's merge is by similarity alone: a keeps its IRI
    two_papers.update("DELETE { GRAPH ?g { ?a ?basis ?old } } INSERT { GRAPH ?g { ?a ?basis ?judged } } "
                      "WHERE { GRAPH ?g { ?a ?subject ?node ; ?basis ?old } }",
                      {"g": iris.canonical_graph(), "subject": RDF.subject, "node": joined, "basis": CG.linkBasis, "judged": CG.judged})
    assert _merged_nodes(two_papers, iris, without) == {founder, joined}
    two_papers.update("DELETE { GRAPH ?g { ?a ?basis ?any } } WHERE { GRAPH ?g { ?a ?basis ?any } }", {"g": iris.canonical_graph(), "basis": CG.linkBasis})
    assert _merged_nodes(two_papers, iris, without) == set()  # a merge with no recorded basis is no verdict either


def test_a_hub_vector_is_its_founders_and_never_drifts(two_papers, iris, tmp_path: Path) -> None:
    embedder = HashingEmbedder()
    canonicalizer = Canonicalizer(Context(two_papers, iris), sidecar_dir=tmp_path / "side", embedder=embedder, settings=LOW)
    canonicalizer.canonicalize_paper("a")
    canonicalizer.canonicalize_paper("b")
    partition = canonicalizer.sidecar.partition("hub", CG.Factor.value)
    (hub, vector, graphs), = partition.live_items()
    np.testing.assert_allclose(vector, embedder.embed(["smoking habits"])[0], atol=1e-6)  # b founded it with a's pending node
    assert graphs == (iris.paper("a").value, iris.paper("b").value)
    assert iris.node("a", "factor", "smoking").value not in canonicalizer.sidecar.partition("pending", CG.Factor.value)


def test_nodes_of_one_paper_never_merge_with_each_other(store, iris, discourse_paper, tmp_path: Path) -> None:
    load(store, iris, discourse_paper, "a", factors={"s": ("smoking habit", 0.9), "t": ("smoking habits", 0.9)})
    summary = canonicalize_papers(Context(store, iris), ["a"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    assert summary.merges == 0 and summary.unattached == 2


def test_cross_type_candidates_are_impossible(store, iris, discourse_paper, tmp_path: Path) -> None:
    """Identical texts of different types never merge or share a hub: the partition is the type."""
    load(store, iris, discourse_paper, "a", factors={"s": ("smoking", 0.9)}, claims=[("1", "smoking is bad", None)])
    load(store, iris, discourse_paper, "b", factors={"s": ("smoking", 0.9)}, types={"s": "Variable"},
         claims=[("1", "smoking is bad", None)])
    store.update("DELETE { GRAPH ?b { ?c a ?claim } } INSERT { GRAPH ?b { ?c a ?hypothesis } } WHERE { GRAPH ?b { ?c a ?claim } }",
                 {"b": iris.paper("b"), "c": iris.node("b", "claim", "1"), "claim": CG.Claim, "hypothesis": CG.Hypothesis})
    canonicalizer = Canonicalizer(Context(store, iris), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder())
    canonicalizer.canonicalize_paper("a")
    plan = canonicalizer.canonicalize_paper("b")
    assert plan.links == [] and plan.new_hubs == []
    vector = HashingEmbedder().embed(["smoking"])
    assert [hit.iri for hit in canonicalizer.sidecar.search("pending", CG.Variable.value, vector, 10)] == [iris.node("b", "factor", "s").value]
    assert [hit.iri for hit in canonicalizer.sidecar.search("pending", CG.Factor.value, vector, 10)] == [iris.node("a", "factor", "s").value]
    assert canonicalizer.sidecar.search("pending", CG.StudyDesign.value, vector, 10) == []
