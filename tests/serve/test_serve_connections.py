"""Connections with real sockets: half-sent requests are dropped after the read timeout, and connections
beyond the threads and their queue are answered 503 at once instead of piling up."""

from __future__ import annotations

import socket
import urllib.parse
from pathlib import Path

from serve_support import request

from claimgraph.serve.server import QUEUED_PER_THREAD, ClaimgraphServer, ServeOptions, running_server

HALF_HEADERS = b"GET /query?query=ASK%7B%7D HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # no blank line: the headers never end
HALF_BODY = b"POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/sparql-query\r\nContent-Length: 100\r\n\r\nASK"


def connect(server: ClaimgraphServer, payload: bytes = b"") -> socket.socket:
    host, port = server.server_address[:2]
    connection = socket.create_connection((str(host), int(port)), timeout=120)
    if payload:
        connection.sendall(payload)
    return connection


def read_until_closed(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (raises TimeoutError if it never does)."""
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    connection.close()
    return received


def test_half_sent_requests_are_dropped_after_the_read_timeout(writable_store: Path) -> None:
    options = ServeOptions(port=0, workers=1, read_timeout=0.5, connections=2, log_requests=False)
    with running_server(writable_store, options) as server:
        stalled = [connect(server, HALF_HEADERS if number % 2 else HALF_BODY) for number in range(6)]
        answers = [read_until_closed(connection) for connection in stalled]
        assert [answer for answer in answers[1::2]] == [b""] * 3  # no request line: closed without an answer
        assert all(answer.startswith(b"HTTP/1.1 408") for answer in answers[0::2]), answers[0]
        status, _, _ = request(server, "GET", "/query?" + urllib.parse.urlencode({"query": "ASK {}"}))
        assert status == 200


def test_connections_beyond_the_threads_and_the_queue_get_503_at_once(writable_store: Path) -> None:
    options = ServeOptions(port=0, workers=1, read_timeout=1.0, connections=1, log_requests=False)
    with running_server(writable_store, options) as server:
        opened = [connect(server) for _ in range(12)]  # silent clients: each holds a thread until the read timeout
        answers = [read_until_closed(connection) for connection in opened]
        busy = [answer for answer in answers if answer.startswith(b"HTTP/1.1 503")]
        held = 1 + QUEUED_PER_THREAD  # one served, the others queued
        assert len(busy) >= len(opened) - held, answers
        assert all(b"busy" in answer for answer in busy)
        assert all(answer == b"" for answer in answers if answer not in busy)
        assert request(server, "GET", "/health")[0] == 200


def test_the_listen_backlog_is_larger_than_the_default() -> None:
    assert ClaimgraphServer.request_queue_size >= 128
