"""Benchmark: `claimgraph serve` against `oxigraph serve-read-only` on the same store, 1 and 8 concurrent clients.

Each client sends the same SPARQL query over HTTP (POST, form-encoded, Accept:
SPARQL JSON, a new connection per request) as fast as it can, after one
untimed round at the same concurrency (warming every worker); every answer is
checked (status 200, same number of result rows on both servers). Prints, per
server, query and client count: requests, median and 90th percentile latency,
and completed queries per second. The default query is the shipped
``shared-viewpoints`` (a whole-store aggregation); ``ask`` (``ASK {}``) shows
the protocol overhead alone.

    python bench/serve.py --store /path/to/70-paper-store [--requests 3] [--small-requests 200]

Without --store, the ARCHE papers (CLAIMGRAPH_ARCHE_DIR, else ../shared/data/arche)
are ingested into a temporary store first (no canonicalization, a few minutes).
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from claimgraph.rdf.queries import read_named_query
from claimgraph.serve.server import ServeOptions, default_workers, running_server
from claimgraph.testing.oxigraph import answers, free_port, oxigraph_binary, stop

DEFAULT_ARCHE = Path(__file__).resolve().parents[2] / "shared" / "data" / "arche"


def post_query(base_url: str, sparql: str) -> tuple[float, int]:
    """(seconds, result rows) of one query; raises on anything but 200."""
    url = urllib.parse.urlsplit(base_url)
    body = urllib.parse.urlencode({"query": sparql})
    started = time.perf_counter()
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
    try:
        connection.request("POST", "/query", body=body, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/sparql-results+json"})
        response = connection.getresponse()
        payload = response.read()
    finally:
        connection.close()
    elapsed = time.perf_counter() - started
    if response.status != 200:
        raise RuntimeError(f"{base_url}: HTTP {response.status}: {payload[:200]!r}")
    document = json.loads(payload)
    return elapsed, len(document["results"]["bindings"]) if "results" in document else int(bool(document.get("boolean")))


def run_clients(base_url: str, sparql: str, clients: int, per_client: int) -> tuple[list[float], float, set[int]]:
    """Latencies, wall seconds and the row counts seen, for ``clients`` threads sending ``per_client`` queries each."""
    latencies: list[float] = []
    rows: set[int] = set()
    errors: list[BaseException] = []
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)

    def client() -> None:
        start.wait()
        for _ in range(per_client):
            try:
                seconds, count = post_query(base_url, sparql)
            except Exception as error:  # noqa: BLE001 - reported after the run
                with lock:
                    errors.append(error)
                return
            with lock:
                latencies.append(seconds)
                rows.add(count)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    if errors:
        raise RuntimeError(f"{len(errors)} requests failed, first: {errors[0]}")
    return latencies, wall, rows


@contextmanager
def oxigraph_read_only(location: Path) -> Iterator[str]:
    import subprocess

    binary = oxigraph_binary()
    if binary is None:
        raise SystemExit("the oxigraph server binary is not installed (pip install oxigraph)")
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen([binary, "serve-read-only", "--location", str(location), "--bind", f"127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not answers(base_url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("oxigraph serve-read-only did not start")
            time.sleep(0.1)
        yield base_url
    finally:
        stop(process)


@contextmanager
def claimgraph_server(location: Path, workers: int) -> Iterator[str]:
    with running_server(location, ServeOptions(port=0, workers=workers, timeout=600, log_requests=False)) as server:
        yield server.base_url


def build_store(arche: Path, folder: Path) -> Path:
    from claimgraph.context import Context
    from claimgraph.loaders import find_inputs
    from claimgraph.store import EmbeddedStore
    from claimgraph.workflow import IngestOptions, Workflow

    store_path = folder / "store"
    with Context(EmbeddedStore(store_path)) as ctx:
        Workflow(ctx).ingest(list(find_inputs([arche])), IngestOptions(canonicalize=False, validate=False))
    return store_path


def measure(name: str, base_url: str, queries: dict[str, tuple[str, int]]) -> dict[str, set[int]]:
    seen: dict[str, set[int]] = {}
    for label, (sparql, per_client) in queries.items():
        for clients in (1, 8):
            run_clients(base_url, sparql, clients, 1)  # warm every worker's caches at this concurrency first
            latencies, wall, rows = run_clients(base_url, sparql, clients, max(1, per_client // clients) if clients > 1 else per_client)
            seen.setdefault(label, set()).update(rows)
            p90 = statistics.quantiles(latencies, n=10)[-1] if len(latencies) >= 2 else latencies[0]
            print(f"{name:<22} {label:<18} {clients:>7} {len(latencies):>8} {statistics.median(latencies) * 1000:>10.1f} "
                  f"{p90 * 1000:>10.1f} {len(latencies) / wall:>10.2f}")
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, help="an embedded store (default: ingest the ARCHE papers into a temporary one)")
    parser.add_argument("--arche", type=Path, default=DEFAULT_ARCHE)
    parser.add_argument("--requests", type=int, default=8, help="shared-viewpoints requests per concurrency level (default 8)")
    parser.add_argument("--small-requests", type=int, default=200, help="ASK {} requests per concurrency level (default 200)")
    parser.add_argument("--workers", type=int, default=default_workers(), help="claimgraph serve query workers (default as serve: the CPUs, 2 to 8)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = args.store or build_store(args.arche, Path(folder))
        queries = {"shared-viewpoints": (read_named_query("shared-viewpoints"), args.requests), "ask": ("ASK {}", args.small_requests)}
        print(f"store {store}")
        print(f"{'server':<22} {'query':<18} {'clients':>7} {'requests':>8} {'median ms':>10} {'p90 ms':>10} {'queries/s':>10}")
        with claimgraph_server(store, args.workers) as base_url:
            ours = measure(f"claimgraph serve ({args.workers}w)", base_url, queries)
        with oxigraph_read_only(store) as base_url:
            theirs = measure("oxigraph serve-ro", base_url, queries)
        if ours != theirs:
            raise SystemExit(f"the servers disagree on the result sizes: {ours} vs {theirs}")
        print(f"result rows per query (both servers): { {label: sorted(rows) for label, rows in ours.items()} }")


if __name__ == "__main__":
    main()
