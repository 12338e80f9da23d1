"""Unmerge: any merge or hub attachment can be undone from the canonical graph alone, with an audit record;
member counts never drift and empty hubs go (re-ingest, unmerge, reindex)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import NamedNode

from claimgraph.canonical.canonicalizer import canonicalize_papers, reindex
from claimgraph.canonical.links.unmerge import UnmergeError, unmerge
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.cli.main import main
from claimgraph.context import Context
from claimgraph.embedding.embedders import HashingEmbedder
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.papers.storage import store_document
from claimgraph.rdf.queries import read_named_query
from claimgraph.store import EmbeddedStore

LOW = CanonicalizeSettings(default_threshold=0.45)


def hubs(store) -> dict[str, int]:
    return {row["hub"].value: int(row["members"].value) for row in store.select(read_named_query("canonical-hubs"))}


def members(store, hub: str) -> set[str]:
    return {row["member"].value for row in store.select(read_named_query("hub-members"), {"hub": NamedNode(hub)})}


@pytest.fixture
def three_papers(store, iris, discourse_paper, tmp_path: Path):
    """A factor merged across three papers and a claim hub of three members, canonicalized."""
    for paper in "abc":
        store.replace_graph(iris.paper(paper), discourse_paper(iris, paper, {"s": ("tobacco smoking habit", 0.9)},
                                                                claims=[("1", "smoking causes lung cancer", None)]))
    canonicalize_papers(Context(store, iris), ["a", "b", "c"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    return store


def test_unmerging_a_member_takes_only_its_link_out_and_records_why(three_papers, iris, tmp_path: Path, shapes_and_rules_hold) -> None:
    store = three_papers
    before = {paper: set(store.triples(iris.paper(paper))) for paper in "abc"}
    member = iris.node("b", "claim", "1")
    (hub,) = [h for h in hubs(store) if "CANON_Claim_" in h]
    undone = unmerge(Context(store, iris), member=member, reason="different populations")
    assert [(link.member, link.hub) for link in undone] == [(member.value, hub)]
    assert hubs(store)[hub] == 2 and member.value not in members(store, hub)
    assert {paper: set(store.triples(iris.paper(paper))) for paper in "abc"} == before
    (activity,) = [entry for entry in audit_trail(store, iris, "b") if entry["kind"] == "unmerge"]
    assert activity["notes"]["reason"] == "different populations" and activity["notes"]["hub"] == hub
    (verdict,) = store.select(read_named_query("held-apart"))
    assert (verdict["node"], verdict["other"].value, verdict["verdict"].value.rsplit("#", 1)[1]) == (member, hub, "heldApartFrom")
    assert verdict["text"].value == verdict["otherText"].value == "smoking causes lung cancer" and "judge" not in verdict
    assert shapes_and_rules_hold(store, iris)


def test_an_unmerged_node_is_not_linked_again_by_later_runs(three_papers, iris, discourse_paper, tmp_path: Path) -> None:
    store = three_papers
    member = iris.node("b", "claim", "1")
    unmerge(Context(store, iris), member=member)
    store.replace_graph(iris.paper("d"), discourse_paper(iris, "d", {}, claims=[("1", "smoking causes lung cancer", None)]))
    summary = canonicalize_papers(Context(store, iris), ["d"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    assert summary.rebuilt.startswith("stale")
    linked = {row["member"].value for row in store.select(read_named_query("hub-members"))}
    assert iris.node("d", "claim", "1").value in linked and member.value not in linked


def test_a_copy_of_an_unmerged_text_is_not_linked_to_that_hub_by_similarity(texts, load_claims, store, iris, tmp_path: Path) -> None:
    """a joined b's hub by cosine and was unmerged; c, with a's text, is kept out of that hub too (the verdict was
    about that text and that hub), unlike a copy of the hub's own text (the test above)."""
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    settings = CanonicalizeSettings(thresholds={"Claim": 0.5})
    canonicalize_papers(Context(store, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=settings)
    (hub,) = hubs(store)
    assert members(store, hub) == {iris.node("a", "claim", "1").value, iris.node("b", "claim", "1").value}
    unmerge(Context(store, iris), member=iris.node("a", "claim", "1"), reason="a different claim")
    load_claims(store, iris, {"c": texts["a"]})
    summary = canonicalize_papers(Context(store, iris), ["c"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=settings)
    assert members(store, hub) == {iris.node("b", "claim", "1").value} and summary.unattached == 1


def test_the_texts_of_a_dissolved_hub_never_meet_again_by_similarity(texts, load_claims, store, iris, tmp_path: Path) -> None:
    """Dissolving a hub says its members differ; the hub's text goes with it, but the members' texts stay
    apart: later copies of a's and b's texts do not found a hub together."""
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    settings = CanonicalizeSettings(thresholds={"Claim": 0.5})
    canonicalize_papers(Context(store, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=settings)
    (hub,) = hubs(store)
    unmerge(Context(store, iris), hub=NamedNode(hub), reason="a and b are different claims")
    load_claims(store, iris, {"c": texts["a"], "d": texts["b"]})
    summary = canonicalize_papers(Context(store, iris), ["c", "d"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                                  settings=settings)
    assert hubs(store) == {} and summary.unattached == 2


def test_a_copy_of_an_unmerged_text_does_not_reach_the_hub_text_through_a_new_hub(store, iris, discourse_paper,
                                                                                  tmp_path: Path) -> None:
    """a ("smoking habit") was unmerged from b's merge ("smoking habits"); c has a's text. Paper e has two nodes
    with b's text: one joins b's merge, the other cannot (two nodes of one paper never merge) and founds a new
    merge with that text, which c must not join."""
    def run(paper: str, **factors: tuple[str, float]) -> None:
        store.replace_graph(iris.paper(paper), discourse_paper(iris, paper, factors))
        canonicalize_papers(Context(store, iris), [paper], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)

    run("a", x=("smoking habit", 0.9))
    run("b", z=("smoking habits", 0.9))
    unmerge(Context(store, iris), member=iris.node("a", "factor", "x"), reason="a habit is not habits")
    run("c", x=("smoking habit", 0.9))
    run("e", z1=("smoking habits", 0.9), z2=("smoking habits", 0.8))
    linked = {row["member"].value for row in store.select(read_named_query("hub-members"))}
    assert iris.node("c", "factor", "x").value not in linked
    assert iris.node("e", "factor", "z1").value in linked


def test_dissolving_a_merge_removes_the_canonical_node_and_every_link(three_papers, iris, shapes_and_rules_hold) -> None:
    store = three_papers
    (merge,) = [h for h in hubs(store) if "CANON_Factor_" in h]
    undone = unmerge(Context(store, iris), hub=NamedNode(merge))
    assert len(undone) == 3 and merge not in hubs(store)
    assert store.select(read_named_query("merges")) == []
    assert shapes_and_rules_hold(store, iris)
    assert unmerge(Context(store, iris), hub=NamedNode(merge)) == []  # already dissolved: nothing more to undo
    with pytest.raises(UnmergeError, match="no merge or hub attachment"):
        unmerge(Context(store, iris), hub=NamedNode(merge + "-never"))


def test_reingesting_every_member_removes_the_hub_instead_of_leaving_a_count_of_zero(synthetic_documents, iris, tmp_path: Path, shapes_and_rules_hold) -> None:
    store = EmbeddedStore(tmp_path / "store")
    for document in synthetic_documents[:2]:
        store_document(store, iris, document)
    canonicalize_papers(Context(store, iris), [d.paper_id for d in synthetic_documents[:2]], sidecar_dir=tmp_path / "side",
                        embedder=HashingEmbedder())
    assert hubs(store)
    for document in synthetic_documents[:2]:
        store_document(store, iris, document)
    assert hubs(store) == {} and store.select(read_named_query("hub-members")) == []
    assert shapes_and_rules_hold(store, iris)
    store.close()


def test_reindex_recounts_drops_links_of_deleted_papers_and_removes_empty_hubs(three_papers, iris, tmp_path: Path) -> None:
    store = three_papers
    store.update("DELETE { GRAPH ?c { ?h ?count ?n } } INSERT { GRAPH ?c { ?h ?count 99 } } WHERE { GRAPH ?c { ?h ?count ?n } }",
                 {"c": iris.canonical_graph(), "count": NamedNode("https://w3id.org/claimgraph/ontology/v1#memberCount")})
    store.drop_graphs([iris.paper("c"), iris.audit_graph("c")])
    reindex(Context(store, iris), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    assert sorted(hubs(store).values()) == [2, 2]
    store.drop_graphs([iris.paper("b"), iris.audit_graph("b"), iris.paper("a"), iris.audit_graph("a")])
    reindex(Context(store, iris), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=LOW)
    assert hubs(store) == {}


def test_cli_unmerge_by_member(merged_factor_cli, capsys) -> None:
    base, member = merged_factor_cli
    assert main([*base, "unmerge", "--member", member, "--reason", "checked by hand"]) == 0
    assert member in capsys.readouterr().out
    assert main([*base, "unmerge", "--member", member]) == 0  # a retried unmerge succeeds and says so
    assert "already unmerged" in capsys.readouterr().out
    assert main([*base, "unmerge", "--member", member.replace("/factor/", "/claim/")]) == 2
    assert "no merge or hub attachment" in capsys.readouterr().err


def test_cli_unmerge_of_a_dissolved_hub_again_succeeds(merged_factor_cli, capsys) -> None:
    base, member = merged_factor_cli
    with EmbeddedStore(base[1]) as store:
        (hub,) = hubs(store)
    assert main([*base, "unmerge", "--hub", hub]) == 0
    capsys.readouterr()
    assert main([*base, "unmerge", "--hub", hub]) == 0
    assert "already unmerged" in capsys.readouterr().out


def test_an_unmerge_and_its_audit_entry_outlive_a_reingest_of_the_unchanged_papers(synthetic_documents, iris, tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "store")
    ctx = Context(store, iris)
    documents = synthetic_documents[:4]
    ids = [document.paper_id for document in documents]
    for document in documents:
        store_document(store, iris, document)
    canonicalize_papers(ctx, ids, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder())
    hub = next(h for h, count in sorted(hubs(store).items()) if count >= 3)
    member = sorted(members(store, hub))[0]
    unmerge(ctx, member=NamedNode(member), reason="kept apart by hand")
    paper = iris.paper_id_of(next(row["paper"] for row in store.select(read_named_query("held-apart"))))
    curated = {frozenset(members(store, h)) for h in hubs(store)}
    for document in documents:
        store_document(store, iris, document)
    canonicalize_papers(ctx, ids, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder())
    assert {frozenset(members(store, h)) for h in hubs(store)} == curated  # the hub stays undone
    (verdict,) = store.select(read_named_query("held-apart"))
    assert verdict["node"].value == member and verdict["other"].value == hub
    (activity,) = [entry for entry in audit_trail(store, iris, paper) if entry["kind"] == "unmerge"]
    assert activity["notes"]["reason"] == "kept apart by hand" and activity["notes"]["member"] == member
    assert unmerge(ctx, member=NamedNode(member)) == []  # already unmerged
    store.close()


@pytest.mark.parametrize("text, held", [("smoking causes lung cancer", True), ("smoking causes heart disease", False)],
                         ids=["the same text: still held apart", "another text: the mark lapses"])
def test_an_unmerge_mark_holds_while_the_reingested_node_has_the_text_it_was_about(three_papers, iris, discourse_paper, text, held) -> None:
    from claimgraph.canonical.links.state import node_rows
    from claimgraph.papers.storage import leaving_canonical_graph

    store = three_papers
    member = iris.node("b", "claim", "1")
    unmerge(Context(store, iris), member=member)
    store.update(leaving_canonical_graph(iris, iris.paper("b")))
    store.replace_graph(iris.paper("b"), discourse_paper(iris, "b", {"s": ("tobacco smoking habit", 0.9)}, claims=[("1", text, None)]))
    (row,) = [row for row in node_rows(store, iris, iris.paper("b")) if row.node == member]
    assert (row.apart is not None) is held
