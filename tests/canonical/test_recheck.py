"""``canonicalize --recheck``: a judge turns each link made by similarity alone into a verdict (confirmed or
undone), and leaves it alone when it cannot answer; a real local HTTP server plays the LLM."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimgraph.canonical.canonicalizer import canonicalize_papers
from claimgraph.canonical.links.recheck import RecheckSummary, recheck_links
from claimgraph.canonical.links.release import release
from claimgraph.canonical.settings import CanonicalizeError, CanonicalizeSettings
from claimgraph.context import Context
from claimgraph.embedding.embedders import HashingEmbedder
from claimgraph.judge.pairs.adjudicate import LLMAdjudicator, read_answer
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG, RDF, local_name
from claimgraph.testing.fake_llm import error
from claimgraph.workflow import Workflow

NO_JUDGE = CanonicalizeSettings(thresholds={"Claim": 0.5})                              # a joins b's hub by cosine
JUDGED = CanonicalizeSettings(thresholds={"Claim": 0.5}, adjudicate={"Claim": (0.5, 1.0)})  # the judge's remit


@pytest.fixture
def linked(texts, load_claims, store, iris, tmp_path: Path):
    """Papers a and b: b founds a hub (exact text) and a joins it by similarity alone."""
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    canonicalize_papers(Context(store, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=NO_JUDGE)
    return store, iris


def _bases(store) -> dict[str, str]:
    return {row["member"].value.split("/paper/")[1].split("/")[0]: local_name(row["basis"].value)
            for row in store.select(read_named_query("hub-members"))}


def _recheck(store, iris, server, llm_config, settings=JUDGED, **overrides) -> RecheckSummary:
    judge = LLMAdjudicator(llm_config(server, **overrides))
    try:
        return recheck_links(Context(store, iris), judge.verdict, judge.name, settings)
    finally:
        judge.close()


def test_same_confirms_the_link_and_names_the_judge(linked, fake_llm, llm_config) -> None:
    store, iris = linked
    assert _bases(store) == {"a": "similarity", "b": "exactText"}
    server = fake_llm({"": ["SAME"]})
    summary = _recheck(store, iris, server, llm_config)
    assert (summary.asked, summary.confirmed, len(summary.undone), summary.undecided) == (1, 1, 0, 0)
    assert len(server.chat_requests()) == 1  # the founder's own text is not asked about
    assert _bases(store) == {"a": "judged", "b": "exactText"}
    judges = {row["judge"].value for row in store.select(read_named_query("hub-members")) if "judge" in row}
    assert judges == {"llm:fake-model"}
    assert [entry["counts"] for entry in audit_trail(store, iris, "a") if entry["kind"] == "recheck"] == [{"confirmed": 1}]


def test_a_later_copy_of_a_confirmed_text_joins_as_judged(linked, texts, load_claims, fake_llm, llm_config, tmp_path: Path) -> None:
    """The recheck's SAME is a verdict about a's text: c, arriving later with that text, joins on it."""
    store, iris = linked
    _recheck(store, iris, fake_llm({"": ["SAME"]}), llm_config)
    load_claims(store, iris, {"c": texts["a"]})
    canonicalize_papers(Context(store, iris), ["c"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=NO_JUDGE)
    assert _bases(store) == {"a": "judged", "b": "exactText", "c": "judged"}
    judges = {row["member"].value: row["judge"].value for row in store.select(read_named_query("hub-members")) if "judge" in row}
    assert judges == {iris.node("a", "claim", "1").value: "llm:fake-model", iris.node("c", "claim", "1").value: "llm:fake-model"}


def test_different_undoes_the_link_and_holds_the_node_apart(linked, texts, fake_llm, llm_config) -> None:
    store, iris = linked
    summary = _recheck(store, iris, fake_llm({"": ["DIFFERENT"]}), llm_config)
    assert [local_name(link.member) for link in summary.undone] == ["1"] and summary.confirmed == 0
    assert _bases(store) == {"b": "exactText"}
    assert store.ask("ASK { GRAPH ?g { ?member ?apart ?hub } }", {"apart": CG.heldApartFrom, "member": iris.node("a", "claim", "1")})
    notes = [entry["notes"] for entry in audit_trail(store, iris, "a") if entry["kind"] == "unmerge"]
    assert notes and notes[0]["by"] == "recheck" and "DIFFERENT" in notes[0]["reason"]
    (verdict,) = store.select(read_named_query("held-apart"))
    assert (local_name(verdict["verdict"].value), verdict["judge"].value) == ("heldApartFrom", "llm:fake-model")
    assert (verdict["text"].value, iris.paper_id_of(verdict["paper"])) == (texts["a"], "a")


def test_the_judge_named_on_a_hold_apart_mark_stays_and_goes_with_the_mark(linked, fake_llm, llm_config) -> None:
    from claimgraph.papers.storage import leaving_canonical_graph

    store, iris = linked
    _recheck(store, iris, fake_llm({"": ["DIFFERENT"]}), llm_config)
    mentioning_a = "ASK { GRAPH ?g { ?statement ?subject ?node } }"
    bindings = {"g": iris.canonical_graph(), "subject": RDF.subject, "node": iris.node("a", "claim", "1")}
    assert store.ask(mentioning_a, bindings)
    store.update(leaving_canonical_graph(iris, iris.paper("a")))  # a re-ingest keeps the mark and its statement
    (verdict,) = store.select(read_named_query("held-apart"))
    assert store.ask(mentioning_a, bindings) and verdict["judge"].value == "llm:fake-model"
    release(Context(store, iris), iris.node("a", "claim", "1"))  # lifting the mark takes its statement too
    assert not store.ask(mentioning_a, bindings) and store.select(read_named_query("held-apart")) == []


def test_a_different_about_a_link_gone_meanwhile_leaves_neither_mark_nor_statement(linked) -> None:
    """The recheck read the link, then a's paper was ingested again while the judge was answering."""
    from claimgraph.canonical.links.unmerge import find_links, undo_links
    from claimgraph.papers.storage import leaving_canonical_graph

    store, iris = linked
    links = find_links(Context(store, iris), member=iris.node("a", "claim", "1"))
    store.update(leaving_canonical_graph(iris, iris.paper("a")))
    undo_links(Context(store, iris), links, "recheck", "llm:x answered DIFFERENT", judge="llm:x")
    assert store.select(read_named_query("held-apart")) == []
    assert not store.ask("ASK { GRAPH ?g { ?statement ?subject ?node } }",
                         {"g": iris.canonical_graph(), "subject": RDF.subject, "node": iris.node("a", "claim", "1")})


def test_a_later_copy_of_a_text_the_judge_turned_away_does_not_join_that_hub(linked, texts, load_claims, fake_llm, llm_config,
                                                                              tmp_path: Path) -> None:
    """DIFFERENT is a verdict about a's text and that hub: c, with a's text, is not linked there by cosine again,
    while d, with the hub's own text, still joins it."""
    store, iris = linked
    _recheck(store, iris, fake_llm({"": ["DIFFERENT"]}), llm_config)
    load_claims(store, iris, {"c": texts["a"], "d": texts["b"]})
    summary = canonicalize_papers(Context(store, iris), ["c", "d"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                                  settings=NO_JUDGE)
    assert _bases(store) == {"b": "exactText", "d": "exactText"}
    assert summary.unattached == 1


def test_a_copy_that_joined_through_the_exact_text_map_is_asked_and_undone_with_its_original(
        texts, load_claims, store, iris, fake_llm, llm_config, tmp_path: Path) -> None:
    """c has a's text and joined through the exact-text map: its link carries a's cosine to the hub, not 1, so
    a band below 1 puts it to the judge as well, and DIFFERENT undoes both."""
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"], "c": texts["a"]})
    canonicalize_papers(Context(store, iris), list("abc"), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=NO_JUDGE)
    cosines = {row["member"].value: row["similarity"].value for row in store.select(read_named_query("hub-members"))}
    assert cosines[iris.node("c", "claim", "1").value] == cosines[iris.node("a", "claim", "1").value] != "1"
    narrow = CanonicalizeSettings(thresholds={"Claim": 0.95}, adjudicate={"Claim": (0.5, 0.95)})
    summary = _recheck(store, iris, fake_llm({"": ["DIFFERENT"]}), llm_config, settings=narrow)
    assert (summary.asked, len(summary.undone), summary.outside_band) == (2, 2, 0)
    assert _bases(store) == {"b": "exactText"}


@pytest.mark.parametrize("reply", [error(500), "Perhaps; they overlap."], ids=["failed call", "unclear answer"])
def test_a_judge_that_cannot_answer_leaves_the_link_as_it_was(linked, fake_llm, llm_config, reply) -> None:
    store, iris = linked
    summary = _recheck(store, iris, fake_llm({"": [reply]}), llm_config, max_retries=0)
    assert (summary.asked, summary.undecided, summary.confirmed, len(summary.undone)) == (1, 1, 0, 0)
    assert _bases(store) == {"a": "similarity", "b": "exactText"}


def test_links_outside_the_judges_band_are_not_asked(linked, fake_llm, llm_config) -> None:
    store, iris = linked
    server = fake_llm({"": ["DIFFERENT"]})
    summary = _recheck(store, iris, server, llm_config, settings=NO_JUDGE)
    assert (summary.asked, summary.outside_band) == (0, 1) and not server.chat_requests()
    assert _bases(store) == {"a": "similarity", "b": "exactText"}


def test_recheck_without_a_judge_is_refused_before_anything_runs(linked) -> None:
    store, iris = linked
    with pytest.raises(CanonicalizeError, match="--adjudicate"):
        Workflow(Context(store, iris)).canonicalize(recheck=True)
    assert _bases(store) == {"a": "similarity", "b": "exactText"}


def test_answers_are_read_as_same_different_or_neither() -> None:
    assert read_answer("SAME.") is True and read_answer("different") is False
    assert read_answer("") is None and read_answer("Perhaps the same") is None


@pytest.mark.parametrize(("threshold", "after"), [(0.5, {"a": "judged", "b": "exactText"}), (0.6, {"b": "exactText"})])
def test_a_pair_model_rechecks_as_an_llm_does(linked, pair_model_dirs, threshold, after) -> None:
    """The constant model scores every pair 0.5: same at threshold 0.5, different at 0.6."""
    from claimgraph.judge.pairs.pair_model import PairModelJudge

    store, iris = linked
    judge = PairModelJudge(pair_model_dirs["constant"], threshold=threshold)
    summary = recheck_links(Context(store, iris), judge.verdict, judge.name, JUDGED)
    assert summary.asked == 1 and _bases(store) == after
    if threshold == 0.5:
        judges = {row["judge"].value for row in store.select(read_named_query("hub-members")) if "judge" in row}
        assert judges == {"pair-model:constant"}
