"""How the endpoint fails: a store that cannot be reopened, a query nested too deep, a worker that dies,
an update the store refuses, and a request body in another charset than UTF-8."""

from __future__ import annotations

import json
import os
import signal
import threading
import urllib.parse
from pathlib import Path

from serve_support import UPDATE_TOKEN, request

from claimgraph.serve.executors import WorkerPool
from claimgraph.serve.server import ClaimgraphServer, ServeOptions, running_server

COUNT = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://example.org/g> { ?s ?p ?o } }"
WRITE = {"Content-Type": "application/sparql-update", "Authorization": f"Bearer {UPDATE_TOKEN}"}


def get(server: ClaimgraphServer, sparql: str) -> tuple[int, dict[str, str], bytes]:
    return request(server, "GET", "/query?" + urllib.parse.urlencode({"query": sparql}))


def count(server: ClaimgraphServer) -> int:
    status, _, body = get(server, COUNT)
    assert status == 200, body
    return int(json.loads(body)["results"]["bindings"][0]["n"]["value"])


def worker_pids(server: ClaimgraphServer) -> set[int | None]:
    pool = server.service.executor
    assert isinstance(pool, WorkerPool)
    return {worker.process.pid for worker in pool._all}


def test_a_store_that_cannot_be_reopened_answers_503_and_the_worker_lives_on(writable_store: Path) -> None:
    options = ServeOptions(port=0, workers=1, update_token=UPDATE_TOKEN, log_requests=False)
    with running_server(writable_store, options) as server:
        assert count(server) == 1
        pids = worker_pids(server)
        tables = sorted(writable_store.glob("*.sst"))
        assert tables, "the test store has table files"
        for table in tables:  # the files list names tables that are gone, as after a writer's compaction
            table.rename(table.with_name(table.name + ".away"))
        try:
            status, headers, body = get(server, COUNT)
        finally:
            for table in tables:
                table.with_name(table.name + ".away").rename(table)
        assert status == 503, body
        assert b"cannot open the store" in body and b"out of memory" not in body
        assert headers["retry-after"] == "1"
        assert worker_pids(server) == pids, "the worker died instead of answering"
        assert count(server) == 1


def test_a_query_nested_too_deep_is_refused_before_it_reaches_a_worker(writable_store: Path) -> None:
    nested = "SELECT * WHERE " + "{" * 50_000 + "}" * 50_000  # 100 KB, deep enough to overflow the parser's stack
    with running_server(writable_store, ServeOptions(port=0, workers=1, log_requests=False)) as server:
        pids = worker_pids(server)
        status, _, body = request(server, "POST", "/query", nested, {"Content-Type": "application/sparql-query"})
        assert status == 400 and b"50000 levels deep" in body
        update_status, _, _ = request(server, "POST", "/update", "INSERT DATA " + "{" * 5000 + "}" * 5000, WRITE)
        assert update_status in (400, 403)
        assert worker_pids(server) == pids
        assert count(server) == 1


def test_a_worker_killed_mid_query_is_reported_with_its_signal(tmp_path: Path) -> None:
    from pyoxigraph import Literal, NamedNode, Triple

    from claimgraph.store import EmbeddedStore

    with EmbeddedStore(tmp_path / "store") as store:
        store.replace_graph(NamedNode("http://example.org/g"), [
            Triple(NamedNode(f"http://example.org/s{i}"), NamedNode("http://example.org/p"), Literal(str(i))) for i in range(120)])
    endless = ("SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://example.org/g> { "
               + " . ".join(f"?a{i} <http://example.org/p> ?b{i}" for i in range(5)) + " } }")  # ~2.5e10 rows
    with running_server(tmp_path / "store", ServeOptions(port=0, workers=1, timeout=600, log_requests=False)) as server:
        pool = server.service.executor
        assert isinstance(pool, WorkerPool)
        answers: list[tuple[int, dict[str, str], bytes]] = []
        thread = threading.Thread(target=lambda: answers.append(get(server, endless)))
        thread.start()
        assert pool.wait_running(1, timeout=60), "the query never reached the worker"
        (pid,) = worker_pids(server)
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        thread.join()
        status, _, body = answers[0]
        assert status == 500 and b"signal SIGKILL" in body and b"out of memory" not in body
        assert count(server) == 120  # a fresh worker took over


def test_an_update_the_store_refuses_is_a_client_error(writable_store: Path) -> None:
    options = ServeOptions(port=0, workers=1, update_token=UPDATE_TOKEN, log_requests=False)
    with running_server(writable_store, options) as server:
        status, _, body = request(server, "POST", "/update", "CLEAR GRAPH <urn:none>", WRITE)
        assert status == 400 and b"does not exist" in body
        assert request(server, "POST", "/update", "CLEAR SILENT GRAPH <urn:none>", WRITE)[0] == 204


def test_bodies_in_another_charset_than_utf8_are_refused(writable_store: Path) -> None:
    options = ServeOptions(port=0, workers=1, update_token=UPDATE_TOKEN, log_requests=False)
    with running_server(writable_store, options) as server:
        clear = "CLEAR ALL".encode("utf-16")
        status, _, body = request(server, "POST", "/update", clear, {**WRITE, "Content-Type": "application/sparql-update; charset=UTF-16"})
        assert status == 415 and b"UTF-8" in body
        assert count(server) == 1, "the update ran"
        ask = "ASK {}".encode("utf-16")
        assert request(server, "POST", "/query", ask, {"Content-Type": "application/sparql-query; charset=UTF-16"})[0] == 415
        form = {"Content-Type": "application/x-www-form-urlencoded; charset=ISO-8859-1"}
        assert request(server, "POST", "/query", "query=ASK%7B%7D", form)[0] == 415
        assert request(server, "POST", "/query", "ASK {}", {"Content-Type": "application/sparql-query; charset=utf-8"})[0] == 200
