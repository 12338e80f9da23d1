"""Benchmark: SIGKILL ``ingest``, ``canonicalize`` and ``reasoning`` at many counted writes and report what each kill left.

The campaign of tests/reliability/test_crash_safety.py with more kill points
and a larger synthetic corpus: for each command, the writes of a clean run,
then per kill point (a store update or a file renamed into place, killed
before it or while it runs) whether the process died by SIGKILL, which clean
state the store equals, which papers ``validate`` reports unfinished, any
other problem, and whether re-running the command healed the store to the
clean run's state.

    python bench/crash.py [--papers 8] [--kills 20] [--seed 14] [--every]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from claimgraph.store import EmbeddedStore
from claimgraph.testing.crash import AUDIT_LAGS, KillOutcome, Scenario, kill_campaign, run_forked
from claimgraph.testing.synthetic.arche import write_corpus

RESPONSE = Path(__file__).resolve().parents[1] / "tests" / "reasoning" / "responses" / "01-strict-basic.txt"


def scenarios(corpus: Path) -> list[Scenario]:
    def empty(store: Path) -> None:
        EmbeddedStore(store).close()

    def ingested(store: Path) -> None:
        run_forked(["--store", str(store), "ingest", "--no-canonicalize", str(corpus)])

    def peirce_paper(store: Path) -> None:
        run_forked(["--store", str(store), "--profile", "peirce", "ingest", "--no-canonicalize", str(corpus / "synth-0001.json")])

    return [
        Scenario("ingest", empty, lambda store: ["--store", str(store), "ingest", "--embedder", "hashing", str(corpus)]),
        Scenario("canonicalize", ingested, lambda store: ["--store", str(store), "canonicalize", "--embedder", "hashing"]),
        Scenario("reasoning", peirce_paper, lambda store: ["--store", str(store), "--profile", "peirce", "reasoning", "synth-0001", str(RESPONSE)]),
    ]


def report(name: str, writes: int, outcomes: list[KillOutcome], seconds: float) -> None:
    print(f"\n== {name}: {writes} writes in a clean run, {len(outcomes)} kills ({seconds:.0f} s)")
    print("  write  during  killed  store left as  unfinished papers  problems  healed")
    for o in outcomes:
        problems = [p for p in o.problems if AUDIT_LAGS not in p]
        lags = len(o.problems) - len(problems)
        print(f"  {o.write:5d}  {'yes' if o.during else 'no':6}  {'yes' if o.killed else 'NO':6}  {o.left or 'NEITHER':13}  "
              f"{len(o.unfinished):17d}  {len(problems):8d}{' +audit lags' if lags else ''}  {'yes' if o.healed else 'NO'}")
    print(f"  totals: killed {sum(o.killed for o in outcomes)}/{len(outcomes)}, store equal to a clean state "
          f"{sum(bool(o.left) for o in outcomes)}/{len(outcomes)}, unfinished papers reported after "
          f"{sum(bool(o.unfinished) for o in outcomes)} kills, other problems {sum(bool(o.problems) for o in outcomes)}, "
          f"healed {sum(o.healed for o in outcomes)}/{len(outcomes)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=8)
    parser.add_argument("--kills", type=int, default=20, help="kill points per command")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--every", action="store_true", help="every write, before and during (ignores --kills)")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    def choose(writes: int) -> list[tuple[int, bool]]:
        points = [(write, during) for write in range(1, writes + 1) for during in (False, True)]
        return points if args.every else sorted(rng.sample(points, min(args.kills, len(points))))

    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder) / "corpus"
        write_corpus(corpus, papers=args.papers)
        (corpus / "truth.jsonl").unlink()
        for scenario in scenarios(corpus):
            started = time.perf_counter()
            writes, outcomes = kill_campaign(Path(folder) / scenario.name, scenario, choose)
            report(scenario.name, writes, outcomes, time.perf_counter() - started)


if __name__ == "__main__":
    main()
