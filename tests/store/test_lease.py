"""Leases held in a SPARQL store: a dead holder's claim is taken over, a holder that lost its claim is told
before it writes again, a renewed claim stays live, and a released one leaves nothing behind."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.rdf.queries import read_sparql
from claimgraph.store import RemoteStore
from claimgraph.store.lease import _EXPIRES, _KEY, _OWNER, LOCK_GRAPH, LeaseLostError, LeaseTimeoutError, lease

KEY = NamedNode("urn:test:lease-key")


@pytest.fixture
def server(oxigraph_server: str):
    store = RemoteStore.from_base_url(oxigraph_server)
    store.update("DROP SILENT GRAPH <urn:claimgraph:locks>")
    yield store
    store.close()


def claim(store: RemoteStore, seconds: float, owner: str = "elsewhere pid 1") -> NamedNode:
    """Another holder's claim on KEY, expiring ``seconds`` from now (negative: a dead holder's)."""
    node = NamedNode(f"urn:claimgraph:lock:{owner.replace(' ', '-')}")
    stamp = Literal((datetime.now(UTC) + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%f"))
    store.insert({LOCK_GRAPH: [Triple(node, _KEY, KEY), Triple(node, _OWNER, Literal(owner)), Triple(node, _EXPIRES, stamp)]})
    return node


def claims(store: RemoteStore) -> set[str]:
    return {row["c"].value for row in store.select("SELECT DISTINCT ?c WHERE { GRAPH ?g { ?c ?p ?o } }", {"g": LOCK_GRAPH})}


def test_a_dead_holders_expired_claim_is_taken_over_and_removed(server: RemoteStore) -> None:
    dead = claim(server, -1)
    with lease(server, KEY, wait=0) as held:
        assert dead.value not in claims(server) and held.claim is not None and held.claim.value in claims(server)
        held.check()
    assert claims(server) == set()


def test_a_live_claim_makes_a_waiter_give_up_naming_the_holder(server: RemoteStore) -> None:
    claim(server, 600, owner="busy-host pid 42")
    with pytest.raises(LeaseTimeoutError, match="held by busy-host pid 42"), lease(server, KEY, wait=0):
        pass


def test_a_holder_whose_claim_was_taken_over_is_told_before_it_writes(server: RemoteStore) -> None:
    with lease(server, KEY, keep_alive=True) as held:
        server.update(read_sparql("internal", "lease-withdraw.ru"), {"locks": LOCK_GRAPH, "claim": held.claim})  # taken over
        with pytest.raises(LeaseLostError, match="another process took it over"):
            held.check()


def test_a_renewed_claim_gets_a_later_expiry_and_stays_held(server: RemoteStore) -> None:
    with lease(server, KEY) as held:
        first = held.expires
        held.renew()
        assert held.expires is not None and first is not None and held.expires.value > first.value
        held.check()
