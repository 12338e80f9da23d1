"""The embedded backend: pyoxigraph's on-disk store in a directory (or in memory).

One process writes a store at a time. A writer holds an advisory lock on
``<store>.lock`` next to the directory, holding its PID and command line, so a
second writer is told which process has the store instead of a RocksDB lock
message; the kernel drops the lock when the holder dies, even by SIGKILL, so a
crash never leaves a stale lock behind. Readers open the store read-only and
take no lock.

pyoxigraph calls a read-only open while another process writes "undefined
behaviour": RocksDB reads the list of table files, and the writer's
background compaction may delete one of them before the reader opens it
("Corruption: IO error: No such file or directory ... .sst"). The list is
current again once the compaction has written it, so ``open_read_only``
opens again a few times, a little later each time, before it gives up with
a message saying that another process is writing.
"""

from __future__ import annotations

import fcntl
import os
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import pyoxigraph
from pyoxigraph import DefaultGraph, NamedNode, Quad, RdfFormat

from claimgraph.errors import StoreError
from claimgraph.store.base import QueryResult, Store


class StoreLockedError(StoreError):
    """Another process is writing the embedded store."""


READ_ONLY_ATTEMPTS = 6
_VANISHED = "No such file or directory"


def open_read_only(path: Path, attempts: int = READ_ONLY_ATTEMPTS) -> pyoxigraph.Store:
    """The store opened read-only; opened again (after 0.05, 0.1, 0.2 ... s) while a writer's compaction has just
    deleted a table file the store's file list still names (see the module docstring)."""
    for attempt in range(attempts):
        try:
            return pyoxigraph.Store.read_only(str(path))
        except (OSError, RuntimeError) as error:
            if _VANISHED not in str(error):
                raise
            if attempt == attempts - 1:
                raise StoreError(f"cannot open the store at {path} read-only: another process is writing it and its files "
                                 f"changed during {attempts} attempts to open it ({error}); try again") from error
            time.sleep(0.05 * 2 ** attempt)
    raise AssertionError("unreachable")


def lock_path(path: str | Path) -> Path:
    """The writer lock file of the store directory at ``path``: ``<store>.lock`` next to it."""
    folder = Path(path).absolute().resolve()
    return folder.with_name(folder.name + ".lock")


class WriterLock:
    """An exclusive advisory lock on the store's lock file, naming its holder inside."""

    def __init__(self, store_path: str | Path) -> None:
        self.path = lock_path(store_path)
        self._fd: int | None = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise StoreLockedError(
                f"the store at {store_path} is being written by another process ({holder}); "
                "wait for it to finish (read-only commands such as query, stats and export work meanwhile)"
            ) from None
        except OSError as error:
            os.close(fd)
            raise StoreError(f"cannot lock the store at {store_path} ({self.path}): {error}") from error
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()}: {_command_line()}\n".encode("utf-8", "replace"), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _read_holder(fd: int) -> str:
    text = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip()
    return text.splitlines()[0][:300] if text else "a process that has not written its id yet"


def _command_line() -> str:
    """This process's command, program name first, shortened (a list of paths can be long)."""
    shown = " ".join([Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python", *sys.argv[1:]])
    return shown[:200] + ("..." if len(shown) > 200 else "")


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
        self._lock: WriterLock | None = None
        try:
            if path is None:
                self._store = pyoxigraph.Store()
            elif read_only:
                if not (Path(path) / "CURRENT").is_file():
                    raise StoreError(f"no claimgraph store at {path} (nothing ingested yet?)")
                self._store = open_read_only(Path(path))
            else:
                if Path(path).exists() and not Path(path).is_dir():
                    raise StoreError(f"the store location {path} is a file, not a store directory")
                self._lock = WriterLock(path)
                Path(path).mkdir(parents=True, exist_ok=True)
                self._store = pyoxigraph.Store(str(path))
        except (OSError, RuntimeError) as error:
            self._release_lock()
            raise StoreError(f"cannot open the store at {path}: {error}") from error
        except StoreError:
            self._release_lock()
            raise

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
        except (OSError, ValueError, RuntimeError) as error:  # RuntimeError: the update failed (CLEAR of a missing graph)
            raise StoreError(f"update failed on {self.location}: {error}") from error

    def _open(self) -> pyoxigraph.Store:
        if self._store is None:
            raise StoreError(f"the store at {self.location} is closed")
        return self._store

    def quads(self, graph: NamedNode | None = None) -> Iterator[Quad]:
        for quad in self._open().quads_for_pattern(None, None, None, graph):
            if not isinstance(quad.graph_name, DefaultGraph):
                yield quad

    def graph_ntriples(self, graph: NamedNode) -> bytes:
        """The graph dumped by pyoxigraph itself (no Python term per triple)."""
        return self._open().dump(format=RdfFormat.N_TRIPLES, from_graph=graph) or b""

    def add_quads(self, quads: Iterable[Quad]) -> None:
        """Add quads in one transaction (pyoxigraph's extend)."""
        if self.read_only:
            raise StoreError(f"the store at {self.location} is open read-only")
        self._open().extend(quad for quad in quads if isinstance(quad.graph_name, NamedNode))

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
        self._release_lock()

    def _release_lock(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None
