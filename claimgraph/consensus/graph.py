"""The consensus graph of one paper: its run graphs read, aligned, and written to ``<paper>/consensus``.

Written in one request, replacing any earlier consensus of the paper:

- ``<paper>/consensus cg:consensusOf <paper> ; cg:runCount n ; cg:minSupport k ;
  prov:wasDerivedFrom <run graph> ...``;
- one ``cg:ConsensusNode`` per aligned cluster: the first run's text, its type
  (``cg:alignedType``), ``cg:supportCount``, ``cg:kept`` (support >= k), the runs
  behind it (``prov:wasDerivedFrom``) and the run nodes it aligns
  (``cg:alignedNode``; a run node's IRI is local to the run graph that holds it);
- one ``cg:ConsensusEdge`` per mapped edge (``rdf:subject`` / ``rdf:predicate`` /
  ``rdf:object`` between consensus nodes) with the same counts, and the plain
  edge triple between the two consensus nodes when the edge and both ends are kept.

Nodes and edges below the threshold stay as records, so the shipped queries
(``consensus-nodes``, ``consensus-disagreements``) show where runs disagree.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.canonical.index.embedding_cache import EmbeddingCache
from claimgraph.consensus.align import Alignment, Run, RunNode, align
from claimgraph.consensus.runs import RunError, consensus_graph, run_graphs
from claimgraph.context import Context
from claimgraph.embedding.base import Embedder
from claimgraph.papers.audit import now
from claimgraph.rdf.iris import content_hash
from claimgraph.rdf.queries import read_internal_query
from claimgraph.rdf.rows import text_of
from claimgraph.rdf.vocab import CG, PROV, RDF, XSD


@dataclass
class ConsensusResult:
    paper_id: str
    graph: NamedNode
    runs: list[str]
    min_runs: int
    nodes_by_support: dict[int, int] = field(default_factory=dict)
    edges_by_support: dict[int, int] = field(default_factory=dict)
    kept_nodes: int = 0
    kept_edges: int = 0

    def rows(self) -> list[list[object]]:
        rows: list[list[object]] = [["consensus graph", self.graph.value], ["runs", ", ".join(self.runs)],
                                    ["kept at support >=", self.min_runs],
                                    ["nodes kept", self.kept_nodes], ["edges kept", self.kept_edges]]
        for support in sorted(self.nodes_by_support, reverse=True):
            rows.append([f"nodes supported by {support} of {len(self.runs)} runs", self.nodes_by_support[support]])
        for support in sorted(self.edges_by_support, reverse=True):
            rows.append([f"edges supported by {support} of {len(self.runs)} runs", self.edges_by_support[support]])
        return rows


@dataclass
class _RunNodeRows:
    """What the rows of one run node say: its type and text, its anchors and its role."""

    kind: str
    text: str
    anchors: set[str] = field(default_factory=set)
    role: str | None = None


def read_run(ctx: Context, name: str, graph: NamedNode) -> Run:
    nodes: dict[str, _RunNodeRows] = {}
    for row in ctx.store.select(read_internal_query("run-nodes"), {"run": graph}):
        entry = nodes.setdefault(text_of(row, "node"), _RunNodeRows(text_of(row, "type"), text_of(row, "text")))
        if "anchor" in row:
            entry.anchors.add(text_of(row, "anchor"))
        if "role" in row:
            entry.role = text_of(row, "role")
    run_nodes = [RunNode(iri, entry.kind, entry.text, frozenset(entry.anchors), entry.role) for iri, entry in sorted(nodes.items())]
    edges = [(row["s"].value, row["p"].value, row["o"].value) for row in ctx.store.select(read_internal_query("run-edges"), {"run": graph})
             if row["s"].value in nodes and row["o"].value in nodes]
    return Run(name, graph.value, run_nodes, sorted(edges))


def build_consensus(ctx: Context, paper_id: str, embedder: Embedder, *, min_runs: int = 2, similarity: float = 0.85,
                    cache: EmbeddingCache | None = None) -> ConsensusResult:
    """Align the paper's run graphs and write its consensus graph; RunError when it has fewer than two runs."""
    named = run_graphs(ctx, paper_id)
    if len(named) < 2:
        raise RunError(f"paper {paper_id!r} has {len(named)} run graph(s); keep at least two with "
                       "`claimgraph consensus --paper ID --snapshot NAME` (after each run) or --import NAME=FILE")
    if min_runs < 1:
        raise RunError(f"--min-runs {min_runs}: at least 1")
    runs = [read_run(ctx, name, graph) for name, graph in named]
    texts = sorted({node.text for run in runs for node in run.nodes})
    vectors: Any = (cache or EmbeddingCache(embedder, None)).embed(texts) if texts else []
    alignment = align(runs, dict(zip(texts, vectors)), similarity)
    graph = consensus_graph(ctx, paper_id)
    ctx.store.replace_graphs({graph: consensus_triples(ctx, paper_id, graph, runs, alignment, min_runs)})
    return summarize(paper_id, graph, alignment, min_runs)


def _node_iri(graph: NamedNode, alignment: Alignment, number: int) -> NamedNode:
    members = sorted(f"{run}\t{node.iri}" for run, node in alignment.clusters[number].members.items())
    return NamedNode(f"{graph.value}/node/{content_hash(*members)}")


def consensus_triples(ctx: Context, paper_id: str, graph: NamedNode, runs: list[Run], alignment: Alignment, min_runs: int) -> list[Triple]:
    run_iri = {run.name: NamedNode(run.graph) for run in runs}
    triples = [Triple(graph, CG.consensusOf, ctx.iris.paper(paper_id)), Triple(graph, CG.runCount, _integer(len(runs))),
               Triple(graph, CG.minSupport, _integer(min_runs)),
               Triple(graph, PROV.generatedAtTime, Literal(now().isoformat(), datatype=XSD.dateTime))]
    triples += [Triple(graph, PROV.wasDerivedFrom, iri) for iri in run_iri.values()]
    iris = [_node_iri(graph, alignment, cluster.number) for cluster in alignment.clusters]
    for cluster, node in zip(alignment.clusters, iris):
        triples += [Triple(node, RDF.type, CG.ConsensusNode), Triple(node, CG.text, Literal(cluster.text)),
                    Triple(node, CG.alignedType, NamedNode(cluster.type)), Triple(node, CG.supportCount, _integer(cluster.support)),
                    Triple(node, CG.kept, _boolean(cluster.support >= min_runs))]
        for run, member in sorted(cluster.members.items()):
            triples += [Triple(node, PROV.wasDerivedFrom, run_iri[run]), Triple(node, CG.alignedNode, NamedNode(member.iri))]
    for (subject, predicate, obj), supporters in sorted(alignment.edges.items()):
        edge = NamedNode(f"{graph.value}/edge/{content_hash(iris[subject].value, predicate, iris[obj].value)}")
        kept = len(supporters) >= min_runs and alignment.clusters[subject].support >= min_runs and alignment.clusters[obj].support >= min_runs
        triples += [Triple(edge, RDF.type, CG.ConsensusEdge), Triple(edge, RDF.subject, iris[subject]),
                    Triple(edge, RDF.predicate, NamedNode(predicate)), Triple(edge, RDF.object, iris[obj]),
                    Triple(edge, CG.supportCount, _integer(len(supporters))), Triple(edge, CG.kept, _boolean(kept))]
        triples += [Triple(edge, PROV.wasDerivedFrom, run_iri[run]) for run in sorted(supporters)]
        if kept:
            triples.append(Triple(iris[subject], NamedNode(predicate), iris[obj]))
    return triples


def summarize(paper_id: str, graph: NamedNode, alignment: Alignment, min_runs: int) -> ConsensusResult:
    nodes: dict[int, int] = defaultdict(int)
    edges: dict[int, int] = defaultdict(int)
    for cluster in alignment.clusters:
        nodes[cluster.support] += 1
    kept_edges = 0
    for (subject, _, obj), supporters in alignment.edges.items():
        edges[len(supporters)] += 1
        ends = min(alignment.clusters[subject].support, alignment.clusters[obj].support)
        kept_edges += len(supporters) >= min_runs and ends >= min_runs
    kept_nodes = sum(1 for cluster in alignment.clusters if cluster.support >= min_runs)
    return ConsensusResult(paper_id, graph, alignment.runs, min_runs, dict(nodes), dict(edges), kept_nodes, kept_edges)


def _integer(value: int) -> Literal:
    return Literal(str(value), datatype=XSD.integer)


def _boolean(value: bool) -> Literal:
    return Literal("true" if value else "false", datatype=XSD.boolean)
