"""The whole command line on a second SPARQL engine (Virtuoso open source) gives what it gives on Oxigraph.

Both servers are real processes started by the test. The same synthetic
papers are ingested (canonicalized with the hashing embedder), repaired and
validated on each, then every shipped query, stats, audit, diff and export
run on both; their outputs must match. Two differences are expected and
normalized, both documented in docs/store.md: Virtuoso keeps system graphs of
its own, so the "all triples" total differs, and GROUP_CONCAT lists papers in
an order SPARQL leaves open; the audit timestamps differ, being times.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from claimgraph.cli.main import main
from claimgraph.rdf.queries import list_named_queries
from claimgraph.testing.oxigraph import oxigraph_binary, running_oxigraph
from claimgraph.testing.synthetic.arche import write_corpus
from claimgraph.testing.virtuoso import SKIP_REASON, running_virtuoso, virtuoso_binary

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(virtuoso_binary() is None, reason=SKIP_REASON),
    pytest.mark.skipif(oxigraph_binary() is None, reason="the oxigraph server binary is not installed (pip package 'oxigraph')"),
]

TIMING = re.compile(r"(seconds|[0-9]/s\b|done in|ETA|sidecar|^store )", re.IGNORECASE)


def run(args: list[str]) -> tuple[int, list[str]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(args)
    return code, [line for line in out.getvalue().splitlines() if not TIMING.search(line)]


def normalized(name: str, lines: list[str]) -> list[str]:
    """Rows sorted; words of each row sorted where SPARQL leaves the order of a GROUP_CONCAT open; the system-graph total dropped."""
    if name in ("stats", "q:store-totals"):
        lines = [line for line in lines if "all triples" not in line]
    if name == "export":
        lines = [line for line in lines if "XMLSchema#dateTime" not in line]  # when each activity ran
    if name == "q:shared-viewpoints":
        lines = [" ".join(sorted(line.split())) for line in lines]
    return sorted(lines)


def session(store_args: list[str], corpus: Path, export: Path) -> dict[str, tuple[int, list[str]]]:
    results = {
        "ingest": run([*store_args, "ingest", "--embedder", "hashing", str(corpus)]),
        "repair": run([*store_args, "repair"]),
        "validate": run([*store_args, "validate"]),
        "stats": run([*store_args, "stats"]),
        "audit": run([*store_args, "audit", "--paper", "synth-0001"]),
        "diff": run([*store_args, "diff", "--paper", "synth-0001"]),
    }
    for name in list_named_queries():
        results[f"q:{name}"] = run([*store_args, "query", name])
    code, _ = run([*store_args, "export", "--format", "nq", "--graphs", "paper,raw,audit", "-o", str(export)])
    results["export"] = (code, sorted(export.read_text(encoding="utf-8").splitlines()) if export.exists() else [])
    return results


def test_every_command_and_shipped_query_agrees_on_oxigraph_and_virtuoso(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus, papers=3)
    (corpus / "truth.jsonl").unlink()
    with running_virtuoso(tmp_path / "virtuoso") as virtuoso, running_oxigraph(tmp_path / "oxigraph") as oxigraph:
        second = session(["--query-url", virtuoso.query_url, "--update-url", virtuoso.query_url, "--gsp-url", virtuoso.gsp_url],
                         corpus, tmp_path / "virtuoso.nq")
        first = session(["--store", oxigraph], corpus, tmp_path / "oxigraph.nq")
    differences = []
    for name, (code, lines) in first.items():
        other_code, other_lines = second[name]
        if code != other_code or normalized(name, lines) != normalized(name, other_lines):
            differences.append(f"{name}: exit {code} vs {other_code}, {len(lines)} vs {len(other_lines)} lines")
    assert first["ingest"][0] == 0 and len(first["export"][1]) > 1000
    assert differences == []
