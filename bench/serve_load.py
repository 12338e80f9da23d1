"""Benchmark: `claimgraph serve` under 50 concurrent clients on loopback, a bounded number of requests.

Builds a small synthetic store (``--graphs`` named graphs of ``--triples`` triples each) in a temporary
directory, starts the server in this process (``--workers`` query workers), and lets ``--clients``
threads send ``--requests`` queries in all (each client its share, over one kept-alive connection, or a
new connection per request with ``--new-connections``). Every answer must be 200 with the expected
result. Prints, per query: requests, completed queries per second, and the p50/p95/max latency.

    python bench/serve_load.py [--clients 50] [--requests 2000] [--workers 2]
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
from pathlib import Path

QUERIES = {
    "ask": ("ASK {}", lambda document: document["boolean"] is True),
    "select-one-graph": ("SELECT ?o WHERE { GRAPH <http://example.org/g0> { <http://example.org/s7> ?p ?o } }",
                         lambda document: len(document["results"]["bindings"]) == 1),
}


def build_store(folder: Path, graphs: int, triples: int) -> Path:
    from pyoxigraph import Literal, NamedNode, Triple

    from claimgraph.store import EmbeddedStore

    location = folder / "store"
    with EmbeddedStore(location) as store:
        for number in range(graphs):
            store.replace_graph(NamedNode(f"http://example.org/g{number}"), [
                Triple(NamedNode(f"http://example.org/s{i}"), NamedNode("http://example.org/p"), Literal(f"value {number}-{i}"))
                for i in range(triples)])
    return location


class Client(threading.Thread):
    """Sends ``count`` queries, recording each latency; one kept-alive connection unless told otherwise."""

    def __init__(self, port: int, path: str, count: int, check: object, new_connections: bool, start: threading.Barrier) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.count, self.check = port, path, count, check
        self.new_connections, self.start_line = new_connections, start
        self.latencies: list[float] = []
        self.failures: list[str] = []

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        self.start_line.wait()
        for _ in range(self.count):
            if self.new_connections:
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
            began = time.perf_counter()
            try:
                connection.request("GET", self.path, headers={"Accept": "application/sparql-results+json"})
                response = connection.getresponse()
                body = response.read()
            except OSError as error:
                self.failures.append(f"{type(error).__name__}: {error}")
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
                continue
            self.latencies.append(time.perf_counter() - began)
            if response.status != 200 or not self.check(json.loads(body)):  # type: ignore[operator]
                self.failures.append(f"HTTP {response.status}: {body[:120]!r}")
        connection.close()


def measure(port: int, sparql: str, check: object, clients: int, requests: int, new_connections: bool) -> tuple[list[float], float, list[str]]:
    path = "/query?" + urllib.parse.urlencode({"query": sparql})
    start = threading.Barrier(clients + 1)
    share, extra = divmod(requests, clients)
    threads = [Client(port, path, share + (1 if number < extra else 0), check, new_connections, start) for number in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    return [latency for thread in threads for latency in thread.latencies], wall, [failure for thread in threads for failure in thread.failures]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=2000, help="queries per measured query, all clients together (default 2000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--graphs", type=int, default=20)
    parser.add_argument("--triples", type=int, default=500)
    parser.add_argument("--new-connections", action="store_true", help="a new TCP connection per request")
    args = parser.parse_args()

    from claimgraph.serve.server import ServeOptions, running_server

    with tempfile.TemporaryDirectory() as folder:
        location = build_store(Path(folder), args.graphs, args.triples)
        with running_server(location, ServeOptions(port=0, workers=args.workers, log_requests=False)) as server:
            port = int(server.server_address[1])
            print(f"{args.clients} clients, {args.requests} requests per query, {args.workers} workers, "
                  f"{'new connection per request' if args.new_connections else 'kept-alive connections'}")
            print(f"{'query':<18} {'requests':>8} {'failed':>6} {'q/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
            for label, (sparql, check) in QUERIES.items():
                measure(port, sparql, check, args.clients, args.clients, args.new_connections)  # warm every worker and thread
                latencies, wall, failures = measure(port, sparql, check, args.clients, args.requests, args.new_connections)
                print(f"{label:<18} {len(latencies):>8} {len(failures):>6} {len(latencies) / wall:>8.1f} "
                      f"{statistics.median(latencies) * 1000:>8.1f} {percentile(latencies, 0.95) * 1000:>8.1f} {max(latencies) * 1000:>8.1f}")
                if failures:
                    print(f"  first failure: {failures[0]}")


if __name__ == "__main__":
    main()
