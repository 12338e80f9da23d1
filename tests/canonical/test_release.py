"""Release: the verdicts that keep a node apart (an unmerge, a judge's DIFFERENT) can be lifted, audited, and
canonicalization then places the node again; other verdicts about the same two texts are reported, not lifted."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import NamedNode

from claimgraph.canonical.canonicalizer import canonicalize_papers
from claimgraph.canonical.links.release import ReleaseError, held_apart, release
from claimgraph.canonical.links.unmerge import unmerge
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.cli.main import main
from claimgraph.context import Context
from claimgraph.embedding.embedders import HashingEmbedder
from claimgraph.judge.pairs.adjudicate import LLMAdjudicator
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG, RDF

BY_COSINE = CanonicalizeSettings(thresholds={"Claim": 0.5})  # a's text joins b's hub by cosine, no judge


def _place(store, iris, papers: list[str], tmp_path: Path, force: bool = False, **options) -> None:
    canonicalize_papers(Context(store, iris), papers, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                        settings=options.pop("settings", BY_COSINE), force=force, **options)


def _hub_of(store, iris) -> dict[str, str]:
    return {iris.paper_id_of(row["paper"]): row["hub"].value for row in store.select(read_named_query("hub-members"))}


def test_a_released_node_is_placed_again_and_the_release_is_audited(texts, load_claims, store, iris, tmp_path: Path,
                                                                     shapes_and_rules_hold) -> None:
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    _place(store, iris, ["a", "b"], tmp_path)
    hub = _hub_of(store, iris)["a"]
    node = iris.node("a", "claim", "1")
    unmerge(Context(store, iris), member=node)
    _place(store, iris, ["a"], tmp_path, force=True)
    assert "a" not in _hub_of(store, iris)  # held apart: a forced run leaves it out
    released = release(Context(store, iris), node, reason="the unmerge was a slip")
    assert [(v.kind, v.other) for v in released.lifted] == [("heldApartFrom", hub)] and released.still_apart == []
    assert held_apart(Context(store, iris)) == []
    (activity,) = [entry for entry in audit_trail(store, iris, "a") if entry["kind"] == "release"]
    assert activity["notes"]["reason"] == "the unmerge was a slip" and activity["notes"]["other"] == hub
    _place(store, iris, ["a"], tmp_path, force=True)
    assert _hub_of(store, iris)["a"] == hub
    assert shapes_and_rules_hold(store, iris)


@pytest.mark.parametrize("side", ["b", "a"], ids=["the judged node", "the node it was judged against"])
def test_a_judges_different_is_lifted_from_either_side_with_its_statement(side, band, texts, load_claims, store, iris,
                                                                           fake_llm, llm_config, tmp_path: Path) -> None:
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    judge = LLMAdjudicator(llm_config(fake_llm({"": ["DIFFERENT"]})))
    try:
        _place(store, iris, ["a", "b"], tmp_path, settings=band, adjudicate=judge)
    finally:
        judge.close()
    (verdict,) = held_apart(Context(store, iris))
    assert (verdict.kind, verdict.judge) == ("judgedDifferentFrom", "llm:fake-model")
    released = release(Context(store, iris), iris.node(side, "claim", "1"))
    assert released.lifted == [verdict]
    assert not store.ask("ASK { GRAPH ?g { ?statement ?predicate ?different } }",  # the statement naming the judge went too
                         {"g": iris.canonical_graph(), "predicate": RDF.predicate, "different": CG.judgedDifferentFrom})
    _place(store, iris, ["a", "b"], tmp_path, force=True)  # by cosine alone they now meet
    hubs = _hub_of(store, iris)
    assert hubs["a"] == hubs["b"]


def test_other_verdicts_about_the_same_two_texts_are_reported_and_kept(texts, load_claims, store, iris, tmp_path: Path) -> None:
    """c holds a's text: unmerged from b's hub too, it still keeps a's text apart from the hub's text."""
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"], "c": texts["a"]})
    _place(store, iris, ["a", "b", "c"], tmp_path)
    for paper in "ac":
        unmerge(Context(store, iris), member=iris.node(paper, "claim", "1"))
    released = release(Context(store, iris), iris.node("a", "claim", "1"))
    assert [v.node for v in released.still_apart] == [iris.node("c", "claim", "1").value]
    assert [v.node for v in held_apart(Context(store, iris))] == [iris.node("c", "claim", "1").value]
    _place(store, iris, ["a"], tmp_path, force=True)
    assert "a" not in _hub_of(store, iris)  # the texts stay apart while c's verdict stands


def test_release_narrowed_to_one_other_lifts_only_that_verdict(texts, load_claims, store, iris, tmp_path: Path) -> None:
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    _place(store, iris, ["a", "b"], tmp_path)
    hub = _hub_of(store, iris)["a"]
    node = iris.node("a", "claim", "1")
    unmerge(Context(store, iris), member=node)
    assert release(Context(store, iris), node, iris.node("b", "claim", "1")).lifted == []  # no verdict between these two
    assert len(held_apart(Context(store, iris))) == 1  # nothing was lifted
    assert [v.other for v in release(Context(store, iris), node, NamedNode(hub)).lifted] == [hub]


def test_cli_release(merged_factor_cli, capsys) -> None:
    base, member = merged_factor_cli
    assert main([*base, "release", "--node", member + "-missing"]) == 2
    assert "no verdict keeps node" in capsys.readouterr().err
    assert main([*base, "unmerge", "--member", member]) == 0
    capsys.readouterr()
    assert main([*base, "release", "--node", member, "--reason", "checked by hand"]) == 0
    printed = capsys.readouterr().out
    assert member in printed and "heldApartFrom" in printed and "canonicalize --force --paper a" in printed
    assert main([*base, "release", "--node", member]) == 0  # a retried release succeeds and says so
    assert "already released" in capsys.readouterr().out
    assert main([*base, "release", "--node", "not an iri"]) == 2
    assert "not an IRI" in capsys.readouterr().err


def test_nodes_held_apart_from_a_dissolved_hub_are_reported_as_still_keeping_the_texts_apart(
        texts, load_claims, store, iris, tmp_path: Path) -> None:
    """a and c carry one text, b and d another; once their hub is dissolved, each pair of those texts stays apart
    while any of the others' marks stands (the hub's text is gone, so the group pairs its members' texts)."""
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"], "c": texts["a"], "d": texts["b"]})
    _place(store, iris, list("abcd"), tmp_path)
    unmerge(Context(store, iris), hub=NamedNode(_hub_of(store, iris)["a"]))
    released = release(Context(store, iris), iris.node("a", "claim", "1"))
    assert {iris.paper_id_of(NamedNode(v.paper)) for v in released.still_apart} == {"b", "c", "d"}
    _place(store, iris, ["a"], tmp_path, force=True)
    assert _hub_of(store, iris) == {}


def test_a_canon_node_given_as_the_node_is_refused(texts, load_claims, store, iris, tmp_path: Path) -> None:
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    _place(store, iris, ["a", "b"], tmp_path)
    hub = NamedNode(_hub_of(store, iris)["a"])
    unmerge(Context(store, iris), member=iris.node("a", "claim", "1"))
    with pytest.raises(ReleaseError, match="is a CANON_ node"):
        release(Context(store, iris), hub)
    assert len(held_apart(Context(store, iris))) == 1


def test_a_release_is_audited_by_the_node_iri_when_its_text_has_left_the_paper_and_reported_when_the_paper_is_gone(
        texts, load_claims, store, iris, tmp_path: Path) -> None:
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"], "c": texts["a"]})
    _place(store, iris, list("abc"), tmp_path)
    for paper in "ac":
        unmerge(Context(store, iris), member=iris.node(paper, "claim", "1"))
    store.update("DELETE { GRAPH ?g { ?node ?text ?value } } WHERE { GRAPH ?g { ?node ?text ?value } }", {"g": iris.paper("a"), "node": iris.node("a", "claim", "1"),
                                                                       "text": CG.text})
    released = release(Context(store, iris), iris.node("a", "claim", "1"))
    assert released.unaudited == [] and [entry["kind"] for entry in audit_trail(store, iris, "a")][-1] == "release"
    store.drop_graphs([iris.paper("c")])
    released = release(Context(store, iris), iris.node("c", "claim", "1"))
    assert [v.node for v in released.unaudited] == [iris.node("c", "claim", "1").value]
    assert "release" not in [entry["kind"] for entry in audit_trail(store, iris, "c")]


@pytest.mark.parametrize("dissolve", [False, True], ids=["two members taken out of a hub", "a dissolved hub"])
def test_the_text_pairs_release_reports_on_are_the_ones_placement_keeps_apart(dissolve, texts, load_claims, store, iris, band,
                                                                             fake_llm, llm_config, tmp_path: Path) -> None:
    """release.text_pairs reads the held-apart query; placement reads the store state (placement.apart_pairs):
    both must see the same pairs, judges' DIFFERENT included."""
    from claimgraph.canonical.canonicalizer import Canonicalizer
    from claimgraph.canonical.links.release import text_pairs

    load_claims(store, iris, {"a": texts["a"], "b": texts["b"], "c": texts["a"], "d": texts["b"]})
    _place(store, iris, list("abcd"), tmp_path)
    hub = NamedNode(_hub_of(store, iris)["a"])
    if dissolve:
        unmerge(Context(store, iris), hub=hub)
    else:
        for paper in "ac":
            unmerge(Context(store, iris), member=iris.node(paper, "claim", "1"))
    load_claims(store, iris, {"e": "higher temperatures raise the soil respiration", "f": "higher temperatures raise soil respiration rates"})
    judge = LLMAdjudicator(llm_config(fake_llm({"": ["DIFFERENT"]})))
    try:
        _place(store, iris, ["e", "f"], tmp_path, settings=band, adjudicate=judge)
    finally:
        judge.close()
    placement = {pair for _, pair in Canonicalizer(Context(store, iris), embedder=HashingEmbedder(), settings=band).apart}
    reported = set(text_pairs(held_apart(Context(store, iris))))
    assert reported == placement and any(len(pair & {texts['a'], texts['b']}) < 2 for pair in reported)
