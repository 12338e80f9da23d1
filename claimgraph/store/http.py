"""A small keep-alive HTTP/1.1 client for SPARQL servers: total deadlines, retries with backoff, auth from the environment.

Why not urllib or SPARQLWrapper: both open a new connection per request and
bound only the gap between two reads, so a server that trickles a byte every
few seconds holds a call for ever. Here every call has a wall-clock deadline
(a watchdog shuts the socket down when it passes), connections are kept per
thread and per host, and failures the server did not act on are retried with
exponential backoff. Credentials come from the environment only
(``CLAIMGRAPH_STORE_TOKEN``, or ``CLAIMGRAPH_STORE_USER`` and
``CLAIMGRAPH_STORE_PASSWORD``) and never appear in a message.
"""

from __future__ import annotations

import base64
import contextlib
import heapq
import http.client
import itertools
import os
import random
import socket
import ssl
import threading
import time
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass

from claimgraph.errors import StoreError
from claimgraph.store.settings import HttpSettings

TOKEN_ENV = "CLAIMGRAPH_STORE_TOKEN"
USER_ENV = "CLAIMGRAPH_STORE_USER"
PASSWORD_ENV = "CLAIMGRAPH_STORE_PASSWORD"

RETRY_STATUSES_ANY = frozenset({429, 503})
"""Statuses that say the request was not acted on: retried for updates too."""
RETRY_STATUSES_READ = frozenset({500, 502, 503, 504, 429})
"""Statuses retried for reads, which are safe to repeat."""


class DeadlineError(StoreError):
    """A call to a SPARQL server did not complete within its total deadline."""


@dataclass(frozen=True)
class Response:
    status: int
    content_type: str
    body: bytes


def authorization_from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The Authorization header value the environment asks for (bearer token first), or None."""
    env = os.environ if environ is None else environ
    token = env.get(TOKEN_ENV)
    if token:
        return f"Bearer {token}"
    user = env.get(USER_ENV)
    if user:
        pair = f"{user}:{env.get(PASSWORD_ENV, '')}".encode()
        return "Basic " + base64.b64encode(pair).decode("ascii")
    return None


def check_url(url: str) -> urllib.parse.SplitResult:
    """An http(s) URL without credentials in it (they would show in process lists and logs)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise StoreError(f"SPARQL endpoint {url!r} is not an http(s) URL")
    if parts.username or parts.password:
        raise StoreError(
            f"SPARQL endpoint URL for host {parts.hostname} holds credentials; remove them and set "
            f"{USER_ENV}/{PASSWORD_ENV} or {TOKEN_ENV} in the environment instead"
        )
    return parts


class _Watchdog:
    """One daemon thread that shuts down the sockets of calls whose deadline passed."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        """Fresh state; also in a forked child, which inherits the parent's objects but not its thread."""
        self._pid = os.getpid()
        self._heap: list[tuple[float, int, socket.socket]] = []
        self._cancelled: set[int] = set()
        self._counter = itertools.count()
        self._condition = threading.Condition()
        self._thread: threading.Thread | None = None

    def watch(self, deadline: float, sock: socket.socket) -> int:
        if self._pid != os.getpid():
            self._reset()
        with self._condition:
            key = next(self._counter)
            heapq.heappush(self._heap, (deadline, key, sock))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="claimgraph-http-deadlines", daemon=True)
                self._thread.start()
            self._condition.notify()
            return key

    def cancel(self, key: int) -> None:
        with self._condition:
            self._cancelled.add(key)

    def _run(self) -> None:
        with self._condition:
            while True:
                while self._heap and self._heap[0][1] in self._cancelled:
                    self._cancelled.discard(heapq.heappop(self._heap)[1])
                if not self._heap:
                    self._condition.wait()
                    continue
                deadline, key, sock = self._heap[0]
                wait = deadline - time.monotonic()
                if wait > 0:
                    self._condition.wait(wait)
                    continue
                heapq.heappop(self._heap)
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


_WATCHDOG = _Watchdog()


class _Retry(Exception):
    """A failure worth another attempt; ``message`` says what happened."""

    def __init__(self, message: str, reached: bool = True) -> None:
        super().__init__(message)
        self.message = message
        self.reached = reached


class HttpClient:
    """Keep-alive connections (one per thread and host) with total deadlines and retries."""

    def __init__(self, settings: HttpSettings | None = None, authorization: str | None = None) -> None:
        self.settings = settings or HttpSettings()
        self._authorization = authorization
        self._local = threading.local()
        self._pid = os.getpid()
        self._ssl = ssl.create_default_context()

    def request(self, method: str, url: str, body: bytes | None = None, headers: Mapping[str, str] | None = None,
                idempotent: bool = True) -> Response:
        """One call, retried on dropped connections and retryable statuses until the deadline.

        ``idempotent`` False (an update that may not be safe to repeat) retries
        only what the server cannot have acted on: refused connections, a kept
        connection the server had closed, 429 and 503.
        """
        parts = check_url(url)
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        all_headers = {"Connection": "keep-alive", **(headers or {})}
        if self._authorization:
            all_headers["Authorization"] = self._authorization
        deadline = time.monotonic() + self.settings.timeout
        statuses = RETRY_STATUSES_READ if idempotent else RETRY_STATUSES_ANY
        attempt = 0
        while True:
            try:
                return self._attempt(parts, method, target, body, all_headers, deadline, statuses, idempotent)
            except _Retry as failure:
                attempt += 1
                pause = min(self.settings.backoff_max, self.settings.backoff * 2 ** (attempt - 1)) * (0.5 + random.random() / 2)
                if attempt > self.settings.retries or time.monotonic() + pause >= deadline:
                    tries = f" ({attempt} attempts)" if attempt > 1 else ""
                    what = "SPARQL endpoint {} failed" if failure.reached else "cannot reach SPARQL endpoint {}"
                    raise StoreError(f"{what.format(_shown(url))}{tries}: {failure.message}") from None
                time.sleep(pause)

    def close(self) -> None:
        connections: dict[tuple[str, str, int], http.client.HTTPConnection] = getattr(self._local, "connections", {})
        for connection in connections.values():
            connection.close()
        connections.clear()

    def _connection(self, parts: urllib.parse.SplitResult, remaining: float) -> tuple[http.client.HTTPConnection, bool]:
        """The thread's kept connection to the host (reused: True), or a new one (always, in a forked child: the parent owns its sockets)."""
        if self._pid != os.getpid():
            self._local, self._pid = threading.local(), os.getpid()
        connections: dict[tuple[str, str, int], http.client.HTTPConnection] = self._local.__dict__.setdefault("connections", {})
        scheme = parts.scheme.lower()
        port = parts.port or (443 if scheme == "https" else 80)
        key = (scheme, parts.hostname or "", port)
        connection = connections.get(key)
        if connection is not None and connection.sock is not None:
            return connection, True
        if scheme == "https":
            connection = http.client.HTTPSConnection(key[1], port, timeout=remaining, context=self._ssl)
        else:
            connection = http.client.HTTPConnection(key[1], port, timeout=remaining)
        connections[key] = connection
        return connection, False

    def _attempt(self, parts: urllib.parse.SplitResult, method: str, target: str, body: bytes | None,
                 headers: Mapping[str, str], deadline: float, statuses: frozenset[int], idempotent: bool) -> Response:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise DeadlineError(f"SPARQL endpoint {_shown(parts.geturl())} gave no complete answer within {self.settings.timeout:g} s")
        connection, reused = self._connection(parts, remaining)
        watch: int | None = None
        sent = False
        try:
            if connection.sock is None:
                connection.timeout = remaining
                connection.connect()
            assert connection.sock is not None
            connection.sock.settimeout(remaining)
            watch = _WATCHDOG.watch(deadline, connection.sock)
            connection.request(method, target, body=body, headers=dict(headers))
            sent = True
            response = connection.getresponse()
            payload = response.read()
            result = Response(response.status, response.getheader("Content-Type", "") or "", payload)
            if response.will_close:
                connection.close()
        except (ConnectionRefusedError, socket.gaierror) as error:
            connection.close()
            raise _Retry(str(error), reached=False) from error
        except (http.client.HTTPException, OSError) as error:
            connection.close()
            if time.monotonic() >= deadline:
                raise DeadlineError(
                    f"SPARQL endpoint {_shown(parts.geturl())} gave no complete answer within {self.settings.timeout:g} s "
                    "(the server is too slow or trickling; raise --store-timeout if it is just slow)"
                ) from None
            stale = reused and isinstance(error, (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError))
            if idempotent or not sent or stale:
                raise _Retry(f"connection dropped ({type(error).__name__}: {error})") from error
            raise StoreError(
                f"SPARQL endpoint {_shown(parts.geturl())} dropped the connection during an update "
                f"({type(error).__name__}); it may or may not have been applied, so it is not repeated"
            ) from error
        finally:
            if watch is not None:
                _WATCHDOG.cancel(watch)
        if result.status in statuses:
            raise _Retry(f"HTTP {result.status}: {first_line(result.body)}")
        return result


def first_line(body: bytes, limit: int = 300) -> str:
    """The first non-empty line of a server's answer, for an error message."""
    for line in body.decode("utf-8", "replace").splitlines():
        if line.strip():
            return line.strip()[:limit]
    return "(empty answer)"


def _shown(url: str) -> str:
    """The URL without its query string (which may hold a whole SPARQL text)."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
