"""Cross-paper canonicalization: the three-tier merge policy over a role-filtered FAISS sidecar.

Each node of a paper graph is treated by its class's ``cg:mergePolicy`` (read
from the ontology):

- aggressive (Factor, Variable, ...): if the nearest node of the same type in
  *another* paper clears the type's threshold, the two merge. The node with the
  lower accumulated confidence is retired: ``sparql/merge/rewrite-iri.ru``
  rewrites its IRI in every paper graph (edges and edge annotations, whose IRIs
  are re-derived), and each graph that described it records
  ``survivor cg:mergedFrom retired``. The survivor's vector becomes the
  confidence-weighted average and is upserted into the index.
- cautious (Viewpoint, Claim, Association, ...): never merged. A node mentions
  the nearest CANON_ hub of its type that clears the threshold; otherwise it
  waits, unattached, until ``hub_size`` unattached nodes lie within the
  threshold of each other's newcomer, which then founds a hub (its text is the
  hub's representative text and its vector the hub's vector) that all of them
  mention. Each mention carries an edge annotation whose confidence is the
  cosine similarity.
- never: structural nodes are left alone.

A paper is canonicalized in one SPARQL UPDATE request (merges, mentions, hubs,
member counts, audit activities), so readers never see half of it. A paper
counts as covered once its audit graph holds a ``canonicalize`` activity; the
sidecar indexes exactly the covered papers and is rebuilt from the store when
its fingerprint does not match.
"""

from __future__ import annotations

import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.canonical.embeddings import Embedder, make_embedder
from claimgraph.canonical.plan import CanonicalizeSummary, Link, Merge, Plan
from claimgraph.canonical.settings import CanonicalizeError, CanonicalizeSettings, load_settings
from claimgraph.canonical.sidecar import EmbeddingCache, Sidecar, SidecarError, default_sidecar_dir
from claimgraph.canonical.state import HubRow, NodeRow, StoreState, node_rows, read_store_state
from claimgraph.canonical.writes import hub_triples, mention_triples
from claimgraph.context import Context
from claimgraph.papers.audit import Activity, activity_triples, next_sequence, now
from claimgraph.papers.document_graph import stored_paper_ids
from claimgraph.profile.ontology import merge_policy
from claimgraph.rdf.binding import bind
from claimgraph.rdf.iris import content_hash
from claimgraph.rdf.queries import join_updates, read_sparql
from claimgraph.rdf.vocab import CG, XSD, local_name
from claimgraph.store.base import insert_data_update

# ---------------------------------------------------------------- the canonicalizer


class Canonicalizer:
    """Holds an open, verified sidecar for one store; canonicalizes papers one at a time.

    ``seconds`` splits the time spent into embed / ann / sparql / other.
    """

    def __init__(
        self,
        ctx: Context,
        *,
        sidecar_dir: Path | None = None,
        embedder: Embedder | None = None,
        settings: CanonicalizeSettings | None = None,
        rebuild: bool = False,
    ) -> None:
        self.store = ctx.store
        self.iris = ctx.iris
        self.profile = ctx.profile
        self.settings = settings or load_settings(self.profile)
        self.policies = merge_policy(self.profile)
        self.embedder = embedder or make_embedder(os.environ.get("CLAIMGRAPH_EMBEDDER") or self.settings.embedder)
        self.directory = sidecar_dir if sidecar_dir is not None else default_sidecar_dir(ctx.store.location)
        self.cache = EmbeddingCache(self.embedder, self.directory)
        self.summary = CanonicalizeSummary()
        self._merge_rewrite = read_sparql("merge", "rewrite-iri.ru")
        self._add_members = read_sparql("merge", "add-hub-members.ru")
        self.sidecar = self._open(force_rebuild=rebuild)

    @contextmanager
    def timed(self, part: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.summary.seconds[part] += time.perf_counter() - started

    # ------------------------------------------------------------ open / rebuild / save

    def _open(self, force_rebuild: bool) -> Sidecar:
        with self.timed("sparql"):
            state = read_store_state(self.store, self.iris, self.policies)
        if self.directory is None:
            self.summary.rebuilt = "in-memory store: the sidecar is not persisted"
            return self.build(state)
        if force_rebuild:
            self.summary.rebuilt = "rebuild requested"
            return self.build(state)
        try:
            sidecar = Sidecar.load(self.directory, self.embedder.name, self.embedder.dimension)
            if sidecar.fingerprint != state.fingerprint:
                raise SidecarError("stale: the store changed since the sidecar was written")
            return sidecar
        except SidecarError as error:
            self.summary.rebuilt = str(error)
            return self.build(state)

    def build(self, state: StoreState) -> Sidecar:
        """A sidecar derived from the store alone (the same one incremental runs arrive at)."""
        sidecar = Sidecar(self.directory, self.embedder.name, self.embedder.dimension)
        sidecar.covered = set(state.covered)
        sidecar.fingerprint = state.fingerprint
        with self.timed("embed"):
            vectors = self.cache.embed([row.text for row in state.rows] + [hub.text for hub in state.hubs])
        merged: dict[tuple[str, str], list] = {}
        pending: dict[str, list] = defaultdict(list)
        for row, vector in zip(state.rows, vectors):
            if self.policies[row.type] == "aggressive":
                weight = self._weight(row.confidence)
                entry = merged.setdefault((row.type, row.node.value), [np.zeros_like(vector, dtype=np.float64), 0.0, []])
                entry[0] += weight * vector
                entry[1] += weight
                entry[2].append(row.graph.value)
            elif row.hub is None:
                pending[row.type].append((row.node.value, vector, row.graph.value))
        with self.timed("ann"):
            for (type_iri, iri), (total, weight, graphs) in sorted(merged.items()):
                sidecar.partition("merge", type_iri).add(iri, (total / weight).astype(np.float32), weight, graphs)
            for type_iri, items in sorted(pending.items()):
                sidecar.partition("pending", type_iri).add_many(
                    [iri for iri, _, _ in items], np.stack([v for _, v, _ in items]), [1.0] * len(items), [[g] for _, _, g in items])
            hub_vectors = vectors[len(state.rows):]
            for hub, vector in zip(state.hubs, hub_vectors):
                sidecar.partition("hub", hub.type).add(hub.hub.value, vector, 1.0)
        return sidecar

    def save(self) -> None:
        """Persist the sidecar with the fingerprint of the store as it is now, and the embedding cache."""
        with self.timed("sparql"):
            state = read_store_state(self.store, self.iris, self.policies)
        with self.timed("other"):
            self.sidecar.covered = set(state.covered)
            self.sidecar.save(state.fingerprint)
            self.cache.save()
        self.summary.embedded = self.cache.computed

    # ------------------------------------------------------------ one paper

    def canonicalize_paper(self, paper_id: str, force: bool = False) -> Plan:
        """Place every node of the paper (merge, mention a hub, found a hub, or wait) and write it all at once."""
        graph = self.iris.paper(paper_id)
        plan = Plan(graph)
        if graph.value in self.sidecar.covered and not force:
            plan.skipped = True
            self.summary.add(paper_id, plan)
            return plan
        with self.timed("sparql"):
            if not self.store.ask("ASK WHERE { GRAPH ?g { ?g a ?paperClass } }", {"g": graph, "paperClass": CG.Paper}):
                raise CanonicalizeError(f"paper {paper_id} is not in the store ({graph.value}); ingest it first")
            rows = [row for row in node_rows(self.store, self.iris, graph) if self._needs_placing(row)]
        with self.timed("embed"):
            vectors = self.cache.embed([row.text for row in rows])
        with self.timed("ann"):
            for row, vector in zip(rows, vectors):
                if self.policies[row.type] == "aggressive":
                    self._place_aggressive(row, vector, plan)
                else:
                    self._place_cautious(row, vector, plan)
        plan.nodes = len(rows)
        plan.unattached = sum(1 for row in rows if self.sidecar.has("pending", row.type, row.node.value))
        with self.timed("sparql"):
            self._write(paper_id, plan)
        self.sidecar.covered.add(graph.value)
        self.summary.add(paper_id, plan)
        return plan

    def _weight(self, confidence: float | None) -> float:
        value = self.settings.default_confidence if confidence is None else confidence
        return max(value, 1e-6)

    def _needs_placing(self, row: NodeRow) -> bool:
        policy = self.policies.get(row.type, "never")
        if policy == "never" or row.hub is not None:
            return False
        return not self.sidecar.has("merge" if policy == "aggressive" else "pending", row.type, row.node.value)

    def _place_aggressive(self, row: NodeRow, vector: np.ndarray, plan: Plan) -> None:
        partition = self.sidecar.partition("merge", row.type)
        weight = self._weight(row.confidence)
        threshold = self.settings.threshold(row.type)
        for hit in partition.search(vector, self.settings.candidates, self.settings.ef_search):
            if hit.similarity < threshold:
                break
            if hit.iri == row.node.value or row.graph.value in partition.graphs_of(hit.iri):
                continue  # only cross-paper merges: in-paper duplicates are repair's job
            other_weight, other_graphs = partition.weight(hit.iri), partition.graphs_of(hit.iri)
            average = (other_weight * partition.vector(hit.iri) + weight * vector) / (other_weight + weight)
            if weight > other_weight:
                merge = Merge(hit.iri, row.node.value, row.type, hit.similarity, other_graphs)
            else:
                merge = Merge(row.node.value, hit.iri, row.type, hit.similarity, (row.graph.value,))
            partition.retire(hit.iri)
            partition.add(merge.survivor, average.astype(np.float32), other_weight + weight, other_graphs + (row.graph.value,))
            plan.merges.append(merge)
            return
        partition.add(row.node.value, vector, weight, [row.graph.value])

    def _place_cautious(self, row: NodeRow, vector: np.ndarray, plan: Plan) -> None:
        threshold = self.settings.threshold(row.type)
        hubs = self.sidecar.search("hub", row.type, vector, 1, self.settings.ef_search)
        if hubs and hubs[0].similarity >= threshold:
            plan.links.append(Link(row.node, row.graph, NamedNode(hubs[0].iri), hubs[0].similarity))
            return
        pending = self.sidecar.partition("pending", row.type)
        peers = [hit for hit in pending.search(vector, self.settings.candidates, self.settings.ef_search)
                 if hit.similarity >= threshold and hit.iri != row.node.value]
        if len(peers) + 1 < self.settings.hub_size:
            pending.add(row.node.value, vector, 1.0, [row.graph.value])
            return
        hub = self.iris.canonical_node(local_name(row.type), content_hash(row.node.value))
        if not self.sidecar.has("hub", row.type, hub.value):
            plan.new_hubs.append(HubRow(hub, row.type, row.text))
            self.sidecar.partition("hub", row.type).add(hub.value, vector, 1.0)
        plan.links.append(Link(row.node, row.graph, hub, 1.0))
        for peer in peers:
            plan.links.append(Link(NamedNode(peer.iri), NamedNode(pending.graphs_of(peer.iri)[0]), hub, peer.similarity))
            pending.retire(peer.iri)

    # ------------------------------------------------------------ writing

    def _write(self, paper_id: str, plan: Plan) -> None:
        """Merges, mentions, new hubs, member counts and audit activities in one UPDATE request."""
        operations = [bind(self._merge_rewrite, {"old": NamedNode(m.retired), "new": NamedNode(m.survivor)}) for m in plan.merges]
        data: dict[NamedNode, list[Triple]] = defaultdict(list)
        for link in plan.links:
            data[link.graph].extend(mention_triples(self.iris, link))
        canonical = self.iris.canonical_graph()
        for hub in plan.new_hubs:
            data[canonical].extend(hub_triples(hub))
        for audit_graph, triples in self._audit(paper_id, plan).items():
            data[audit_graph].extend(triples)
        operations.append(insert_data_update(data))
        added = Counter(link.hub for link in plan.links)
        for hub, count in sorted(added.items(), key=lambda item: item[0].value):
            operations.append(bind(self._add_members, {"hub": hub, "added": Literal(str(count), datatype=XSD.integer), "canonical": canonical}))
        self.store.update(join_updates(operations))

    def _audit(self, paper_id: str, plan: Plan) -> dict[NamedNode, list[Triple]]:
        """Activities: canonicalize (this paper), merge (each paper whose graph was rewritten),
        link (other papers whose nodes founded a hub with this paper's node)."""
        ended = now()
        activities: dict[str, list[Activity]] = defaultdict(list)
        touched = list(dict.fromkeys([link.hub for link in plan.links] + [NamedNode(m.survivor) for m in plan.merges]))
        activities[paper_id].append(Activity(
            "canonicalize", f"canonicalize ({self.profile.name})",
            {"nodes": plan.nodes, "merged": len(plan.merges), "linked": len(plan.links),
             "hubs_created": len(plan.new_hubs), "unattached": plan.unattached},
            touched, {"embedder": self.embedder.name}, ended=ended))
        for merge in plan.merges:
            for graph in merge.graphs:
                other = self.iris.paper_id_of(NamedNode(graph))
                if other is not None:
                    activities[other].append(Activity(
                        "merge", f"merge {local_name(merge.type)}", {"papers": len(merge.graphs) + 1},
                        [NamedNode(merge.retired), NamedNode(merge.survivor)],
                        {"retired": merge.retired, "survivor": merge.survivor, "type": merge.type,
                         "similarity": f"{merge.similarity:.4f}"}, ended=ended))
        others: dict[str, list[NamedNode]] = defaultdict(list)
        for link in plan.links:
            if link.graph != plan.graph:
                others[self.iris.paper_id_of(link.graph) or ""].append(link.hub)
        for other, hubs in others.items():
            if other:
                activities[other].append(Activity("link", "link to CANON_ hubs", {"linked": len(hubs)}, hubs, ended=ended))
        triples: dict[NamedNode, list[Triple]] = {}
        for paper, items in activities.items():
            start = next_sequence(self.store, self.iris, paper)
            triples[self.iris.audit_graph(paper)] = [
                triple for offset, activity in enumerate(items) for triple in activity_triples(self.iris, paper, start + offset, activity)]
        return triples


# ---------------------------------------------------------------- entry points


def canonicalize_papers(
    ctx: Context,
    paper_ids: Sequence[str] | None = None,
    *,
    sidecar_dir: Path | None = None,
    embedder: Embedder | None = None,
    settings: CanonicalizeSettings | None = None,
    force: bool = False,
    on_paper: Callable[[str, Plan], None] | None = None,
) -> CanonicalizeSummary:
    """Canonicalize the given papers (default: every stored paper not yet covered), then save the sidecar.

    ``sidecar_dir`` defaults to the folder next to the store (see
    ``default_sidecar_dir``); ``embedder`` to the profile's ``[canonicalize] embedder``.
    """
    canonicalizer = Canonicalizer(ctx, sidecar_dir=sidecar_dir, embedder=embedder, settings=settings)
    ids = list(paper_ids) if paper_ids is not None else stored_paper_ids(ctx.store, ctx.iris)
    for paper_id in ids:
        plan = canonicalizer.canonicalize_paper(paper_id, force)
        if on_paper:
            on_paper(paper_id, plan)
    canonicalizer.save()
    return canonicalizer.summary


@dataclass(frozen=True)
class ReindexSummary:
    directory: Path | None
    covered: int
    partitions: dict[str, int]
    embedded: int
    reason: str | None


def reindex(
    ctx: Context,
    *,
    sidecar_dir: Path | None = None,
    embedder: Embedder | None = None,
    settings: CanonicalizeSettings | None = None,
) -> ReindexSummary:
    """Rebuild the sidecar from the store alone and write it (the cached embeddings are reused)."""
    canonicalizer = Canonicalizer(ctx, sidecar_dir=sidecar_dir, embedder=embedder, settings=settings, rebuild=True)
    ctx.store.update(read_sparql("merge", "recount-hub-members.ru"), {"canonical": ctx.iris.canonical_graph()})
    canonicalizer.save()
    sizes = {name: len(partition) for name, partition in sorted(canonicalizer.sidecar.partitions.items())}
    return ReindexSummary(canonicalizer.directory, len(canonicalizer.sidecar.covered), sizes, canonicalizer.cache.computed, canonicalizer.summary.rebuilt)
