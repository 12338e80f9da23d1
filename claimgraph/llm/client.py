"""The LLM client the extraction phases call: cache, concurrency bound, retries, deadlines, circuit breaker, accounting.

``await client.complete(messages, tag=CallTag(paper, phase, passage))`` returns a
Completion or raises ``LLMCallFailed`` for that one call, so a phase can skip the
passage and the rest of the paper and batch go on. Order of work per call:

1. cache lookup (content address of model + messages + parameters + reply
   schema): a hit costs nothing; a cached reply the caller's ``check`` finds
   unusable is asked again;
2. identical requests already in flight are awaited, not sent twice;
3. each attempt holds one of ``max_concurrency`` slots (an asyncio.Semaphore)
   and has a wall-clock deadline of ``timeout`` seconds as a whole, so a server
   trickling bytes cannot hold a call; waits between attempts hold no slot;
4. with a ``schema``, the request asks for structured output
   (``response_format`` with the JSON schema); an endpoint that refuses it
   (400/422) is asked again without, and the client stops asking for
   structured output (unless the plain request fails the same way: then the
   400 was about something else);
5. transient failures (429, 5xx, timeouts, dropped connections, garbage bodies)
   are retried up to ``max_retries`` times with exponential backoff and full
   jitter; a server's Retry-After is honoured (waited at least, up to backoff_max);
6. ``breaker_threshold`` consecutive connection failures (timeouts, refused or
   dropped connections) open the circuit: every later attempt of the client is
   skipped at once (``LLMCallFailed.skipped``), so a dead endpoint costs N
   attempts, not N per passage; what was skipped is asked again by a later run;
7. a reply the caller's ``check`` rejects (nothing parseable in it) fails the
   call and is not cached; a usable response is written to the cache, and counted.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from claimgraph.errors import ClaimgraphError
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.backends import (
    CONNECTION,
    TIMEOUT,
    CallTag,
    ChatBackend,
    PermanentCallError,
    ReplayBackend,
    StructuredOutputRefused,
    TransientCallError,
    make_backend,
)
from claimgraph.llm.cache import Completion, Message, ResponseCache, cache_key
from claimgraph.llm.config import LLMConfig

__all__ = ["CallTag", "Check", "Completion", "LLMCallFailed", "LLMClient", "Message", "ReplySchema", "open_client"]

ENTRY_BYTES_PER_REPLY_BYTE = 4
"""A cache entry holds the request and the reply's text, JSON-escaped: a reply within max_reply_bytes
makes an entry of at most about this many times that; a larger entry is not read."""

Check = Callable[[str], "str | None"]
"""What a caller says about a reply's text: None when usable, else the problem in a few words."""


class LLMCallFailed(ClaimgraphError):
    """One call gave up (or, ``skipped``, was not sent): the caller skips that passage (or phase) and goes on."""

    def __init__(self, tag: CallTag, reason: str, attempts: int, status: int | None = None, skipped: bool = False) -> None:
        tries = f"after {attempts} attempt{'s' if attempts != 1 else ''}"
        what = f"skipped {tries}" if skipped else f"failed {tries}"
        super().__init__(f"LLM call for {tag} {what}: {reason}")
        self.tag = tag
        self.reason = reason
        self.attempts = attempts
        self.status = status
        self.skipped = skipped


@dataclass(frozen=True)
class ReplySchema:
    """The JSON schema a reply should follow, sent as ``response_format`` where the endpoint takes it."""

    name: str
    schema: Mapping[str, Any]

    def key_part(self) -> dict[str, Any]:
        """What the cache key holds of it (the same whichever path the reply takes)."""
        return {"name": self.name, "schema": dict(self.schema)}

    def response_format(self) -> dict[str, Any]:
        return {"type": "json_schema", "json_schema": {"name": self.name, "schema": dict(self.schema), "strict": False}}


def backoff_delay(attempt: int, config: LLMConfig, retry_after: float | None, rng: random.Random) -> float:
    """Seconds to wait before retry number ``attempt`` (1-based).

    Full jitter: uniform in [0, min(backoff_max, backoff_base * 2^(attempt-1))].
    A Retry-After from the server is a floor (plus up to 10% jitter so that
    waiting callers do not return at the same instant), capped at backoff_max.
    """
    ceiling = min(config.backoff_max, config.backoff_base * 2 ** (attempt - 1))
    delay = rng.uniform(0.0, ceiling)
    if retry_after is not None:
        delay = max(delay, retry_after + rng.uniform(0.0, 0.1 * retry_after))
    return min(delay, config.backoff_max)


class LLMClient:
    """Chat completions through one backend, for many concurrent callers on one event loop."""

    def __init__(
        self,
        backend: ChatBackend,
        config: LLMConfig,
        cache: ResponseCache | None = None,
        accounting: Accounting | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.backend = backend
        self.config = config
        self.cache = cache
        self.accounting = accounting or Accounting()
        self._rng = rng or random.Random()
        self._slots = asyncio.Semaphore(config.max_concurrency)
        self._in_flight: dict[str, asyncio.Future[Completion]] = {}
        self.structured_supported: bool | None = None  # None: not known yet
        self.connection_failures = 0
        self.circuit_open: str | None = None  # why, once open

    async def __aenter__(self) -> LLMClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.backend.aclose()

    async def complete(self, messages: Sequence[Message], *, tag: CallTag, schema: ReplySchema | None = None,
                       check: Check | None = None) -> Completion:
        """The completion of ``messages``; raises LLMCallFailed after the retry bound, or when ``check`` rejects the reply."""
        params = self.config.params()
        key = cache_key(messages, params, schema.key_part() if schema else None)
        cached = self.cache.get(key) if self.cache else None
        if cached is not None and (check is None or check(cached.text) is None):
            self.accounting.record_hit(tag, cached)
            return cached
        pending = self._in_flight.get(key)
        if pending is not None:
            return await self._join(pending, tag)
        future: asyncio.Future[Completion] = asyncio.get_running_loop().create_future()
        self._in_flight[key] = future
        try:
            completion, attempts = await self._attempts(messages, params, tag, key, schema)
            problem = check(completion.text) if check else None
            if problem is not None:
                self.accounting.record_unusable(tag)
                raise LLMCallFailed(tag, f"reply unusable ({problem}); not cached", attempts, 200)
        except LLMCallFailed as failure:
            future.set_exception(failure)
            future.exception()  # marks it retrieved when no other caller waits on it
            raise
        except BaseException:
            future.cancel()
            raise
        finally:
            del self._in_flight[key]
        future.set_result(completion)
        self.accounting.record_used(tag, completion)
        if self.cache:
            self.cache.put(key, messages, params, completion, str(tag), schema.key_part() if schema else None)
        return completion

    async def _join(self, pending: asyncio.Future[Completion], tag: CallTag) -> Completion:
        """Wait for an identical request already in flight; its answer counts as a cache hit."""
        try:
            completion = await asyncio.shield(pending)
        except asyncio.CancelledError:
            if not pending.cancelled():
                raise  # this caller is being cancelled
            self.accounting.record_skip(tag)
            raise LLMCallFailed(tag, "not answered: the identical request it waited on was cancelled (its paper's time budget)",
                                0, skipped=True) from None
        except LLMCallFailed as failure:
            if failure.skipped:
                self.accounting.record_skip(tag)
            else:
                self.accounting.record_failure(tag, 0)
            raise LLMCallFailed(tag, failure.reason, failure.attempts, failure.status, failure.skipped) from None
        self.accounting.record_hit(tag, completion)
        return completion

    def _skip_if_open(self, tag: CallTag, attempts: int) -> None:
        if self.circuit_open is not None:
            self.accounting.record_skip(tag, attempts)
            raise LLMCallFailed(tag, f"not sent: the circuit is open ({self.circuit_open})", attempts, skipped=True)

    def _count_connection(self, error: TransientCallError) -> None:
        """Consecutive connection failures; an answer of any kind resets the count."""
        if error.kind not in (CONNECTION, TIMEOUT):
            self.connection_failures = 0
            return
        self.connection_failures += 1
        threshold = self.config.breaker_threshold
        if threshold and self.connection_failures >= threshold and self.circuit_open is None:
            self.circuit_open = f"{self.connection_failures} consecutive connection failures, the last: {error.reason}"

    async def _send(self, messages: Sequence[Message], request: dict[str, Any], tag: CallTag, key: str) -> Completion:
        """One attempt under the deadline; a replayed recording is looked up by the request's key."""
        if isinstance(self.backend, ReplayBackend):
            return self.backend.replay(key, tag, request.get("model"))
        try:
            async with asyncio.timeout(self.config.timeout):
                return await self.backend.complete(messages, request, tag)
        except TimeoutError:
            raise TransientCallError(f"no complete answer within {self.config.timeout:g} s (timeout: the deadline of one attempt)", kind=TIMEOUT) from None

    async def _attempts(self, messages: Sequence[Message], params: dict[str, object], tag: CallTag, key: str,
                        schema: ReplySchema | None) -> tuple[Completion, int]:
        wanted = schema is not None and self.config.structured_output
        refused = False
        attempts = retries = 0
        while True:
            self._skip_if_open(tag, attempts)
            attempts += 1
            try:
                async with self._slots:
                    self._skip_if_open(tag, attempts - 1)
                    structured = wanted and not refused and self.structured_supported is not False
                    request = {**params, "response_format": schema.response_format()} if structured and schema else dict(params)
                    completion = await self._send(messages, request, tag, key)
            except StructuredOutputRefused:
                self.connection_failures = 0
                self.accounting.record_refusal(tag)
                refused, self.structured_supported = True, False
                continue
            except PermanentCallError as error:
                self.connection_failures = 0
                if refused and self.structured_supported is False:
                    self.structured_supported = None  # the plain request failed too: the 400 was not about structured output
                self.accounting.record_failure(tag, attempts)
                raise LLMCallFailed(tag, error.reason, attempts, error.status) from None
            except TransientCallError as error:
                self._count_connection(error)
                retries += 1
                if retries > self.config.max_retries:
                    self.accounting.record_failure(tag, attempts)
                    raise LLMCallFailed(tag, error.reason, attempts, error.status) from None
                await asyncio.sleep(backoff_delay(retries, self.config, error.retry_after, self._rng))
                continue
            self.connection_failures = 0
            if structured:
                self.structured_supported = True
            if not isinstance(self.backend, ReplayBackend):
                completion = replace(completion, path="structured" if structured else "unstructured")
            self.accounting.record_call(tag, completion, attempts)
            return completion, attempts


def open_client(config: LLMConfig, accounting: Accounting | None = None) -> LLMClient:
    """The client for a config: replay from recordings, or the live endpoint behind the cache."""
    backend = make_backend(config)
    replaying = isinstance(backend, ReplayBackend)
    entry_bytes = ENTRY_BYTES_PER_REPLY_BYTE * config.max_reply_bytes
    cache = ResponseCache(config.cache_dir, entry_bytes) if config.cache_dir is not None and not replaying else None
    return LLMClient(backend, config, cache, accounting)
