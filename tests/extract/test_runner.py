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
    return [Rule(replies, phase=phase, passage=1 if passage == P1 else 2) for (phase, passage), replies in table.items()]


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


def test_work_handed_to_the_store_thread_never_holds_the_extraction_being_edited(fake_llm, run, monkeypatch) -> None:
    """Other passages' replies add nodes while a validation runs in the worker thread; the worker must get finished lists."""
    from claimgraph.extract import runner
    from claimgraph.extract.model import PaperExtraction
    from claimgraph.extract.steps import StoreTurns

    handed: list[object] = []

    class RecordingTurns(StoreTurns):
        async def run(self, work, *args):
            handed.extend(args)
            return await super().run(work, *args)

    monkeypatch.setattr(runner, "StoreTurns", RecordingTurns)
    broken = entities(node("E1", "Factor", "shade", 1), node("E3", "Association", "Shade slows moss growth", 1, arg0="E1"))
    script = clean_script(entities_p1=[broken])
    script.insert(0, Rule([broken], contains="failed validation", phase="entities"))
    run(fake_llm(script))()
    assert handed, "the run used the store thread"
    live = [type(arg).__name__ for arg in handed if isinstance(arg, PaperExtraction) or (isinstance(arg, dict) and any(isinstance(k, tuple) for k in arg))]
    assert live == []


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


def test_garbage_text_fails_that_call_is_not_cached_and_makes_the_paper_incomplete(fake_llm, run) -> None:
    server = fake_llm(clean_script(entities_p1=["I am sorry, I cannot help with that :) [[[ }}", P1_ENTITIES]))
    result = run(server)
    result()
    assert len(server.chat_requests()) == 3, "entities for both passages, relations for passage 2 only"
    assert not any(text in {"shade", "moss growth"} for _, text in result.nodes())
    assert ("Evidence", "Shaded moss grew less than moss in the open") in result.nodes()
    (failure,) = result.report.failed_calls
    assert failure.startswith("entities passage 1: reply unusable") and "not cached" in failure
    assert result.report.residual == "extraction_incomplete"
    assert result.repair.gate is not None and "extraction_incomplete" in result.repair.gate.residuals
    again = run(server)
    again()
    second = server.chat_requests()[3:]
    assert [(r.phase, r.passage) for r in second] == [("entities", 1), ("relations", 1)], "only what was missing is asked"
    assert again.report.failed_calls == [] and again.report.residual is None
    assert again.repair.gate is not None and again.repair.gate.accepted


# ---------------------------------------------------------------- structured output, provenance, anchors, co-location


def step_counts(result: Run, step: str) -> dict[str, int]:
    from claimgraph.papers.audit_trail import audit_trail

    trail = audit_trail(result.store, result.iris, result.document.paper_id)
    return next(entry["counts"] for entry in trail if entry["kind"] == "extract" and entry["name"] == step)  # type: ignore[return-value]


@pytest.mark.parametrize("mode", ["accept", "refuse"])
def test_replies_take_the_structured_path_or_fall_back_and_the_audit_counts_which(fake_llm, run, mode: str) -> None:
    server = fake_llm(clean_script(), response_format=mode)
    result = run(server, max_concurrency=1)
    result()
    requests = server.chat_requests()
    refused = [r for r in requests if r.status == 400]
    assert len(requests) == (4 if mode == "accept" else 5), "one refusal, then the client asks without response_format"
    assert len(refused) == (0 if mode == "accept" else 1) and all(r.structured for r in refused)
    entities_request = next(r for r in requests if r.phase == "entities" and r.status == 200)
    assert entities_request.structured == (mode == "accept")
    if mode == "accept":
        schema = entities_request.body["response_format"]["json_schema"]["schema"]
        node = schema["properties"]["entities"]["items"]
        assert node["properties"]["type"]["enum"] == ["Association", "Claim", "Evidence", "Factor", "Hypothesis", "ResearchQuestion",
                                                       "StatisticalMethod", "StudyDesign", "Variable"]
        assert node["properties"]["confidence"] == {"type": "number", "minimum": 0.0, "maximum": 1.0}
        assert node["properties"]["text"] == {"type": "string", "minLength": 1}
    counts = step_counts(result, "entities")
    paths = (counts["llm_structured"], counts["llm_unstructured"], counts["llm_refusals"])
    assert paths == ((2, 0, 0) if mode == "accept" else (0, 2, 1))
    assert result.repair.gate is not None and result.repair.gate.accepted


def test_each_node_points_to_its_step_and_the_step_to_its_software_agent_without_keys(fake_llm, run) -> None:
    from claimgraph.rdf.queries import read_named_query

    server = fake_llm(clean_script())
    result = run(server, api_key="sk-very-secret-key")
    result()
    rows = result.store.select(read_named_query("who-extracted"), {"paper": result.paper})
    by_node = {row["node"].value.rsplit("/", 1)[1]: row for row in rows}
    assert sorted(by_node) == ["p1-E1", "p1-E2", "p1-E3", "p1-E4", "p1-E5", "p2-E1", "p2-E2"]
    row = by_node["p1-E3"]
    host = server.base_url.split("//", 1)[1].split("/", 1)[0]
    assert (row["step"].value, row["model"].value, row["host"].value) == ("entities", "fake-model", host)
    assert row["maxTokens"].value == "2048" and row["structured"].value == "true" and len(row["templateHash"].value) == 16
    from claimgraph import __version__
    assert row["version"].value == __version__
    dumped = " ".join(str(t) for graph in (result.paper, result.iris.raw_graph("shade-moss"), result.iris.audit_graph("shade-moss"))
                      for t in result.store.triples(graph))
    assert "sk-very-secret-key" not in dumped and "/v1" not in dumped.split("endpointHost", 1)[1][:80]


def test_endpoint_host_keeps_no_credentials_path_or_query() -> None:
    from claimgraph.extract.runner import endpoint_host
    from claimgraph.llm.config import LLMConfig

    assert endpoint_host(LLMConfig(base_url="https://user:pass@llm.example.org:8443/v1?key=abc")) == "llm.example.org:8443"
    assert endpoint_host(LLMConfig()) == "api.openai.com"
    assert endpoint_host(LLMConfig(replay_dir=Path("examples/demo/recordings"))) == "replay:recordings"


def test_a_node_without_a_sentence_is_still_anchored_and_valid(fake_llm, run) -> None:
    p2 = entities(node("E1", "Evidence", "Shaded moss grew less than moss in the open", 99),
                  node("E2", "Claim", "The result supports the light hypothesis", 4))
    server = fake_llm(clean_script(entities_p2=[p2]))
    result = run(server)
    result()
    evidence = result.iris.extracted_node("shade-moss", "p2-E1")
    values = {(t.predicate.value.rsplit("#", 1)[-1].rsplit("/", 1)[-1], t.object.value) for t in result.store.triples(result.paper)
              if t.subject == evidence}
    assert {("sourceSentence", "0"), ("sourceReference", "0"), ("sourceViewpoint", "0")} <= values
    assert ("wasDerivedFrom", result.iris.node("shade-moss", "passage", "2").value) in values
    assert not any(name == "inSentence" for name, _ in values)
    assert result.measures("dangling")["shape_violations"] == 0


def test_colocation_connectivity_is_measured_in_the_store_after_each_step(fake_llm, run) -> None:
    server = fake_llm(clean_script())
    result = run(server)
    report = result()
    # passage 1: 5 nodes, 10 pairs, linked E3-E1, E3-E2 (slots) and E5-E4; passage 2: 1 pair, linked
    assert (result.measures("dangling")["colocated_pairs"], result.measures("dangling")["colocated_pairs_linked"]) == (11, 4)
    assert (report.colocation.pairs, report.colocation.linked) == (11, 4)
    assert report.colocation.pair_ratio == pytest.approx(4 / 11)
    assert report.colocation.node_share == pytest.approx((0.25 * 4 + 0.5 + 1 + 1) / 7)


def test_dangling_resolution_sees_every_passage_and_can_match_across_them(fake_llm, run) -> None:
    p2_relations = relations(rel("E1", "supports", "E2", 4), rel("E1", "supports", "the light limitation hypothesis", 4))
    decisions = json.dumps({"decisions": [{"name": "the light limitation hypothesis", "action": "match", "id": "p1-E5"}]})
    server = fake_llm(clean_script(relations_p2=[p2_relations], dangling_p2=[decisions]))
    result = run(server)
    result()
    (prompt,) = [r.last_user_message for r in server.chat_requests("dangling")]
    assert '"id": "p1-E5"' in prompt and '"id": "E1"' in prompt, "other passages' nodes are listed by qualified id"
    assert ("Shaded moss grew less than moss in the open", "supports", "Light limits moss growth") in result.edges()
    assert result.measures("dangling")["dangling_edges"] == 0
