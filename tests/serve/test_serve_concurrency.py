"""Concurrent clients: pyoxigraph leaves the GIL while it evaluates, a long query does not hold up others,
and a query past the timeout is stopped (its worker process killed and replaced)."""

from __future__ import annotations

import json
import threading
import urllib.parse
from pathlib import Path

import pyoxigraph
import pytest
from pyoxigraph import Literal, NamedNode, Quad, Triple
from serve_support import request

from claimgraph.serve.executors import WorkerPool
from claimgraph.serve.server import ServeOptions, running_server
from claimgraph.store import EmbeddedStore

EX = "http://example.org/"
SHORT = f"SELECT ?o WHERE {{ GRAPH <{EX}g> {{ <{EX}s1> <{EX}p> ?o }} }}"
# Five-way cartesian product over 120 triples: ~2.5e10 rows to count, far beyond any timeout here.
ENDLESS = f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{EX}g> {{ ?a <{EX}p> ?b . ?c <{EX}p> ?d . ?e <{EX}p> ?f . ?h <{EX}p> ?i . ?j <{EX}p> ?k }} }}"


def triples(count: int) -> list[Triple]:
    return [Triple(NamedNode(f"{EX}s{i}"), NamedNode(f"{EX}p"), Literal(str(i))) for i in range(count)]


@pytest.fixture
def small_store(tmp_path: Path) -> Path:
    with EmbeddedStore(tmp_path / "store") as store:
        store.replace_graph(NamedNode(f"{EX}g"), triples(120))
    return tmp_path / "store"


def test_pyoxigraph_releases_the_gil_while_a_query_runs() -> None:
    """Short queries in this thread finish while another thread's long query is still inside pyoxigraph."""
    store = pyoxigraph.Store()
    store.extend(Quad(t.subject, t.predicate, t.object, NamedNode(f"{EX}g")) for t in triples(120))
    long_query = f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{EX}g> {{ ?a <{EX}p> ?b . ?c <{EX}p> ?d . ?e <{EX}p> ?f }} }}"
    started, finished = threading.Event(), threading.Event()

    def long_running() -> None:
        started.set()
        list(store.query(long_query))  # 1.7 million rows to count
        finished.set()

    thread = threading.Thread(target=long_running)
    thread.start()
    assert started.wait(10)
    shorts = [list(store.query(SHORT.replace(f"<{EX}s1>", f"<{EX}s{i}>"))) for i in range(20)]
    still_running = not finished.is_set()
    thread.join()
    assert [len(rows) for rows in shorts] == [1] * 20
    assert still_running, "the short queries waited for the long one: pyoxigraph kept the GIL"


def test_a_long_query_neither_blocks_others_nor_outlives_the_timeout(small_store: Path) -> None:
    options = ServeOptions(port=0, workers=2, timeout=5.0, log_requests=False)
    with running_server(small_store, options) as server:
        pool = server.service.executor
        assert isinstance(pool, WorkerPool)
        for _ in range(2):  # one query per worker (the idle queue is first in, first out): both have opened the store
            assert request(server, "GET", "/query?" + urllib.parse.urlencode({"query": SHORT}))[0] == 200
        long_answer: list[tuple[int, bytes]] = []
        thread = threading.Thread(target=lambda: long_answer.append(request(server, "GET", "/query?" + urllib.parse.urlencode({"query": ENDLESS}))[::2]))
        thread.start()
        assert pool.wait_running(1, timeout=30), "the long query never reached a worker"
        workers_before = {worker.process.pid for worker in pool._all}
        shorts = [request(server, "GET", "/query?" + urllib.parse.urlencode({"query": SHORT})) for _ in range(5)]
        long_still_running = thread.is_alive()
        thread.join()
        assert [status for status, _, _ in shorts] == [200] * 5
        assert all(json.loads(body)["results"]["bindings"][0]["o"]["value"] == "1" for _, _, body in shorts)
        assert long_still_running, "the short queries were answered only after the long one"
        status, body = long_answer[0]
        assert status == 503 and b"timeout" in body
        assert pool.timeouts == 1
        assert workers_before - {worker.process.pid for worker in pool._all}, "the worker running the long query was not replaced"
        after, _, _ = request(server, "GET", "/query?" + urllib.parse.urlencode({"query": SHORT}))
        assert after == 200
