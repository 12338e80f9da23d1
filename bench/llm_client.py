"""Benchmark: the LLM client's concurrency bound and cache against the fake endpoint.

Sends CALLS distinct chat completions through ``LLMClient`` to a fake
OpenAI-compatible server that adds LATENCY seconds per call, once with one call
in flight and once with eight, then repeats the second run to show that the
cache answers everything (zero calls).

    python bench/llm_client.py [--calls 32] [--latency 0.2]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from claimgraph.llm.client import CallTag, open_client
from claimgraph.llm.config import LLMConfig
from claimgraph.testing.fake_llm import running_fake_llm


async def run_batch(config: LLMConfig, calls: int) -> tuple[float, dict[str, int]]:
    started = time.perf_counter()
    async with open_client(config) as client:
        await asyncio.gather(*(
            client.complete([{"role": "user", "content": f"passage {n}"}], tag=CallTag("bench", "entities", n))
            for n in range(calls)
        ))
    return time.perf_counter() - started, client.accounting.total().as_dict()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=32)
    parser.add_argument("--latency", type=float, default=0.2)
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


if __name__ == "__main__":
    main()
