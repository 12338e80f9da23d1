"""LLM adjudication of the borderline band: off by default, asked only in the band and after the guards,
cached, counted in the audit trail; a real local HTTP server plays the endpoint."""

from __future__ import annotations

from pathlib import Path

from claimgraph.canonical.canonicalizer import canonicalize_papers
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.context import Context
from claimgraph.embedding.embedders import HashingEmbedder
from claimgraph.judge.pairs.adjudicate import LLMAdjudicator, adjudication_prompt, read_verdict
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.papers.storage import leaving_canonical_graph
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG, RDF, local_name


def test_answers_are_read_conservatively() -> None:
    assert read_verdict("SAME") and read_verdict(" same.") and not read_verdict("Different")
    assert not read_verdict("I think they are the same") and not read_verdict("")


def test_the_llm_decides_only_guard_passed_candidates_in_the_band(band, texts, load_claims, store, iris, fake_llm, llm_config, tmp_path: Path) -> None:
    load_claims(store, iris, texts)
    vectors = HashingEmbedder().embed(list(texts.values()))
    assert 0.5 <= float(vectors[0] @ vectors[1]) < 0.95 and 0.5 <= float(vectors[0] @ vectors[3]) < 0.95
    server = fake_llm({"temperatures raise": ["SAME"], "": ["DIFFERENT"]})
    judge = LLMAdjudicator(llm_config(server))
    try:
        summary = canonicalize_papers(Context(store, iris), list(texts), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                                      settings=band, adjudicate=judge)
    finally:
        judge.close()
    members = {row["member"].value for row in store.select(read_named_query("hub-members"))}
    assert members == {iris.node(paper, "claim", "1").value for paper in "abc"}
    assert len(server.chat_requests()) == summary.adjudicated_same == 1 and summary.adjudicated_different == 0
    assert summary.guard_vetoes >= 1  # d never reached the LLM
    assert [decision.same for decision in judge.decisions] == [True]
    counts = [entry["counts"] for entry in audit_trail(store, iris, "b") if entry["kind"] == "canonicalize"]
    assert counts[0]["adjudicated_same"] == 1


def test_without_an_adjudicator_the_threshold_alone_decides(band, texts, load_claims, store, iris, tmp_path: Path) -> None:
    load_claims(store, iris, texts)
    summary = canonicalize_papers(Context(store, iris), list(texts), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(), settings=band)
    members = {row["member"].value for row in store.select(read_named_query("hub-members"))}
    assert members == {iris.node(paper, "claim", "1").value for paper in "ac"}
    assert summary.adjudicated_same == summary.adjudicated_different == 0


def test_a_failing_endpoint_never_merges(band, texts, load_claims, store, iris, fake_llm, llm_config, tmp_path: Path) -> None:
    from claimgraph.testing.fake_llm import error

    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    server = fake_llm({"": [error(500)]})
    judge = LLMAdjudicator(llm_config(server, max_retries=0))
    try:
        summary = canonicalize_papers(Context(store, iris), ["a", "b"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                                      settings=band, adjudicate=judge)
    finally:
        judge.close()
    assert summary.links == 0 and judge.failures == 1 and summary.adjudicated_different == 1


def test_the_prompt_quotes_each_text_once_and_as_written() -> None:
    a, b = "Doses of {b} mg halved ${a} uptake", "Uptake $b rose at {type} doses"
    prompt = adjudication_prompt(a, b, "Claim")
    assert prompt.count(a) == prompt.count(b) == 1
    assert prompt.index(a) < prompt.index(b) and "as one Claim." in prompt


def _judged_apart(store, iris) -> set[tuple[str, str]]:
    rows = store.select("SELECT ?node ?other WHERE { GRAPH ?g { ?node ?different ?other } }",
                        {"g": iris.canonical_graph(), "different": CG.judgedDifferentFrom})
    return {(iris.paper_id_of(row["node"]), iris.paper_id_of(row["other"])) for row in rows}


def _place_with(store, iris, papers, llm_config, server, settings, tmp_path: Path, **overrides):
    judge = LLMAdjudicator(llm_config(server, **overrides))
    try:
        return canonicalize_papers(Context(store, iris), papers, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                                   settings=settings, adjudicate=judge)
    finally:
        judge.close()


def test_a_different_is_kept_and_later_runs_without_a_judge_keep_the_two_texts_apart(
        band, texts, load_claims, store, iris, fake_llm, llm_config, tmp_path: Path, shapes_and_rules_hold) -> None:
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    _place_with(store, iris, ["a", "b"], llm_config, fake_llm({"": ["DIFFERENT"]}), band, tmp_path)
    assert _judged_apart(store, iris) == {("b", "a")}  # b met a as a pending peer
    # c carries a's text and d b's; cosine alone at 0.5 would put all four in one hub
    load_claims(store, iris, {"c": texts["a"], "d": texts["b"]})
    canonicalize_papers(Context(store, iris), ["c", "d"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                        settings=CanonicalizeSettings(thresholds={"Claim": 0.5}))
    hub_of = {iris.paper_id_of(row["member"]): row["hub"].value for row in store.select(read_named_query("hub-members"))}
    assert hub_of["a"] == hub_of["c"] != hub_of["b"] == hub_of["d"]
    assert shapes_and_rules_hold(store, iris)


def _verdict_statements(store, iris) -> int:
    rows = store.select("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?statement ?predicate ?different ; ?p ?o } }",
                        {"g": iris.canonical_graph(), "predicate": RDF.predicate, "different": CG.judgedDifferentFrom})
    return int(rows[0]["n"].value)


def test_a_different_names_its_judge_and_the_held_apart_query_shows_both_texts(
        band, texts, load_claims, store, iris, fake_llm, llm_config, tmp_path: Path) -> None:
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    _place_with(store, iris, ["a", "b"], llm_config, fake_llm({"": ["DIFFERENT"]}), band, tmp_path)
    (row,) = store.select(read_named_query("held-apart"), {"canonical": iris.canonical_graph()})
    assert (local_name(row["verdict"].value), row["judge"].value) == ("judgedDifferentFrom", "llm:fake-model")
    assert (row["text"].value, row["otherText"].value) == (texts["b"], texts["a"])
    assert iris.paper_id_of(row["paper"]) == "b"
    store.update(leaving_canonical_graph(iris, iris.paper("b")))  # the verdict goes, and its statement with it
    assert store.select(read_named_query("held-apart"), {"canonical": iris.canonical_graph()}) == []
    assert _verdict_statements(store, iris) == 0


def test_a_judge_that_could_not_answer_leaves_no_verdict(band, texts, load_claims, store, iris, fake_llm, llm_config,
                                                         tmp_path: Path) -> None:
    from claimgraph.testing.fake_llm import error

    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    summary = _place_with(store, iris, ["a", "b"], llm_config, fake_llm({"": [error(500)]}), band, tmp_path, max_retries=0)
    assert summary.links == 0 and _judged_apart(store, iris) == set()
    load_claims(store, iris, {"c": texts["b"]})
    canonicalize_papers(Context(store, iris), ["c"], sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                        settings=CanonicalizeSettings(thresholds={"Claim": 0.5}))
    assert {iris.paper_id_of(row["member"]) for row in store.select(read_named_query("hub-members"))} >= {"a", "c"}


def test_reingesting_a_paper_drops_the_verdicts_about_its_nodes(band, texts, load_claims, store, iris, fake_llm, llm_config,
                                                               tmp_path: Path) -> None:
    load_claims(store, iris, {"a": texts["a"], "b": texts["b"]})
    _place_with(store, iris, ["a", "b"], llm_config, fake_llm({"": ["DIFFERENT"]}), band, tmp_path)
    assert _judged_apart(store, iris) == {("b", "a")}
    store.update(leaving_canonical_graph(iris, iris.paper("a")))
    assert _judged_apart(store, iris) == set()  # the verdict named a's node, whose text may change


def test_a_removed_hub_takes_the_verdicts_naming_it_along(band, texts, load_claims, store, iris, fake_llm, llm_config,
                                                          tmp_path: Path) -> None:
    from pyoxigraph import NamedNode

    from claimgraph.canonical.links.unmerge import unmerge

    load_claims(store, iris, {"b": texts["b"], "c": texts["b"], "a": texts["a"]})
    _place_with(store, iris, ["b", "c", "a"], llm_config, fake_llm({"": ["DIFFERENT"]}), band, tmp_path)
    (hub,) = {row["hub"].value for row in store.select(read_named_query("hub-members"))}
    assert _judged_apart(store, iris) == {("a", None)}  # a was judged against the hub b and c founded
    assert _verdict_statements(store, iris) == 6  # the statement: type, subject, predicate, object, judge, paper
    unmerge(Context(store, iris), hub=NamedNode(hub))
    assert _judged_apart(store, iris) == set() and _verdict_statements(store, iris) == 0
