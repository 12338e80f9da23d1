"""A fake OpenAI-compatible endpoint on 127.0.0.1 for tests, benchmarks and recording demos.

It speaks ``POST /v1/chat/completions`` and ``POST /v1/embeddings`` and serves
scripted replies. A script is a list of rules; the first rule whose matcher fits
a request answers it with the next reply of its list (the last reply repeats
once the list is used up, or the list starts over with ``cycle=True``). A
rule matches on a substring of the last user message, on the phase tag the
claimgraph client sends in the ``X-Claimgraph-Phase`` header, or both. A reply
is a completion text, an HTTP error with headers (429 with Retry-After, 500), a
raw body, a delay before answering (for latency), a dropped connection, no
answer at all (``hang()``: the request is held until the client gives up or the
server stops) or an answer trickled byte by byte (``trickle()``).

Structured output: ``response_format="accept"`` (the default) serves requests
that carry ``response_format`` like any other; ``"refuse"`` answers each of them
400 with an "unsupported" message, as servers without JSON-schema output do,
without using up a scripted reply.

Every request is recorded (body, headers, rule, reply status) so tests can
assert call counts; the peak number of requests in flight is tracked too.
Embeddings are deterministic: each word is hashed into a bucket of a fixed-size
vector, so texts sharing words get similar vectors.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import select
import socket
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from claimgraph.llm.backends import PAPER_HEADER, PASSAGE_HEADER, PHASE_HEADER

EMBEDDING_DIMENSIONS = 64
RESPONSE_FORMAT_MODES = ("accept", "refuse")
REFUSAL_MESSAGE = "response_format of type json_schema is not supported by this server"


@dataclass(frozen=True)
class Reply:
    """One scripted answer. ``content`` is the assistant text of a 200 chat completion.

    ``body`` replaces the whole HTTP body (garbage, non-JSON); ``status`` and
    ``headers`` make an error reply; ``delay`` seconds pass before answering;
    ``drop`` closes the connection without any answer; ``hang`` never answers
    (until the client disconnects or the server stops); ``trickle`` sends the
    body one byte every ``trickle`` seconds after the headers; ``unsized`` sends
    the body without a Content-Length (its end is the closed connection), in
    chunks, counting in ``FakeLLMServer.unsized_bytes_sent`` what left before the
    client hung up.
    """

    content: str = ""
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    body: str | None = None
    delay: float = 0.0
    drop: bool = False
    finish_reason: str = "stop"
    hang: bool = False
    trickle: float = 0.0
    unsized: bool = False


def ok(content: str, delay: float = 0.0, finish_reason: str = "stop") -> Reply:
    return Reply(content=content, delay=delay, finish_reason=finish_reason)


def error(status: int, retry_after: float | None = None, message: str = "scripted error") -> Reply:
    headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else {}
    body = json.dumps({"error": {"message": message, "type": "fake_error", "code": str(status)}})
    return Reply(status=status, headers=headers, body=body)


def dropped() -> Reply:
    return Reply(drop=True)


def hang() -> Reply:
    """No answer at all: only a client-side deadline ends the request."""
    return Reply(hang=True)


def trickle(content: str, seconds_per_byte: float) -> Reply:
    """A 200 completion whose body arrives one byte every ``seconds_per_byte``."""
    return Reply(content=content, trickle=seconds_per_byte)


def unsized(body: str) -> Reply:
    """A 200 whose body has no Content-Length: the client learns its size only by reading it."""
    return Reply(body=body, headers={"Content-Type": "application/json"}, unsized=True)


def hostile_cycle(valid: str) -> list[Reply]:
    """One round of what a failing endpoint does: 429, 500, garbage, truncated JSON, empty, no answer, then ``valid``."""
    cut = valid[: max(1, len(valid) * 3 // 5)]
    return [error(429, retry_after=0), error(500), ok("I cannot help with that :) [[[ }}"), ok(cut), ok(""), hang(), ok(valid)]


@dataclass
class Rule:
    """Replies for the requests this rule matches; ``contains``, ``phase`` and ``passage`` must all fit when given.

    ``passage`` matches the passage number the claimgraph client sends in the
    ``X-Claimgraph-Passage`` header.
    """

    replies: Sequence[Reply | str]
    contains: str | None = None
    phase: str | None = None
    cycle: bool = False
    passage: int | None = None
    served: int = 0

    def matches(self, last_user: str, phase: str | None, passage: int | None = None) -> bool:
        if self.contains is not None and self.contains not in last_user:
            return False
        if self.passage is not None and self.passage != passage:
            return False
        return self.phase is None or self.phase == phase

    def next_reply(self) -> Reply:
        position = self.served % len(self.replies) if self.cycle else min(self.served, len(self.replies) - 1)
        reply = self.replies[position]
        self.served += 1
        return reply if isinstance(reply, Reply) else ok(reply)


Script = Sequence[Rule] | Mapping[str, Sequence[Reply | str]]


def as_rules(script: Script) -> list[Rule]:
    """A mapping is shorthand: each key is a substring of the last user message ("" matches all)."""
    if isinstance(script, Mapping):
        return [Rule(replies=list(replies), contains=key) for key, replies in script.items()]
    return list(script)


@dataclass(frozen=True)
class RecordedRequest:
    path: str
    body: dict[str, Any]
    headers: dict[str, str]
    rule: int | None
    status: int | None

    @property
    def phase(self) -> str | None:
        return self.headers.get(PHASE_HEADER.lower())

    @property
    def paper(self) -> str | None:
        return self.headers.get(PAPER_HEADER.lower())

    @property
    def passage(self) -> int | None:
        value = self.headers.get(PASSAGE_HEADER.lower())
        return int(value) if value and value.isdigit() else None

    @property
    def structured(self) -> bool:
        """Whether the request asked for structured output (``response_format``)."""
        return "response_format" in self.body

    @property
    def last_user_message(self) -> str:
        return last_user_message(self.body)


def last_user_message(body: Mapping[str, Any]) -> str:
    for message in reversed(body.get("messages") or []):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else json.dumps(content)
    return ""


def word_count(text: str) -> int:
    return len(text.split())


def embed(text: str, dimensions: int = EMBEDDING_DIMENSIONS) -> list[float]:
    """A unit vector from hashed lower-case words (feature hashing with signs)."""
    vector = [0.0] * dimensions
    for word in re.findall(r"\w+", text.lower()):
        digest = hashlib.sha256(word.encode("utf-8")).digest()
        bucket = int.from_bytes(digest[:4], "big") % dimensions
        vector[bucket] += 1.0 if digest[4] & 1 else -1.0
    norm = math.sqrt(sum(value * value for value in vector))
    if norm == 0.0:
        vector[0], norm = 1.0, 1.0
    return [value / norm for value in vector]


class FakeLLMServer(ThreadingHTTPServer):
    """The HTTP server; its handler reads ``rules``, ``latency`` and writes ``requests``."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, rules: list[Rule], latency: float, response_format: str = "accept") -> None:
        if response_format not in RESPONSE_FORMAT_MODES:
            raise ValueError(f"response_format must be one of {RESPONSE_FORMAT_MODES}, not {response_format!r}")
        super().__init__(("127.0.0.1", 0), _Handler)
        self.rules = rules
        self.latency = latency
        self.response_format = response_format
        self.requests: list[RecordedRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.unsized_bytes_sent: list[int] = []
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    @property
    def base_url(self) -> str:
        """The OpenAI base URL (what OPENAI_BASE_URL would hold)."""
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def chat_requests(self, phase: str | None = None) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions") and (phase is None or r.phase == phase)]

    def choose(self, body: dict[str, Any], phase: str | None, passage: int | None = None) -> tuple[int | None, Reply | None]:
        last_user = last_user_message(body)
        with self.lock:
            for number, rule in enumerate(self.rules):
                if rule.matches(last_user, phase, passage):
                    return number, rule.next_reply()
        return None, None

    def record(self, request: RecordedRequest) -> None:
        with self.lock:
            self.requests.append(request)

    def enter(self) -> None:
        with self.lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def leave(self) -> None:
        with self.lock:
            self.in_flight -= 1


class _Handler(BaseHTTPRequestHandler):
    server: FakeLLMServer
    protocol_version = "HTTP/1.0"

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: tests assert on recorded requests instead."""

    def do_POST(self) -> None:
        self.server.enter()
        try:
            self._answer()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout) before the scripted delay ended
        finally:
            self.server.leave()

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except json.JSONDecodeError:
            body = {}
        headers = {name.lower(): value for name, value in self.headers.items()}
        if self.path.rstrip("/").endswith("/embeddings"):
            self.server.record(RecordedRequest(self.path, body, headers, None, 200))
            self._wait(self.server.latency)
            self._send_json(200, self._embeddings(body))
            return
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self.server.record(RecordedRequest(self.path, body, headers, None, 404))
            self._send_json(404, {"error": {"message": f"fake LLM: no route {self.path}"}})
            return
        if self.server.response_format == "refuse" and "response_format" in body:
            self.server.record(RecordedRequest(self.path, body, headers, None, 400))
            self._send_json(400, {"error": {"message": REFUSAL_MESSAGE, "type": "invalid_request_error", "param": "response_format"}})
            return
        passage = headers.get(PASSAGE_HEADER.lower(), "")
        number, reply = self.server.choose(body, headers.get(PHASE_HEADER.lower()), int(passage) if passage.isdigit() else None)
        self.server.record(RecordedRequest(self.path, body, headers, number, None if reply is None or reply.drop or reply.hang else reply.status))
        if reply is not None and reply.hang:
            self._wait_for_disconnect()
            return
        self._wait(self.server.latency + (reply.delay if reply else 0.0))
        if reply is None:
            message = f"fake LLM: no script rule matches the last user message {last_user_message(body)[:120]!r}"
            self._send_json(400, {"error": {"message": message, "type": "invalid_request_error"}})
        elif reply.drop:
            self.close_connection = True
            self.connection.close()
        elif reply.unsized and reply.body is not None:
            self._send_unsized(reply.body.encode("utf-8"), reply.headers)
        elif reply.body is not None:
            self._send(reply.status, reply.body.encode("utf-8"), reply.headers)
        elif reply.status != 200:
            self._send_json(reply.status, {"error": {"message": "scripted error"}}, reply.headers)
        elif reply.trickle > 0:
            self._send_trickled(json.dumps(self._completion(body, reply)).encode("utf-8"), reply.trickle)
        else:
            self._send_json(200, self._completion(body, reply))

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self.server.stopping.wait(seconds)

    def _client_gone(self, timeout: float) -> bool:
        """Whether the client closed its end (checked for up to ``timeout`` seconds)."""
        readable, _, _ = select.select([self.connection], [], [], timeout)
        if not readable:
            return False
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def _wait_for_disconnect(self) -> None:
        """Hold the request, answering nothing, until the client leaves or the server stops."""
        while not self.server.stopping.is_set():
            if self._client_gone(0.05):
                return
        self.close_connection = True

    def _send_trickled(self, data: bytes, seconds_per_byte: float) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.flush()
        for position in range(len(data)):
            if self.server.stopping.wait(seconds_per_byte):
                return
            self.wfile.write(data[position:position + 1])
            self.wfile.flush()

    def _send_unsized(self, data: bytes, headers: Mapping[str, str], chunk: int = 65536) -> None:
        self.send_response(200)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        sent = 0
        try:
            for start in range(0, len(data), chunk):
                self.wfile.write(data[start:start + chunk])
                sent += len(data[start:start + chunk])
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            with self.server.lock:
                self.server.unsized_bytes_sent.append(sent)
            self.close_connection = True

    def _completion(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        prompt = " ".join(str(m.get("content", "")) for m in body.get("messages") or [] if isinstance(m, dict))
        prompt_tokens, completion_tokens = word_count(prompt), word_count(reply.content)
        return {
            "id": f"chatcmpl-fake-{len(self.server.requests)}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.content}, "finish_reason": reply.finish_reason}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens},
        }

    def _embeddings(self, body: dict[str, Any]) -> dict[str, Any]:
        texts = body.get("input", [])
        texts = [texts] if isinstance(texts, str) else [str(text) for text in texts]
        dimensions = int(body.get("dimensions") or EMBEDDING_DIMENSIONS)
        data = [{"object": "embedding", "index": i, "embedding": embed(text, dimensions)} for i, text in enumerate(texts)]
        tokens = sum(word_count(text) for text in texts)
        return {"object": "list", "data": data, "model": body.get("model", "fake"), "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}

    def _send_json(self, status: int, payload: dict[str, Any], headers: Mapping[str, str] | None = None) -> None:
        self._send(status, json.dumps(payload).encode("utf-8"), {"Content-Type": "application/json", **(headers or {})})

    def _send(self, status: int, data: bytes, headers: Mapping[str, str]) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextmanager
def running_fake_llm(script: Script, latency: float = 0.0, response_format: str = "accept") -> Iterator[FakeLLMServer]:
    """Serve ``script`` on a free loopback port; yields the server (``.base_url``, ``.requests``)."""
    server = FakeLLMServer(as_rules(script), latency, response_format)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
