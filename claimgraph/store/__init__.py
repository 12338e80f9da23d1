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
    Store,
    ntriples,
    replace_graphs_update,
)
from claimgraph.store.embedded import EmbeddedStore
from claimgraph.store.remote import RemoteStore

__all__ = [
    "EXPORT_FORMATS", "EmbeddedStore", "QueryResult", "RemoteStore", "Row", "Store",
    "ntriples", "open_store", "replace_graphs_update",
]


_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")

EMBEDDED = StorePlugin("embedded", ("",), lambda location, read_only: EmbeddedStore(location, read_only=read_only))
REMOTE = StorePlugin("remote", ("http", "https"), lambda location, read_only: RemoteStore.from_base_url(location))


def open_store(location: str | Path, read_only: bool = False) -> Store:
    """The store at ``location``: a directory (embedded), an http(s) URL (remote), or a scheme a store plugin registers.

    Schemes are compared case-insensitively; an unknown one is refused rather than taken for a folder name.
    """
    text = str(location)
    match = _SCHEME.match(text)
    scheme = match.group(1).lower() if match else ""
    plugin = next((plugin for plugin in registered(StorePlugin) if scheme in plugin.schemes), None)
    if plugin is None:
        known = sorted(s for plugin in registered(StorePlugin) for s in plugin.schemes if s)
        raise StoreError(f"store {text!r}: unsupported URL scheme {scheme!r}; give a directory, or a URL with one of: {', '.join(known)}")
    return plugin.open(text, read_only)
