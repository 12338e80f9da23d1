"""Aggressive merges across papers, and the role filter that keeps types apart (both store backends)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pyoxigraph import NamedNode

from claimgraph.canonical.canonicalizer import Canonicalizer, canonicalize_papers
from claimgraph.canonical.embeddings import HashingEmbedder
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.profile.manifest import load_profile
from claimgraph.profile.ontology import merge_policy
from claimgraph.quality.validation import validate_store
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG
from claimgraph.context import Context

LOW = CanonicalizeSettings(default_threshold=0.45)  # "smoking habit" vs "smoking habits" share one of two words


def load(store, iris, discourse_paper, paper_id, **parts) -> None:
    store.replace_graph(iris.paper(paper_id), discourse_paper(iris, paper_id, **parts))


def graphs_describing(store, node: NamedNode) -> set[str]:
    rows = store.select("SELECT ?g WHERE { GRAPH ?g { ?node a ?type } }", {"node": node})
    return {row["g"].value.rsplit("/", 1)[1] for row in rows}


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


def test_aggressive_merge_rewrites_every_incident_edge_and_annotation(two_papers, iris, tmp_path: Path) -> None:
    summary = canonicalize_papers(Context(two_papers, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    assert summary.merges == 1
    old, new = iris.node("b", "factor", "smoke"), iris.node("a", "factor", "smoking")
    leftovers = two_papers.select(
        "SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { { ?old ?p ?o BIND(?old AS ?s) } UNION { ?s ?p ?old BIND(?old AS ?o) } } "
        "FILTER(?p != ?mergedFrom) }", {"old": old, "mergedFrom": CG.mergedFrom})
    assert [row for row in leftovers if row["g"] != iris.audit_graph("b")] == []  # the audit trail names it, as it should
    edges = {(row["s"].value, row["p"].value) for row in two_papers.select(
        "SELECT ?s ?p WHERE { GRAPH ?g { ?s ?p ?new } }", {"g": iris.paper("b"), "new": new})}
    assert (iris.node("b", "association", "1").value, CG.arg0.value) in edges
    assert (iris.node("b", "claim", "1").value, CG.mentions.value) in edges
    report = validate_store(Context(two_papers, iris), workers=1)
    assert list(report.lines()) == [] and report.conforms  # includes annotation_sync: annotation IRIs re-derived


def test_merge_unions_provenance_and_is_listed_from_the_audit_graph(two_papers, iris, tmp_path: Path) -> None:
    canonicalize_papers(Context(two_papers, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    survivor, retired = iris.node("a", "factor", "smoking"), iris.node("b", "factor", "smoke")
    assert graphs_describing(two_papers, survivor) == {"a", "b"}
    assert graphs_describing(two_papers, retired) == set()
    assert two_papers.ask("ASK { GRAPH ?b { ?new ?mergedFrom ?old ; ?text ?t } }",
                          {"b": iris.paper("b"), "new": survivor, "mergedFrom": CG.mergedFrom, "old": retired, "text": CG.text})
    merges = two_papers.select(read_named_query("merges"))
    assert [(row["retired"].value, row["survivor"].value, row["paper"].value) for row in merges] == [
        (retired.value, survivor.value, iris.paper("b").value)]


def test_survivor_embedding_is_the_confidence_weighted_average(two_papers, iris, tmp_path: Path) -> None:
    embedder = HashingEmbedder()
    canonicalizer = Canonicalizer(Context(two_papers, iris), sidecar_dir=tmp_path / "side", embedder=embedder, settings=LOW)
    canonicalizer.canonicalize_paper("a")
    canonicalizer.canonicalize_paper("b")
    partition = canonicalizer.sidecar.partition("merge", CG.Factor.value)
    survivor = iris.node("a", "factor", "smoking").value
    a, b = embedder.embed(["smoking habit", "smoking habits"])
    np.testing.assert_allclose(partition.vector(survivor), (0.9 * a + 0.6 * b) / 1.5, atol=1e-6)
    assert partition.weight(survivor) == pytest.approx(1.5)
    assert iris.node("b", "factor", "smoke").value not in partition
    assert partition.search(b, 5)[0].iri == survivor  # the upserted vector is what later searches see


def test_the_higher_confidence_newcomer_survives_and_the_older_graph_is_rewritten(store, iris, discourse_paper, tmp_path: Path) -> None:
    load(store, iris, discourse_paper, "a", factors={"smoking": ("smoking habit", 0.3), "tar": ("tar", 0.9)}, associations=[("1", "smoking", "tar")])
    load(store, iris, discourse_paper, "b", factors={"smoke": ("smoking habits", 0.8), "x": ("x", 0.9)}, associations=[("1", "smoke", "x")])
    canonicalize_papers(Context(store, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    survivor = iris.node("b", "factor", "smoke")
    assert graphs_describing(store, survivor) == {"a", "b"}
    assert store.ask("ASK { GRAPH ?a { ?assoc ?arg0 ?survivor } }", {"a": iris.paper("a"), "arg0": CG.arg0, "survivor": survivor})
    assert validate_store(Context(store, iris), workers=1).conforms


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
    assert plan.merges == [] and plan.links == [] and plan.new_hubs == []
    vector = HashingEmbedder().embed(["smoking"])
    assert [hit.iri for hit in canonicalizer.sidecar.search("merge", CG.Variable.value, vector, 10)] == [iris.node("b", "factor", "s").value]
    assert [hit.iri for hit in canonicalizer.sidecar.search("merge", CG.Factor.value, vector, 10)] == [iris.node("a", "factor", "s").value]
    assert canonicalizer.sidecar.search("merge", CG.StudyDesign.value, vector, 10) == []
