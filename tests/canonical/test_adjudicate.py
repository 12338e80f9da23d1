"""LLM adjudication of the borderline band: off by default, asked only in the band and after the guards,
cached, counted in the audit trail; a real local HTTP server plays the endpoint."""

from __future__ import annotations

from pathlib import Path

from claimgraph.canonical.canonicalizer import canonicalize_papers
from claimgraph.canonical.embeddings import HashingEmbedder
from claimgraph.canonical.links.adjudicate import LLMAdjudicator, adjudication_prompt, read_verdict
from claimgraph.context import Context
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.rdf.queries import read_named_query


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
