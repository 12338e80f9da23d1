"""Content-addressed on-disk store of LLM responses: the cache, and the recordings the replay backend serves.

The key is the SHA-256 of the canonical JSON of (format version, request
parameters including the model, messages, and the reply schema when the caller
gives one). Whether the endpoint honoured the schema (``Completion.path``) is
stored in the entry, not in the key: a reply answers the request either way.
Only replies the caller found usable are stored (see LLMClient). One response is one JSON file
``<dir>/<key[:2]>/<key>.json``, written atomically (temporary file, then rename),
so an interrupted run never leaves a half-written entry. A cache directory
written by a run against a live endpoint is a valid recording for replay. An
entry file over ``max_entry_bytes`` is not read (a reply over the size limit,
cached before there was one): it counts as absent, and is replaced by the next
usable reply.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from claimgraph.errors import ClaimgraphError

FORMAT_VERSION = 1

Message = Mapping[str, str]


class CacheError(ClaimgraphError):
    """A cache or recording directory cannot be read or written."""


PATHS = ("structured", "unstructured")


@dataclass(frozen=True)
class Completion:
    """The assistant text of one chat completion and its token usage.

    ``path``: "structured" when the request asked for JSON-schema output and the
    endpoint accepted it, "unstructured" otherwise (no schema, structured output
    off, or the endpoint refused it and was asked again without).
    """

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str = "stop"
    path: str = "unstructured"


def cache_key(messages: Sequence[Message], params: Mapping[str, Any], schema: Mapping[str, Any] | None = None) -> str:
    """The content address of a request: same model, messages, parameters and reply schema, same key."""
    request: dict[str, Any] = {"v": FORMAT_VERSION, "params": dict(params), "messages": [dict(m) for m in messages]}
    if schema is not None:
        request["schema"] = dict(schema)
    canonical = json.dumps(request, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ResponseCache:
    """Responses by key in one directory."""

    def __init__(self, directory: Path, max_entry_bytes: int | None = None) -> None:
        self.directory = Path(directory)
        self.max_entry_bytes = max_entry_bytes

    def path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Completion | None:
        """The stored completion, or None when absent or unreadable (an unreadable entry is rewritten later)."""
        try:
            return self.read(key)
        except CacheError:
            return None

    def read(self, key: str) -> Completion | None:
        """The stored completion, None when absent; CacheError names a corrupt entry."""
        path = self.path(key)
        try:
            size = path.stat().st_size
            if self.max_entry_bytes is not None and size > self.max_entry_bytes:
                raise CacheError(f"{path}: LLM response entry is {size:,} bytes, over the {self.max_entry_bytes:,} bytes "
                                 "an entry of a reply within max_reply_bytes can take; not read")
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CacheError(f"{path}: unreadable LLM response entry: {error}") from error
        try:
            completion = data["completion"]
            return Completion(
                text=str(completion["text"]),
                prompt_tokens=int(completion.get("prompt_tokens", 0)),
                completion_tokens=int(completion.get("completion_tokens", 0)),
                finish_reason=str(completion.get("finish_reason", "stop")),
                path=str(completion.get("path", "unstructured")),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise CacheError(f"{path}: LLM response entry lacks completion.text ({error})") from error

    def put(self, key: str, messages: Sequence[Message], params: Mapping[str, Any], completion: Completion, tag: str = "",
            schema: Mapping[str, Any] | None = None) -> None:
        """Store one response with its request (for people reading recordings); atomic."""
        path = self.path(key)
        entry: dict[str, Any] = {
            "key": key,
            "tag": tag,
            "params": dict(params),
            "messages": [dict(m) for m in messages],
            "completion": asdict(completion),
        }
        if schema is not None:
            entry["schema"] = dict(schema)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{key[:8]}-", suffix=".part")
        except OSError as error:
            raise CacheError(f"cannot write the LLM response cache entry {path}: {error}") from error
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump(entry, stream, ensure_ascii=False, indent=1, sort_keys=True)
            os.replace(temporary, path)
        except OSError as error:
            Path(temporary).unlink(missing_ok=True)
            raise CacheError(f"cannot write the LLM response cache entry {path}: {error}") from error
