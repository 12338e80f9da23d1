"""Benchmark: the SPARQL protocol work done by claimgraph's keep-alive client against SPARQLWrapper.

Both send the same requests to one ``oxigraph serve`` holding a small store:
many small SELECTs (what the gate and the repair scripts do), INSERT DATA
updates of about 100 triples, and CONSTRUCT reads of one paper graph. Answers
are parsed the same way (pyoxigraph) in both, so the difference is the
protocol work: connections, headers, encoding. Prints seconds per request and
the ratio SPARQLWrapper / keep-alive.

    python bench/sparql_protocol.py [--queries 2000] [--updates 200] [--reads 100]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pyoxigraph
from pyoxigraph import Literal, NamedNode, QueryResultsFormat, RdfFormat, Triple
from SPARQLWrapper import POST, POSTDIRECTLY, SPARQLWrapper

from claimgraph.store import RemoteStore, ntriples
from claimgraph.testing.oxigraph import running_oxigraph

GRAPH = NamedNode("https://claimgraph.example/paper/bench")
COUNT = f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {GRAPH} {{ ?s ?p ?o }} }}"
CONSTRUCT = f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH {GRAPH} {{ ?s ?p ?o }} }}"


def triples(batch: int, size: int = 100) -> list[Triple]:
    return [Triple(NamedNode(f"{GRAPH.value}/item/{batch}-{n}"), NamedNode("https://claimgraph.example/p"), Literal(f"text {batch} {n}"))
            for n in range(size)]


def insert(batch: int) -> str:
    return f"INSERT DATA {{ GRAPH {GRAPH} {{\n{ntriples(triples(batch))}}} }}"


def timed(label: str, count: int, call: Callable[[int], object]) -> float:
    started = time.perf_counter()
    for number in range(count):
        call(number)
    seconds = time.perf_counter() - started
    print(f"  {label:<34} {seconds:8.3f} s  {1000 * seconds / count:7.3f} ms/request")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--reads", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, running_oxigraph(Path(folder) / "data") as url:
        ours = RemoteStore.from_base_url(url)
        query_wrapper = SPARQLWrapper(f"{url}/query")
        query_wrapper.setMethod(POST)
        query_wrapper.setRequestMethod(POSTDIRECTLY)
        update_wrapper = SPARQLWrapper(f"{url}/query", updateEndpoint=f"{url}/update")
        update_wrapper.setMethod(POST)
        update_wrapper.setRequestMethod(POSTDIRECTLY)

        def wrapper_select(_: int) -> object:
            query_wrapper.setQuery(COUNT)
            query_wrapper.setReturnFormat("json")
            body = query_wrapper.query().response.read()
            return list(pyoxigraph.parse_query_results(body, QueryResultsFormat.JSON))

        def wrapper_update(number: int) -> None:
            update_wrapper.setQuery(insert(number + 100_000))
            update_wrapper.query().response.read()

        def wrapper_read(_: int) -> object:
            query_wrapper.setQuery(CONSTRUCT)
            query_wrapper.setReturnFormat("nt")
            body = query_wrapper.query().response.read()
            return list(pyoxigraph.parse(body, format=RdfFormat.N_TRIPLES))

        results: dict[str, tuple[float, float]] = {}
        print(f"oxigraph serve at {url}")
        ours.update(insert(-1))
        for name, count, mine, theirs in (
            ("small SELECT", args.queries, lambda _: ours.select(COUNT), wrapper_select),
            ("INSERT DATA of 100 triples", args.updates, lambda n: ours.update(insert(n)), wrapper_update),
            ("CONSTRUCT of one graph", args.reads, lambda _: list(ours.query(CONSTRUCT)), wrapper_read),  # type: ignore[arg-type]
        ):
            print(f"{name} x {count}")
            results[name] = (timed("claimgraph keep-alive client", count, mine), timed("SPARQLWrapper", count, theirs))
        print("\nratio SPARQLWrapper / keep-alive client (>1.20 means SPARQLWrapper costs more than 20% more):")
        for name, (mine_seconds, their_seconds) in results.items():
            print(f"  {name:<28} {their_seconds / mine_seconds:5.2f}")
        ours.close()


if __name__ == "__main__":
    main()
