"""Mutual exclusion between processes that share a remote store, built from plain SPARQL updates and queries.

SPARQL servers differ in isolation: Oxigraph applies each update atomically
but evaluates its WHERE on a snapshot without conflict checks, so two updates
that read "the last number" at once both write the same next number. A lease
serialises such read-modify-write steps (numbering a paper's audit trail)
across processes and hosts.

The algorithm needs only that each update is atomic and that a query sees
every update that finished before it started: a writer first inserts its
claim on a key, then reads the claims on that key. It holds the lease when its
claim is the only live one; otherwise it withdraws its claim and retries after
a random pause. Of two writers, the one whose claim landed second must see the
first claim when it reads, so two writers never both hold a key. A claim
carries an expiry time (client clock), so a writer killed while holding a
lease blocks the key for at most ``LEASE_SECONDS``.
"""

from __future__ import annotations

import os
import random
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.errors import StoreError

if TYPE_CHECKING:
    from claimgraph.store.base import Store

LOCK_GRAPH = NamedNode("urn:claimgraph:locks")
_KEY = NamedNode("urn:claimgraph:lock#key")
_OWNER = NamedNode("urn:claimgraph:lock#owner")
_EXPIRES = NamedNode("urn:claimgraph:lock#expires")
LEASE_SECONDS = 30.0

_CLAIMS = """SELECT ?claim ?owner ?expires WHERE { GRAPH ?locks { ?claim ?keyP ?key ; ?ownerP ?owner ; ?expiresP ?expires } }"""
_WITHDRAW = """DELETE { GRAPH ?locks { ?claim ?p ?o } } WHERE { GRAPH ?locks { ?claim ?p ?o } }"""

_local_locks: dict[tuple[str, str], threading.Lock] = {}
_local_guard = threading.Lock()


class LeaseTimeoutError(StoreError):
    """A lease on a store key could not be taken in time."""


def _local_lock(store: Store, key: NamedNode) -> threading.Lock:
    with _local_guard:
        return _local_locks.setdefault((store.location, key.value), threading.Lock())


@contextmanager
def lease(store: Store, key: NamedNode, wait: float = 120.0) -> Iterator[None]:
    """Hold ``key`` on ``store`` exclusively against every other process (and thread) using this function."""
    with _local_lock(store, key):
        if not store.shared:
            yield
            return
        claim = _acquire(store, key, wait)
        try:
            yield
        finally:
            store.update(_WITHDRAW, {"locks": LOCK_GRAPH, "claim": claim})


def _acquire(store: Store, key: NamedNode, wait: float) -> NamedNode:
    deadline = time.monotonic() + wait
    owner = f"{socket.gethostname()} pid {os.getpid()}"
    pause = 0.005
    while True:
        claim = NamedNode(f"urn:claimgraph:lock:{uuid.uuid4()}")
        expires = datetime.now(UTC) + timedelta(seconds=LEASE_SECONDS)
        stamp = Literal(expires.strftime("%Y-%m-%dT%H:%M:%S.%f"))
        store.insert({LOCK_GRAPH: [Triple(claim, _KEY, key), Triple(claim, _OWNER, Literal(owner)), Triple(claim, _EXPIRES, stamp)]})
        rows = store.select(_CLAIMS, {"locks": LOCK_GRAPH, "keyP": _KEY, "key": key, "ownerP": _OWNER, "expiresP": _EXPIRES})
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")
        live = [row for row in rows if row["claim"] == claim or row["expires"].value > now]
        for row in rows:
            if row not in live:
                store.update(_WITHDRAW, {"locks": LOCK_GRAPH, "claim": row["claim"]})  # a dead holder's claim
        if all(row["claim"] == claim for row in live):
            return claim
        store.update(_WITHDRAW, {"locks": LOCK_GRAPH, "claim": claim})
        if time.monotonic() > deadline:
            holders = sorted({row["owner"].value for row in live if row["claim"] != claim})
            raise LeaseTimeoutError(f"could not take the lease on {key.value} in {store.location} within {wait:g} s (held by {', '.join(holders)})")
        time.sleep(pause * (0.5 + random.random()))
        pause = min(pause * 2, 0.5)
