"""The HTTP transport under the OpenAI client (the openai package's httpx2): it bounds the size of each reply while the body streams in.

A reply over ``max_reply_bytes`` is refused as soon as its Content-Length says
so, or, without one, at the first chunk past the limit; at most the limit plus
one chunk is ever held in memory. Requests ask for an uncompressed body
(``Accept-Encoding: identity``), so the bytes counted are the bytes the JSON
parser would read. The refusal is a ``ReplyTooLarge`` exception (which the openai
package passes on as it is, or as the cause of an ``APIConnectionError``); the
backend turns it into a failed call naming the limit, which is not cached.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx2 as httpx

LIMIT_SETTING = "max_reply_bytes"


class ReplyTooLarge(Exception):
    """A reply body passed the byte limit; the message names the limit and the setting."""

    def __init__(self, limit: int, seen: int, declared: bool) -> None:
        size = f"declares {seen:,} bytes" if declared else f"passed {seen:,} bytes"
        super().__init__(f"reply too large: its body {size}, over the limit of {limit:,} bytes "
                         f"({LIMIT_SETTING}: [llm] {LIMIT_SETTING} in claimgraph.toml, env CLAIMGRAPH_LLM_MAX_REPLY_BYTES, "
                         "or --max-reply-bytes); not cached")
        self.limit = limit
        self.seen = seen


class _CappedStream(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream, limit: int) -> None:
        self._inner = inner
        self._limit = limit

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = 0
        async for chunk in self._inner:
            seen += len(chunk)
            if seen > self._limit:
                raise ReplyTooLarge(self._limit, seen, declared=False)
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


class CappedTransport(httpx.AsyncBaseTransport):
    """httpx's own transport, with every response body bounded to ``limit`` bytes."""

    def __init__(self, limit: int, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.limit = limit
        self._inner = inner or httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.headers["Accept-Encoding"] = "identity"
        response = await self._inner.handle_async_request(request)
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.limit:
            await response.aclose()
            raise ReplyTooLarge(self.limit, int(declared), declared=True)
        stream = response.stream
        if not isinstance(stream, httpx.AsyncByteStream):
            return response
        return httpx.Response(response.status_code, headers=response.headers, stream=_CappedStream(stream, self.limit),
                              extensions=response.extensions)

    async def aclose(self) -> None:
        await self._inner.aclose()
