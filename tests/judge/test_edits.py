"""Local repairs and replies: what a plan may change, what it may not, and how replies are read."""

from __future__ import annotations

import pytest
from judge_harness import PAPER_ID, Paper
from pyoxigraph import NamedNode

from claimgraph.judge.edits import PlanError, apply_repair
from claimgraph.judge.prompts import ReplyError, json_object, parse_repair, parse_root, parse_verdict
from claimgraph.judge.runner import edit_context
from claimgraph.judge.settings import JudgeSettingsError, judge_settings, parse_model
from claimgraph.judge.units import Unit, read_units
from claimgraph.llm.config import LLMConfig
from claimgraph.profile.ontology import edge_labels
from claimgraph.quality.grounding import audit_paper
from claimgraph.rdf.vocab import CG


def unit_into(paper: Paper, local: str) -> Unit:
    units = read_units(paper.ctx, PAPER_ID, audit_paper(paper.ctx, PAPER_ID))
    return next(unit for unit in units if unit.conclusion.local == local)


def repaired(paper: Paper, local: str, reply: str):
    settings = judge_settings(paper.ctx.profile, LLMConfig(model="m"))
    edit = edit_context(paper.ctx, PAPER_ID, settings)
    predicates = {NamedNode(iri) for iri in edge_labels(paper.ctx.profile).values()}
    triples = paper.ctx.store.triples(paper.ctx.iris.paper(PAPER_ID))
    return triples, apply_repair(triples, unit_into(paper, local), parse_repair(reply), edit, predicates)


def test_units_list_premises_by_role_with_their_cited_sentences(paper: Paper) -> None:
    unit = unit_into(paper, "mid1")
    assert [(premise.role, premise.node.local) for premise in unit.premises] == [
        ("induction-case", "n1"), ("induction-case", "n2"), ("induction-common", "c")]
    assert unit.anchored and all(premise.node.grounded for premise in unit.premises)
    described = unit.describe()
    assert "cites (5, 0, 0): On the northern shores drying pools held half" in described


def test_a_repair_can_relabel_retext_and_add_a_premise(paper: Paper) -> None:
    reply = ('{"conclusion": {"text": "Drying over weeks removes snails."}, "premises": ['
             '{"node": "c", "role": "Induction common"}, {"node": "n1", "role": "ica", "text": "Northern drying pools held half the species."},'
             '{"node": null, "role": "induction-case", "text": "Surveys counted snail species.", "source": [4, 0, 0]},'
             '{"node": "n2", "role": "induction-case"}]}')
    before, change = repaired(paper, "mid1", reply)
    assert change.counts == {"premises_added": 1, "premises_dropped": 0, "roles_changed": 0, "texts_changed": 2, "nodes_removed": 0}
    added = [t for t in change.triples if t not in before and t.predicate == CG.inductionCase and t.subject.value.rsplit("/", 1)[-1].startswith("judge-")]
    assert len(added) == 1
    new_node = added[0].subject
    assert any(t.subject == new_node and t.predicate.value.endswith("wasDerivedFrom") and t.object.value.endswith("/sentence/4") for t in change.triples)


def test_dropping_a_leaf_premise_removes_its_node_and_a_premise_with_premises_cannot_go_silently(paper: Paper) -> None:
    _, change = repaired(paper, "mid1", '{"premises": [{"node": "c", "role": "induction-common"}, {"node": "n1", "role": "induction-case"}]}')
    assert change.counts["premises_dropped"] == 1 and change.counts["nodes_removed"] == 1
    assert not any(t.subject == paper.node("n2") for t in change.triples)
    _, change = repaired(paper, "root", '{"premises": [{"node": "mid1", "role": "deduction-rule"}]}')
    assert change.counts["premises_dropped"] == 1 and change.counts["nodes_removed"] == 0  # mid2 keeps its own premises
    assert any(t.subject == paper.node("mid2") for t in change.triples)


@pytest.mark.parametrize(("reply", "problem"), [
    ('{"premises": [{"node": "ph", "role": "induction-case"}]}', r"'ph' is not a premise of the unit into mid1"),
    ('{"premises": [{"node": "c", "role": "supports"}]}', r"role 'supports' is not one of"),
    ('{"premises": [{"node": null, "role": "induction-case"}]}', r"a new premise needs a text"),
    ('{"premises": [{"node": "c", "role": "induction-common"}, {"node": "c", "role": "induction-case"}]}', r"names one premise twice"),
])
def test_a_plan_reaching_outside_its_unit_is_refused(paper: Paper, reply: str, problem: str) -> None:
    with pytest.raises(PlanError, match=problem):
        repaired(paper, "mid1", reply)


@pytest.mark.parametrize(("reply", "problem"), [
    ("no json here", "no JSON object"),
    ('{"premises": []}', "lists no premises"),
    ('{"premises": [{"node": "c", "role": "r", "source": [1, 2]}]}', r"source must be \[x, y, z\]"),
    ('{"premises": [{"node": "c", "role": "r", "text": "  "}]}', "non-empty text"),
    ('{"conclusion": "x", "premises": [{"node": "c", "role": "r"}]}', "conclusion must be an object"),
])
def test_malformed_repair_replies_are_reply_errors(reply: str, problem: str) -> None:
    with pytest.raises(ReplyError, match=problem):
        parse_repair(reply)


def test_replies_are_read_from_prose_and_fences_never_evaluated() -> None:
    assert json_object('Here you go:\n```json\n{"verdict": "correct", "feedback": "a } in text"}\n```') == {"verdict": "correct", "feedback": "a } in text"}
    assert parse_verdict('{"verdict": "INCORRECT", "grounded": "no"}').grounded is False
    with pytest.raises(ReplyError, match="not one of correct, incorrect"):
        parse_verdict('{"verdict": "maybe"}')
    with pytest.raises(ReplyError, match="no JSON object"):
        json_object("__import__('os').system('true')")
    assert parse_root('{"text": "Claim.", "premises": [{"node": "a", "role": "deduction-rule"}]}').source == (0, 0, 0)


def test_the_panel_cycles_models_and_names_each_judge(paper: Paper) -> None:
    settings = judge_settings(paper.ctx.profile, LLMConfig(model="base"), count=3, models=["a", "b@http://other:8000/v1"])
    assert [(judge.name, judge.model, judge.base_url) for judge in settings.judges] == [
        ("j1", "a", None), ("j2", "b", "http://other:8000/v1"), ("j3", "a", None)]
    assert settings.build_root and settings.node_class == "ReasoningNode"
    signatures = {judge.signature("http://x/v1", 0.0) for judge in settings.judges}
    assert len(signatures) == 3
    assert parse_model("m") == ("m", None)
    with pytest.raises(JudgeSettingsError, match="MODEL@http"):
        parse_model("m@ftp://host")
    with pytest.raises(JudgeSettingsError, match="at least one judge"):
        judge_settings(paper.ctx.profile, LLMConfig(model="base"), count=0)
