"""Where served queries run: a pool of worker processes (embedded store), or the request thread (remote store).

``WorkerPool`` keeps ``size`` worker processes, each with a read-only handle
on the store. A request waits at most ``timeout`` seconds for a free worker
(else 503, busy), then at most ``timeout`` seconds for its answer; a query
still running then has its worker killed and replaced (503, timed out), so a
runaway query stops using CPU and memory at once. A worker that dies answers
500 naming how it ended (the signal or exit code) and is replaced too. Starting a worker (a fresh interpreter that opens
the store) is not counted against a query's time.

``StoreExecutor`` runs queries through the Store API in the request thread;
for a remote store the endpoint's own limits and the HTTP timeout apply.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Protocol

from claimgraph.errors import StoreError
from claimgraph.serve.evaluate import Answer, QueryRequest, with_default_graph_hint, write_result
from claimgraph.serve.worker import serve_queries
from claimgraph.store import Store

WORKER_STARTUP_SECONDS = 60.0


class QueryExecutor(Protocol):
    def run(self, request: QueryRequest) -> Answer: ...

    def close(self) -> None: ...


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    connection: Connection
    ready: bool = False

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=10)
        self.connection.close()

    def ending(self) -> str:
        """How the process ended: ``signal SIGSEGV``, ``exit code 1``, or ``no exit status`` while it runs."""
        self.process.join(timeout=10)
        code = self.process.exitcode
        if code is None:
            return "no exit status"
        if code < 0:
            try:
                return f"signal {signal.Signals(-code).name}"
            except ValueError:
                return f"signal {-code}"
        return f"exit code {code}"


def crashed(worker: _Worker) -> Answer:
    return Answer.error(500, f"the query worker process ended ({worker.ending()}) while running the query; "
                             "the query was not answered and the worker was replaced")


class WorkerPool:
    """Worker processes over an embedded store directory; see the module docstring."""

    def __init__(self, location: Path, size: int, timeout: float, union_default_graph: bool = False) -> None:
        if size < 1:
            raise ValueError("a worker pool needs at least one worker")
        self.location = location
        self.size = size
        self.timeout = timeout
        self.union_default_graph = union_default_graph
        self.timeouts = 0
        self.running = 0
        self._running_changed = threading.Condition()
        self._context = multiprocessing.get_context("spawn")
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._closed = False
        for _ in range(size):
            self._idle.put(self._start())

    def _start(self) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=serve_queries, args=(child, str(self.location), self.union_default_graph),
            name="claimgraph-query-worker", daemon=True,
        )
        process.start()
        child.close()
        worker = _Worker(process, parent)
        with self._lock:
            self._all.add(worker)
        return worker

    def _replace(self, worker: _Worker) -> None:
        worker.stop()
        with self._lock:
            self._all.discard(worker)
            closed = self._closed
        if not closed:
            self._idle.put(self._start())

    def _ensure_ready(self, worker: _Worker) -> Answer | None:
        """Wait for a new worker's store to open; an Answer when it could not."""
        if worker.ready:
            return None
        if not worker.connection.poll(WORKER_STARTUP_SECONDS):
            return Answer.error(503, f"a query worker did not start within {WORKER_STARTUP_SECONDS:.0f} s")
        message = worker.connection.recv()
        if isinstance(message, Answer):
            return message
        worker.ready = True
        return None

    def _count_running(self, change: int) -> None:
        with self._running_changed:
            self.running += change
            self._running_changed.notify_all()

    def wait_running(self, count: int, timeout: float) -> bool:
        """Wait until at least ``count`` queries are running in workers (for monitoring and tests)."""
        with self._running_changed:
            return self._running_changed.wait_for(lambda: self.running >= count, timeout)

    def run(self, request: QueryRequest) -> Answer:
        try:
            worker = self._idle.get(timeout=self.timeout)
        except queue.Empty:
            return Answer.error(503, f"all {self.size} query workers are busy; try again shortly", {"Retry-After": "1"})
        try:
            failed = self._ensure_ready(worker)
            if failed is not None:
                self._replace(worker)
                return failed
            worker.connection.send(request)
            started = time.monotonic()
            self._count_running(+1)
            try:
                finished = worker.connection.poll(self.timeout)
            finally:
                self._count_running(-1)
            if not finished:
                self.timeouts += 1
                self._replace(worker)
                waited = time.monotonic() - started
                return Answer.error(503, f"the query ran past this server's {self.timeout:g} s timeout (stopped after {waited:.1f} s)")
            answer: Answer = worker.connection.recv()
        except (EOFError, OSError):
            answer = crashed(worker)
            self._replace(worker)
            return answer
        self._idle.put(worker)
        return answer

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers = list(self._all)
            self._all.clear()
        for worker in workers:
            worker.stop()


class StoreExecutor:
    """Queries through the Store API in the calling thread (a remote store, or an in-memory one in tests)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def run(self, request: QueryRequest) -> Answer:
        if request.default_graphs or request.named_graphs:
            return Answer.error(400, "default-graph-uri and named-graph-uri are not supported when serving a remote store; use FROM / FROM NAMED")
        try:
            answer = write_result(self.store.query(request.sparql), request.accept)
            return with_default_graph_hint(answer, request, lambda: bool(self.store.graph_names()))
        except StoreError as error:
            cause = error.__cause__
            malformed = isinstance(cause, SyntaxError) or getattr(cause, "code", None) == 400
            return Answer.error(400 if malformed else 502, str(error))
        except (OSError, RuntimeError, ValueError) as error:
            return Answer.error(500, f"query evaluation failed: {error}")

    def close(self) -> None:
        """The store is closed by its owner."""
