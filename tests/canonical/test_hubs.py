"""Cautious types: CANON_ hubs in the canonical graph, on real ARCHE viewpoints with the real MiniLM model,
and on the generated ARCHE-format corpus with the hashing embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimgraph.canonical.canonicalizer import Canonicalizer, canonicalize_papers
from claimgraph.canonical.convergence import convergence
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.context import Context
from claimgraph.embedding.embedders import HashingEmbedder
from claimgraph.papers.storage import store_document
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG
from claimgraph.store import EmbeddedStore
from claimgraph.testing.pairset import arche_pairs, hub_membership, score_pairs


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
        "SELECT ?hub (COUNT(DISTINCT ?m) AS ?n) WHERE { GRAPH ?c { ?m ?mentions ?hub . ?hub a ?canon } } GROUP BY ?hub",
        {"mentions": CG.mentions, "c": iris.canonical_graph(), "canon": CG.CanonicalNode})}
    for row in hubs:
        assert row["hub"].value.rsplit("/", 1)[1].startswith("CANON_Viewpoint_")
        assert row["type"] == CG.Viewpoint and row["text"].value
        assert int(row["members"].value) == counted[row["hub"].value] >= 2


def test_paper_graphs_are_not_touched_and_the_store_validates(canonicalized, shapes_and_rules_hold) -> None:
    store, iris, _, _, originals = canonicalized
    for paper_id, triples in originals.items():
        assert set(store.triples(iris.paper(paper_id))) == triples  # canonicalization writes the canonical graph only
    assert shapes_and_rules_hold(store, iris)


def test_most_repeated_texts_are_placed_without_an_ann_search(canonicalized) -> None:
    _, _, _, summary, _ = canonicalized
    assert summary.exact > summary.links // 3


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


def test_guards_keep_a_negated_claim_out_of_the_hub_cosine_would_put_it_in(store, iris, discourse_paper, minilm, tmp_path: Path) -> None:
    texts = {"a": "Warming speeds up soil respiration", "b": "Soil respiration is sped up by warming",
             "c": "Warming does not speed up soil respiration", "d": "Warming slows down soil respiration"}
    for paper, text in texts.items():
        store.replace_graph(iris.paper(paper), discourse_paper(iris, paper, {}, claims=[("1", text, None)]))
    settings = CanonicalizeSettings(thresholds={"Claim": 0.94})
    cosines = minilm.embed([texts["b"], texts["c"], texts["d"]]) @ minilm.embed([texts["a"]])[0]
    assert min(cosines) >= 0.94 and cosines[0] < max(cosines[1:])  # the paraphrase is not even the closest
    canonicalizer = Canonicalizer(Context(store, iris), sidecar_dir=tmp_path / "side", embedder=minilm, settings=settings)
    plans = {paper: canonicalizer.canonicalize_paper(paper) for paper in "acdb"}  # a waits; c and d meet it first
    hub_of = {link.node.value: link.hub for plan in plans.values() for link in plan.links}
    assert hub_of[iris.node("a", "claim", "1").value] == hub_of[iris.node("b", "claim", "1").value]
    assert iris.node("c", "claim", "1").value not in hub_of and iris.node("d", "claim", "1").value not in hub_of
    assert plans["c"].guard_vetoes >= 1 and plans["d"].guard_vetoes >= 1


def test_a_distant_node_starts_its_own_cluster_and_a_close_one_joins_it(store, iris, discourse_paper, minilm, tmp_path: Path) -> None:
    settings = CanonicalizeSettings(thresholds={"Claim": 0.8})
    store.replace_graph(iris.paper("a"), discourse_paper(iris, "a", {}, claims=[("1", "Mitochondria produce most cellular ATP.", None)]))
    store.replace_graph(iris.paper("b"), discourse_paper(iris, "b", {}, claims=[("1", "Glaciers in the Alps are retreating quickly.", None)]))
    store.replace_graph(iris.paper("c"), discourse_paper(iris, "c", {}, claims=[("1", "Most cellular ATP is produced by mitochondria.", None)]))
    canonicalizer = Canonicalizer(Context(store, iris), sidecar_dir=tmp_path / "side", embedder=minilm, settings=settings)
    first, distant, close = (canonicalizer.canonicalize_paper(paper) for paper in "abc")
    assert (first.unattached, distant.unattached) == (1, 1) and not first.new_hubs and not distant.new_hubs
    assert len(close.new_hubs) == 1 and close.new_hubs[0].text == "Most cellular ATP is produced by mitochondria."
    assert {link.node for link in close.links} == {iris.node("a", "claim", "1"), iris.node("c", "claim", "1")}
    assert close.links[1].similarity >= 0.8
    assert canonicalizer.sidecar.has("pending", CG.Claim.value, iris.node("b", "claim", "1").value)


def test_two_claims_of_one_paper_share_a_hub_by_cosine_only_where_the_profile_allows_it(
        store, iris, discourse_paper, minilm, tmp_path: Path) -> None:
    restated = [("1", "Most cellular ATP is produced by mitochondria.", None), ("2", "Mitochondria produce most cellular ATP.", None)]
    store.replace_graph(iris.paper("a"), discourse_paper(iris, "a", {}, claims=restated))
    store.replace_graph(iris.paper("b"), discourse_paper(iris, "b", {}, claims=[("1", "Mitochondria make most cellular ATP.", None)]))
    apart = Canonicalizer(Context(store, iris), sidecar_dir=tmp_path / "apart", embedder=minilm,
                          settings=CanonicalizeSettings(thresholds={"Claim": 0.8}))
    alone, joined = apart.canonicalize_paper("a"), apart.canonicalize_paper("b")
    assert alone.unattached == 2 and not alone.new_hubs
    members = {link.node for link in joined.links}
    assert len(joined.new_hubs) == 1 and iris.node("b", "claim", "1") in members
    assert len(members & {iris.node("a", "claim", "1"), iris.node("a", "claim", "2")}) == 1
    store.replace_graph(iris.paper("c"), discourse_paper(iris, "c", {}, claims=[
        ("1", "Most glacier melt is driven by warm air.", None), ("2", "Warm air drives most glacier melt.", None)]))
    allowed = Canonicalizer(Context(store, iris), sidecar_dir=tmp_path / "allowed", embedder=minilm,
                            settings=CanonicalizeSettings(thresholds={"Claim": 0.8}, join_within_paper=True))
    together = allowed.canonicalize_paper("c")
    assert len(together.new_hubs) == 1 and {link.node for link in together.links} == {iris.node("c", "claim", "1"), iris.node("c", "claim", "2")}


def test_ingesting_the_same_paper_again_keeps_counts_and_creates_no_new_hubs(synthetic_documents, iris, tmp_path: Path, shapes_and_rules_hold) -> None:
    store = EmbeddedStore(tmp_path / "store")
    papers = [document.paper_id for document in synthetic_documents[:3]]
    for document in synthetic_documents[:3]:
        store_document(store, iris, document)
    first = canonicalize_papers(Context(store, iris), papers, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder())
    before = convergence(Context(store, iris))
    counts = {row["hub"].value: row["members"].value for row in store.select(read_named_query("canonical-hubs"))}
    store_document(store, iris, synthetic_documents[0])  # ingest again: the paper's links leave the canonical graph with it
    again = canonicalize_papers(Context(store, iris), papers, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder())
    after = convergence(Context(store, iris))
    assert first.hubs_created > 0 and again.rebuilt.startswith("stale") and again.embedded == 0
    assert again.skipped == papers[1:] and after.rows() == before.rows()
    assert {row["hub"].value: row["members"].value for row in store.select(read_named_query("canonical-hubs"))} == counts
    assert shapes_and_rules_hold(store, iris)
    store.close()


def test_a_sidecar_of_another_embedder_is_rebuilt_and_hub_members_are_not_pending(canonicalized) -> None:
    store, iris, side, *_ = canonicalized
    reopened = Canonicalizer(Context(store, iris), sidecar_dir=side, embedder=HashingEmbedder(384))
    assert reopened.summary.rebuilt is not None  # another embedder: the saved sidecar is not used
    linked = {row["member"].value for row in store.select(read_named_query("hub-members"))}
    pending = reopened.sidecar.partitions.get(f"pending {CG.Viewpoint.value}")
    assert pending is not None and not linked & {iri for iri, *_ in pending.live_items()}


def test_diff_credits_nothing_of_canonicalization_to_repair(synthetic_arche_dir: Path, synthetic_documents, tmp_path: Path, capsys) -> None:
    from claimgraph.cli.main import main

    base = ["--store", str(tmp_path / "store")]
    paths = [str(path) for path in sorted(synthetic_arche_dir.glob("*.json"))[:3]]
    assert main([*base, "ingest", *paths, "--no-canonicalize", "--no-validate"]) == 0
    capsys.readouterr()
    paper = synthetic_documents[0].paper_id
    assert main([*base, "diff", "--paper", paper]) == 0
    before = capsys.readouterr().out
    assert main([*base, "canonicalize", "--embedder", "hashing"]) == 0
    assert main([*base, "query", "hub-members", "--format", "csv"]) == 0
    assert f"/paper/{paper}/" in capsys.readouterr().out  # the paper has nodes linked to hubs
    assert main([*base, "diff", "--paper", paper]) == 0
    assert capsys.readouterr().out == before  # the links live in the canonical graph: raw vs paper graph is repair's alone
