"""Aligning the nodes of several runs of one paper, and counting the runs behind each node and edge.

Runs are taken in order; each node of a run joins at most one cluster and
each cluster holds at most one node per run. For a run, every (node, cluster)
pair gets a score and pairs are taken best first, one to one:

- same type, a shared anchor (``prov:wasDerivedFrom``: the viewpoint or
  sentence the node states) and no conflicting stated role: 2 + cosine;
- otherwise same type, cosine of the texts at or above ``similarity``, no
  conflicting role, and texts the canonicalization guards find compatible
  (a negated or reversed statement is a disagreement, not the same node): cosine.

A node that pairs with no cluster starts one. An edge of a run maps to
(cluster of its subject, predicate, cluster of its object); its support is the
number of runs that state it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from claimgraph.canonical.guards.check import check_pair

Compatible = Callable[[str, str], bool]


@dataclass(frozen=True)
class RunNode:
    iri: str
    type: str
    text: str
    anchors: frozenset[str] = frozenset()
    role: str | None = None


@dataclass
class Run:
    name: str
    graph: str
    nodes: list[RunNode]
    edges: list[tuple[str, str, str]]


@dataclass
class Cluster:
    number: int
    type: str
    text: str
    anchors: set[str]
    role: str | None
    members: dict[str, RunNode] = field(default_factory=dict)  # run name -> node

    @property
    def support(self) -> int:
        return len(self.members)


@dataclass
class Alignment:
    runs: list[str]
    clusters: list[Cluster]
    edges: dict[tuple[int, str, int], set[str]]  # (cluster, predicate, cluster) -> run names


def _compatible_default(a: str, b: str) -> bool:
    return check_pair(a, b).compatible


def _roles_agree(a: str | None, b: str | None) -> bool:
    return a is None or b is None or a == b


def align(runs: Sequence[Run], vectors: dict[str, np.ndarray], similarity: float = 0.85,
          compatible: Compatible = _compatible_default) -> Alignment:
    """Clusters of the runs' nodes and the runs behind each mapped edge; ``vectors`` maps texts to unit vectors."""
    clusters: list[Cluster] = []
    where: dict[tuple[str, str], int] = {}  # (run, node iri) -> cluster number
    for run in runs:
        scored: list[tuple[float, int, int]] = []
        for index, node in enumerate(run.nodes):
            for cluster in clusters:
                score = _score(node, cluster, vectors, similarity, compatible)
                if score is not None:
                    scored.append((score, index, cluster.number))
        taken_nodes: set[int] = set()
        taken_clusters: set[int] = set()
        for _, index, number in sorted(scored, key=lambda item: (-item[0], item[1], item[2])):
            if index in taken_nodes or number in taken_clusters:
                continue
            taken_nodes.add(index)
            taken_clusters.add(number)
            clusters[number].members[run.name] = run.nodes[index]
            clusters[number].anchors |= run.nodes[index].anchors
            where[(run.name, run.nodes[index].iri)] = number
        for index, node in enumerate(run.nodes):
            if index not in taken_nodes:
                cluster = Cluster(len(clusters), node.type, node.text, set(node.anchors), node.role, {run.name: node})
                clusters.append(cluster)
                where[(run.name, node.iri)] = cluster.number
    edges: dict[tuple[int, str, int], set[str]] = defaultdict(set)
    for run in runs:
        for subject, predicate, obj in run.edges:
            if (run.name, subject) in where and (run.name, obj) in where:
                edges[(where[(run.name, subject)], predicate, where[(run.name, obj)])].add(run.name)
    return Alignment([run.name for run in runs], clusters, dict(edges))


def _score(node: RunNode, cluster: Cluster, vectors: dict[str, np.ndarray], similarity: float, compatible: Compatible) -> float | None:
    if node.type != cluster.type or not _roles_agree(node.role, cluster.role):
        return None
    cosine = float(vectors[node.text] @ vectors[cluster.text])
    if node.anchors & cluster.anchors:
        return 2.0 + cosine
    if cosine >= similarity - 1e-9 and compatible(node.text, cluster.text):
        return cosine
    return None
