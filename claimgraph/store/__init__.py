"""One Store interface over two backends: embedded pyoxigraph and a remote SPARQL 1.1 endpoint."""

from __future__ import annotations

import re
from pathlib import Path

from claimgraph.errors import StoreError
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


def open_store(location: str | Path, read_only: bool = False) -> Store:
    """An http(s) URL (any case) opens a remote endpoint; another scheme is refused; anything else is a directory."""
    text = str(location)
    scheme = _SCHEME.match(text)
    if scheme is None:
        return EmbeddedStore(text, read_only=read_only)
    if scheme.group(1).lower() in ("http", "https"):
        return RemoteStore.from_base_url(text)
    raise StoreError(f"store {text!r}: unsupported URL scheme {scheme.group(1)!r}; give an http(s) URL of a SPARQL server or a directory")
