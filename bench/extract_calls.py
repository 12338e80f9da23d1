"""Benchmark: LLM calls of the extraction steps on the example corpus, through the fake server.

Prints calls, tokens and cache hits per paper and per phase; the wall time of
a cold run with 1 and with 8 concurrent calls against a server that adds
200 ms latency per call; and the calls a second (cached) run makes.

    python bench/extract_calls.py [--latency 0.2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from claimgraph.context import Context
from claimgraph.demo import demo_config
from claimgraph.extract.steps import STEPS
from claimgraph.store import EmbeddedStore
from claimgraph.testing.demo_script import demo_rules
from claimgraph.testing.fake_llm import Rule, running_fake_llm
from claimgraph.workflow import IngestOptions, IngestResult, Workflow

CORPUS = Path(__file__).resolve().parents[1] / "examples" / "papers"


def script() -> list[Rule]:
    """The demo's scripted replies, and an empty answer for every other paper's prompts."""
    fallbacks = [Rule(['{"entities": []}'], phase="entities"), Rule(['{"relations": []}'])]
    return [*demo_rules(), *fallbacks]


def ingest(base_url: str, cache: Path, concurrency: int) -> tuple[IngestResult, float]:
    config = demo_config(base_url=base_url, replay_dir=None, cache_dir=cache, max_concurrency=concurrency)
    started = time.perf_counter()
    result = Workflow(Context(EmbeddedStore())).ingest([CORPUS], IngestOptions(llm=config, canonicalize=False, validate=False))
    return result, time.perf_counter() - started


def print_accounting(result: IngestResult) -> None:
    columns, rows = result.accounting.table(STEPS)
    widths = [max(len(str(value)) for value in [name, *(row[i] for row in rows)]) for i, name in enumerate(columns)]
    print("  ".join(name.ljust(width) for name, width in zip(columns, widths)))
    for row in rows:
        print("  ".join(str(value).ljust(width) for value, width in zip(row, widths)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds the fake server waits per call")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        timings = {}
        for concurrency in (1, 8):
            with running_fake_llm(script(), latency=args.latency) as server:
                cache = Path(folder) / f"cache-{concurrency}"
                result, seconds = ingest(server.base_url, cache, concurrency)
                timings[concurrency] = (seconds, len(server.chat_requests()))
                if concurrency == 8:
                    print(f"corpus: {len(result.papers)} papers from {CORPUS}, {len(result.extractions)} extracted by the LLM")
                    print_accounting(result)
                    second, second_seconds = ingest(server.base_url, cache, concurrency)
                    second_calls = len(server.chat_requests()) - timings[8][1]
                    hits = second.accounting.total().as_dict()["cache_hits"]
        print()
        for concurrency, (seconds, calls) in timings.items():
            print(f"cold run, {concurrency} concurrent call(s): {seconds:6.2f} s wall, {calls} calls at {args.latency * 1000:.0f} ms latency")
        print(f"speed-up 8 vs 1: {timings[1][0] / timings[8][0]:.2f}x")
        print(f"second run: {second_calls} calls to the server, {hits} cache hits, {second_seconds:.2f} s")
        waiting = {c: seconds - second_seconds for c, (seconds, _) in timings.items()}
        print(f"time waiting on the LLM (cold run minus the all-cached run): 1 call {waiting[1]:.2f} s, "
              f"8 calls {waiting[8]:.2f} s, speed-up {waiting[1] / waiting[8]:.2f}x")


if __name__ == "__main__":
    main()
