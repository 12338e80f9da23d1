"""A query worker process: a read-only handle on the embedded store, one query at a time over a pipe.

Queries run in worker processes so that a query past its timeout can be
stopped for real (pyoxigraph has no cancellation: the process is killed and
replaced) and so that queries run in parallel whatever the GIL does. A
read-only handle sees the store as it was when opened; the worker reopens it
when the store's files changed (an update through the server, or another
process writing while the server only reads). The store is opened through
``claimgraph.store.embedded.open_read_only``, which opens again a few times
while a writer's compaction has just removed a file the store's file list
names; an open that still fails answers 503 and leaves the worker running
(with its previous view, if it had one), so the next query tries again.
"""

from __future__ import annotations

import os
from multiprocessing.connection import Connection
from pathlib import Path

import pyoxigraph

from claimgraph.errors import StoreError
from claimgraph.serve.evaluate import Answer, QueryRequest, evaluate
from claimgraph.store.embedded import open_read_only

OPEN_ERRORS = (StoreError, OSError, RuntimeError)


def store_signature(location: Path) -> tuple[tuple[str, int, int], ...]:
    """Names, sizes and modification times of the store's files: changes whenever a write lands."""
    entries = []
    with os.scandir(location) as scan:
        for entry in scan:
            if entry.is_file(follow_symlinks=False):
                status = entry.stat(follow_symlinks=False)
                entries.append((entry.name, status.st_size, status.st_mtime_ns))
    return tuple(sorted(entries))


class ReadOnlyHandle:
    """A read-only pyoxigraph store that reopens itself when the files under it change."""

    def __init__(self, location: Path) -> None:
        self.location = location
        self._signature = store_signature(location)
        self._store = open_read_only(location)

    def current(self) -> pyoxigraph.Store:
        """The store as it is now; raises one of OPEN_ERRORS (keeping the previous view) when it cannot be reopened."""
        signature = store_signature(self.location)
        if signature != self._signature:
            self._store = open_read_only(self.location)
            self._signature = signature
        return self._store


def unreadable(location: str, error: Exception) -> Answer:
    return Answer.error(503, f"cannot open the store at {location} read-only: {error}", {"Retry-After": "1"})


def serve_queries(connection: Connection, location: str, union_default_graph: bool) -> None:
    """The worker's loop: receive a QueryRequest, send back an Answer; None ends it."""
    try:
        handle = ReadOnlyHandle(Path(location))
    except OPEN_ERRORS as error:
        connection.send(unreadable(location, error))
        return
    connection.send(None)  # ready
    while True:
        try:
            request = connection.recv()
        except (EOFError, KeyboardInterrupt):
            return
        if not isinstance(request, QueryRequest):
            return
        try:
            store = handle.current()
        except OPEN_ERRORS as error:
            connection.send(unreadable(location, error))
            continue
        try:
            answer = evaluate(store, request, union_default_graph)
        except OSError as error:
            answer = Answer.error(503, f"cannot read the store at {location}: {error}")
        connection.send(answer)
