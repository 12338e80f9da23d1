"""Clean Peircean reasoning graphs grown from a paper's own viewpoints (for benchmarks and test corpora).

A clean graph is a single-root tree of complete reasoning units, edges running
premise -> conclusion: deduction = one rule + one case, abduction = one
phenomenon + one knowledge, induction = one common + one to three cases. Every
node is a distinct viewpoint of the paper (texts distinct after case and space
folding), so its (x, y, z) source tuple names a real viewpoint.
``bench/repair.py`` and ``claimgraph.testing.reasoning_cases.cases`` build on it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from claimgraph.errors import ClaimgraphError
from claimgraph.loaders.document import Document

Source = tuple[int, int, int]
FAMILIES: dict[str, tuple[str, str]] = {  # family -> (first role, second role); the order is part of the generator
    "deduction": ("deduction-rule", "deduction-case"),
    "abduction": ("abduction-phenomenon", "abduction-knowledge"),
    "induction": ("induction-common", "induction-case"),
}
LABEL_FAMILY = {label: family for family, labels in FAMILIES.items() for label in labels}
MIN_VIEWPOINTS = 12


class ReasoningCorpusError(ClaimgraphError):
    """A reasoning graph or test corpus cannot be generated as asked (paper too small, bad data file, bad folder)."""


@dataclass(frozen=True)
class CleanNode:
    id: str
    text: str
    source: Source


@dataclass(frozen=True)
class CleanEdge:
    source: str
    label: str
    target: str


@dataclass(frozen=True)
class CleanGraph:
    """Nodes in creation order (the root first), edges grouped by unit in creation order."""

    nodes: tuple[CleanNode, ...]
    edges: tuple[CleanEdge, ...]
    root: str

    def node(self, node_id: str) -> CleanNode:
        return next(node for node in self.nodes if node.id == node_id)

    def units(self) -> dict[str, list[CleanEdge]]:
        """Target id -> its incoming edges (one unit each), in creation order."""
        units: dict[str, list[CleanEdge]] = {}
        for edge in self.edges:
            units.setdefault(edge.target, []).append(edge)
        return units

    def outgoing(self, node_id: str) -> CleanEdge | None:
        """The edge a node is premise of (None for the root): a tree gives each premise one."""
        return next((edge for edge in self.edges if edge.source == node_id), None)

    def leaves(self) -> list[str]:
        targets = {edge.target for edge in self.edges}
        return [node.id for node in self.nodes if node.id not in targets and node.id != self.root]

    def ancestors(self, node_id: str) -> list[str]:
        """The conclusions a node leads to, nearest first, up to the root."""
        chain = []
        edge = self.outgoing(node_id)
        while edge is not None:
            chain.append(edge.target)
            edge = self.outgoing(edge.target)
        return chain

    def to_json(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "nodes": [{"id": node.id, "text": node.text, "source": list(node.source)} for node in self.nodes],
            "edges": [{"source": edge.source, "label": edge.label, "target": edge.target} for edge in self.edges],
        }


def paper_viewpoints(document: Document) -> list[tuple[str, Source]]:
    """Distinct (after case and space folding) viewpoint texts with their source tuples, in paper order."""
    seen: set[str] = set()
    result = []
    for viewpoint in document.viewpoints:
        key = " ".join(viewpoint.text.lower().split())
        if key and key not in seen:
            seen.add(key)
            result.append((" ".join(viewpoint.text.split()), viewpoint.source))
    return result


def graph_size(rng: random.Random, available: int) -> int:
    """Log-normal around 25 nodes, at least 6, at most 100 and what the paper has."""
    return max(6, min(100, available, round(math.exp(rng.gauss(math.log(25), 0.5)))))


def grow_graph(rng: random.Random, viewpoints: Sequence[tuple[str, Source]], size: int) -> CleanGraph:
    """A single-root tree of complete units over the first viewpoints, premises -> conclusions.

    Nodes are ``n000`` (the root), ``n001``, ... taking viewpoints in order; a
    unit that would pass ``size`` is skipped, so the graph may end smaller.
    """
    if len(viewpoints) < size:
        raise ReasoningCorpusError(f"a graph of {size} nodes needs {size} distinct viewpoints, the paper has {len(viewpoints)}")
    nodes: list[CleanNode] = []
    edges: list[CleanEdge] = []

    def new_node() -> str:
        node_id = f"n{len(nodes):03d}"
        text, source = viewpoints[len(nodes)]
        nodes.append(CleanNode(node_id, text, source))
        return node_id

    frontier = [new_node()]
    while frontier and len(nodes) < size - 1:
        target = frontier.pop(rng.randrange(len(frontier)))
        first, second = FAMILIES[rng.choice(list(FAMILIES))]
        cases = rng.randint(1, 3) if first == "induction-common" else 1
        if len(nodes) + 1 + cases > size:
            continue
        for label in [first] + [second] * cases:
            premise = new_node()
            edges.append(CleanEdge(premise, label, target))
            frontier.append(premise)
    return CleanGraph(tuple(nodes), tuple(edges), nodes[0].id)
