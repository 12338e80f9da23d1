"""Where completions come from: a live OpenAI-compatible endpoint, or recorded responses.

A backend makes exactly one attempt per ``complete`` call and classifies what
went wrong: ``TransientCallError`` (worth retrying: 429, 5xx, timeouts, dropped
connections, a garbage body; its ``kind`` tells connection failures, which the
circuit breaker counts, from answers) or ``PermanentCallError`` (retrying cannot
help: 400, 401, 404, a missing recording). A 400 or 422 to a request that asked
for structured output (``response_format``) is ``StructuredOutputRefused``: the
client asks again without it. Retries, caching, deadlines, the circuit breaker
and the concurrency bound live in ``claimgraph.llm.client.LLMClient``, the same
for every backend.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claimgraph.llm.cache import (
    CacheError,
    Completion,
    Message,
    ResponseCache,
    cache_key,
)
from claimgraph.llm.config import LLMConfig, LLMConfigError
from claimgraph.plugins import LLMBackendPlugin, find, names, registered

if TYPE_CHECKING:
    import openai

PHASE_HEADER = "X-Claimgraph-Phase"
PAPER_HEADER = "X-Claimgraph-Paper"
PASSAGE_HEADER = "X-Claimgraph-Passage"
REFUSAL_STATUS = frozenset({400, 422})
CONNECTION = "connection"
TIMEOUT = "timeout"
ANSWERED = "answered"
RETRYABLE_STATUS = frozenset({408, 409, 425, 429}) | frozenset(range(500, 600))


@dataclass(frozen=True)
class CallTag:
    """Which paper, phase and passage a call is for: used in accounting, errors and request headers."""

    paper_id: str
    phase: str
    passage: int | None = None

    def __str__(self) -> str:
        where = f"paper {self.paper_id}, phase {self.phase}"
        return where if self.passage is None else f"{where}, passage {self.passage}"


    def headers(self) -> dict[str, str]:
        """Request headers naming the call (endpoints ignore them; the fake server can match on them)."""
        headers = {PHASE_HEADER: self.phase, PAPER_HEADER: self.paper_id}
        if self.passage is not None:
            headers[PASSAGE_HEADER] = str(self.passage)
        return headers


class TransientCallError(Exception):
    """One attempt failed in a way that may pass; ``retry_after`` is the server's requested wait.

    ``kind`` is ``connection`` or ``timeout`` when no answer came back (what the
    circuit breaker counts), ``answered`` when the server answered badly (429, 5xx, garbage).
    """

    def __init__(self, reason: str, retry_after: float | None = None, status: int | None = None, kind: str = ANSWERED) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after
        self.status = status
        self.kind = kind


class PermanentCallError(Exception):
    """One attempt failed in a way that another attempt would repeat."""

    def __init__(self, reason: str, status: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


class StructuredOutputRefused(PermanentCallError):
    """The endpoint answered 400/422 to a request with ``response_format``: ask again without it."""


class ChatBackend(Protocol):
    async def complete(self, messages: Sequence[Message], params: Mapping[str, Any], tag: CallTag) -> Completion:
        """One attempt at a chat completion."""

    async def aclose(self) -> None:
        """Release connections."""


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """The wait a 429/503 asks for: ``retry-after-ms``, or ``Retry-After`` as seconds or an HTTP date."""
    milliseconds = headers.get("retry-after-ms")
    if milliseconds:
        try:
            return max(0.0, float(milliseconds) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (moment - datetime.now(UTC)).total_seconds())


def _status_error(error: openai.APIStatusError, structured: bool) -> Exception:
    status = error.status_code
    detail = str(error.message)[:300]
    if structured and status in REFUSAL_STATUS:
        return StructuredOutputRefused(f"HTTP {status} to a structured-output request: {detail}", status)
    if status in RETRYABLE_STATUS:
        return TransientCallError(f"HTTP {status}: {detail}", retry_after_seconds(error.response.headers), status)
    hints = {401: " (check OPENAI_API_KEY)", 404: " (check the model name and OPENAI_BASE_URL)"}
    return PermanentCallError(f"HTTP {status}: {detail}{hints.get(status, '')}", status)


class OpenAIBackend:
    """``openai.AsyncOpenAI`` with its own retries off, so LLMClient's retry loop is the only one."""

    def __init__(self, config: LLMConfig) -> None:
        import openai

        from claimgraph.llm.transport import CappedTransport

        api_key = config.api_key
        if not api_key:
            if config.base_url is None:
                raise LLMConfigError("OPENAI_API_KEY is not set (needed for api.openai.com; set OPENAI_BASE_URL for a local endpoint)")
            api_key = "unused"  # local servers (vLLM, Ollama, llama.cpp) accept any key
        self.timeout = config.timeout
        http_client = openai.DefaultAsyncHttpxClient(transport=CappedTransport(config.max_reply_bytes))
        self._client = openai.AsyncOpenAI(api_key=api_key, base_url=config.base_url, timeout=config.timeout, max_retries=0,
                                          http_client=http_client)

    async def complete(self, messages: Sequence[Message], params: Mapping[str, Any], tag: CallTag) -> Completion:
        import openai

        from claimgraph.llm.transport import ReplyTooLarge

        try:
            response = await self._client.chat.completions.create(
                messages=[dict(m) for m in messages],  # type: ignore[misc]
                extra_headers=tag.headers(),
                **params,
            )
        except openai.APITimeoutError:
            raise TransientCallError(f"no answer within {self.timeout:g} s (timeout)", kind=TIMEOUT) from None
        except ReplyTooLarge as error:
            raise PermanentCallError(str(error)) from None
        except openai.APIConnectionError as error:
            cause = error.__cause__ or error
            if isinstance(cause, ReplyTooLarge):
                raise PermanentCallError(str(cause)) from None
            raise TransientCallError(f"connection failed: {type(cause).__name__}: {cause}", kind=CONNECTION) from None
        except openai.APIStatusError as error:
            raise _status_error(error, "response_format" in params) from None
        except openai.APIError as error:
            raise TransientCallError(f"malformed response: {error}") from None
        except ValueError as error:  # a 200 whose body is not the JSON it claims (a proxy's HTML page), or not a completion
            raise TransientCallError(f"malformed response: the body is not a chat completion ({type(error).__name__}: {str(error)[:200]})") from None
        choices = getattr(response, "choices", None)
        if not choices:
            raise TransientCallError(f"the endpoint answered without choices: {str(response)[:200]!r}")
        usage = getattr(response, "usage", None)
        return Completion(
            text=choices[0].message.content or "",
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            finish_reason=str(choices[0].finish_reason or "stop"),
        )

    async def aclose(self) -> None:
        await self._client.close()


class ReplayBackend:
    """Serves responses recorded in a cache directory; sends nothing anywhere.

    The client looks a request up by its key with ``replay`` (the key covers the
    reply schema, which a request without ``response_format`` does not show);
    ``complete`` serves callers that give no schema.
    """

    def __init__(self, directory: Path) -> None:
        if not Path(directory).is_dir():
            raise LLMConfigError(f"replay directory {directory} does not exist")
        self._recordings = ResponseCache(directory)

    async def complete(self, messages: Sequence[Message], params: Mapping[str, Any], tag: CallTag) -> Completion:
        request = dict(params)
        request.pop("response_format", None)
        return self.replay(cache_key(messages, request), tag, request.get("model"))

    def replay(self, key: str, tag: CallTag, model: object) -> Completion:
        """The recorded response of the request with this key; PermanentCallError names a missing one."""
        try:
            completion = self._recordings.read(key)
        except CacheError as error:
            raise PermanentCallError(str(error)) from None
        if completion is None:
            raise PermanentCallError(
                f"no recorded response {key} in {self._recordings.directory} for {tag} "
                f"(model {model!r}); the prompt or settings changed since recording: "
                f"re-record by running with --cache-dir {self._recordings.directory} against an endpoint"
            )
        return completion

    async def aclose(self) -> None:
        """Nothing to release."""


def _replay(config: LLMConfig) -> ChatBackend:
    if config.replay_dir is None:
        raise LLMConfigError("the replay backend needs a recordings directory (--replay DIR)")
    return ReplayBackend(config.replay_dir)


OPENAI = LLMBackendPlugin("openai", OpenAIBackend)
REPLAY = LLMBackendPlugin("replay", _replay)


def make_backend(config: LLMConfig) -> ChatBackend:
    """The backend the settings name (``replay`` whenever a recordings directory is given), from the registered plugins."""
    name = "replay" if config.replay_dir is not None else config.backend
    plugin = find(LLMBackendPlugin, name)
    if plugin is None:
        raise LLMConfigError(f"unknown LLM backend {name!r}; installed: {names(registered(LLMBackendPlugin))}")
    return plugin.make(config)
