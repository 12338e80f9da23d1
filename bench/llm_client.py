"""Benchmark: the LLM client's concurrency bound and cache against the fake endpoint.

Sends CALLS distinct chat completions through ``LLMClient`` to a fake
OpenAI-compatible server that adds LATENCY seconds per call, once with one call
in flight and once with eight, then repeats the second run to show that the
cache answers everything (zero calls). Then the fault handling: structured
output against a server that refuses it (requests and refusals), one call to a
server trickling its answer one byte every 0.5 s (held until the attempt's
deadline, not until the last byte), and CALLS calls to a server that never
answers (requests sent before the circuit breaker opens, wall time).

    python bench/llm_client.py [--calls 32] [--latency 0.2] [--timeout 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from claimgraph.llm.client import CallTag, ReplySchema, open_client
from claimgraph.llm.config import LLMConfig
from claimgraph.testing.fake_llm import hang, running_fake_llm, trickle

SCHEMA = ReplySchema("entities", {"type": "object", "properties": {"entities": {"type": "array"}}, "required": ["entities"]})


async def run_batch(config: LLMConfig, calls: int, schema: ReplySchema | None = None) -> tuple[float, dict[str, int]]:
    started = time.perf_counter()
    async with open_client(config) as client:
        await asyncio.gather(*(
            client.complete([{"role": "user", "content": f"passage {n}"}], tag=CallTag("bench", "entities", n), schema=schema)
            for n in range(calls)
        ), return_exceptions=True)
    return time.perf_counter() - started, client.accounting.total().as_dict()


def faults(calls: int, timeout: float, folder: Path) -> None:
    for mode in ("accept", "refuse"):
        with running_fake_llm({"": ['{"entities": []}']}, response_format=mode) as server:
            config = LLMConfig(model="bench", base_url=server.base_url, api_key="k", max_concurrency=8, cache_dir=folder / f"s-{mode}")
            seconds, counts = asyncio.run(run_batch(config, calls, SCHEMA))
            print(f"structured output, server {mode:<6}: {len(server.requests)} requests for {calls} calls, {counts['structured']} structured, "
                  f"{counts['unstructured']} unstructured, {counts['refusals']} refusals, {seconds:.2f} s")
    body = '{"entities": [' + ", ".join(['"x"'] * 40) + "]}"
    with running_fake_llm({"": [trickle(body, 0.5)]}) as server:
        config = LLMConfig(model="bench", base_url=server.base_url, api_key="k", timeout=timeout, max_retries=0, cache_dir=None)
        seconds, counts = asyncio.run(run_batch(config, 1))
        print(f"trickling server (1 byte / 0.5 s: over {len(body) * 0.5:.0f} s for the content alone): call ended after {seconds:.2f} s, "
              f"failures {counts['failures']} (deadline {timeout:g} s per attempt)")
    with running_fake_llm({"": [hang()]}) as server:
        config = LLMConfig(model="bench", base_url=server.base_url, api_key="k", timeout=timeout, max_retries=5, backoff_base=0.0,
                           backoff_max=0.0, max_concurrency=4, cache_dir=None)
        seconds, counts = asyncio.run(run_batch(config, calls))
        print(f"server that never answers, {calls} calls, breaker after {config.breaker_threshold}: {len(server.requests)} requests, "
              f"{counts['skipped']} calls skipped, {seconds:.2f} s (without the breaker: {calls * 6} attempts of {timeout:g} s, 4 at a time)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=32)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--timeout", type=float, default=1.0, help="deadline of one attempt in the fault runs")
    args = parser.parse_args()
    with running_fake_llm({"": ['{"entities": []}']}, latency=args.latency) as server, tempfile.TemporaryDirectory() as tmp:
        print(f"{args.calls} calls, fake endpoint latency {args.latency * 1000:.0f} ms per call")
        print(f"{'run':<28}{'seconds':>9}{'calls':>7}{'hits':>6}{'server requests':>17}")
        for label, concurrency, cache in (("concurrency 1", 1, "c1"), ("concurrency 8", 8, "c8"), ("concurrency 8, second run", 8, "c8")):
            before = len(server.requests)
            config = LLMConfig(model="bench", base_url=server.base_url, api_key="k", max_concurrency=concurrency, cache_dir=Path(tmp) / cache)
            seconds, counts = asyncio.run(run_batch(config, args.calls))
            print(f"{label:<28}{seconds:>9.2f}{counts['calls']:>7}{counts['cache_hits']:>6}{len(server.requests) - before:>17}")
        print(f"peak requests in flight at the server: {server.max_in_flight}")
        print()
        faults(args.calls, args.timeout, Path(tmp))


if __name__ == "__main__":
    main()
