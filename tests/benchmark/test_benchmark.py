"""``claimgraph benchmark``: recorded and generated reasoning graphs per model, scored by the PEARL loop, figures from the store.

Scripted models on the real fake OpenAI server write a clean graph, reversed
roots, a cut reply, garbage, or never answer; the table's counts and residual
types come from the shipped queries; a re-run skips every stored run and
makes no call; a unit the judges reject is repaired in round 1 and accepted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimgraph.cli.main import main
from claimgraph.context import Context
from claimgraph.loaders import Document, load_document
from claimgraph.profile.manifest import load_profile
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore
from claimgraph.testing.fake_llm import Rule, hang
from claimgraph.workflow import IngestOptions, Workflow

PAPERS = 3
# n0 <- (n1 DR, n2 DC); n1 <- (n3 AP, n4 AK); n2 <- (n5 ICo, n6 ICa, n7 ICa)
EDGES = [("n1", "deduction-rule", "n0"), ("n2", "deduction-case", "n0"), ("n3", "abduction-phenomenon", "n1"),
         ("n4", "abduction-knowledge", "n1"), ("n5", "induction-common", "n2"), ("n6", "induction-case", "n2"),
         ("n7", "induction-case", "n2")]


def viewpoints(document: Document, count: int = 8) -> list[tuple[tuple[int, int, int], str]]:
    seen: dict[str, tuple[tuple[int, int, int], str]] = {}
    for viewpoint in document.viewpoints:
        key = " ".join(viewpoint.text.lower().split())
        if viewpoint.reference_index == 0 and key not in seen:
            seen[key] = (viewpoint.source, viewpoint.text)
    chosen = list(seen.values())[:count]
    assert len(chosen) == count, f"{document.paper_id} has fewer than {count} own viewpoints"
    return chosen


def clean_graph(document: Document, reversed_root: bool = False) -> str:
    """The clean 8-node graph; ``reversed_root`` marks a premise as the root instead."""
    lines = []
    for index, ((x, y, z), text) in enumerate(viewpoints(document)):
        root = index == (7 if reversed_root else 0)
        label = f"({x},{y},{z}) {text}".replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'  n{index} [label="{label}"{", root=true" if root else ""}];')
    lines += [f'  {source} -> {target} [label="{label}"];' for source, label, target in EDGES]
    return "digraph G {\n" + "\n".join(lines) + "\n}"


@pytest.fixture
def bench(tmp_path: Path, synthetic_arche_dir: Path) -> tuple[Path, list[Document]]:
    """An embedded store on disk holding three synthetic ARCHE papers (peirce profile)."""
    paths = sorted(synthetic_arche_dir.glob("*.json"))[:PAPERS]
    ctx = Context(EmbeddedStore(tmp_path / "store"), IriScheme(), load_profile("peirce"))
    Workflow(ctx).ingest(paths, IngestOptions(canonicalize=False, validate=False))
    ctx.close()
    return tmp_path / "store", [load_document(path) for path in paths]


def write(folder: Path, model: str, paper_id: str, text: str) -> None:
    (folder / model).mkdir(parents=True, exist_ok=True)
    (folder / model / f"{paper_id}.dot").write_text(text, encoding="utf-8")


def cli(store: Path, *args: str) -> int:
    return main(["--store", str(store), "--profile", "peirce", "benchmark", *args])


def table(capsys: pytest.CaptureFixture[str], store: Path, *args: str) -> dict:
    capsys.readouterr()
    cli(store, *args, "--format", "json")
    return json.loads(capsys.readouterr().out)


def test_score_counts_accepted_graphs_and_residual_types_per_model_from_the_store_and_a_rerun_skips_everything(
        bench: tuple[Path, list[Document]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store, documents = bench
    archive = tmp_path / "archive"
    for document in documents:
        write(archive, "clean", document.paper_id, clean_graph(document))
        write(archive, "reversed", document.paper_id, clean_graph(document, reversed_root=True))
        write(archive, "cut", document.paper_id, clean_graph(document)[: len(clean_graph(document)) // 2])
        write(archive, "garbage", document.paper_id, "I am not sure what the paper argues.")
    first = table(capsys, store, "score", str(archive))
    assert {model: (row["papers"], row["accepted"]) for model, row in first.items()} == {
        "clean": (3, 3), "reversed": (3, 0), "cut": (3, 0), "garbage": (3, 0)}
    assert first["reversed"]["residuals"] == {"root_orientation": 3}
    assert first["cut"]["residuals"]["truncated_response"] == 3
    assert first["garbage"]["residuals"]["parse_failed"] == 3
    assert first["clean"]["judged"] == 0 and first["clean"]["cg_before"] is None
    capsys.readouterr()
    assert cli(store, "score", str(archive)) == 0
    printed = capsys.readouterr().out
    assert "12 responses: 0 scored now, 12 already stored (skipped, no call)" in printed
    assert "judge columns: not run" in printed
    assert table(capsys, store, "score", str(archive)) == first
    capsys.readouterr()
    main(["--store", str(store), "query", "benchmark-models", "--format", "json"])
    rows = json.loads(capsys.readouterr().out)["results"]["bindings"]
    assert sorted((row["model"]["value"], int(row["acceptedRepaired"]["value"])) for row in rows) == [("clean", 3), ("cut", 0), ("garbage", 0), ("reversed", 0)]


def test_run_asks_each_scripted_model_once_per_paper_and_a_failed_call_is_a_typed_residual_not_a_crash(
        bench: tuple[Path, list[Document]], fake_llm, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    store, documents = bench
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    scripts = {
        "clean-writer": lambda document: clean_graph(document),
        "reverser": lambda document: clean_graph(document, reversed_root=True),
        "truncator": lambda document: clean_graph(document)[:200],
        "babbler": lambda document: "Sorry, the paper is about many things.",
    }
    papers = [arg for document in documents for arg in ("--paper", document.paper_id)]
    servers = {}
    for model, script in scripts.items():
        server = fake_llm([Rule(replies=[script(document)], contains=f"paper {document.paper_id}.") for document in documents])
        servers[model] = server
        cli(store, "run", *papers, "--model", model, "--base-url", server.base_url, "--no-cache", "--max-retries", "0")
    sleeper = fake_llm([Rule(replies=[hang()])])
    cli(store, "run", *papers, "--model", "sleeper", "--base-url", sleeper.base_url, "--no-cache", "--max-retries", "0", "--llm-timeout", "0.3")
    assert all(len(server.chat_requests("reasoning")) == PAPERS for server in servers.values())
    result = table(capsys, store, "run", *papers, *(arg for model in [*scripts, "sleeper"] for arg in ("--model", model)),
                   "--base-url", sleeper.base_url, "--no-cache")
    assert {model: row["accepted"] for model, row in result.items()} == {
        "clean-writer": 3, "reverser": 0, "truncator": 0, "babbler": 0, "sleeper": 0}
    assert result["reverser"]["residuals"] == {"root_orientation": 3}
    assert result["truncator"]["residuals"]["truncated_response"] == 3
    assert result["sleeper"]["residuals"] == {"extraction_failed": 3}
    assert result["clean-writer"]["llm_calls"] == 3 and result["clean-writer"]["llm_tokens"] > 0
    assert len(sleeper.chat_requests("reasoning")) == PAPERS  # the re-run above skipped every stored run: no new call
    assert all(len(server.chat_requests("reasoning")) == PAPERS for server in servers.values())


def verdict(value: str) -> str:
    return json.dumps({"verdict": value, "grounded": True, "feedback": f"the unit is {value}"})


def test_a_unit_the_judges_reject_is_repaired_in_round_one_and_the_graph_accepted_then_replayed_without_a_call(
        bench: tuple[Path, list[Document]], fake_llm, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, synthetic_arche_dir: Path) -> None:
    store, documents = bench
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    document = documents[0]
    archive = tmp_path / "archive"
    write(archive, "clean", document.paper_id, clean_graph(document))
    points = viewpoints(document)
    fixed = points[2][1] + " in every sample"
    plan = {"conclusion": {"text": fixed}, "premises": [{"node": "n5", "role": "induction-common"}, {"node": "n6", "role": "induction-case"},
                                                        {"node": "n7", "role": "induction-case"}], "note": "restated"}
    rules = [Rule(replies=[verdict("incorrect"), verdict("correct")], contains="into node n2.", phase=f"judge:j{n}") for n in (1, 2, 3)]
    rules += [Rule(replies=[json.dumps(plan)], contains="into node n2.", phase="judge-repair")]
    rules += [Rule(replies=[verdict("correct")], phase=f"judge:j{n}") for n in (1, 2, 3)]
    server = fake_llm(rules)
    cache = tmp_path / "judge-cache"
    result = table(capsys, store, "score", str(archive), "--base-url", server.base_url, "--model", "judge-model", "--cache-dir", str(cache))
    row = result["clean"]
    assert (row["accepted_after_repair"], row["judged"], row["accepted_after_judges"]) == (1, 1, 1)
    assert (row["rea_before"], row["rea_after"], row["cg_after"]) == (0.667, 1.0, 1.0)
    assert len(server.chat_requests("judge-repair")) == 1 and row["judge_calls"] == len(server.chat_requests())
    # the same response in a fresh store, judges replayed from the recordings: the same figures, no request
    replayed_store = tmp_path / "replayed"
    ctx = Context(EmbeddedStore(replayed_store), IriScheme(), load_profile("peirce"))
    Workflow(ctx).ingest([synthetic_arche_dir / Path(document.source).name], IngestOptions(canonicalize=False, validate=False))
    ctx.close()
    sent = len(server.chat_requests())
    again = table(capsys, replayed_store, "score", str(archive), "--judge-replay", str(cache), "--model", "judge-model")
    assert again["clean"]["accepted_after_judges"] == 1 and again["clean"]["rea_before"] == 0.667
    assert again["clean"]["judge_calls"] == row["judge_calls"] and len(server.chat_requests()) == sent  # answered by the recordings


def test_judges_that_find_every_unit_correct_never_accept_a_response_that_lost_material(
        bench: tuple[Path, list[Document]], fake_llm, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The reply holds a second, different graph: what was read is a clean graph, but the reply is malformed_response."""
    store, documents = bench
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    first, second = documents[0], documents[1]
    archive = tmp_path / "archive"
    write(archive, "two-graphs", first.paper_id, clean_graph(first) + "\n\nOr rather:\n" + clean_graph(second))
    server = fake_llm([Rule(replies=[verdict("correct")], phase=f"judge:j{n}") for n in (1, 2, 3)])
    row = table(capsys, store, "score", str(archive), "--base-url", server.base_url, "--model", "judge-model", "--no-cache")["two-graphs"]
    assert (row["accepted_after_repair"], row["judged"], row["accepted_after_judges"]) == (0, 1, 0)
    assert row["residuals_after_repair"] == {"malformed_response": 1} and row["residuals"] == {"final_gate_failed": 1}
    assert row["rea_after"] == 1.0


def test_judges_that_find_every_unit_correct_never_accept_the_graph_of_another_stored_paper(
        bench: tuple[Path, list[Document]], fake_llm, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    store, documents = bench
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    archive = tmp_path / "archive"
    write(archive, "confused", documents[0].paper_id, clean_graph(documents[1]))
    server = fake_llm([Rule(replies=[verdict("correct")], phase=f"judge:j{n}") for n in (1, 2, 3)])
    row = table(capsys, store, "score", str(archive), "--base-url", server.base_url, "--model", "judge-model", "--no-cache")["confused"]
    assert (row["accepted_after_repair"], row["judged"], row["accepted_after_judges"]) == (0, 1, 0)
    assert row["residuals_after_repair"].get("foreign_graph") == 1 and row["residuals"] == {"final_gate_failed": 1}
    assert row["rea_after"] == 1.0
