"""What canonicalization reads from the store: nodes to place, CANON_ hubs, covered papers, and their fingerprint."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

from pyoxigraph import Literal, NamedNode

from claimgraph.profile.ontology import MergePolicy
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_internal_query, read_named_query
from claimgraph.store import Store


@dataclass(frozen=True)
class NodeRow:
    """One node of one paper graph as canonicalization sees it."""

    graph: NamedNode
    node: NamedNode
    type: str
    text: str
    confidence: float | None
    hub: NamedNode | None


@dataclass(frozen=True)
class HubRow:
    hub: NamedNode
    type: str
    text: str


def _confidence(term: object) -> float | None:
    try:
        return float(term.value) if isinstance(term, Literal) else None
    except ValueError:
        return None


def node_rows(store: Store, iris: IriScheme, graph: NamedNode | None = None) -> list[NodeRow]:
    """Nodes with a text in one paper graph (or all), one row per (graph, node, type), sorted."""
    bindings = {"canonical": iris.canonical_graph()}
    if graph is not None:
        bindings["graph"] = graph
    rows: dict[tuple[str, str, str], NodeRow] = {}
    for row in store.select(read_internal_query("canonical-nodes"), bindings):
        key = (row["g"].value, row["node"].value, row["type"].value)
        if key in rows and (rows[key].text, str(rows[key].hub)) <= (row["text"].value, str(row.get("hub"))):
            continue
        rows[key] = NodeRow(row["g"], row["node"], row["type"].value, row["text"].value,  # type: ignore[arg-type]
                            _confidence(row.get("confidence")), row.get("hub"))  # type: ignore[arg-type]
    return [rows[key] for key in sorted(rows)]


def hub_rows(store: Store, iris: IriScheme) -> list[HubRow]:
    rows = store.select(read_named_query("canonical-hubs"), {"canonical": iris.canonical_graph()})
    return sorted((HubRow(row["hub"], row["type"].value, row["text"].value) for row in rows), key=lambda hub: hub.hub.value)  # type: ignore[arg-type]


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
        digest = hashlib.sha256()
        for paper in self.covered:
            digest.update(f"P\t{paper}\n".encode())
        for row in self.rows:
            text = hashlib.sha256(row.text.encode()).hexdigest()
            digest.update(f"N\t{row.graph.value}\t{row.node.value}\t{row.type}\t{text}\t{row.confidence}\t{row.hub}\n".encode())
        for hub in self.hubs:
            digest.update(f"H\t{hub.hub.value}\t{hub.type}\t{hashlib.sha256(hub.text.encode()).hexdigest()}\n".encode())
        return digest.hexdigest()


def read_store_state(store: Store, iris: IriScheme, policies: Mapping[str, MergePolicy]) -> StoreState:
    covered = covered_papers(store)
    wanted = set(covered)
    rows = [row for row in node_rows(store, iris) if row.graph.value in wanted and policies.get(row.type, "never") != "never"]
    return StoreState(covered, rows, hub_rows(store, iris))
