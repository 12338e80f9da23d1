"""One Store interface over two backends: embedded pyoxigraph and a remote SPARQL 1.1 endpoint.

The remote backend (and with it http.client, ssl and socket) is imported on
first use, so a command on an embedded store starts without it.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claimgraph.errors import StoreError
from claimgraph.store.base import (
    EXPORT_FORMATS,
    QueryResult,
    Row,
    ServiceNotAllowedError,
    Store,
    check_services,
    evaluation_error,
    ntriples,
    replace_graphs_update,
)
from claimgraph.store.embedded import EmbeddedStore, StoreLockedError
from claimgraph.store.settings import HttpSettings

if TYPE_CHECKING:
    from claimgraph.plugins import StorePlugin
    from claimgraph.store.remote import RemoteStore

__all__ = [
    "EXPORT_FORMATS", "EmbeddedStore", "HttpSettings", "QueryResult", "RemoteStore", "Row", "ServiceNotAllowedError",
    "Store", "StoreLockedError", "check_services", "evaluation_error", "ntriples", "open_endpoints", "open_store", "replace_graphs_update",
]


_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def __getattr__(name: str) -> Any:
    """``RemoteStore`` and the built-in store plugins ``EMBEDDED`` and ``REMOTE``, made when first asked for."""
    if name == "RemoteStore":
        from claimgraph.store.remote import RemoteStore

        return RemoteStore
    if name in ("EMBEDDED", "REMOTE"):
        return _builtin_plugins()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _open_embedded(location: str, read_only: bool) -> Store:
    return EmbeddedStore(location, read_only=read_only)


def _open_remote(location: str, read_only: bool = False, settings: HttpSettings | None = None) -> Store:
    from claimgraph.store.remote import RemoteStore

    return RemoteStore.from_base_url(location, settings)


@cache
def _builtin_plugins() -> dict[str, StorePlugin]:
    """The built-in backends as plugins, as pyproject.toml registers them (entry points claimgraph.store:EMBEDDED, :REMOTE)."""
    from claimgraph.plugins import StorePlugin

    return {"EMBEDDED": StorePlugin("embedded", ("",), _open_embedded), "REMOTE": StorePlugin("remote", ("http", "https"), _open_remote)}


def open_store(location: str | Path, read_only: bool = False, settings: HttpSettings | None = None,
               allowed_services: frozenset[str] = frozenset()) -> Store:
    """The store at ``location``: a directory (embedded), an http(s) URL (remote), or a scheme a store plugin registers.

    Schemes are compared case-insensitively; an unknown one is refused rather than taken for a folder name.
    ``settings`` (timeouts, retries) apply to the built-in remote backend; ``allowed_services`` are the only
    endpoints a SERVICE clause of a query may call.
    """
    store = _open_location(location, read_only, settings)
    store.allowed_services = allowed_services
    return store


def open_endpoints(query_url: str, update_url: str | None = None, gsp_url: str | None = None, settings: HttpSettings | None = None,
                   allowed_services: frozenset[str] = frozenset()) -> Store:
    """A remote store given by its endpoints one by one (query, update, Graph Store Protocol)."""
    from claimgraph.store.remote import RemoteStore

    store = RemoteStore(query_url, update_url, gsp_url, settings)
    store.allowed_services = allowed_services
    return store


def _open_location(location: str | Path, read_only: bool, settings: HttpSettings | None) -> Store:
    text = str(location)
    match = _SCHEME.match(text)
    scheme = match.group(1).lower() if match else ""
    if scheme in ("http", "https"):
        return _open_remote(text, read_only, settings)
    if scheme == "":  # no entry-point scan (tens of milliseconds) for the locations every command opens
        return _open_embedded(text, read_only)
    from claimgraph.plugins import StorePlugin, registered

    plugin = next((plugin for plugin in registered(StorePlugin) if scheme in plugin.schemes), None)
    if plugin is None:
        known = sorted(s for plugin in registered(StorePlugin) for s in plugin.schemes if s)
        raise StoreError(f"store {text!r}: unsupported URL scheme {scheme!r}; give a directory, or a URL with one of: {', '.join(known)}")
    return plugin.open(text, read_only)
