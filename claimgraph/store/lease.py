"""Mutual exclusion between processes that share a remote store, built from plain SPARQL updates and queries.

SPARQL servers differ in isolation: Oxigraph applies each update atomically
but evaluates its WHERE on a snapshot without conflict checks, so two updates
that read "the last number" at once both write the same next number, and two
processes that read the CANON_ hubs at once both found a hub for the same text.
A lease serialises such read-modify-write sections across processes and hosts:
numbering a paper's audit trail (a few requests) and canonicalizing a batch
(read the hubs, place the nodes, write the links: seconds to minutes).

The algorithm needs only that each update is atomic and that a query sees
every update that finished before it started: a writer first inserts its
claim on a key, then reads the claims on that key. It holds the lease when its
claim is the only live one; otherwise it withdraws its claim and retries after
a random pause. Of two writers, the one whose claim landed second must see the
first claim when it reads, so two writers never both hold a key. A claim
carries an expiry time (client clock), ``LEASE_SECONDS`` after it was written;
a holder that asks for ``keep_alive`` pushes it forward every
``RENEW_SECONDS`` from a background thread, so a long section keeps its lease
while a writer killed while holding one blocks the key for at most
``LEASE_SECONDS``: the next writer to find the claim expired withdraws it and
takes the key. A holder that could not renew in time has lost the lease;
``Held.check`` says so (``LeaseLostError``) before the holder writes again.
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
from claimgraph.rdf.queries import read_internal_query, read_sparql

if TYPE_CHECKING:
    from claimgraph.store.base import Store

LOCK_GRAPH = NamedNode("urn:claimgraph:locks")
_KEY = NamedNode("urn:claimgraph:lock#key")
_OWNER = NamedNode("urn:claimgraph:lock#owner")
_EXPIRES = NamedNode("urn:claimgraph:lock#expires")
LEASE_SECONDS = 30.0
RENEW_SECONDS = LEASE_SECONDS / 3
# How long a writer waits for a lease held over a long section (a canonicalization batch), which its holder renews.
LONG_WAIT_SECONDS = 3600.0
# A holder stops trusting its lease this long before the expiry it last wrote, so that a write it sends
# after a successful check lands while the claim is still live.
_MARGIN_SECONDS = LEASE_SECONDS / 6

_local_locks: dict[tuple[str, str], threading.Lock] = {}
_local_guard = threading.Lock()


class LeaseTimeoutError(StoreError):
    """A lease on a store key could not be taken in time."""


class LeaseLostError(StoreError):
    """A held lease expired or was taken over before the holder's next write."""


def _stamp(expires: datetime) -> Literal:
    return Literal(expires.strftime("%Y-%m-%dT%H:%M:%S.%f"))


class Held:
    """A lease this process holds (``claim`` None: a store only this process writes, nothing to hold)."""

    def __init__(self, store: Store, key: NamedNode, claim: NamedNode | None, expires: Literal | None) -> None:
        self.store = store
        self.key = key
        self.claim = claim
        self.expires = expires
        self.renewed = time.monotonic()
        self.lost: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def check(self) -> None:
        """Raise ``LeaseLostError`` unless the claim is certainly still this process's (call it before each write)."""
        claim = self.claim
        if claim is None:
            return
        if self.lost is None and time.monotonic() - self.renewed > LEASE_SECONDS - _MARGIN_SECONDS:
            self.lost = f"not renewed for {LEASE_SECONDS - _MARGIN_SECONDS:g} s"
        if self.lost is None and not self._in_store(claim):
            self.lost = "another process took it over"
        if self.lost is not None:
            raise LeaseLostError(f"lost the lease on {self.key.value} in {self.store.location} ({self.lost}); "
                                 "nothing more was written under it: run the command again")

    def _in_store(self, claim: NamedNode) -> bool:
        return self.store.ask(read_internal_query("lease-held"), {"locks": LOCK_GRAPH, "claim": claim, "keyP": _KEY, "key": self.key})

    def keep_alive(self) -> None:
        """Renew the claim from a background thread until the lease is released."""
        if self.claim is None or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._renew_until_stopped, name=f"lease {self.key.value}", daemon=True)
        self._thread.start()

    def _renew_until_stopped(self) -> None:
        while not self._stop.wait(RENEW_SECONDS) and self.lost is None:
            try:
                self.renew()
            except StoreError:
                continue  # the next round tries again; check() reports the lease lost once renewals fall too far behind

    def renew(self) -> None:
        """Push the claim's expiry ``LEASE_SECONDS`` past now; note the lease lost when the claim is gone (no claim: nothing to do)."""
        claim = self.claim
        if claim is None:
            return
        started = time.monotonic()
        stamp = _stamp(datetime.now(UTC) + timedelta(seconds=LEASE_SECONDS))
        self.store.update(read_sparql("internal", "lease-renew.ru"),
                          {"locks": LOCK_GRAPH, "claim": claim, "expiresP": _EXPIRES, "expires": stamp})
        self.expires = stamp
        if not self._in_store(claim):
            self.lost = "another process took it over"
            return
        self.renewed = started

    def release(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.claim is not None:
            self.store.update(read_sparql("internal", "lease-withdraw.ru"), {"locks": LOCK_GRAPH, "claim": self.claim})


def _local_lock(store: Store, key: NamedNode) -> threading.Lock:
    with _local_guard:
        return _local_locks.setdefault((store.location, key.value), threading.Lock())


@contextmanager
def lease(store: Store, key: NamedNode, wait: float = 120.0, keep_alive: bool = False) -> Iterator[Held]:
    """Hold ``key`` on ``store`` exclusively against every other process (and thread) using this function;
    with ``keep_alive`` the lease is renewed for as long as the section runs."""
    with _local_lock(store, key):
        held = Held(store, key, *_acquire(store, key, wait)) if store.shared else Held(store, key, None, None)
        if keep_alive:
            held.keep_alive()
        try:
            yield held
        finally:
            held.release()


def _acquire(store: Store, key: NamedNode, wait: float) -> tuple[NamedNode, Literal]:
    deadline = time.monotonic() + wait
    owner = f"{socket.gethostname()} pid {os.getpid()}"
    withdraw = read_sparql("internal", "lease-withdraw.ru")
    pause = 0.005
    while True:
        claim = NamedNode(f"urn:claimgraph:lock:{uuid.uuid4()}")
        stamp = _stamp(datetime.now(UTC) + timedelta(seconds=LEASE_SECONDS))
        store.insert({LOCK_GRAPH: [Triple(claim, _KEY, key), Triple(claim, _OWNER, Literal(owner)), Triple(claim, _EXPIRES, stamp)]})
        rows = store.select(read_internal_query("lease-claims"),
                            {"locks": LOCK_GRAPH, "keyP": _KEY, "key": key, "ownerP": _OWNER, "expiresP": _EXPIRES})
        now = _stamp(datetime.now(UTC)).value
        live = [row for row in rows if row["claim"] == claim or row["expires"].value > now]
        for row in rows:
            if row not in live:
                store.update(withdraw, {"locks": LOCK_GRAPH, "claim": row["claim"]})  # a dead holder's claim
        if all(row["claim"] == claim for row in live):
            return claim, stamp
        store.update(withdraw, {"locks": LOCK_GRAPH, "claim": claim})
        if time.monotonic() > deadline:
            holders = sorted({row["owner"].value for row in live if row["claim"] != claim})
            raise LeaseTimeoutError(f"could not take the lease on {key.value} in {store.location} within {wait:g} s (held by {', '.join(holders)})")
        time.sleep(pause * (0.5 + random.random()))
        pause = min(pause * 2, 0.5)
