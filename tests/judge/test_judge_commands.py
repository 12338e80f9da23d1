"""``claimgraph ground``, ``rules`` and ``judge`` on a stored paper; votes reused across runs from the store."""

from __future__ import annotations

from pathlib import Path

import pytest
from judge_harness import PAPER_ID, Paper, judges_say, unit_rule, verdict

from claimgraph.cli.main import main
from claimgraph.context import Context
from claimgraph.judge.runner import judge_calls
from claimgraph.rdf.vocab import CG


def cli(paper: Paper, *args: str) -> int:
    location = paper.ctx.store.location
    paper.ctx.close()
    try:
        return main(["--store", str(location), "--profile", "peirce", *args])
    finally:
        paper.ctx.store = Context.open(location, profile="peirce").store


def test_ground_prints_the_audit_and_records_it(paper: Paper, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(paper, "ground", "--paper", PAPER_ID) == 0
    printed = capsys.readouterr().out
    assert "source grounding (threshold 0.6" in printed and f"{PAPER_ID}  8" in printed and "passed" in printed
    assert cli(paper, "ground", "--paper", PAPER_ID, "--threshold", "0.99") == 0  # 6 of 8 still grounded: most
    assert "nodes below the threshold (2)" in capsys.readouterr().out
    count = paper.ctx.store.scalar("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT (COUNT(?a) AS ?n) WHERE { GRAPH ?g { ?a cg:activityKind 'grounding' } }")
    assert count == 2


def test_rules_lists_semantic_findings_and_exits_1_on_a_critical_one(paper: Paper, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(paper, "rules", "--paper", PAPER_ID) == 0
    assert "0 of 1 papers with critical findings" in capsys.readouterr().out
    graph = paper.ctx.iris.paper(PAPER_ID)
    paper.ctx.store.update("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> DELETE { GRAPH ?g { ?n cg:text ?t } } "
                           "INSERT { GRAPH ?g { ?n cg:text ?r } } WHERE { GRAPH ?g { ?n cg:text ?t . ?root cg:text ?r } }",
                           {"g": graph, "n": paper.node("mid2"), "root": paper.node("root")})
    assert cli(paper, "rules", "--paper", PAPER_ID) == 1
    assert "peirce_premise_restates_conclusion" in capsys.readouterr().out


def test_judge_runs_the_panel_through_the_endpoint_and_exits_by_verdict(paper: Paper, fake_llm, tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    server = fake_llm(judges_say("correct"))
    flags = ["--base-url", server.base_url, "--model", "fake-model", "--cache-dir", str(tmp_path / "cache"), "--max-retries", "0"]
    assert cli(paper, "judge", "--paper", PAPER_ID, *flags) == 0
    printed = capsys.readouterr().out
    assert "judges j1=fake-model, j2=fake-model, j3=fake-model" in printed and "accepted" in printed
    assert cli(paper, "judge", "--paper", PAPER_ID, "--judges", "1", "--rounds", "0", *flags) == 0
    assert len(server.chat_requests()) == 9  # judge j1 on fake-model already voted on these units: its votes are reused
    assert cli(paper, "judge", "--paper", PAPER_ID, "--judges", "1", "--judge-model", "other-model", *flags) == 0
    assert len(server.chat_requests()) == 9 + 3
    assert {request.body["model"] for request in server.chat_requests()[9:]} == {"other-model"}


def test_judge_without_an_endpoint_says_what_to_set(paper: Paper, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(paper.tmp)
    assert cli(paper, "judge", "--paper", PAPER_ID) == 2
    assert "no LLM endpoint configured" in capsys.readouterr().err


def test_votes_on_units_a_change_left_alone_are_reused_from_the_store(paper: Paper, fake_llm, run_judges) -> None:
    server = fake_llm([*unit_rule("mid2", verdict("correct")), *judges_say("correct")])
    run_judges(server, cache_dir=None)
    graph = paper.ctx.iris.paper(PAPER_ID)
    paper.ctx.store.update("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> DELETE { GRAPH ?g { ?n cg:text ?t } } "
                           "INSERT { GRAPH ?g { ?n cg:text 'Northern drying pools held half the species of permanent pools.' } } "
                           "WHERE { GRAPH ?g { ?n cg:text ?t } }", {"g": graph, "n": paper.node("n1")})
    [result], accounting, settings = run_judges(server, cache_dir=None)
    assert result.accepted and not result.skipped
    assert judge_calls(accounting, PAPER_ID, settings)["judges"] == 3  # only the unit into mid1 changed
    reused = paper.ctx.store.scalar("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT (COUNT(?s) AS ?n) WHERE { GRAPH ?g { "
                                    "?s a cg:UnitScore ; cg:votesReused true } }")
    assert reused == 2
    assert CG.UnitScore  # the term the query counts is the ontology's
