"""``claimgraph serve``: a threaded HTTP server for the SPARQL endpoint, Graph Store reads and the viewer.

A fixed set of ``connections`` threads serves the accepted connections, one
each; a query runs in a worker process (embedded store) or in that thread
(remote store), so a long query does not hold up other clients. Accepted
connections wait for a thread in a bounded queue; one that finds the queue
full is answered 503 at once. Every connection has a read timeout
(``read_timeout``): a client that sends half a request, or keeps an idle
connection open, is dropped after it, so it cannot hold a thread for good.
The server binds to 127.0.0.1 unless told otherwise, and is read-only unless
started with an update token. Request bodies are read in full (up to
``max_body`` bytes) before routing, so a refused request never leaves its
body on a kept-alive connection.
"""

from __future__ import annotations

import os
import queue
import socket
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from claimgraph import __version__
from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.serve.access import Access
from claimgraph.serve.evaluate import Answer
from claimgraph.serve.executors import QueryExecutor, StoreExecutor, WorkerPool
from claimgraph.serve.protocol import Request
from claimgraph.serve.routes import Service
from claimgraph.serve.tokens import UpdateToken
from claimgraph.serve.worker import store_signature
from claimgraph.settings import StoreSettings

DEFAULT_PORT = 7879
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")
LISTEN_BACKLOG = 128
QUEUED_PER_THREAD = 4
DEFAULT_CONNECTIONS = 64


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
    read_timeout: float = 30.0
    connections: int = DEFAULT_CONNECTIONS
    allowed_hosts: tuple[str, ...] = ()
    cors_origins: tuple[str, ...] = ()
    warm_viewer: bool = False


def is_remote(location: str) -> bool:
    return "://" in location


class StoreHandle:
    """The server's own context on the store (viewer API, Graph Store reads, updates).

    Read-only on an embedded store, it reopens when the store's files change, so
    papers another process ingests while the server runs show up.
    """

    def __init__(self, location: str, base: str | None, profile: str, writable: bool, allowed_services: tuple[str, ...] = (),
                 timeout: float = 120.0) -> None:
        self.settings = StoreSettings(location=location, base=base, profile=profile, timeout=timeout,
                                      allowed_services=frozenset(allowed_services))
        self.location = location
        self.follow = not writable and not is_remote(location)
        self._lock = threading.Lock()
        self._context = self._open(read_only=not writable)
        self._signature = store_signature(Path(location)) if self.follow else ()

    def _open(self, read_only: bool) -> Context:
        """The context on the store, whose own SERVICE allow-list is the server's (it refuses every other SERVICE too)."""
        return Context.from_settings(self.settings, read_only=read_only)

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

    def do_OPTIONS(self) -> None:
        self.dispatch("OPTIONS")

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.options.read_timeout)  # a silent client times out in handle_one_request

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
        try:
            self.send(answer, method)
        except OSError as error:  # the client went away or stopped reading (past the read timeout)
            self.close_connection = True
            self.log_message("answer not delivered: %s", error)

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
        try:
            body = self.rfile.read(length)
        except TimeoutError:
            return b"", Answer.error(408, f"the request body did not arrive within {self.server.options.read_timeout:g} s")
        if len(body) < length:
            return b"", Answer.error(400, f"the request body ended after {len(body)} of {length} bytes")
        return body, None

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


class ClaimgraphServer(HTTPServer):
    """An HTTP server whose connections are served by a fixed set of threads (see the module docstring)."""

    allow_reuse_address = True
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, service: Service, options: ServeOptions, closers: list[QueryExecutor | StoreHandle]) -> None:
        super().__init__((options.host, options.port), Handler)
        self.service = service
        self.options = options
        self._closers = closers
        self._pending: queue.Queue[tuple[socket.socket | tuple[bytes, socket.socket], Any] | None] = queue.Queue(maxsize=options.connections * QUEUED_PER_THREAD)
        self._threads = [threading.Thread(target=self._serve_connections, name=f"claimgraph-connection-{number}", daemon=True)
                         for number in range(options.connections)]
        for thread in self._threads:
            thread.start()

    def process_request(self, request: socket.socket | tuple[bytes, socket.socket], client_address: Any) -> None:
        """Queue the connection for a connection thread; answer 503 at once when the queue is full."""
        try:
            self._pending.put_nowait((request, client_address))
        except queue.Full:
            if isinstance(request, socket.socket):
                refuse_busy(request, self.options.connections)
            self.shutdown_request(request)

    def _serve_connections(self) -> None:
        while (item := self._pending.get()) is not None:
            request, client_address = item
            try:
                self.finish_request(request, client_address)
            except Exception:  # noqa: BLE001 - one broken connection must not end the thread
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

    def handle_error(self, request: object, client_address: object) -> None:
        if self.options.log_requests:
            error = sys.exc_info()[1]
            sys.stderr.write(f"{client_address} - connection error: {type(error).__name__}: {error}\n")

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        return f"http://[{name}]:{port}" if ":" in name else f"http://{name}:{port}"

    def server_close(self) -> None:
        super().server_close()
        for _ in self._threads:
            try:
                self._pending.put_nowait(None)
            except queue.Full:
                break  # the threads are daemons; they end with the process
        for closer in self._closers:
            closer.close()


def refuse_busy(connection: socket.socket, threads: int) -> None:
    """A minimal 503 written straight to a connection no thread can take."""
    body = f"all {threads} connections of this server are busy; try again shortly\n".encode()
    head = (f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
            "Retry-After: 1\r\nConnection: close\r\n\r\n").encode()
    try:
        connection.settimeout(1.0)
        connection.sendall(head + body)
    except OSError:
        pass  # the client is gone; nothing to tell it


def make_server(location: str | Path, options: ServeOptions, base: str | None = None, profile: str = "discourse") -> ClaimgraphServer:
    """A server over the store at ``location`` (not yet serving: call ``serve_forever``)."""
    location = str(location)
    if options.union_default_graph and is_remote(location):
        raise ClaimgraphError("--union-default-graph works on an embedded store only; for a remote store start its own server "
                              "with a union default graph (oxigraph serve --union-default-graph) or write GRAPH ?g in queries")
    if options.read_timeout <= 0 or options.connections < 1:
        raise ClaimgraphError("the read timeout must be positive and the server needs at least one connection thread")
    token = UpdateToken(options.update_token)
    handle = StoreHandle(location, base, profile, token.enabled, options.allowed_services, options.timeout)
    try:
        executor: QueryExecutor
        if is_remote(location):
            executor = StoreExecutor(handle().store)
        else:
            executor = WorkerPool(Path(location), options.workers, options.timeout, options.union_default_graph)
    except BaseException:
        handle.close()
        raise
    access = Access.build(options.host, options.allowed_hosts, options.cors_origins)
    service = Service(executor, handle, token, options.allowed_services, location, handle.state, access=access)
    try:
        server = ClaimgraphServer(service, options, [executor, handle])
        service.base_url = server.base_url
        if options.warm_viewer:
            threading.Thread(target=service.warm_viewer, name="claimgraph-warm-viewer", daemon=True).start()
        return server
    except OSError:
        executor.close()
        handle.close()
        raise


@contextmanager
def running_server(location: str | Path, options: ServeOptions, base: str | None = None, profile: str = "discourse") -> Iterator[ClaimgraphServer]:
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
