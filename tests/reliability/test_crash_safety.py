"""SIGKILL ``ingest``, ``canonicalize``, ``reasoning`` and ``benchmark score`` at 24 points chosen by counting writes,
then heal by re-running.

For each kill point (a store update or a file renamed into place, picked at
random with a fixed seed, killed just before it or while it runs), the test
checks that the store the dead process left opens, equals the state of a
clean run right before (or, for a kill during a write, right after) that
write, so no update is ever half applied; that every paper in it holds its
clean raw graph and a prefix of its clean audit trail, and is reported
unfinished exactly when it was never gated; and that running the same
command again leaves the store (and so the canonical hubs the sidecar
serves) equal to a clean run's. ``bench/crash.py`` runs more kill points and
prints the figures.

The commands run in forked children of the test process (claimgraph already
imported): a child dies by a real SIGKILL, as a ``kill -9`` would kill the
command line, without paying the start-up of a new interpreter each time.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from claimgraph.loaders import load_document
from claimgraph.store import EmbeddedStore
from claimgraph.testing.benchmark_archive import write_archive
from claimgraph.testing.crash import KillOutcome, Scenario, kill_campaign, run_forked
from claimgraph.testing.synthetic.arche import write_corpus

pytestmark = pytest.mark.slow

RESPONSE = Path(__file__).resolve().parents[1] / "reasoning" / "responses" / "01-strict-basic.txt"
KILLS = {"ingest": 9, "canonicalize": 6, "reasoning": 5, "benchmark": 4}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("crash-corpus")
    write_corpus(folder, papers=3)
    (folder / "truth.jsonl").unlink(missing_ok=True)
    return folder


def scenarios(corpus: Path, archive: Path) -> list[Scenario]:
    def empty(store: Path) -> None:
        EmbeddedStore(store).close()

    def ingested(store: Path) -> None:
        assert run_forked(["--store", str(store), "ingest", "--no-canonicalize", str(corpus)]) == 0

    def peirce_paper(store: Path) -> None:
        assert run_forked(["--store", str(store), "--profile", "peirce", "ingest", "--no-extract", "--no-canonicalize", str(corpus / "synth-0001.json")]) == 0

    def peirce_papers(store: Path) -> None:
        papers = [str(corpus / name) for name in ("synth-0001.json", "synth-0002.json")]
        assert run_forked(["--store", str(store), "--profile", "peirce", "ingest", "--no-extract", "--no-canonicalize", *papers]) == 0

    return [
        Scenario("ingest", empty, lambda store: ["--store", str(store), "ingest", "--embedder", "hashing", str(corpus)]),
        Scenario("canonicalize", ingested, lambda store: ["--store", str(store), "canonicalize", "--embedder", "hashing"]),
        Scenario("reasoning", peirce_paper, lambda store: ["--store", str(store), "--profile", "peirce", "reasoning", "synth-0001", str(RESPONSE)]),
        Scenario("benchmark", peirce_papers, lambda store: ["--store", str(store), "--profile", "peirce", "benchmark", "score", str(archive)],
                 history_kept=True),
    ]


def recorded_archive(corpus: Path, folder: Path) -> Path:
    """One scripted model's responses for two papers of the corpus (a clean graph, then a cut one): what ``benchmark
    score`` reads. One model, so that each paper's raw graph goes from the one it started with to the clean run's."""
    documents = [load_document(corpus / name) for name in ("synth-0001.json", "synth-0002.json")]
    write_archive(folder, documents, {"mixed": ["clean", "cut-50"]})
    return folder


def kill_points(writes: int, count: int, rng: random.Random) -> list[tuple[int, bool]]:
    """``count`` distinct (write, during) points spread over the run."""
    points = sorted({(write, during) for write in range(1, writes + 1) for during in (False, True)})
    return sorted(rng.sample(points, min(count, len(points))))


def test_twenty_sigkills_leave_whole_papers_and_a_rerun_heals_everything(corpus: Path, tmp_path: Path) -> None:
    rng = random.Random(14)
    report: list[str] = []
    failures: list[str] = []
    total = 0
    for scenario in scenarios(corpus, recorded_archive(corpus, tmp_path / "archive")):
        writes, outcomes = kill_campaign(tmp_path / scenario.name, scenario,
                                         lambda writes, name=scenario.name: kill_points(writes, KILLS[name], rng))
        total += len(outcomes)
        report.append(summary(scenario.name, writes, outcomes))
        failures += [f"{scenario.name} kill at write {o.write}{' (during)' if o.during else ''}: {problem}"
                     for o in outcomes for problem in o.problems + ([] if o.killed else ["not killed"]) + ([] if o.healed else ["not healed"])]
    print("\n".join(report))
    assert total == sum(KILLS.values())
    assert failures == []


def summary(name: str, writes: int, outcomes: list[KillOutcome]) -> str:
    left = {state: sum(1 for o in outcomes if o.left == state) for state in ("before", "after")}
    unfinished = sum(1 for o in outcomes if o.unfinished)
    return (f"{name}: {writes} writes in a clean run; {len(outcomes)} kills, {sum(o.killed for o in outcomes)} by SIGKILL; "
            f"store left as before the write {left['before']}x, after it {left['after']}x; "
            f"{unfinished} left unfinished papers (reported by validate); {sum(o.healed for o in outcomes)} healed by a re-run")


def test_the_crash_tool_kills_a_real_command_line_process(corpus: Path, tmp_path: Path) -> None:
    """The same kill through ``python -m claimgraph.testing.crash``: a separate interpreter, as bench/crash.py runs it."""
    store = tmp_path / "store"
    command = [sys.executable, "-m", "claimgraph.testing.crash", "--kill-at", "3", "--", "--store", str(store),
               "ingest", "--no-canonicalize", "--no-validate", str(corpus)]
    process = subprocess.run(command, capture_output=True, text=True, check=False)
    assert process.returncode == -9
    assert run_forked(["--store", str(store), "ingest", "--no-canonicalize", str(corpus)]) == 0
