"""Judge-feedback repair end to end on the fake OpenAI server: votes, majority, failures, repairs, residuals, cache."""

from __future__ import annotations

import json

from judge_harness import EDGES, NODES, PAPER_ID, Paper, RunJudges, judges_say, repair_rule, store_graph, unit_rule, verdict

from claimgraph.judge.runner import judge_calls
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG
from claimgraph.testing.fake_llm import Rule, error


def chat_count(server) -> int:
    return len(server.chat_requests())


def test_agreeing_judges_accept_the_graph_and_their_votes_are_stored(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    server = fake_llm(judges_say("correct"))
    [result], accounting, settings = run_judges(server)
    assert result.accepted and result.residuals == [] and (result.cg, result.rea, result.units) == (1.0, 1.0, 3)
    assert judge_calls(accounting, PAPER_ID, settings) == {"judges": 9, "repairs": 0, "root": 0}
    votes = paper.ctx.store.select(read_named_query("judge-votes"), {"paper": paper.ctx.iris.paper(PAPER_ID)})
    assert len(votes) == 9
    assert {row["judge"].value for row in votes} == {"j1", "j2", "j3"} and {row["model"].value for row in votes} == {"fake-model"}
    assert {row["verdict"].value for row in votes} == {"correct"} and all(row["feedback"].value for row in votes)
    assert all(row["endpoint"].value.startswith("127.0.0.1:") and row["at"].value for row in votes)
    (scores,) = paper.ctx.store.select(read_named_query("judge-scores"), {"paper": paper.ctx.iris.paper(PAPER_ID)})
    assert (float(scores["cg"].value), float(scores["rea"].value), int(scores["units"].value), scores["final"].value) == (1.0, 1.0, 3, "accepted")


def test_a_second_run_on_an_unchanged_graph_makes_no_call_even_without_the_response_cache(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    server = fake_llm(judges_say("correct"))
    run_judges(server, cache_dir=None)
    calls = chat_count(server)
    [again], _, _ = run_judges(server, cache_dir=None)
    assert chat_count(server) == calls
    assert again.skipped and again.accepted and (again.cg, again.rea) == (1.0, 1.0)


def test_the_majority_decides_and_a_split_unit_is_repaired(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    fixed = "Drying over weeks removes the snail species that cannot survive out of water."
    plan = {"conclusion": {"text": fixed}, "premises": [{"node": "c", "role": "induction-common"}, {"node": "n1", "role": "induction-case"},
                                                         {"node": "n2", "role": "induction-case"}], "note": "restated"}
    server = fake_llm([
        *unit_rule("root", verdict("incorrect", "rule too broad"), "j2"),          # root: 2 correct, 1 incorrect
        Rule(replies=[verdict("correct")], contains="Drying over weeks"),          # the repaired mid1 passes
        *unit_rule("mid1", verdict("incorrect", "the conclusion overstates the cases"), "j1"),
        *unit_rule("mid1", verdict("incorrect", "say over weeks"), "j2"),           # mid1: 1 correct, 2 incorrect
        repair_rule("mid1", plan),
        *judges_say("correct"),
    ])
    [result], accounting, settings = run_judges(server)
    assert result.accepted and result.rounds == 1 and result.repairs_applied == 1
    assert paper.text("mid1") == fixed
    repair_prompts = [r.last_user_message for r in server.chat_requests("judge-repair")]
    assert len(repair_prompts) == 1 and "the conclusion overstates the cases" in repair_prompts[0] and "say over weeks" in repair_prompts[0]
    assert "rule too broad" not in repair_prompts[0]  # only the matched feedback of the rejected unit
    # round 1 re-judges mid1 and root (its premise changed); mid2 keeps its votes
    assert judge_calls(accounting, PAPER_ID, settings)["judges"] == 9 + 6


def test_an_even_panel_with_a_tie_counts_the_unit_incorrect(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    server = fake_llm([*unit_rule("mid2", verdict("incorrect"), "j2"), *judges_say("correct")])
    [result], _, _ = run_judges(server, count=2, repair=False)
    assert not result.accepted and result.rea == 2 / 3 and result.residuals == ["final_gate_failed"]


def test_a_failing_judge_is_recorded_as_a_failure_not_a_vote(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    server = fake_llm([Rule(replies=[error(500)], phase="judge:j3"), *judges_say("correct")])
    [result], _, _ = run_judges(server)
    assert result.accepted and result.judge_failures == 3
    rows = paper.ctx.store.select(read_named_query("judge-votes"), {"paper": paper.ctx.iris.paper(PAPER_ID)})
    failed = [row for row in rows if row["verdict"].value == "failed"]
    assert len(failed) == 3 and {row["judge"].value for row in failed} == {"j3"} and "500" in failed[0]["feedback"].value
    scores = paper.ctx.store.select("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?c ?i ?f WHERE { GRAPH ?g { "
                                    "?s a cg:UnitScore ; cg:votesCorrect ?c ; cg:votesIncorrect ?i ; cg:judgeFailures ?f } }")
    assert {(int(r["c"].value), int(r["i"].value), int(r["f"].value)) for r in scores} == {(2, 0, 1)}


def test_an_unreadable_verdict_is_a_failure_too(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    server = fake_llm([Rule(replies=["I think it is fine."], phase="judge:j1"), *judges_say("correct")])
    [result], _, _ = run_judges(server)
    assert result.accepted and result.judge_failures == 3


def test_judges_that_always_error_leave_final_judge_failed(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    server = fake_llm([Rule(replies=[error(503)])])
    [result], accounting, settings = run_judges(server)
    assert not result.accepted and result.residuals == ["final_judge_failed"] and result.judge_failures == 9
    assert judge_calls(accounting, PAPER_ID, settings)["repairs"] == 0


def test_a_repair_that_makes_things_worse_is_rolled_back_as_metric_regression(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    original = paper.text("mid1")
    plan = {"conclusion": {"text": "GARBLED statement about tides"},
            "premises": [{"node": "c", "role": "induction-common"}, {"node": "n1", "role": "induction-case"}, {"node": "n2", "role": "induction-case"}]}
    server = fake_llm([
        Rule(replies=[verdict("incorrect", "unrelated to the premises")], contains="GARBLED"),
        *unit_rule("mid1", verdict("incorrect", "overstated")),
        repair_rule("mid1", plan),
        *judges_say("correct"),
    ])
    [result], _, _ = run_judges(server)
    assert result.residuals == ["metric_regression"] and not result.accepted
    assert paper.text("mid1") == original
    rolled = paper.ctx.store.select("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?v WHERE { GRAPH ?g { "
                                    "?a cg:activityKind 'judge-repair' ; cg:hasNote ?n . ?n cg:noteName 'outcome' ; <http://www.w3.org/1999/02/22-rdf-syntax-ns#value> ?v } }")
    assert [row["v"].value for row in rolled] == ["rolled back (metric regression)"]


def test_a_rejected_unit_without_a_grounded_node_is_not_repaired(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    implicit = {local: (text, (0, 0, 0)) if local in ("mid2", "ph", "kn") else (text, source) for local, (text, source) in NODES.items()}
    store_graph(paper.ctx, implicit)
    server = fake_llm([*unit_rule("mid2", verdict("incorrect")), *judges_say("correct")])
    [result], accounting, settings = run_judges(server)
    assert "no_reliable_anchor" in result.residuals
    assert judge_calls(accounting, PAPER_ID, settings)["repairs"] == 0


def test_repairs_that_never_satisfy_the_judges_stop_after_the_bounded_rounds(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    plan = {"premises": [{"node": "ph", "role": "abduction-phenomenon", "text": "Snail shells in drying pools were thicker, by a little."},
                         {"node": "kn", "role": "abduction-knowledge"}]}
    server = fake_llm([*unit_rule("mid2", verdict("incorrect", "the explanation does not follow")), repair_rule("mid2", plan), *judges_say("correct")])
    [result], accounting, settings = run_judges(server, rounds=2)
    assert result.residuals == ["final_gate_failed"] and result.rounds == 2
    assert judge_calls(accounting, PAPER_ID, settings)["repairs"] == 2


def test_a_repair_naming_a_node_outside_the_unit_is_refused_and_recorded(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    plan = {"premises": [{"node": "n1", "role": "abduction-phenomenon"}, {"node": "kn", "role": "abduction-knowledge"}]}
    server = fake_llm([*unit_rule("mid2", verdict("incorrect")), repair_rule("mid2", plan), *judges_say("correct")])
    [result], _, _ = run_judges(server, rounds=1)
    assert result.repairs_failed == 1 and result.repairs_applied == 0 and result.residuals == ["final_gate_failed"]
    notes = paper.ctx.store.select("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?v WHERE { GRAPH ?g { "
                                   "?a cg:activityKind 'judge-repair' ; cg:hasNote ?n . ?n cg:noteName 'reason' ; <http://www.w3.org/1999/02/22-rdf-syntax-ns#value> ?v } }")
    assert "'n1' is not a premise of the unit into mid2" in notes[0]["v"].value


def test_the_claim_root_is_built_when_the_graph_ends_in_several_conclusions(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    two_roots = {local: value for local, value in NODES.items() if local != "root"}
    store_graph(paper.ctx, two_roots, [edge for edge in EDGES if edge[2] != "root"])
    root = {"text": "Pools that dry out each summer hold fewer snail species than permanent pools.", "source": [1, 0, 0],
            "premises": [{"node": "mid1", "role": "deduction-rule"}, {"node": "mid2", "role": "deduction-case"}], "note": "the paper's claim"}
    server = fake_llm([Rule(replies=[json.dumps(root)], phase="judge-root"), *judges_say("correct")])
    [result], accounting, settings = run_judges(server)
    assert result.root_built and result.accepted and result.units == 3
    assert judge_calls(accounting, PAPER_ID, settings)["root"] == 1
    rows = paper.ctx.store.select("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?n ?s WHERE { GRAPH ?g { "
                                  "?n cg:isRoot true . OPTIONAL { ?n cg:isScaffolding ?s } } }", {"g": paper.ctx.iris.paper(PAPER_ID)})
    assert len(rows) == 1 and "s" not in rows[0] and "/node/judge-" in rows[0]["n"].value


def test_a_graph_left_without_its_claim_root_fails_the_final_gate(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    two_roots = {local: value for local, value in NODES.items() if local != "root"}
    store_graph(paper.ctx, two_roots, [edge for edge in EDGES if edge[2] != "root"])
    server = fake_llm([Rule(replies=["I cannot tell what the paper claims."], phase="judge-root"), *judges_say("correct")])
    [result], _, _ = run_judges(server)
    assert not result.root_built and result.rea == 1.0 and result.residuals == ["final_gate_failed"]
    assert "the graph ends in 2 conclusions, not in one claim root" in result.reasons


def test_discourse_units_are_supports_and_opposes_edges_into_a_claim_or_hypothesis(tmp_path, fake_llm, llm_config) -> None:
    from judge_harness import graph_triples

    from claimgraph.context import Context
    from claimgraph.judge.runner import judge_papers
    from claimgraph.judge.settings import judge_settings
    from claimgraph.llm.accounting import Accounting
    from claimgraph.profile.manifest import load_profile
    from claimgraph.rdf.iris import IriScheme
    from claimgraph.store import EmbeddedStore

    ctx = Context(EmbeddedStore(tmp_path / "discourse"), IriScheme(), load_profile("discourse"))
    nodes = {"h": NODES["root"], "e1": NODES["n1"], "e2": NODES["n2"], "c": NODES["mid1"], "e3": NODES["ph"]}
    kinds = {"h": "Hypothesis", "e1": "Evidence", "e2": "Evidence", "c": "Claim", "e3": "Evidence"}
    triples = [t if not (t.predicate.value.endswith("#type") and t.object.value.endswith("ReasoningNode"))
               else t.__class__(t.subject, t.predicate, CG[kinds[t.subject.value.rsplit("/", 1)[-1]]])
               for t in graph_triples(ctx.iris, nodes, [("e1", "supports", "h"), ("c", "supports", "h"), ("e2", "supports", "c"), ("e3", "opposes", "c")])]
    ctx.store.replace_graph(ctx.iris.paper(PAPER_ID), triples)
    server = fake_llm(judges_say("correct"))
    llm = llm_config(server)
    settings = judge_settings(ctx.profile, llm)
    assert not settings.build_root and settings.node_class == "Evidence"
    [result] = judge_papers(ctx, [PAPER_ID], settings, llm, Accounting())
    assert result.units == 2 and result.accepted
    prompt = server.chat_requests()[0].body["messages"][0]["content"]
    assert "supports: the premise" in prompt and "deduction" not in prompt
    ctx.close()


def paper_residuals(paper: Paper) -> set[str]:
    rows = paper.ctx.store.select("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?r WHERE { GRAPH ?g { ?g cg:residual ?r } }",
                                  {"g": paper.ctx.iris.paper(PAPER_ID)})
    return {row["r"].value for row in rows}


def test_the_run_residuals_go_on_the_paper_where_the_gate_keeps_them_and_a_later_accept_clears_them(paper: Paper, fake_llm, run_judges: RunJudges) -> None:
    from claimgraph.quality.repair import repair_paper

    server = fake_llm([*unit_rule("mid2", verdict("incorrect")), *judges_say("correct")])
    run_judges(server, repair=False)
    assert paper_residuals(paper) == {"final_gate_failed"}
    report = repair_paper(paper.ctx, PAPER_ID).gate
    assert report is not None and not report.accepted and report.residuals == ["final_gate_failed"]
    run_judges(fake_llm(judges_say("correct")), count=1, repair=False)
    assert paper_residuals(paper) == set()


def test_the_judge_residual_labels_are_the_ones_the_clearing_update_and_the_ontology_know() -> None:
    import re

    from claimgraph.assets import asset_path
    from claimgraph.judge.evaluation import RESIDUAL_ORDER

    text = asset_path("sparql", "internal", "clear-judge-residuals.ru").read_text(encoding="utf-8")
    cleared = re.findall(r'"(\w+)"', next(line for line in text.splitlines() if line.strip().startswith("FILTER")))
    declared = asset_path("ontology", "residuals.ttl").read_text(encoding="utf-8")
    assert sorted(cleared) == sorted(RESIDUAL_ORDER)
    assert all(f'skos:notation "{label}" ; cg:residualStage "judge"' in declared for label in RESIDUAL_ORDER)
