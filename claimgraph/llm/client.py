"""The LLM client the extraction phases call: cache, concurrency bound, retries, accounting.

``await client.complete(messages, tag=CallTag(paper, phase, passage))`` returns a
Completion or raises ``LLMCallFailed`` for that one call, so a phase can skip the
passage and the rest of the paper and batch go on. Order of work per call:

1. cache lookup (content address of model + messages + parameters): a hit costs nothing;
2. identical requests already in flight are awaited, not sent twice;
3. each attempt holds one of ``max_concurrency`` slots (an asyncio.Semaphore);
   waits between attempts do not hold a slot;
4. transient failures (429, 5xx, timeouts, dropped connections, garbage bodies)
   are retried up to ``max_retries`` times with exponential backoff and full
   jitter; a server's Retry-After is honoured (waited at least, up to backoff_max);
5. the response is written to the cache, and counted.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

from claimgraph.errors import ClaimgraphError
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.backends import (
    CallTag,
    ChatBackend,
    PermanentCallError,
    ReplayBackend,
    TransientCallError,
    make_backend,
)
from claimgraph.llm.cache import Completion, Message, ResponseCache, cache_key
from claimgraph.llm.config import LLMConfig

__all__ = ["CallTag", "Completion", "LLMCallFailed", "LLMClient", "Message", "open_client"]


class LLMCallFailed(ClaimgraphError):
    """One call gave up: the caller skips that passage (or phase) and goes on."""

    def __init__(self, tag: CallTag, reason: str, attempts: int, status: int | None = None) -> None:
        tries = f"after {attempts} attempt{'s' if attempts != 1 else ''}"
        super().__init__(f"LLM call for {tag} failed {tries}: {reason}")
        self.tag = tag
        self.reason = reason
        self.attempts = attempts
        self.status = status


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

    async def __aenter__(self) -> LLMClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.backend.aclose()

    async def complete(self, messages: Sequence[Message], *, tag: CallTag) -> Completion:
        """The completion of ``messages``; raises LLMCallFailed after the retry bound."""
        params = self.config.params()
        key = cache_key(messages, params)
        cached = self.cache.get(key) if self.cache else None
        if cached is not None:
            self.accounting.record_hit(tag)
            return cached
        pending = self._in_flight.get(key)
        if pending is not None:
            return await self._join(pending, tag)
        future: asyncio.Future[Completion] = asyncio.get_running_loop().create_future()
        self._in_flight[key] = future
        try:
            completion = await self._attempts(messages, params, tag)
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
        if self.cache:
            self.cache.put(key, messages, params, completion, str(tag))
        return completion

    async def _join(self, pending: asyncio.Future[Completion], tag: CallTag) -> Completion:
        """Wait for an identical request already in flight; its answer counts as a cache hit."""
        try:
            completion = await asyncio.shield(pending)
        except LLMCallFailed as failure:
            self.accounting.record_failure(tag, 0)
            raise LLMCallFailed(tag, failure.reason, failure.attempts, failure.status) from None
        self.accounting.record_hit(tag)
        return completion

    async def _attempts(self, messages: Sequence[Message], params: dict[str, object], tag: CallTag) -> Completion:
        attempts = 0
        while True:
            attempts += 1
            try:
                async with self._slots:
                    completion = await self.backend.complete(messages, params, tag)
            except PermanentCallError as error:
                self.accounting.record_failure(tag, attempts)
                raise LLMCallFailed(tag, error.reason, attempts, error.status) from None
            except TransientCallError as error:
                if attempts > self.config.max_retries:
                    self.accounting.record_failure(tag, attempts)
                    raise LLMCallFailed(tag, error.reason, attempts, error.status) from None
                await asyncio.sleep(backoff_delay(attempts, self.config, error.retry_after, self._rng))
                continue
            self.accounting.record_call(tag, completion, attempts)
            return completion


def open_client(config: LLMConfig, accounting: Accounting | None = None) -> LLMClient:
    """The client for a config: replay from recordings, or the live endpoint behind the cache."""
    backend = make_backend(config)
    replaying = isinstance(backend, ReplayBackend)
    cache = ResponseCache(config.cache_dir) if config.cache_dir is not None and not replaying else None
    return LLMClient(backend, config, cache, accounting)
