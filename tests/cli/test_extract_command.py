"""``claimgraph --profile peirce ingest`` extracts a reasoning graph from text; ``claimgraph extract`` re-runs steps alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimgraph.cli.main import main
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_named_query
from claimgraph.store import open_store
from claimgraph.testing.fake_llm import Rule, error

CG = "https://w3id.org/claimgraph/ontology/v1#"
PAPER = """# Warm soils

## Results

Microbial respiration rises with temperature in every soil studied. Our plots were warmed by three degrees.
Respiration in the warmed plots rose. Carbon loss follows respiration in soils. Warming will release soil carbon.
"""
GRAPH = {
    "nodes": [
        {"id": "n1", "text": "Microbial respiration rises with temperature", "source": "(1,0,0)"},
        {"id": "n2", "text": "The plots were warmed", "source": "(2,0,0)"},
        {"id": "n3", "text": "Respiration in the warmed plots rose", "source": "(3,0,0)"},
        {"id": "n4", "text": "Carbon loss follows respiration", "source": "(4,0,0)"},
        {"id": "n5", "text": "Warming will release soil carbon", "source": "(5,0,0)", "root": True},
    ],
    "edges": [
        {"source": "n1", "target": "n3", "label": "deduction-rule"}, {"source": "n2", "target": "n3", "label": "deduction-case"},
        {"source": "n3", "target": "n5", "label": "abduction-phenomenon"}, {"source": "n4", "target": "n5", "label": "abduction-knowledge"},
    ],
}


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    path = tmp_path / "warm-soils.md"
    path.write_text(PAPER, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_peirce_ingest_of_prose_extracts_a_reasoning_graph_then_repairs_and_gates_it(fake_llm, paper: Path, tmp_path: Path, capsys,
                                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server = fake_llm([Rule([f"Here is the graph:\n```json\n{json.dumps(GRAPH)}\n```"], phase="reasoning")])
    store, cache = str(tmp_path / "store"), str(tmp_path / "cache")
    llm = ["--base-url", server.base_url, "--model", "fake-model", "--cache-dir", cache]
    code, output = run(capsys, "--store", store, "--profile", "peirce", "ingest", str(paper), "--no-canonicalize", *llm)
    assert code == 0, output
    (request,) = server.chat_requests()
    assert request.structured and "REASONING GRAPH of paper warm-soils" in request.last_user_message
    assert "[3] Respiration in the warmed plots rose." in request.last_user_message
    iris = IriScheme()
    with open_store(store) as opened:
        nodes = opened.select(f"SELECT ?n ?s WHERE {{ GRAPH ?g {{ ?n a <{CG}ReasoningNode> ; <http://www.w3.org/ns/prov#wasDerivedFrom> ?s }} }}",
                              {"g": iris.paper("warm-soils")})
        assert sorted(row["s"].value.rsplit("/", 1)[1] for row in nodes) == ["1", "2", "3", "4", "5"]
        who = opened.select(read_named_query("who-extracted"), {"paper": iris.paper("warm-soils")})
        assert len(who) == 5 and {row["model"].value for row in who} == {"fake-model"}
    assert "accepted" in output
    code, output = run(capsys, "--store", store, "--profile", "peirce", "extract", "--paper", "warm-soils", *llm)
    assert code == 0, output
    assert len(server.chat_requests()) == 1, "extracting again is served from the cache"


def _cited_sentence(paper: dict) -> tuple[dict, str, str]:
    """The first sentence of an ARCHE paper with a cited reference that has a viewpoint: (sentence, reference, text)."""
    for sentence in paper["introduction"]["sentences"]:
        for reference, viewpoints in sentence["references"].items():
            if viewpoints:
                number, text = next(iter(viewpoints.items())) if isinstance(viewpoints, dict) else ("1", viewpoints[0])
                return sentence, reference, text
    raise AssertionError("the synthetic paper cites nothing")


def test_peirce_ingest_of_arche_input_asks_for_its_reasoning_graph_showing_the_given_viewpoints(
        fake_llm, synthetic_arche_dir: Path, tmp_path: Path, capsys) -> None:
    path = sorted(synthetic_arche_dir.glob("*.json"))[0]
    paper = json.loads(path.read_text(encoding="utf-8"))
    paper_id = paper["file_info"]["base_id"]
    sentence, reference, cited = _cited_sentence(paper)
    x = sentence["idx"]
    graph = {"nodes": [{"id": "n1", "text": cited, "source": f"({x},{reference},1)"},
                       {"id": "n2", "text": sentence["viewpoints"][0], "source": f"({x},0,1)", "root": True}],
             "edges": [{"source": "n1", "target": "n2", "label": "abduction-knowledge"}]}
    server = fake_llm([Rule([json.dumps(graph)], phase="reasoning")])
    store = str(tmp_path / "store")
    llm = ["--base-url", server.base_url, "--model", "fake-model", "--cache-dir", str(tmp_path / "cache")]
    code, output = run(capsys, "--store", store, "--profile", "peirce", "ingest", str(path), "--no-canonicalize", *llm)
    (request,) = server.chat_requests()
    prompt = request.last_user_message
    assert f"[{x}] {sentence['sentence']}" in prompt
    assert f"    ({x},{reference},1) cited: {cited}" in prompt and f"    ({x},0,1) {sentence['viewpoints'][0]}" in prompt
    assert "the reference that sentence cites" in prompt and "(s,0,0)" not in prompt
    with open_store(store) as opened:
        sources = opened.select(f"SELECT ?y WHERE {{ GRAPH ?g {{ ?n a <{CG}ReasoningNode> ; <{CG}sourceReference> ?y }} }}",
                                {"g": IriScheme().paper(paper_id)})
    assert sorted(row["y"].value for row in sources) == sorted(["0", str(reference)]), output
    code, output = run(capsys, "--store", store, "--profile", "peirce", "extract", "--paper", paper_id, *llm)
    assert code in (0, 1) and "holds its claims" not in output, output
    assert len(server.chat_requests()) == 1, "asking again for a stored ARCHE paper is served from the cache"


def test_peirce_ingest_of_arche_input_without_an_endpoint_is_not_accepted_empty(synthetic_arche_dir: Path, tmp_path: Path, capsys) -> None:
    path = sorted(synthetic_arche_dir.glob("*.json"))[0]
    code, output = run(capsys, "--store", str(tmp_path / "store"), "--profile", "peirce", "ingest", str(path), "--no-canonicalize")
    assert code == 1 and "extraction_not_run" in output, output


def test_a_reasoning_extraction_that_gets_no_reply_is_a_residual_with_exit_1(fake_llm, paper: Path, tmp_path: Path, capsys) -> None:
    server = fake_llm([Rule([error(500)])])
    llm = ["--base-url", server.base_url, "--cache-dir", str(tmp_path / "cache"), "--max-retries", "1"]
    code, output = run(capsys, "--store", str(tmp_path / "store"), "--profile", "peirce", "ingest", str(paper), "--no-canonicalize", *llm)
    assert code == 1 and len(server.chat_requests()) == 2
    assert "skipped: warm-soils reasoning paper: HTTP 500" in output and "extraction_failed" in output


def test_extract_runs_one_discourse_step_on_a_stored_paper(fake_llm, paper: Path, tmp_path: Path, capsys) -> None:
    entities = json.dumps({"entities": [{"id": "E1", "type": "Claim", "text": "Warming releases soil carbon", "sentence": 5, "confidence": 0.9},
                                        {"id": "E2", "type": "Evidence", "text": "Respiration rose in warmed plots", "sentence": 3, "confidence": 0.8}]})
    relations = json.dumps({"relations": [{"source": "E2", "label": "supports", "target": "E1", "confidence": 0.8}]})
    server = fake_llm([Rule([entities], phase="entities"), Rule([relations], phase="relations"), Rule(['{"relations": []}'])])
    store = str(tmp_path / "store")
    llm = ["--base-url", server.base_url, "--cache-dir", str(tmp_path / "cache")]
    assert run(capsys, "--store", store, "ingest", str(paper), "--no-canonicalize", *llm)[0] == 0
    calls = len(server.chat_requests())
    code, output = run(capsys, "--store", store, "extract", "--paper", "warm-soils", "--step", "relations", *llm)
    assert code == 0, output
    assert len(server.chat_requests()) == calls, "the same prompt: a cache hit"
    assert "co-location connectivity 1/1 co-located pairs linked (100%)" in output
    code, output = run(capsys, "--store", store, "extract", "--paper", "warm-soils", "--step", "summaries", *llm)
    assert code == 2 and "unknown extraction step summaries" in output
