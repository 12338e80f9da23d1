"""One Store interface over two backends: embedded pyoxigraph and a remote SPARQL 1.1 endpoint."""

from __future__ import annotations

import re
from pathlib import Path

from claimgraph.errors import StoreError
from claimgraph.plugins import StorePlugin, registered
from claimgraph.store.base import (
    EXPORT_FORMATS,
    QueryResult,
    Row,
    ServiceNotAllowedError,
    Store,
    check_services,
    ntriples,
    replace_graphs_update,
)
from claimgraph.store.embedded import EmbeddedStore, StoreLockedError
from claimgraph.store.http import HttpSettings
from claimgraph.store.remote import RemoteStore

__all__ = [
    "EXPORT_FORMATS", "EmbeddedStore", "HttpSettings", "QueryResult", "RemoteStore", "Row", "ServiceNotAllowedError",
    "Store", "StoreLockedError", "check_services", "ntriples", "open_store", "replace_graphs_update",
]


_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")

EMBEDDED = StorePlugin("embedded", ("",), lambda location, read_only: EmbeddedStore(location, read_only=read_only))
REMOTE = StorePlugin("remote", ("http", "https"), lambda location, read_only: RemoteStore.from_base_url(location))


def open_store(location: str | Path, read_only: bool = False, settings: HttpSettings | None = None) -> Store:
    """The store at ``location``: a directory (embedded), an http(s) URL (remote), or a scheme a store plugin registers.

    Schemes are compared case-insensitively; an unknown one is refused rather than taken for a folder name.
    ``settings`` (timeouts, retries) apply to the built-in remote backend.
    """
    text = str(location)
    match = _SCHEME.match(text)
    scheme = match.group(1).lower() if match else ""
    builtin = next((plugin for plugin in (EMBEDDED, REMOTE) if scheme in plugin.schemes), None)
    if builtin is not None:  # no entry-point scan (tens of milliseconds) for the locations every command opens
        return builtin.open(text, read_only)
    plugin = next((plugin for plugin in registered(StorePlugin) if scheme in plugin.schemes), None)
    if plugin is None:
        known = sorted(s for plugin in registered(StorePlugin) for s in plugin.schemes if s)
        raise StoreError(f"store {text!r}: unsupported URL scheme {scheme!r}; give a directory, or a URL with one of: {', '.join(known)}")
    if plugin.name == REMOTE.name and settings is not None:
        return RemoteStore.from_base_url(text, settings)
    return plugin.open(text, read_only)
