"""One Store interface over two backends: embedded pyoxigraph and a remote SPARQL 1.1 endpoint."""

from __future__ import annotations

from pathlib import Path

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


def open_store(location: str | Path) -> Store:
    """An http(s) URL opens a remote endpoint; anything else is an embedded store directory."""
    text = str(location)
    if text.startswith(("http://", "https://")):
        return RemoteStore.from_base_url(text)
    return EmbeddedStore(text)
