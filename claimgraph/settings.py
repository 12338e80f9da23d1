"""The settings of a session, fixed when its store is opened: defaults < ``claimgraph.toml`` < environment < arguments.

One frozen ``Settings`` object holds where the store is and how to talk to it
(``[store]``), the LLM endpoint (``[llm]``, read by ``claimgraph.llm.config``)
and the cross-paper linking defaults (``[canonicalize]``). The command line and
``claimgraph.open`` build it the same way, so a Python caller and a shell user
get the same store, the same timeouts and the same errors. An unknown table or
key in the file is an error naming it, never ignored. Secrets (the store's
bearer token or password, the LLM API key) come from the environment only.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from claimgraph.errors import ClaimgraphError

CONFIG_FILE = Path("claimgraph.toml")
DEFAULT_STORE = "claimgraph-store"
DEFAULT_PROFILE = "discourse"


class SettingsError(ClaimgraphError):
    """A setting is unknown or malformed (the message names the file or variable and the key)."""


@dataclass(frozen=True)
class StoreSettings:
    """Where the store is and how calls to a remote one behave.

    ``location`` is an embedded store's folder or a server's base URL; ``query_url``
    (with ``update_url`` and ``gsp_url``) names a SPARQL server's endpoints one by one
    and wins over ``location``. ``timeout`` bounds one call, retries included.
    ``allowed_services`` are the only endpoints a SERVICE clause may call.
    """

    location: str = DEFAULT_STORE
    base: str | None = None
    profile: str = DEFAULT_PROFILE
    query_url: str | None = None
    update_url: str | None = None
    gsp_url: str | None = None
    timeout: float = 120.0
    retries: int = 3
    allowed_services: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not self.timeout > 0:
            raise SettingsError(f"store timeout must be a positive number of seconds, not {self.timeout}")
        if self.retries < 0:
            raise SettingsError(f"store retries must be 0 or more, not {self.retries}")
        if (self.update_url or self.gsp_url) and not self.query_url:
            raise SettingsError("--update-url and --gsp-url need --query-url (or give the server's base URL as --store)")


@dataclass(frozen=True)
class CanonicalizeDefaults:
    """Defaults of cross-paper linking: the sidecar folder (None: next to the store) and the embedder (None: the profile's)."""

    sidecar: Path | None = None
    embedder: str | None = None


@dataclass(frozen=True)
class Settings:
    """Everything a session is opened with. ``llm_file`` is the file the ``[llm]`` table is read from (None: none found)."""

    store: StoreSettings = field(default_factory=StoreSettings)
    canonicalize: CanonicalizeDefaults = field(default_factory=CanonicalizeDefaults)
    llm_file: Path | None = None


STORE_ENVIRONMENT = {
    "CLAIMGRAPH_STORE": "location",
    "CLAIMGRAPH_BASE": "base",
    "CLAIMGRAPH_PROFILE": "profile",
    "CLAIMGRAPH_QUERY_URL": "query_url",
    "CLAIMGRAPH_UPDATE_URL": "update_url",
    "CLAIMGRAPH_GSP_URL": "gsp_url",
    "CLAIMGRAPH_STORE_TIMEOUT": "timeout",
    "CLAIMGRAPH_STORE_RETRIES": "retries",
    "CLAIMGRAPH_ALLOW_SERVICE": "allowed_services",
}
CANONICALIZE_ENVIRONMENT = {"CLAIMGRAPH_SIDECAR": "sidecar", "CLAIMGRAPH_EMBEDDER": "embedder"}
TABLES = ("store", "llm", "canonicalize")


def load_settings(config_file: Path | None = None, environ: Mapping[str, str] | None = None,
                  store: Mapping[str, Any] | None = None, canonicalize: Mapping[str, Any] | None = None) -> Settings:
    """Defaults, then ``config_file`` (default ./claimgraph.toml when present), then the environment, then the
    arguments in ``store`` and ``canonicalize`` (a None value means "not given")."""
    environ = os.environ if environ is None else environ
    path = config_file or CONFIG_FILE
    tables = read_tables(path, required=config_file is not None)
    store_values = _layer(StoreSettings, tables.get("store", {}), str(path), environ, STORE_ENVIRONMENT, store or {})
    canonical_values = _layer(CanonicalizeDefaults, tables.get("canonicalize", {}), str(path), environ, CANONICALIZE_ENVIRONMENT,
                              canonicalize or {})
    return Settings(StoreSettings(**store_values), CanonicalizeDefaults(**canonical_values), path if path.is_file() else None)


def read_tables(path: Path, required: bool = False) -> dict[str, dict[str, Any]]:
    """The tables of a settings file, each checked to be a known table; {} when the file is absent and not required."""
    if not path.is_file():
        if required:
            raise SettingsError(f"config file {path} does not exist")
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise SettingsError(f"{path}: cannot read the config file: {error}") from error
    for key, value in data.items():
        if key not in TABLES:
            raise SettingsError(f"{path}: unknown table or key {key!r}; known tables: {', '.join(f'[{t}]' for t in TABLES)}")
        if not isinstance(value, dict):
            raise SettingsError(f"{path}: {key} must be a table ([{key}])")
    return data


def _layer(kind: type, table: Mapping[str, Any], where: str, environ: Mapping[str, str], variables: Mapping[str, str],
           arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The file's values, then the environment's, then the arguments', each checked and coerced to the field's type."""
    names = {item.name: item for item in fields(kind)}
    unknown = sorted(set(table) - set(names))
    if unknown:
        raise SettingsError(f"{where}: unknown [{_table_name(kind)}] settings {unknown}; known: {sorted(names)}")
    values = {key: _coerce(kind, key, value, where) for key, value in table.items()}
    for variable, key in variables.items():
        if environ.get(variable):
            values[key] = _coerce(kind, key, environ[variable], variable)
    for key, value in arguments.items():
        if key not in names:
            raise SettingsError(f"unknown {_table_name(kind)} setting {key!r}; known: {sorted(names)}")
        if value is not None:
            values[key] = _coerce(kind, key, value, f"--{key.replace('_', '-')}")
    return values


def _table_name(kind: type) -> str:
    return "store" if kind is StoreSettings else "canonicalize"


def _coerce(kind: type, key: str, value: Any, where: str) -> Any:
    """A value in the type its field declares (the annotations are strings under ``from __future__ import annotations``)."""
    declared = str(next(item.type for item in fields(kind) if item.name == key))
    try:
        if declared.startswith("frozenset"):
            items = value.split(",") if isinstance(value, str) else list(value)
            return frozenset(str(item).strip() for item in items if str(item).strip())
        if declared == "float":
            if isinstance(value, bool):
                raise ValueError(value)
            return float(value)
        if declared == "int":
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError(value)
            return int(value)
        if declared.startswith("Path"):
            return None if str(value).strip().lower() in ("", "none") else Path(str(value))
    except (TypeError, ValueError):
        raise SettingsError(f"{where}: {key} = {value!r} is not a valid {declared.split(' ')[0]}") from None
    if not isinstance(value, str):
        raise SettingsError(f"{where}: {key} must be a string, not {value!r}")
    return value


def with_store(settings: Settings, **changes: Any) -> Settings:
    """The same settings with some store settings changed (checked like the others)."""
    values = {key: _coerce(StoreSettings, key, value, key) for key, value in changes.items()}
    return replace(settings, store=replace(settings.store, **values))
