"""What canonicalization reads from the store: nodes to place, CANON_ hubs, covered papers, and their fingerprint.

The fingerprint is a multiset hash (the sum of one hash per item, modulo
2^128): it does not depend on order, so the canonicalizer can keep it up to
date item by item as it places nodes, and saving the sidecar never has to read
the whole store again. Opening the sidecar computes it from the store and
compares.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pyoxigraph import NamedNode

from claimgraph.profile.ontology import MergePolicy
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_internal_query, read_named_query
from claimgraph.rdf.rows import iri_of, read_rows, text_of
from claimgraph.store import Store

_MODULUS = 1 << 128


@dataclass(frozen=True)
class NodeRow:
    """One node of one paper graph as canonicalization sees it: linked to ``hub``, or held apart from ``apart``."""

    graph: NamedNode
    node: NamedNode
    type: str
    text: str
    hub: NamedNode | None = None
    apart: NamedNode | None = None

    @property
    def status(self) -> str:
        return self.hub.value if self.hub else (f"apart {self.apart.value}" if self.apart else "")

    def item(self, status: str | None = None) -> str:
        """This row's fingerprint item (with another status when given)."""
        text = hashlib.sha256(self.text.encode("utf-8")).hexdigest()[:32]
        return f"N\t{self.graph.value}\t{self.node.value}\t{self.type}\t{text}\t{self.status if status is None else status}"


@dataclass(frozen=True)
class HubRow:
    hub: NamedNode
    type: str
    text: str

    def item(self) -> str:
        return f"H\t{self.hub.value}\t{self.type}\t{hashlib.sha256(self.text.encode('utf-8')).hexdigest()[:32]}"


def paper_item(paper: str) -> str:
    return f"P\t{paper}"


class Fingerprint:
    """An order-free hash of a set of items, updated one item at a time."""

    def __init__(self, items: Iterable[str] = ()) -> None:
        self.value = 0
        for item in items:
            self.add(item)

    @staticmethod
    def _hash(item: str) -> int:
        return int.from_bytes(hashlib.sha256(item.encode("utf-8")).digest()[:16], "big")

    def add(self, item: str) -> None:
        self.value = (self.value + self._hash(item)) % _MODULUS

    def remove(self, item: str) -> None:
        self.value = (self.value - self._hash(item)) % _MODULUS

    def hex(self) -> str:
        return f"{self.value:032x}"


def node_rows(store: Store, iris: IriScheme, graph: NamedNode | None = None) -> list[NodeRow]:
    """Nodes with a text in one paper graph (or all), one row per (graph, node, type), sorted."""
    bindings = {"canonical": iris.canonical_graph()}
    if graph is not None:
        bindings["graph"] = graph
    rows: dict[tuple[str, str, str], NodeRow] = {}
    for row in store.select(read_internal_query("canonical-nodes"), bindings):
        candidate = NodeRow(iri_of(row, "g"), iri_of(row, "node"), text_of(row, "type"), text_of(row, "text"),
                            iri_of(row, "hub") if "hub" in row else None, iri_of(row, "apart") if "apart" in row else None)
        key = (candidate.graph.value, candidate.node.value, candidate.type)
        if key not in rows or (candidate.text, candidate.status) < (rows[key].text, rows[key].status):
            rows[key] = candidate
    return [rows[key] for key in sorted(rows)]


def hub_rows(store: Store, iris: IriScheme) -> list[HubRow]:
    rows = store.select(read_named_query("canonical-hubs"), {"canonical": iris.canonical_graph()})
    return sorted(read_rows(rows, HubRow), key=lambda hub: hub.hub.value)


def covered_papers(store: Store) -> list[str]:
    """Paper graph IRIs whose audit graph records a canonicalize activity."""
    return sorted(row["paper"].value for row in store.select(read_internal_query("canonicalized-papers")))


@dataclass(frozen=True)
class StoreState:
    """What the sidecar is derived from: covered papers, their indexable nodes, the hubs."""

    covered: list[str]
    rows: list[NodeRow]
    hubs: list[HubRow]

    @property
    def fingerprint(self) -> str:
        items = [paper_item(paper) for paper in self.covered] + [row.item() for row in self.rows] + [hub.item() for hub in self.hubs]
        return Fingerprint(items).hex()


def read_store_state(store: Store, iris: IriScheme, policies: Mapping[str, MergePolicy]) -> StoreState:
    covered = covered_papers(store)
    wanted = set(covered)
    rows = [row for row in node_rows(store, iris) if row.graph.value in wanted and policies.get(row.type, "never") != "never"]
    return StoreState(covered, rows, hub_rows(store, iris))
