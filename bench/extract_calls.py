"""Benchmark: LLM calls of the extraction steps, and extraction against failing endpoints, through the fake server.

1. The example corpus: calls, tokens and cache hits per paper and per phase;
   the wall time of a cold run with 1 and with 8 concurrent calls against a
   server that adds LATENCY per call; the calls a second (cached) run makes.
2. Structured output: requests and refusals against a server that accepts
   ``response_format`` and one that refuses it.
3. A hostile endpoint cycling 429 / 500 / garbage / truncated JSON / empty /
   no answer over N generated papers: papers stored, lost, residual; calls
   failed, unusable, skipped and named; wall time; then a healthy run on the
   same store and cache: calls asked again vs served from the cache.
4. A dead endpoint (never answers): requests sent before the circuit breaker
   opened, and the wall time of the whole batch.

    python bench/extract_calls.py [--latency 0.2] [--papers 20] [--timeout 1.0]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from claimgraph.context import Context
from claimgraph.demo import demo_config
from claimgraph.extract.steps import STEPS
from claimgraph.llm.config import LLMConfig
from claimgraph.store import EmbeddedStore
from claimgraph.testing.demo_script import demo_rules
from claimgraph.testing.fake_llm import Rule, hang, running_fake_llm
from claimgraph.testing.llm_faults import healthy_rules, hostile_rules, write_plot_papers
from claimgraph.workflow import IngestOptions, IngestResult, Workflow

CORPUS = Path(__file__).resolve().parents[1] / "examples" / "papers"
NO_EXTRAS = IngestOptions(canonicalize=False, validate=False)


def script() -> list[Rule]:
    """The demo's scripted replies, and an empty answer for every other paper's prompts."""
    fallbacks = [Rule(['{"entities": []}'], phase="entities"), Rule(['{"relations": []}'])]
    return [*demo_rules(), *fallbacks]


def ingest(paths: list[Path], config: LLMConfig, store: EmbeddedStore | None = None) -> tuple[IngestResult, float]:
    options = IngestOptions(llm=config, canonicalize=False, validate=False)
    started = time.perf_counter()
    result = Workflow(Context(store or EmbeddedStore())).ingest(paths, options)
    return result, time.perf_counter() - started


def print_accounting(result: IngestResult) -> None:
    columns, rows = result.accounting.table(STEPS)
    keep = [i for i, name in enumerate(columns) if name in ("paper", "phase", "calls", "attempts", "cache_hits", "prompt_tokens",
                                                            "completion_tokens", "failures", "structured")]
    columns, rows = [columns[i] for i in keep], [[row[i] for i in keep] for row in rows]
    widths = [max(len(str(value)) for value in [name, *(row[i] for row in rows)]) for i, name in enumerate(columns)]
    print("  ".join(name.ljust(width) for name, width in zip(columns, widths)))
    for row in rows:
        print("  ".join(str(value).ljust(width) for value, width in zip(row, widths)))


def corpus_run(folder: Path, latency: float) -> None:
    timings = {}
    for concurrency in (1, 8):
        with running_fake_llm(script(), latency=latency) as server:
            cache = folder / f"cache-{concurrency}"
            config = demo_config(base_url=server.base_url, replay_dir=None, cache_dir=cache, max_concurrency=concurrency)
            result, seconds = ingest([CORPUS], config)
            timings[concurrency] = (seconds, len(server.chat_requests()))
            if concurrency == 8:
                print(f"corpus: {len(result.papers)} papers from {CORPUS}, {len(result.extractions)} extracted by the LLM")
                print_accounting(result)
                second, second_seconds = ingest([CORPUS], config)
                second_calls = len(server.chat_requests()) - timings[8][1]
                hits = second.accounting.total().cache_hits
    print()
    for concurrency, (seconds, calls) in timings.items():
        print(f"cold run, {concurrency} concurrent call(s): {seconds:6.2f} s wall, {calls} calls at {latency * 1000:.0f} ms latency")
    print(f"speed-up 8 vs 1: {timings[1][0] / timings[8][0]:.2f}x")
    print(f"second run: {second_calls} calls to the server, {hits} cache hits, {second_seconds:.2f} s")


def structured_run(folder: Path) -> None:
    print("\nstructured output (example corpus, 1 call in flight)")
    for mode in ("accept", "refuse"):
        with running_fake_llm(script(), response_format=mode) as server:
            config = demo_config(base_url=server.base_url, replay_dir=None, cache_dir=folder / f"structured-{mode}", max_concurrency=1)
            result, seconds = ingest([CORPUS], config)
            totals = result.accounting.total()
            requests = server.chat_requests()
            print(f"  server {mode:<6}: {len(requests):3d} requests ({sum(r.structured for r in requests)} with response_format), "
                  f"replies structured {totals.structured}, unstructured {totals.unstructured}, refusals {totals.refusals}, {seconds:.2f} s")


def fault_config(server_url: str, cache: Path, timeout: float, **overrides: object) -> LLMConfig:
    settings = {"model": "bench", "base_url": server_url, "api_key": "k", "timeout": timeout, "max_retries": 2,
                "backoff_base": 0.0, "backoff_max": 0.0, "cache_dir": cache, **overrides}
    return LLMConfig(**settings)  # type: ignore[arg-type]


def hostile_run(folder: Path, papers: int, timeout: float) -> None:
    paths = write_plot_papers(folder / "hostile-papers", papers)
    cache, store = folder / "hostile-cache", EmbeddedStore()
    print(f"\nhostile endpoint: {papers} papers x 2 passages, timeout {timeout:g} s, 2 retries, breaker after 5 connection failures")
    tracebacks = 0
    with running_fake_llm(hostile_rules()) as server:
        try:
            result, seconds = ingest(paths, fault_config(server.base_url, cache, timeout), store)
        except Exception as error:  # noqa: BLE001 - the benchmark counts what would have been a traceback
            tracebacks += 1
            print(f"  TRACEBACK: {type(error).__name__}: {error}")
            return
        totals = result.accounting.total()
        statuses = [r.status for r in server.chat_requests()]
        named = sum(len(report.failed_calls) for report in result.extractions)
        residual = [report for report in result.extractions if report.residual]
        print(f"  {len(statuses)} requests: {statuses.count(429)} x 429, {statuses.count(500)} x 500, {statuses.count(None)} never answered, "
              f"{statuses.count(200)} x 200 (garbage, truncated, empty or valid)")
        print(f"  papers stored {len(result.papers)}/{papers}, lost {papers - len(result.papers)}, gated {len(result.repairs)}, "
              f"tracebacks {tracebacks}; residual {len(residual)} "
              f"({sum(r.residual == 'extraction_incomplete' for r in residual)} incomplete, {sum(r.residual == 'extraction_failed' for r in residual)} failed)")
        print(f"  calls: {totals.calls} answered, {totals.failures} failed ({totals.unusable} unusable replies), {totals.skipped} skipped; "
              f"{named} failed/skipped calls named in the reports; {seconds:.2f} s wall")
    with running_fake_llm(healthy_rules()) as server:
        healed, seconds = ingest(paths, fault_config(server.base_url, cache, timeout), store)
        accepted = sum(1 for repair in healed.repairs if repair.gate and repair.gate.accepted)
        print(f"  healthy rerun: {len(server.chat_requests())} calls asked again, {healed.accounting.total().cache_hits} served from the cache, "
              f"{accepted}/{papers} papers accepted, {seconds:.2f} s")


def dead_run(folder: Path, papers: int, timeout: float) -> None:
    paths = write_plot_papers(folder / "dead-papers", papers)
    with running_fake_llm([Rule([hang()])]) as server:
        result, seconds = ingest(paths, fault_config(server.base_url, folder / "dead-cache", timeout))
        totals = result.accounting.total()
        print(f"\ndead endpoint (never answers), {papers} papers: {len(server.chat_requests())} requests sent before the circuit opened, "
              f"{totals.skipped} calls skipped and named, {sum(1 for r in result.extractions if r.residual == 'extraction_failed')} papers "
              f"extraction_failed, {seconds:.2f} s wall (without the breaker: {papers * 2 * 3} attempts of {timeout:g} s each)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds the fake server waits per call")
    parser.add_argument("--papers", type=int, default=20, help="generated papers for the hostile and dead endpoint runs")
    parser.add_argument("--timeout", type=float, default=1.0, help="deadline of one attempt in the fault runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        corpus_run(Path(folder), args.latency)
        structured_run(Path(folder))
        hostile_run(Path(folder), args.papers, args.timeout)
        dead_run(Path(folder), args.papers, args.timeout)


if __name__ == "__main__":
    main()
