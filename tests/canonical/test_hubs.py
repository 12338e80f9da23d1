"""Cautious types: CANON_ hubs and mentions on real ARCHE viewpoints with the real MiniLM model."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimgraph.canonical.canonicalizer import Canonicalizer, canonicalize_papers
from claimgraph.canonical.convergence import convergence
from claimgraph.canonical.embeddings import HashingEmbedder
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.quality.validation import validate_store
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG
from claimgraph.store import EmbeddedStore
from claimgraph.testing.pairset import arche_pairs, hub_membership, score_pairs
from claimgraph.papers.storage import store_document
from claimgraph.context import Context


@pytest.fixture(scope="module")
def canonicalized(canon_documents, minilm, tmp_path_factory: pytest.TempPathFactory):
    """The two ARCHE papers ingested and canonicalized with MiniLM (shared by the module: read-only)."""
    from claimgraph.rdf.iris import IriScheme

    iris, folder = IriScheme(), tmp_path_factory.mktemp("canon")
    store = EmbeddedStore(folder / "store")
    originals = {}
    for document in canon_documents:
        store_document(store, iris, document)
        originals[document.paper_id] = set(store.triples(iris.paper(document.paper_id)))
    summary = canonicalize_papers(Context(store, iris), [d.paper_id for d in canon_documents], sidecar_dir=folder / "side", embedder=minilm)
    yield store, iris, folder / "side", summary, originals
    store.close()


def test_repeated_viewpoints_mention_a_canon_hub_with_its_text_and_member_count(canonicalized) -> None:
    store, iris, _, summary, _ = canonicalized
    hubs = store.select(read_named_query("canonical-hubs"), {"canonical": iris.canonical_graph()})
    assert summary.hubs_created == len(hubs) > 10 and summary.links > 2 * len(hubs) - 1
    counted = {row["hub"].value: int(row["n"].value) for row in store.select(
        "SELECT ?hub (COUNT(DISTINCT ?m) AS ?n) WHERE { GRAPH ?g { ?m ?mentions ?hub } GRAPH ?c { ?hub a ?canon } } GROUP BY ?hub",
        {"mentions": CG.mentions, "c": iris.canonical_graph(), "canon": CG.CanonicalNode})}
    for row in hubs:
        assert row["hub"].value.rsplit("/", 1)[1].startswith("CANON_Viewpoint_")
        assert row["type"] == CG.Viewpoint and row["text"].value
        assert int(row["members"].value) == counted[row["hub"].value] >= 2


def test_originals_keep_their_text_citations_and_the_graphs_validate(canonicalized) -> None:
    store, iris, _, _, originals = canonicalized
    for paper_id, triples in originals.items():
        assert triples <= set(store.triples(iris.paper(paper_id)))  # nothing of the paper removed or rewritten
    report = validate_store(Context(store, iris), workers=1)
    assert list(report.lines()) == [] and iris.canonical_graph() in [graph.graph for graph in report.graphs]


def test_merge_precision_and_recall_on_the_arche_pair_set(canonicalized, canon_documents) -> None:
    store, iris, *_ = canonicalized
    pairs = arche_pairs(canon_documents, iris)
    scores = score_pairs(pairs, hub_membership(store, iris))
    assert scores.positives >= 50 and scores.negatives >= 100
    assert scores.recall >= 0.95 and scores.precision >= 0.9, scores


def test_convergence_is_computed_from_the_store(canonicalized) -> None:
    store, iris, _, summary, _ = canonicalized
    result = convergence(Context(store, iris))
    assert result.papers == result.canonicalized == 2
    assert result.by_type["hubs"] == {"Viewpoint": summary.hubs_created}
    assert result.by_type["attached to a hub"] == {"Viewpoint": summary.links}
    assert result.total("merged") == 0 and result.components == 2  # no viewpoint text is shared by these two papers


def test_a_distant_node_starts_its_own_cluster_and_a_close_one_joins_it(store, iris, discourse_paper, minilm, tmp_path: Path) -> None:
    settings = CanonicalizeSettings(thresholds={"Claim": 0.8})
    store.replace_graph(iris.paper("a"), discourse_paper(iris, "a", {}, claims=[("1", "Mitochondria produce most cellular ATP.", None)]))
    store.replace_graph(iris.paper("b"), discourse_paper(iris, "b", {}, claims=[("1", "Glaciers in the Alps are retreating quickly.", None)]))
    store.replace_graph(iris.paper("c"), discourse_paper(iris, "c", {}, claims=[("1", "Most ATP in cells is produced by mitochondria.", None)]))
    canonicalizer = Canonicalizer(Context(store, iris), sidecar_dir=tmp_path / "side", embedder=minilm, settings=settings)
    first, distant, close = (canonicalizer.canonicalize_paper(paper) for paper in "abc")
    assert (first.unattached, distant.unattached) == (1, 1) and not first.new_hubs and not distant.new_hubs
    assert len(close.new_hubs) == 1 and close.new_hubs[0].text == "Most ATP in cells is produced by mitochondria."
    assert {link.node for link in close.links} == {iris.node("a", "claim", "1"), iris.node("c", "claim", "1")}
    assert close.links[1].similarity >= 0.8
    assert canonicalizer.sidecar.has("pending", CG.Claim.value, iris.node("b", "claim", "1").value)


def test_ingesting_the_same_paper_again_creates_no_new_hubs_or_merges(canon_documents, iris, discourse_paper, minilm, tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "store")
    low = CanonicalizeSettings(default_threshold=0.45, thresholds={"Viewpoint": 0.95})
    store_document(store, iris, canon_documents[0])
    store.replace_graph(iris.paper("a"), discourse_paper(iris, "a", {"s": ("smoking habit", 0.9)}))
    store.replace_graph(iris.paper("b"), discourse_paper(iris, "b", {"s": ("smoking habits", 0.5)}))
    papers = [canon_documents[0].paper_id, "a", "b"]
    first = canonicalize_papers(Context(store, iris), papers, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=low)
    before = convergence(Context(store, iris))
    store_document(store, iris, canon_documents[0])  # ingest again: fresh graph and audit trail
    store.replace_graph(iris.paper("b"), discourse_paper(iris, "b", {"s": ("smoking habits", 0.5)}))
    store.drop_graphs([iris.audit_graph("b")])
    again = canonicalize_papers(Context(store, iris), papers, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=low)
    after = convergence(Context(store, iris))
    assert first.merges == 1 and first.hubs_created > 0
    assert again.hubs_created == 0 and again.rebuilt.startswith("stale")
    assert after.rows() == before.rows()
    assert again.embedded == 0  # unchanged texts are not embedded again
    assert again.skipped == ["a"]
    store.close()


def test_a_sidecar_of_another_embedder_is_rebuilt_and_hub_members_are_not_pending(canonicalized) -> None:
    store, iris, side, *_ = canonicalized
    reopened = Canonicalizer(Context(store, iris), sidecar_dir=side, embedder=HashingEmbedder(384))
    assert reopened.summary.rebuilt is not None  # another embedder: the saved sidecar is not used
    linked = {row["node"].value for row in store.select(
        "SELECT ?node WHERE { GRAPH ?g { ?node ?mentions ?hub } }", {"mentions": CG.mentions})}
    pending = reopened.sidecar.partitions.get(f"pending {CG.Viewpoint.value}")
    assert pending is not None and not linked & {iri for iri, *_ in pending.live_items()}


def test_reindex_recounts_hub_members_from_the_store(canon_documents, tmp_path: Path) -> None:
    from claimgraph.canonical.canonicalizer import reindex
    from claimgraph.rdf.iris import IriScheme

    iris, store = IriScheme(), EmbeddedStore(tmp_path / "store")
    for document in canon_documents:
        store_document(store, iris, document)
    embedder = HashingEmbedder(256)
    canonicalize_papers(Context(store, iris), [d.paper_id for d in canon_documents], sidecar_dir=tmp_path / "side", embedder=embedder)
    query = read_named_query("canonical-hubs")
    before = {row["hub"].value: row["members"].value for row in store.select(query, {"canonical": iris.canonical_graph()})}
    assert before
    store.update("DELETE { GRAPH ?c { ?h ?count ?n } } INSERT { GRAPH ?c { ?h ?count 99 } } WHERE { GRAPH ?c { ?h ?count ?n } }",
                 {"c": iris.canonical_graph(), "count": CG.memberCount})
    reindex(Context(store, iris), sidecar_dir=tmp_path / "side", embedder=embedder)
    after = {row["hub"].value: row["members"].value for row in store.select(query, {"canonical": iris.canonical_graph()})}
    assert after == before
