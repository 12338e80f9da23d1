"""``claimgraph demo`` replays its recordings offline and shows every step; the recordings match the prompts."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimgraph.cli.main import main
from claimgraph.context import Context
from claimgraph.demo import demo_config, demo_papers
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore, open_store
from claimgraph.workflow import IngestOptions, Workflow

CG = "https://w3id.org/claimgraph/ontology/v1#"


def test_recordings_cover_every_call_of_the_demo() -> None:
    """Fails when a prompt template changed without `python examples/demo/record.py`."""
    result = Workflow(Context(EmbeddedStore())).ingest(demo_papers(), IngestOptions(llm=demo_config(), canonicalize=False, validate=False))
    assert result.failures == []
    assert [f for report in result.extractions for f in report.failed_calls] == []
    totals = result.accounting.total().as_dict()
    assert totals["calls"] == 22 and totals["failures"] == 0


def test_demo_runs_offline_and_prints_each_step(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # unreachable: the demo must not use it
    store = str(tmp_path / "store")
    code = main(["--store", store, "demo", "--verbose"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert "replaying recorded LLM responses" in err
    header = next(line for line in out.splitlines() if "entities" in line and "dangling" in line)
    assert all(step in header for step in ("relations", "orphans", "gaps", "repaired"))
    assert "canonicalize_edge_labels" in out and "drop_self_loops" in out
    with open_store(store) as opened:
        paper = IriScheme().paper("soil-warming")
        opposes = opened.select(f"SELECT ?s WHERE {{ GRAPH ?g {{ ?s <{CG}opposes> ?o }} }}", {"g": paper})
        assert len(opposes) == 1, "the recorded 'contradicts' label was canonicalized by repair"
        loops = opened.select("SELECT ?s WHERE { GRAPH ?g { ?s ?p ?s } }", {"g": paper})
        assert loops == []
        hubs = opened.scalar(f"SELECT (COUNT(?h) AS ?n) WHERE {{ GRAPH ?c {{ ?h a <{CG}CanonicalNode> }} }}", {"c": IriScheme().canonical_graph()})
        merged = opened.scalar("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?c { ?member <http://www.w3.org/2004/02/skos/core#exactMatch> ?merge } }",
                               {"c": IriScheme().canonical_graph()})  # merges are links in the canonical graph
    assert hubs > 0
    assert merged >= 1, "the two soil papers share factors, which merge across papers"
    convergence = out.split("convergence (computed in the store)", 1)[1]
    hub_row = next(line.split() for line in convergence.splitlines() if line.startswith("hubs "))
    assert hub_row[1:3] == ["0", str(hubs)], "the convergence table reports the store's hubs"


def test_demo_ends_with_a_short_summary_from_the_store_and_the_next_commands(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    store = str(tmp_path / "store")
    assert main(["--store", store, "demo"]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) < 20, out
    with open_store(store) as opened:
        hubs = opened.scalar(f"SELECT (COUNT(?h) AS ?n) WHERE {{ GRAPH ?c {{ ?h a <{CG}CanonicalNode> }} }}", {"c": IriScheme().canonical_graph()})
        papers = opened.scalar(f"SELECT (COUNT(?p) AS ?n) WHERE {{ GRAPH ?p {{ ?p a <{CG}Paper> }} }}")
    assert f"{papers} papers stored in {store}" in out
    assert f"links across papers: {hubs} CANON_ hubs" in out
    assert "accepted by the gate: 3 of 3 papers" in out
    assert [line.split()[0] for line in out.split("next:", 1)[1].splitlines() if line.strip().startswith("claimgraph")] == ["claimgraph"] * 3
