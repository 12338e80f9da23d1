"""A misbehaving SPARQL server for tests of the remote store: scripted answers over real HTTP on the loopback.

Each request takes the next ``Answer`` of the script (the last one repeats):
a status with a body, a body trickled a byte at a time, a connection dropped
before any answer, or no answer at all until the server stops. Every request
is recorded (method, path, headers, body), so a test can check what was sent,
including the Authorization header.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

EMPTY_RESULTS = b'{"head":{"vars":["n"]},"results":{"bindings":[{"n":{"type":"literal","value":"7","datatype":"http://www.w3.org/2001/XMLSchema#integer"}}]}}'
RESULTS_TYPE = "application/sparql-results+json"


@dataclass(frozen=True)
class Answer:
    """What the server does with one request: ``kind`` is answer, trickle, drop or hang."""

    kind: str = "answer"
    status: int = 200
    body: bytes = EMPTY_RESULTS
    content_type: str = RESULTS_TYPE
    interval: float = 0.0
    """trickle: seconds between two bytes of the body."""


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class ScriptedServer:
    """The running server: its URL, the requests it got, and the script it follows."""

    url: str
    script: list[Answer]
    requests: list[Request] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def next_answer(self, request: Request) -> Answer:
        with self._lock:
            self.requests.append(request)
            return self.script.pop(0) if len(self.script) > 1 else self.script[0]


def _handler(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: tests read ``server.requests`` instead."""

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            answer = server.next_answer(Request(self.command, self.path, dict(self.headers.items()), body))
            if answer.kind == "drop":
                self.close_connection = True
                self.connection.close()
                return
            if answer.kind == "hang":
                server.stopping.wait()
                self.close_connection = True
                return
            self.send_response(answer.status)
            self.send_header("Content-Type", answer.content_type)
            self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            if answer.kind == "trickle":
                for byte in answer.body:
                    if server.stopping.wait(answer.interval):
                        return
                    try:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                    except OSError:
                        return
            else:
                self.wfile.write(answer.body)

        do_GET = do_POST = do_PUT = _serve

    return Handler


@contextmanager
def scripted_sparql_server(script: Sequence[Answer]) -> Iterator[ScriptedServer]:
    """Serve ``script`` on 127.0.0.1 (a free port); yields the server, whose ``url`` has no path."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    httpd.daemon_threads = True
    server = ScriptedServer(f"http://127.0.0.1:{httpd.server_address[1]}", list(script) or [Answer()])
    httpd.RequestHandlerClass = _handler(server)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stopping.set()
        httpd.shutdown()
        httpd.server_close()
