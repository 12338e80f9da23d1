"""The embedded backend: pyoxigraph's on-disk store in a directory (or in memory)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyoxigraph
from pyoxigraph import DefaultGraph, NamedNode, Quad

from claimgraph.errors import StoreError
from claimgraph.store.base import QueryResult, Store


class EmbeddedStore(Store):
    """pyoxigraph's on-disk store in a directory (or in memory when path is None).

    ``read_only`` opens an existing store without taking its write lock, so a
    command that only reads can run while another process writes (it sees the
    store as it was when opened).
    """

    def __init__(self, path: str | Path | None = None, read_only: bool = False) -> None:
        self.location = str(path) if path is not None else ":memory:"
        self.read_only = read_only
        self._store: pyoxigraph.Store | None = None
        try:
            if path is None:
                self._store = pyoxigraph.Store()
            elif read_only:
                if not (Path(path) / "CURRENT").is_file():
                    raise StoreError(f"no claimgraph store at {path} (nothing ingested yet?)")
                self._store = pyoxigraph.Store.read_only(str(path))
            else:
                Path(path).mkdir(parents=True, exist_ok=True)
                self._store = pyoxigraph.Store(str(path))
        except OSError as error:
            raise StoreError(f"cannot open the store at {path}: {error}") from error

    def _query(self, sparql: str) -> QueryResult:
        try:
            return self._open().query(sparql)
        except SyntaxError as error:
            raise StoreError(f"SPARQL syntax error: {error}") from error
        except (OSError, ValueError) as error:
            raise StoreError(f"query failed on {self.location}: {error}") from error

    def _update(self, sparql: str) -> None:
        if self.read_only:
            raise StoreError(f"the store at {self.location} is open read-only")
        try:
            self._open().update(sparql)
        except SyntaxError as error:
            raise StoreError(f"SPARQL UPDATE syntax error: {error}") from error
        except (OSError, ValueError) as error:
            raise StoreError(f"update failed on {self.location}: {error}") from error

    def _open(self) -> pyoxigraph.Store:
        if self._store is None:
            raise StoreError(f"the store at {self.location} is closed")
        return self._store

    def quads(self, graph: NamedNode | None = None) -> Iterator[Quad]:
        for quad in self._open().quads_for_pattern(None, None, None, graph):
            if not isinstance(quad.graph_name, DefaultGraph):
                yield quad

    def graph_names(self) -> list[NamedNode]:
        """The named graphs, from the store's own index (a SPARQL DISTINCT over every quad is far slower)."""
        graphs = [graph for graph in self._open().named_graphs() if isinstance(graph, NamedNode)]
        return sorted(graphs, key=lambda graph: graph.value)

    def has_graph(self, graph: NamedNode) -> bool:
        return self._open().contains_named_graph(graph) and next(iter(self._open().quads_for_pattern(None, None, None, graph)), None) is not None

    def close(self) -> None:
        if self._store is not None:
            if not self.read_only:
                self._store.flush()
            self._store = None
