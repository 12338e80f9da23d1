"""LLM endpoint settings: defaults < config file ``[llm]`` table < environment < command-line flags.

The API key is read from OPENAI_API_KEY only (never from a file or a flag, so it
does not end up in a repository or in ``ps`` output).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from claimgraph.errors import ClaimgraphError

DEFAULT_CONFIG_FILE = Path("claimgraph.toml")
DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_CACHE_DIR = Path("claimgraph-cache") / "llm"
DEFAULT_MAX_REPLY_BYTES = 2 * 1024 * 1024


class LLMConfigError(ClaimgraphError):
    """The LLM settings are missing or malformed."""


@dataclass(frozen=True)
class LLMConfig:
    """Everything the LLM client needs. ``cache_dir=None`` disables the cache.

    ``replay_dir`` switches to the replay backend: responses come from that
    directory (a cache directory written by an earlier run) and nothing is sent.

    ``timeout`` bounds each attempt as a whole (a server trickling bytes cannot
    hold a call longer). ``structured_output`` asks for JSON-schema output when
    the caller gives a schema (servers that refuse it are asked again without).
    ``breaker_threshold`` consecutive connection failures (timeouts, refused or
    dropped connections) open the circuit: later calls are skipped, not sent
    (0 disables). ``paper_budget`` bounds the seconds the calls of one paper may
    take (None: no bound). ``max_reply_bytes`` bounds the HTTP body of one
    reply: a longer one is cut off while it streams in, fails its call and is
    never cached.
    """

    model: str = DEFAULT_MODEL
    base_url: str | None = None
    api_key: str | None = None
    temperature: float = 0.0
    max_tokens: int = 2048
    timeout: float = 60.0
    max_retries: int = 5
    backoff_base: float = 1.0
    backoff_max: float = 60.0
    max_concurrency: int = 4
    cache_dir: Path | None = DEFAULT_CACHE_DIR
    replay_dir: Path | None = None
    backend: str = "openai"
    structured_output: bool = True
    breaker_threshold: int = 5
    paper_budget: float | None = None
    max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES

    def __post_init__(self) -> None:
        if not self.model.strip():
            raise LLMConfigError("the model name is empty: set --model, CLAIMGRAPH_MODEL or [llm] model")
        checks = [
            (self.max_concurrency >= 1, "max_concurrency must be at least 1"),
            (self.max_retries >= 0, "max_retries must be 0 or more"),
            (self.timeout > 0, "timeout must be positive (seconds)"),
            (self.max_tokens >= 1, "max_tokens must be at least 1"),
            (0.0 <= self.temperature <= 2.0, "temperature must be between 0 and 2"),
            (0.0 <= self.backoff_base <= self.backoff_max, "backoff_base must be between 0 and backoff_max"),
            (self.breaker_threshold >= 0, "breaker_threshold must be 0 (off) or more"),
            (self.paper_budget is None or self.paper_budget > 0, "paper_budget must be positive (seconds) or unset"),
            (self.max_reply_bytes >= 1024, "max_reply_bytes must be at least 1024"),
        ]
        for passed, problem in checks:
            if not passed:
                raise LLMConfigError(f"LLM setting: {problem}")

    def params(self) -> dict[str, Any]:
        """The request parameters that, with the messages, decide a response (and its cache key)."""
        return {"model": self.model, "temperature": float(self.temperature), "max_tokens": int(self.max_tokens)}


_FILE_KEYS = {f.name for f in fields(LLMConfig)} - {"api_key"}
_PATH_KEYS = {"cache_dir", "replay_dir"}
_INT_KEYS = {"max_tokens", "max_retries", "max_concurrency", "breaker_threshold", "max_reply_bytes"}
_FLOAT_KEYS = {"temperature", "timeout", "backoff_base", "backoff_max"}
_OPTIONAL_FLOAT_KEYS = {"paper_budget"}
_BOOL_KEYS = {"structured_output"}
_TRUE_WORDS = {"true", "1", "yes", "on"}
_FALSE_WORDS = {"false", "0", "no", "off"}

ENVIRONMENT = {
    "OPENAI_BASE_URL": "base_url",
    "OPENAI_API_KEY": "api_key",
    "CLAIMGRAPH_MODEL": "model",
    "CLAIMGRAPH_LLM_CACHE": "cache_dir",
    "CLAIMGRAPH_LLM_MAX_REPLY_BYTES": "max_reply_bytes",
}


def _coerce(key: str, value: object, where: str) -> object:
    """A setting's value in its type; '' or 'none' for a directory means no directory."""
    try:
        if key in _PATH_KEYS:
            return None if value is None or str(value).strip().lower() in ("", "none") else Path(str(value))
        if key in _BOOL_KEYS:
            return _boolean(value)
        if key in _OPTIONAL_FLOAT_KEYS:
            if value is None or str(value).strip().lower() in ("", "none"):
                return None
            return float(_numeric(value))
        if key in _INT_KEYS:
            number = _numeric(value)
            if isinstance(number, float) and not number.is_integer():
                raise ValueError(value)
            return int(number)
        if key in _FLOAT_KEYS:
            return float(_numeric(value))
    except (TypeError, ValueError):
        kind = "boolean" if key in _BOOL_KEYS else "number" if key in _FLOAT_KEYS | _OPTIONAL_FLOAT_KEYS else "integer"
        raise LLMConfigError(f"{where}: {key} = {value!r} is not a valid {kind}") from None
    if value is not None and not isinstance(value, str):
        raise LLMConfigError(f"{where}: {key} must be a string")
    return value


def _numeric(value: object) -> str | int | float:
    """``value`` when it can be read as a number (booleans cannot); its reading may still fail."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise TypeError(value)
    return value


def _boolean(value: object) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in _TRUE_WORDS | _FALSE_WORDS:
        return word in _TRUE_WORDS
    raise ValueError(value)


def read_config_file(path: Path, required: bool = False) -> dict[str, object]:
    """The ``[llm]`` table of a TOML file, checked for unknown keys; {} when the file is absent."""
    if not path.is_file():
        if required:
            raise LLMConfigError(f"config file {path} does not exist")
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise LLMConfigError(f"{path}: cannot read the config file: {error}") from error
    table = data.get("llm", {})
    if not isinstance(table, dict):
        raise LLMConfigError(f"{path}: [llm] must be a table")
    if "api_key" in table:
        raise LLMConfigError(f"{path}: do not store api_key in a config file; set OPENAI_API_KEY instead")
    unknown = sorted(set(table) - set(_FILE_KEYS))
    if unknown:
        raise LLMConfigError(f"{path}: unknown [llm] settings {unknown}; known: {sorted(_FILE_KEYS)}")
    return {key: _coerce(key, value, str(path)) for key, value in table.items()}


def load_config(
    config_file: Path | None = None,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, object] | None = None,
) -> LLMConfig:
    """Defaults, then the config file, then the environment, then ``overrides`` (flags; None = unset)."""
    environ = os.environ if environ is None else environ
    settings: dict[str, object] = {}
    settings.update(read_config_file(config_file or DEFAULT_CONFIG_FILE, required=config_file is not None))
    for variable, key in ENVIRONMENT.items():
        if environ.get(variable):
            settings[key] = _coerce(key, environ[variable], variable)
    for key, value in (overrides or {}).items():
        if value is not None:
            settings[key] = _coerce(key, value, f"--{key.replace('_', '-')}")
    return _configured(**settings)


def _configured(**changes: Any) -> LLMConfig:
    """The defaults with ``changes`` (settings already coerced to their types by ``_coerce``)."""
    return replace(LLMConfig(), **changes)
