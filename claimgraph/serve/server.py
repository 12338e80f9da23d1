"""``claimgraph serve``: a threaded HTTP server for the SPARQL endpoint, Graph Store reads and the viewer.

Each connection gets a thread; a query runs in a worker process (embedded
store) or in that thread (remote store), so a long query does not hold up
other clients. The server binds to 127.0.0.1 unless told otherwise, and is
read-only unless started with an update token. Request bodies are read in
full (up to ``max_body`` bytes) before routing, so a refused request never
leaves its body on a kept-alive connection.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from claimgraph import __version__
from claimgraph.context import Context
from claimgraph.profile.manifest import Profile
from claimgraph.serve.evaluate import Answer
from claimgraph.serve.executors import QueryExecutor, StoreExecutor, WorkerPool
from claimgraph.serve.protocol import Request
from claimgraph.serve.routes import Service
from claimgraph.serve.tokens import UpdateToken
from claimgraph.serve.worker import store_signature

DEFAULT_PORT = 7879
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")


def default_workers() -> int:
    return max(2, min(8, os.cpu_count() or 2))


@dataclass(frozen=True)
class ServeOptions:
    """How to serve: address, update token (None: read-only), query timeout and workers, SERVICE allow-list."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    update_token: str | None = None
    timeout: float = 30.0
    workers: int = field(default_factory=default_workers)
    allowed_services: tuple[str, ...] = ()
    union_default_graph: bool = False
    max_body: int = 16 * 1024 * 1024
    log_requests: bool = True


def is_remote(location: str) -> bool:
    return "://" in location


class StoreHandle:
    """The server's own context on the store (viewer API, Graph Store reads, updates).

    Read-only on an embedded store, it reopens when the store's files change, so
    papers another process ingests while the server runs show up.
    """

    def __init__(self, location: str, base: str | None, profile: str | Profile, writable: bool, allowed_services: tuple[str, ...] = ()) -> None:
        self.location, self.base, self.profile = location, base, profile
        self.allowed_services = frozenset(allowed_services)
        self.follow = not writable and not is_remote(location)
        self._lock = threading.Lock()
        self._context = self._open(read_only=not writable)
        self._signature = store_signature(Path(location)) if self.follow else ()

    def _open(self, read_only: bool) -> Context:
        context = Context.open(self.location, base=self.base, profile=self.profile, read_only=read_only)
        context.store.allowed_services = self.allowed_services  # the store refuses every other SERVICE itself too
        return context

    def __call__(self) -> Context:
        if not self.follow:
            return self._context
        with self._lock:
            signature = store_signature(Path(self.location))
            if signature != self._signature:
                self._context = self._open(read_only=True)
                self._signature = signature
            return self._context

    def state(self) -> tuple[tuple[str, int, int], ...] | None:
        """What changes whenever the store does (its files), or None for a remote store."""
        return None if is_remote(self.location) else store_signature(Path(self.location))

    def close(self) -> None:
        with self._lock:
            self._context.close()


class Handler(BaseHTTPRequestHandler):
    server: ClaimgraphServer
    protocol_version = "HTTP/1.1"
    server_version = f"claimgraph/{__version__}"

    def do_GET(self) -> None:
        self.dispatch("GET")

    def do_HEAD(self) -> None:
        self.dispatch("HEAD")

    def do_POST(self) -> None:
        self.dispatch("POST")

    def do_PUT(self) -> None:
        self.dispatch("PUT")

    def do_DELETE(self) -> None:
        self.dispatch("DELETE")

    def do_PATCH(self) -> None:
        self.dispatch("PATCH")

    def dispatch(self, method: str) -> None:
        body, problem = self.read_body(method)
        if problem is not None:
            self.close_connection = True
            self.send(problem, method)
            return
        url = urlsplit(self.path)
        request = Request(method, url.path, parse_qs(url.query, keep_blank_values=True), self.headers, body)  # type: ignore[arg-type]
        try:
            answer = self.server.service.handle(request)
        except Exception as error:  # noqa: BLE001 - one failing request must not take the server down
            self.log_error("unexpected %s: %s", type(error).__name__, error)
            answer = Answer.error(500, f"unexpected {type(error).__name__}: {error}")
        self.send(answer, method)

    def read_body(self, method: str) -> tuple[bytes, Answer | None]:
        if method not in BODY_METHODS:
            return b"", None
        if self.headers.get("Transfer-Encoding"):
            return b"", Answer.error(411, "send the request body with a Content-Length, not chunked")
        length_text = self.headers.get("Content-Length", "0")
        if not length_text.isdigit():
            return b"", Answer.error(400, f"bad Content-Length {length_text!r}")
        length = int(length_text)
        if length > self.server.options.max_body:
            return b"", Answer.error(413, f"the request body is {length} bytes; this server takes at most {self.server.options.max_body}")
        return self.rfile.read(length), None

    def send(self, answer: Answer, method: str) -> None:
        self.send_response(answer.status)
        self.send_header("Content-Type", answer.content_type)
        self.send_header("Content-Length", str(len(answer.body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in answer.headers.items():
            if name != "X-Content-Type-Options":
                self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if method != "HEAD" and answer.body:
            self.wfile.write(answer.body)

    def log_message(self, format: str, *args: object) -> None:
        if self.server.options.log_requests:
            sys.stderr.write(f"{self.address_string()} - {format % args}\n")


class ClaimgraphServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, service: Service, options: ServeOptions, closers: list[QueryExecutor | StoreHandle]) -> None:
        super().__init__((options.host, options.port), Handler)
        self.service = service
        self.options = options
        self._closers = closers

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host.decode() if isinstance(host, bytes) else host}:{port}"

    def server_close(self) -> None:
        super().server_close()
        for closer in self._closers:
            closer.close()


def make_server(location: str | Path, options: ServeOptions, base: str | None = None, profile: str | Profile = "discourse") -> ClaimgraphServer:
    """A server over the store at ``location`` (not yet serving: call ``serve_forever``)."""
    location = str(location)
    token = UpdateToken(options.update_token)
    handle = StoreHandle(location, base, profile, token.enabled, options.allowed_services)
    try:
        executor: QueryExecutor
        if is_remote(location):
            handle().store.timeout = options.timeout  # type: ignore[attr-defined]
            executor = StoreExecutor(handle().store)
        else:
            executor = WorkerPool(Path(location), options.workers, options.timeout, options.union_default_graph)
    except BaseException:
        handle.close()
        raise
    service = Service(executor, handle, token, options.allowed_services, location, handle.state)
    try:
        return ClaimgraphServer(service, options, [executor, handle])
    except OSError:
        executor.close()
        handle.close()
        raise


@contextmanager
def running_server(location: str | Path, options: ServeOptions, base: str | None = None, profile: str | Profile = "discourse") -> Iterator[ClaimgraphServer]:
    """A server answering in a background thread (port 0 picks a free port); stopped on exit."""
    server = make_server(location, options, base, profile)
    thread = threading.Thread(target=server.serve_forever, name="claimgraph-serve", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
