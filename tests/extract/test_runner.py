"""LLM extraction end to end through a real local OpenAI-compatible server with scripted replies.

Each scenario asserts the final graph (by SPARQL on the store), the gate
measures after each step, and the calls the server received.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from pyoxigraph import NamedNode

from claimgraph.context import Context
from claimgraph.extract.runner import run_extractions
from claimgraph.llm.accounting import Accounting
from claimgraph.loaders import load_document
from claimgraph.papers.storage import store_document
from claimgraph.profile.manifest import load_profile
from claimgraph.quality.repair import repair_paper
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore, Store
from claimgraph.testing.fake_llm import FakeLLMServer, Rule, dropped, error

CG = "https://w3id.org/claimgraph/ontology/v1#"
PAPER = """# Shade and moss (synthetic)

## Background

Shade slows moss growth in our plots. We ask whether light limits moss growth.

## Results

Moss under shade grew less than moss in the open. This result supports the light hypothesis.
"""
P1 = "Shade slows moss growth"
P2 = "Moss under shade grew less"


def entities(*items: dict) -> str:
    return json.dumps({"entities": list(items)})


def relations(*items: dict, new: tuple[dict, ...] = ()) -> str:
    body: dict = {"relations": list(items)}
    if new:
        body["entities"] = list(new)
    return json.dumps(body)


def node(id: str, type: str, text: str, sentence: int, **extra: object) -> dict:
    return {"id": id, "type": type, "text": text, "sentence": sentence, "confidence": 0.9, **extra}


def rel(source: str, label: str, target: str, sentence: int = 1, confidence: float = 0.8) -> dict:
    return {"source": source, "label": label, "target": target, "sentence": sentence, "confidence": confidence}


P1_ENTITIES = entities(
    node("E1", "Factor", "shade", 1),
    node("E2", "Factor", "moss growth", 1),
    node("E3", "Association", "Shade slows moss growth", 1, arg0="E1", arg1="E2"),
    node("E4", "ResearchQuestion", "Does light limit moss growth?", 2),
    node("E5", "Hypothesis", "Light limits moss growth", 2),
)
P1_RELATIONS = relations(rel("E5", "addresses", "E4", 2))
P2_ENTITIES = entities(
    node("E1", "Evidence", "Shaded moss grew less than moss in the open", 3),
    node("E2", "Claim", "The result supports the light hypothesis", 4),
)
P2_RELATIONS = relations(rel("E1", "supports", "E2", 4))


def clean_script(**overrides: list) -> list[Rule]:
    """Replies for the clean run; overrides replace a (phase, passage) entry, e.g. entities_p1=[...]."""
    table = {
        ("entities", P1): [P1_ENTITIES], ("entities", P2): [P2_ENTITIES],
        ("relations", P1): [P1_RELATIONS], ("relations", P2): [P2_RELATIONS],
        ("orphans", P1): [relations()], ("orphans", P2): [relations()],
        ("gaps", P1): [relations()], ("gaps", P2): [relations()],
        ("dangling", P1): [json.dumps({"decisions": []})], ("dangling", P2): [json.dumps({"decisions": []})],
    }
    for key, replies in overrides.items():
        phase, passage = key.rsplit("_", 1)
        table[(phase, P1 if passage == "p1" else P2)] = replies
    return [Rule(replies, contains=passage, phase=phase) for (phase, passage), replies in table.items()]


@pytest.fixture
def paper_file(tmp_path: Path) -> Path:
    path = tmp_path / "shade-moss.md"
    path.write_text(PAPER, encoding="utf-8")
    return path


class Run:
    def __init__(self, store: Store, paper_file: Path, config, profile_name: str = "discourse") -> None:
        self.store, self.iris, self.profile = store, IriScheme(), load_profile(profile_name)
        self.document = load_document(paper_file)
        self.config = config
        self.accounting = Accounting()

    def __call__(self):
        ctx = Context(self.store, self.iris, self.profile)
        store_document(self.store, self.iris, self.document)
        reports = run_extractions(ctx, [self.document], self.config, self.accounting)
        self.report = reports[self.document.paper_id]
        self.repair = repair_paper(ctx, self.document.paper_id, self.report.activities)
        return self.report

    @property
    def paper(self) -> NamedNode:
        return self.iris.paper(self.document.paper_id)

    def nodes(self) -> set[tuple[str, str]]:
        rows = self.store.select(
            f"SELECT ?type ?text WHERE {{ GRAPH ?g {{ ?n a ?type ; <{CG}text> ?text ; <{CG}inPassage> ?p }} }}", {"g": self.paper})
        return {(row["type"].value.removeprefix(CG), row["text"].value) for row in rows if row["type"].value != CG + "Sentence"}

    def edges(self) -> set[tuple[str, str, str]]:
        rows = self.store.select(
            f"SELECT ?s ?p ?o WHERE {{ GRAPH ?g {{ ?a a <{CG}EdgeAnnotation> ; ?rs ?s0 . ?s0 <{CG}text> ?s . ?a <http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate> ?p ; <http://www.w3.org/1999/02/22-rdf-syntax-ns#object> ?o0 . ?o0 <{CG}text> ?o . FILTER(?rs = <http://www.w3.org/1999/02/22-rdf-syntax-ns#subject>) }} }}",
            {"g": self.paper})
        return {(row["s"].value, row["p"].value.rsplit("#", 1)[-1].rsplit("/", 1)[-1], row["o"].value) for row in rows}

    def measures(self, step: str) -> dict[str, int]:
        return dict(self.report.measures)[step]


@pytest.fixture
def run(paper_file: Path, llm_config) -> Callable[..., Run]:
    """``run(server, **config overrides)``: a pipeline run on one in-memory store shared by the test's runs."""
    store = EmbeddedStore()

    def make(server: FakeLLMServer, **overrides: object) -> Run:
        return Run(store, paper_file, llm_config(server, **overrides))

    return make


def phases_served(server: FakeLLMServer) -> list[str | None]:
    return sorted(request.phase or "" for request in server.chat_requests())


def test_clean_run_builds_the_graph_and_a_second_run_makes_no_calls(fake_llm, run) -> None:
    server = fake_llm(clean_script())
    first = run(server)
    report = first()
    assert report.failed_calls == []
    assert first.nodes() == {
        ("Factor", "shade"), ("Factor", "moss growth"), ("Association", "Shade slows moss growth"),
        ("ResearchQuestion", "Does light limit moss growth?"), ("Hypothesis", "Light limits moss growth"),
        ("Evidence", "Shaded moss grew less than moss in the open"), ("Claim", "The result supports the light hypothesis"),
    }
    assert first.edges() == {
        ("Shade slows moss growth", "arg0", "shade"), ("Shade slows moss growth", "arg1", "moss growth"),
        ("Light limits moss growth", "addresses", "Does light limit moss growth?"),
        ("Shaded moss grew less than moss in the open", "supports", "The result supports the light hypothesis"),
    }
    assert first.measures("entities")["nodes"] == 7 and first.measures("entities")["edges"] == 2
    final = first.measures("dangling")
    assert final["edges"] == 4 and final["dangling_edges"] == 0 and final["orphans"] == 0 and final["shape_violations"] == 0
    assert first.repair.gate.accepted
    # entities + relations for both passages; no orphans, gaps or dangles -> no further calls
    assert phases_served(server) == ["entities", "entities", "relations", "relations"]
    second = run(server)
    second()
    assert len(server.chat_requests()) == 4, "a second run of the same input makes zero calls"
    assert second.accounting.total().as_dict()["cache_hits"] == 4


def test_prose_wrapped_json_gives_the_same_graph(fake_llm, run) -> None:
    wrapped = clean_script(entities_p1=[f"Sure! Here are the entities:\n```json\n{P1_ENTITIES}\n```\nLet me know if you need more."],
                           relations_p2=[f"The relation I found is {P2_RELATIONS} -- that's all."])
    server = fake_llm(wrapped)
    result = run(server)
    result()
    assert ("Association", "Shade slows moss growth") in result.nodes()
    assert ("Shaded moss grew less than moss in the open", "supports", "The result supports the light hypothesis") in result.edges()
    assert result.measures("dangling")["shape_violations"] == 0
    assert len(server.chat_requests()) == 4


def test_python_literal_reply_with_nested_quotes_is_read_without_eval(fake_llm, run) -> None:
    literal = ("{'entities': [{'id': 'E1', 'type': 'Claim', 'text': 'Shade (the \"dark\" kind) slows moss growth', "
               "'sentence': 1, 'confidence': None}, {'id': 'E2', 'type': 'Hypothesis', 'text': \"Light's role (see (a))\", "
               "'sentence': 2, 'confidence': 0.7,}]}")
    server = fake_llm(clean_script(entities_p1=[literal], relations_p1=[relations(rel("E1", "supports", "E2"))]))
    result = run(server)
    result()
    assert len(server.chat_requests()) == 4
    assert {("Claim", 'Shade (the "dark" kind) slows moss growth'), ("Hypothesis", "Light's role (see (a))")} <= result.nodes()
    entities_log = result.report.steps[0]
    assert any("default" in note for note in entities_log.notes), "a missing confidence gets the default and a note"
    confidence = result.store.select(
        f'SELECT ?c WHERE {{ GRAPH ?g {{ ?n <{CG}text> "Shade (the \\"dark\\" kind) slows moss growth" ; <{CG}confidence> ?c }} }}', {"g": result.paper})
    assert confidence[0]["c"].value == "0.5"


def test_association_missing_arg1_is_fixed_by_a_focused_reprompt(fake_llm, run) -> None:
    broken = entities(node("E1", "Factor", "shade", 1), node("E2", "Factor", "moss growth", 1),
                      node("E3", "Association", "Shade slows moss growth", 1, arg0="E1"))
    fixed = entities(node("E3", "Association", "Shade slows moss growth", 1, arg0="E1", arg1="E2"))
    script = clean_script(entities_p1=[broken], relations_p1=[relations()])
    script.insert(0, Rule([fixed], contains="failed validation", phase="entities"))
    server = fake_llm(script)
    result = run(server)
    result()
    assert len(server.chat_requests()) == 5, "2 entities + 1 re-prompt + 2 relations"
    reprompts = [r for r in server.chat_requests("entities") if "failed validation" in r.last_user_message]
    assert len(reprompts) == 1
    assert '"id": "E3"' in reprompts[0].last_user_message
    assert "cg:arg1: expected exactly 1, found 0" in reprompts[0].last_user_message
    assert "Every Association must have exactly one arg1 pointing to a Factor" in reprompts[0].last_user_message
    assert ("Shade slows moss growth", "arg1", "moss growth") in result.edges()
    assert result.report.steps[0].reprompts == 1 and result.measures("entities")["shape_violations"] == 0


def test_a_node_still_invalid_after_the_bound_is_dropped_and_recorded(fake_llm, run) -> None:
    broken = entities(node("E1", "Factor", "shade", 1), node("E3", "Association", "Shade slows moss growth", 1, arg0="E1"))
    script = clean_script(entities_p1=[broken], relations_p1=[relations()])
    script.insert(0, Rule([broken], contains="failed validation", phase="entities"))
    server = fake_llm(script)
    result = run(server)
    result()
    assert len(server.chat_requests()) == 7, "2 entities + 2 re-prompts + 2 relations + 1 orphans"
    assert ("Association", "Shade slows moss growth") not in result.nodes()
    log = result.report.steps[0]
    assert log.reprompts == 2 and log.nodes_dropped == 1
    assert any("dropped Association E3 (cg:arg1: expected exactly 1, found 0)" in note for note in log.notes)
    trail = result.store.select(f"SELECT ?v WHERE {{ GRAPH ?a {{ ?n <{CG}noteName> ?k ; <http://www.w3.org/1999/02/22-rdf-syntax-ns#value> ?v }} }}",
                                {"a": result.iris.audit_graph(result.document.paper_id)})
    assert any("dropped Association E3" in row["v"].value for row in trail)


def test_dangling_names_are_matched_created_or_dropped(fake_llm, run) -> None:
    p2_relations = relations(rel("E1", "supports", "E2", 4), rel("shaded moss", "supports", "E2", 3),
                             rel("E1", "supports", "light-limitation hypothesis", 4), rel("E1", "opposes", "the weather", 4))
    decisions = json.dumps({"decisions": [
        {"name": "shaded moss", "action": "match", "id": "E1"},
        {"name": "light-limitation hypothesis", "action": "create", "type": "Hypothesis", "text": "Light limits moss growth in shade"},
        {"name": "the weather", "action": "drop"},
    ]})
    server = fake_llm(clean_script(relations_p2=[p2_relations], dangling_p2=[decisions]))
    result = run(server)
    result()
    assert len(server.chat_requests()) == 5
    assert result.measures("gaps")["dangling_edges"] == 3
    assert result.measures("dangling")["dangling_edges"] == 0
    log = result.report.steps[-1]
    assert (log.matched, log.created, log.edges_dropped) == (1, 1, 1)
    assert ("Hypothesis", "Light limits moss growth in shade") in result.nodes()
    assert ("Shaded moss grew less than moss in the open", "supports", "Light limits moss growth in shade") in result.edges()
    assert not any(o == "the weather" for _, _, o in result.edges())
    assert [r.phase for r in server.chat_requests("dangling")] == ["dangling"], "one call for the one passage with dangles"


def test_orphans_are_linked_or_dropped_in_phase_three(fake_llm, run) -> None:
    p1 = entities(node("E4", "ResearchQuestion", "Does light limit moss growth?", 2), node("E5", "Hypothesis", "Light limits moss growth", 2),
                  node("E6", "Claim", "Moss is green", 1))
    orphan_reply = json.dumps({"relations": [rel("E5", "addresses", "E4", 2)], "drop": [{"id": "E6", "reason": "not a claim of the study"}]})
    server = fake_llm(clean_script(entities_p1=[p1], relations_p1=[relations()], orphans_p1=[orphan_reply]))
    result = run(server)
    result()
    assert len(server.chat_requests()) == 5
    assert result.measures("relations")["orphans"] == 3
    assert result.measures("orphans")["orphans"] == 0
    assert ("Claim", "Moss is green") not in result.nodes()
    assert ("Light limits moss growth", "addresses", "Does light limit moss growth?") in result.edges()
    assert sorted(r.phase for r in server.chat_requests("orphans")) == ["orphans"]


def test_a_colocation_gap_gets_one_focused_call_for_its_passage(fake_llm, run) -> None:
    p2 = entities(node("E1", "Evidence", "Shaded moss grew less than moss in the open", 3),
                  node("E2", "Claim", "The result supports the light hypothesis", 4),
                  node("E3", "Claim", "Open moss grew more", 3))
    p2_rel = relations(rel("E1", "supports", "E2", 4), rel("E3", "supports", "P1-hypothesis", 3))
    gap_reply = relations(rel("E1", "supports", "E3", 3))
    match = json.dumps({"decisions": [{"name": "P1-hypothesis", "action": "match", "id": "E2"}]})
    server = fake_llm(clean_script(entities_p2=[p2], relations_p2=[p2_rel], gaps_p2=[gap_reply], dangling_p2=[match]))
    result = run(server)
    result()
    assert len(server.chat_requests()) == 7, "4 + orphans, gaps and dangling for passage 2"
    assert result.measures("orphans")["passage_gaps"] == 1
    assert result.measures("gaps")["passage_gaps"] == 0
    assert ("Shaded moss grew less than moss in the open", "supports", "Open moss grew more") in result.edges()
    assert [r.phase for r in server.chat_requests("gaps")] == ["gaps"]


def test_429_with_retry_after_then_success(fake_llm, run) -> None:
    script = clean_script(entities_p1=[error(429, retry_after=0.2), P1_ENTITIES])
    server = fake_llm(script)
    result = run(server)
    result()
    assert len(server.chat_requests()) == 5
    entity_calls = server.chat_requests("entities")
    assert [r.status for r in entity_calls].count(429) == 1 and len(entity_calls) == 3
    assert ("Association", "Shade slows moss growth") in result.nodes()
    assert result.report.failed_calls == []


def test_repeated_500s_fail_that_passage_and_the_rest_goes_on(fake_llm, run) -> None:
    server = fake_llm(clean_script(entities_p1=[error(500)]))
    result = run(server, max_retries=2)
    result()
    assert len(server.chat_requests()) == 5, "3 attempts for passage 1, entities + relations for passage 2"
    assert len([r for r in server.chat_requests("entities") if r.status == 500]) == 3
    assert result.report.failed_calls and "entities passage 1" in result.report.failed_calls[0]
    assert ("Evidence", "Shaded moss grew less than moss in the open") in result.nodes()
    assert not any(text == "shade" for _, text in result.nodes())
    assert result.measures("dangling")["nodes"] == 2


def test_a_timeout_is_retried_and_then_succeeds(fake_llm, run) -> None:
    from claimgraph.testing.fake_llm import Reply

    server = fake_llm(clean_script(entities_p2=[Reply(content=P2_ENTITIES, delay=1.5), dropped(), P2_ENTITIES]))
    result = run(server, timeout=0.5, max_retries=3)
    result()
    assert len(server.chat_requests()) == 6
    assert result.report.failed_calls == []
    assert ("Claim", "The result supports the light hypothesis") in result.nodes()
    assert result.accounting.total().as_dict()["attempts"] >= 6


def test_garbage_text_yields_no_nodes_and_a_diagnostic(fake_llm, run) -> None:
    server = fake_llm(clean_script(entities_p1=["I am sorry, I cannot help with that :) [[[ }}"], relations_p1=[relations()]))
    result = run(server)
    result()
    assert len(server.chat_requests()) == 3
    assert not any(text in {"shade", "moss growth"} for _, text in result.nodes())
    assert result.measures("entities")["nodes"] == 2
    assert result.report.steps[0].notes, "the skipped reply is recorded"
    assert ("Evidence", "Shaded moss grew less than moss in the open") in result.nodes()
