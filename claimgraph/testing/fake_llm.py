"""A fake OpenAI-compatible endpoint on 127.0.0.1 for tests, benchmarks and recording demos.

It speaks ``POST /v1/chat/completions`` and ``POST /v1/embeddings`` and serves
scripted replies. A script is a list of rules; the first rule whose matcher fits
a request answers it with the next reply of its list (the last reply repeats
once the list is used up). A rule matches on a substring of the last user
message, on the phase tag the claimgraph client sends in the
``X-Claimgraph-Phase`` header, or both. A reply is a completion text, an HTTP
error with headers (429 with Retry-After, 500), a raw body, a delay before
answering (for timeouts and latency) or a dropped connection.

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
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from claimgraph.llm.backends import PHASE_HEADER

EMBEDDING_DIMENSIONS = 64


@dataclass(frozen=True)
class Reply:
    """One scripted answer. ``content`` is the assistant text of a 200 chat completion.

    ``body`` replaces the whole HTTP body (garbage, non-JSON); ``status`` and
    ``headers`` make an error reply; ``delay`` seconds pass before answering;
    ``drop`` closes the connection without any answer.
    """

    content: str = ""
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    body: str | None = None
    delay: float = 0.0
    drop: bool = False
    finish_reason: str = "stop"


def ok(content: str, delay: float = 0.0, finish_reason: str = "stop") -> Reply:
    return Reply(content=content, delay=delay, finish_reason=finish_reason)


def error(status: int, retry_after: float | None = None, message: str = "scripted error") -> Reply:
    headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else {}
    body = json.dumps({"error": {"message": message, "type": "fake_error", "code": str(status)}})
    return Reply(status=status, headers=headers, body=body)


def dropped() -> Reply:
    return Reply(drop=True)


@dataclass
class Rule:
    """Replies for the requests this rule matches; ``contains`` and ``phase`` must both fit when given."""

    replies: Sequence[Reply | str]
    contains: str | None = None
    phase: str | None = None
    served: int = 0

    def matches(self, last_user: str, phase: str | None) -> bool:
        if self.contains is not None and self.contains not in last_user:
            return False
        return self.phase is None or self.phase == phase

    def next_reply(self) -> Reply:
        reply = self.replies[min(self.served, len(self.replies) - 1)]
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

    def __init__(self, rules: list[Rule], latency: float) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.rules = rules
        self.latency = latency
        self.requests: list[RecordedRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    @property
    def base_url(self) -> str:
        """The OpenAI base URL (what OPENAI_BASE_URL would hold)."""
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def chat_requests(self, phase: str | None = None) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions") and (phase is None or r.phase == phase)]

    def choose(self, body: dict[str, Any], phase: str | None) -> tuple[int | None, Reply | None]:
        last_user = last_user_message(body)
        with self.lock:
            for number, rule in enumerate(self.rules):
                if rule.matches(last_user, phase):
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
        number, reply = self.server.choose(body, headers.get(PHASE_HEADER.lower()))
        self.server.record(RecordedRequest(self.path, body, headers, number, None if reply is None or reply.drop else reply.status))
        self._wait(self.server.latency + (reply.delay if reply else 0.0))
        if reply is None:
            message = f"fake LLM: no script rule matches the last user message {last_user_message(body)[:120]!r}"
            self._send_json(400, {"error": {"message": message, "type": "invalid_request_error"}})
        elif reply.drop:
            self.close_connection = True
            self.connection.close()
        elif reply.body is not None:
            self._send(reply.status, reply.body.encode("utf-8"), reply.headers)
        elif reply.status != 200:
            self._send_json(reply.status, {"error": {"message": "scripted error"}}, reply.headers)
        else:
            self._send_json(200, self._completion(body, reply))

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self.server.stopping.wait(seconds)

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
def running_fake_llm(script: Script, latency: float = 0.0) -> Iterator[FakeLLMServer]:
    """Serve ``script`` on a free loopback port; yields the server (``.base_url``, ``.requests``)."""
    server = FakeLLMServer(as_rules(script), latency)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
