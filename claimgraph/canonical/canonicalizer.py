"""Cross-paper canonicalization: the three-tier merge policy over a role-filtered FAISS sidecar,
written as links in the canonical graph so that paper graphs stay exactly as extracted and repaired.

Each node of a paper graph is treated by its class's ``cg:mergePolicy`` (read
from the ontology), through ``links.placement``:

- aggressive (Factor, Variable, ...): near-duplicates in *different* papers
  merge: each gets ``node skos:exactMatch <CANON_...>`` in the canonical graph,
  so queries that want one node per entity read the merged view
  (``sparql/queries/merged-view.rq``) and ``claimgraph unmerge`` can undo it;
- cautious (Viewpoint, Claim, Association, ...): a node mentions the nearest
  CANON_ hub of its type that clears the threshold and the guards
  (``node cg:mentions hub`` in the canonical graph); otherwise it waits,
  unattached, until ``hub_size`` compatible unattached nodes lie within the
  threshold, and then founds a hub that all of them mention;
- never: structural nodes are left alone.

Every link carries an edge annotation (confidence = cosine, provenance = the
member's paper graph). A paper is canonicalized in one SPARQL UPDATE request
(links, hubs, member counts, audit activities), so readers never see half of
it. A paper counts as covered once its audit graph holds a ``canonicalize``
activity; the sidecar indexes exactly the covered papers and is rebuilt from
the store when its fingerprint does not match. During a batch the embedding
cache is flushed chunk by chunk and the sidecar checkpointed after papers, so
a killed run resumes where it stopped.
"""

from __future__ import annotations

import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.canonical.index.embedding_cache import EmbeddingCache
from claimgraph.canonical.links.placement import Adjudicate, Placer, apart_pairs, judged_texts
from claimgraph.canonical.links.section import single_writer
from claimgraph.canonical.links.splits import SplitReport, heal_splits
from claimgraph.canonical.links.state import Fingerprint, NodeRow, StoreState, node_rows, paper_item, read_store_state
from claimgraph.canonical.links.writes import hub_triples, judged_apart_triples, link_triples
from claimgraph.canonical.plan import CanonicalizeSummary, Plan
from claimgraph.canonical.settings import CanonicalizeError, CanonicalizeSettings, load_settings
from claimgraph.canonical.sidecar import Sidecar, SidecarError, default_sidecar_dir
from claimgraph.context import Context
from claimgraph.embedding.base import Embedder
from claimgraph.embedding.embedders import make_embedder
from claimgraph.papers.audit import Activity, now, numbered_triples
from claimgraph.papers.document_graph import stored_paper_ids
from claimgraph.profile.ontology import merge_policy
from claimgraph.rdf.binding import bind
from claimgraph.rdf.queries import join_updates, read_internal_query, read_sparql
from claimgraph.rdf.vocab import CG, XSD
from claimgraph.store.base import insert_data_update

if TYPE_CHECKING:
    from claimgraph.progress import Progress
    from claimgraph.store.lease import Held


class _Silent:
    def start(self, step: str, total: int) -> None:
        """Nothing to show."""

    def advance(self, step: str, count: int = 1, item: str = "", error: str | None = None) -> None:
        """Nothing to show."""

    def finish(self, step: str) -> None:
        """Nothing to show."""


class Canonicalizer:
    """Holds an open, verified sidecar for one store; canonicalizes papers one at a time.

    ``seconds`` splits the time spent into embed / ann / sparql / other.
    """

    def __init__(self, ctx: Context, *, sidecar_dir: Path | None = None, embedder: Embedder | None = None,
                 settings: CanonicalizeSettings | None = None, rebuild: bool = False,
                 progress: Progress | None = None, adjudicate: Adjudicate | None = None, held: Held | None = None) -> None:
        self.store = ctx.store
        self.held = held  # the canonical graph's lease (links.section), checked before each write
        self.iris = ctx.iris
        self.profile = ctx.profile
        self.settings = settings or load_settings(self.profile)
        self.policies = merge_policy(self.profile)
        self.embedder = embedder or make_embedder(os.environ.get("CLAIMGRAPH_EMBEDDER") or self.settings.embedder)
        self.directory = sidecar_dir if sidecar_dir is not None else default_sidecar_dir(ctx.store.location)
        self.cache = EmbeddingCache(self.embedder, self.directory)
        self.progress: Progress = progress or _Silent()
        self.summary = CanonicalizeSummary()
        self._add_members = read_sparql("merge", "add-hub-members.ru")
        self.texts: dict[str, str] = {}
        self.exact: dict[tuple[str, str], str] = {}
        self.judged: dict[tuple[str, str, str], str] = {}
        self.apart: set[tuple[str, frozenset[str]]] = set()
        self.fingerprint = Fingerprint()
        self.sidecar = self._open(force_rebuild=rebuild)
        self.placer = Placer(self.sidecar, self.settings, self.policies, self.iris, self.texts, self.exact, adjudicate,
                             self.judged, self.apart)
        self._saved_at = time.monotonic()

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
            judged = self.store.select(read_internal_query("judged-links"), {"canonical": self.iris.canonical_graph()})
            different = self.store.select(read_internal_query("judged-different"), {"canonical": self.iris.canonical_graph()})
        self.fingerprint = Fingerprint([paper_item(p) for p in state.covered] + [r.item() for r in state.rows] + [h.item() for h in state.hubs])
        self._remember(state)
        self.judged.update(judged_texts(state.rows, [(row["member"].value, row["hub"].value, row["judge"].value) for row in judged]))
        self.apart.update(apart_pairs(state.rows, state.hubs, [(row["node"].value, row["other"].value) for row in different]))
        if self.directory is None:
            self.summary.rebuilt = "in-memory store: the sidecar is not persisted"
            return self.build(state)
        if force_rebuild:
            self.summary.rebuilt = "rebuild requested"
            return self.build(state)
        try:
            with self.timed("embed"):
                dimension = self.embedder.dimension  # may load the model
            with self.timed("other"):
                sidecar = Sidecar.load(self.directory, self.embedder.name, dimension)
            if sidecar.fingerprint != self.fingerprint.hex():
                raise SidecarError("stale: the store changed since the sidecar was written")
            return sidecar
        except SidecarError as error:
            self.summary.rebuilt = str(error)
            return self.build(state)

    def _remember(self, state: StoreState) -> None:
        """The texts the guards compare (hubs, unattached nodes) and the exact-text map, from the store."""
        for hub in state.hubs:
            self.texts[hub.hub.value] = hub.text
            self.exact.setdefault((hub.type, hub.text), hub.hub.value)
        for row in state.rows:
            if row.hub is not None:
                self.exact.setdefault((row.type, row.text), row.hub.value)
            elif row.apart is None:
                self.texts[row.node.value] = row.text

    def build(self, state: StoreState) -> Sidecar:
        """A sidecar derived from the store alone (the same one incremental runs arrive at)."""
        sidecar = Sidecar(self.directory, self.embedder.name, self.embedder.dimension)
        sidecar.covered = set(state.covered)
        sidecar.fingerprint = self.fingerprint.hex()
        pending = [row for row in state.rows if row.hub is None and row.apart is None]
        vectors = self.embed([row.text for row in pending] + [hub.text for hub in state.hubs])
        members: dict[str, set[str]] = defaultdict(set)
        for row in state.rows:
            if row.hub is not None:
                members[row.hub.value].add(row.graph.value)
        with self.timed("ann"):
            by_type: dict[str, list[tuple[NodeRow, np.ndarray]]] = defaultdict(list)
            for row, vector in zip(pending, vectors):
                by_type[row.type].append((row, vector))
            for type_iri, items in sorted(by_type.items()):
                sidecar.partition("pending", type_iri).add_many(
                    [row.node.value for row, _ in items], np.stack([v for _, v in items]), [[row.graph.value] for row, _ in items])
            for hub, vector in zip(state.hubs, vectors[len(pending):]):
                sidecar.partition("hub", hub.type).add(hub.hub.value, vector, sorted(members.get(hub.hub.value, ())))
        return sidecar

    def embed(self, texts: list[str]) -> np.ndarray:
        """Vectors of ``texts`` through the cache, reporting progress when there is something to embed."""
        todo = len(self.cache.missing(texts))
        with self.timed("embed"):
            if todo < 256:
                return self.cache.embed(texts)
            self.progress.start("embed", todo)
            try:
                return self.cache.embed(texts, on_chunk=lambda done: self.progress.advance("embed", done))
            finally:
                self.progress.finish("embed")

    def save(self) -> None:
        """Persist what changed in the sidecar and the embedding cache; the fingerprint is kept up to date, not re-read."""
        with self.timed("other"):
            self.sidecar.save(self.fingerprint.hex())
            self.cache.flush()
        self.summary.embedded = self.cache.computed
        self._saved_at = time.monotonic()

    def checkpoint(self, every_seconds: float) -> None:
        """Save when ``every_seconds`` have passed since the last save (0: every time)."""
        if time.monotonic() - self._saved_at >= every_seconds:
            self.save()

    # ------------------------------------------------------------ one paper

    def canonicalize_paper(self, paper_id: str, force: bool = False) -> Plan:
        """Place every node of the paper (merge, mention a hub, found a hub, or wait) and write it all at once."""
        graph = self.iris.paper(paper_id)
        plan = Plan(graph)
        covered = graph.value in self.sidecar.covered
        if covered and not force:
            plan.skipped = True
            self.summary.add(paper_id, plan)
            return plan
        with self.timed("sparql"):
            if not self.store.ask("ASK WHERE { GRAPH ?g { ?g a ?paperClass } }", {"g": graph, "paperClass": CG.Paper}):
                raise CanonicalizeError(f"paper {paper_id} is not in the store ({graph.value}); ingest it first")
            rows = [row for row in node_rows(self.store, self.iris, graph) if self.policies.get(row.type, "never") != "never"]
        todo = [row for row in rows if self._needs_placing(row, force)]
        for row in todo:  # with force, a node waiting in pending leaves it to be placed again
            if self.sidecar.has("pending", row.type, row.node.value):
                self.sidecar.partition("pending", row.type).retire(row.node.value)
        groups = self._exact_groups(todo)
        vectors = self.embed([group[0].text for group in groups])
        with self.timed("ann"):
            for group, vector in zip(groups, vectors):
                self.placer.place(group[0], vector, plan, group[1:])
        plan.nodes = len(todo)
        plan.unattached = sum(1 for row in todo if self.sidecar.has("pending", row.type, row.node.value))
        with self.timed("sparql"):
            self._write(paper_id, plan)
        self._account(graph, rows, covered, plan)
        self.sidecar.covered.add(graph.value)
        self.summary.add(paper_id, plan)
        return plan

    def _exact_groups(self, rows: list[NodeRow]) -> list[list[NodeRow]]:
        """Rows of a cautious type grouped by exact text (first occurrence first); aggressive rows alone,
        since two nodes of one paper never merge."""
        groups: dict[tuple[str, str], list[NodeRow]] = {}
        alone: list[list[NodeRow]] = []
        for row in rows:
            if self.policies.get(row.type) == "aggressive":
                alone.append([row])
            else:
                groups.setdefault((row.type, row.text), []).append(row)
        return alone + list(groups.values())

    def _needs_placing(self, row: NodeRow, force: bool = False) -> bool:
        """Whether ``row`` is placed in this run: a node neither linked nor held apart that no run placed yet, or
        with ``force`` one waiting in ``pending`` too (a node released from its verdicts waits there until a
        forced run searches for it)."""
        if row.hub is not None or row.apart is not None:
            return False
        return force or not self.sidecar.has("pending", row.type, row.node.value)

    def _account(self, graph: NamedNode, rows: list[NodeRow], covered: bool, plan: Plan) -> None:
        """Bring the fingerprint up to date with what the paper's placement wrote."""
        linked = {(link.node.value, link.type): link.hub.value for link in plan.links}
        if not covered:
            self.fingerprint.add(paper_item(graph.value))
        own = set()
        for row in rows:
            own.add((row.node.value, row.type))
            if covered:
                self.fingerprint.remove(row.item())
            self.fingerprint.add(row.item(linked.get((row.node.value, row.type), row.status)))
        for link in plan.links:
            if (link.node.value, link.type) not in own:
                row = NodeRow(link.graph, link.node, link.type, link.text)
                self.fingerprint.remove(row.item(""))
                self.fingerprint.add(row.item(link.hub.value))
        for hub in plan.new_hubs:
            self.fingerprint.add(hub.item())

    # ------------------------------------------------------------ writing

    def _write(self, paper_id: str, plan: Plan) -> None:
        """Links, new hubs, member counts and audit activities in one UPDATE request."""
        canonical = self.iris.canonical_graph()
        data: dict[NamedNode, list[Triple]] = defaultdict(list)
        for hub in plan.new_hubs:
            data[canonical].extend(hub_triples(hub))
        for link in plan.links:
            data[canonical].extend(link_triples(self.iris, link))
        for verdict in plan.judged_apart:
            data[canonical].extend(judged_apart_triples(self.iris, verdict))
        for audit_graph, triples in self._audit(paper_id, plan).items():
            data[audit_graph].extend(triples)
        operations = [insert_data_update(data)]
        if self.held is not None:
            self.held.check()
        added = Counter(link.hub for link in plan.links)
        for hub_iri, count in sorted(added.items(), key=lambda item: item[0].value):
            operations.append(bind(self._add_members, {"hub": hub_iri, "added": Literal(str(count), datatype=XSD.integer), "canonical": canonical}))
        self.store.update(join_updates(operations))

    def _audit(self, paper_id: str, plan: Plan) -> dict[NamedNode, list[Triple]]:
        """Activities: canonicalize (this paper); link or merge (other papers whose unattached nodes joined a hub here)."""
        ended = now()
        activities: dict[str, list[Activity]] = defaultdict(list)
        touched = list(dict.fromkeys(link.hub for link in plan.links))
        activities[paper_id].append(Activity(
            "canonicalize", f"canonicalize ({self.profile.name})",
            {"nodes": plan.nodes, "merged": len(plan.merges), "linked": len(plan.links) - len(plan.merges),
             "hubs_created": len(plan.new_hubs), "unattached": plan.unattached, "exact_text": plan.exact,
             "guard_vetoes": plan.guard_vetoes, "adjudicated_same": plan.adjudicated["same"],
             "adjudicated_different": plan.adjudicated["different"]},
            touched, {"embedder": self.embedder.name, "guards": "on" if self.settings.guards else "off",
                      **({"judge": self.placer.adjudicate.name} if self.placer.adjudicate else {})}, ended=ended))
        others: dict[tuple[str, str], list[NamedNode]] = defaultdict(list)
        for link in plan.links:
            other = self.iris.paper_id_of(link.graph)
            if link.graph != plan.graph and other:
                others[(other, "merge" if link.policy == "aggressive" else "link")].append(link.hub)
        for (other, kind), hubs in sorted(others.items()):
            name = "merged into CANON_ nodes" if kind == "merge" else "link to CANON_ hubs"
            activities[other].append(Activity(kind, name, {"linked": len(hubs)}, list(dict.fromkeys(hubs)), ended=ended))
        return numbered_triples(self.store, self.iris, activities)


    # ------------------------------------------------------------ a batch

    def prepare(self, paper_ids: list[str]) -> None:
        """Embed, in one pass with progress, the texts of the papers about to be placed (cached ones are skipped)."""
        texts: list[str] = []
        with self.timed("sparql"):
            for paper_id in paper_ids:
                if self.iris.paper(paper_id).value not in self.sidecar.covered:
                    texts.extend(row.text for row in node_rows(self.store, self.iris, self.iris.paper(paper_id))
                                 if self.policies.get(row.type, "never") != "never" and self._needs_placing(row))
        self.embed(texts)


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
    progress: Progress | None = None,
    adjudicate: Adjudicate | None = None,
    checkpoint_seconds: float = 30.0,
) -> CanonicalizeSummary:
    """Canonicalize the given papers (default: every stored paper not yet covered), then save the sidecar.

    ``sidecar_dir`` defaults to the folder next to the store (see
    ``default_sidecar_dir``); ``embedder`` to the profile's ``[canonicalize] embedder``.
    The sidecar is checkpointed after a paper once ``checkpoint_seconds`` have passed
    since the last save, so a killed run loses at most that much work.
    """
    with single_writer(ctx) as held:
        canonicalizer = Canonicalizer(ctx, sidecar_dir=sidecar_dir, embedder=embedder, settings=settings,
                                      progress=progress, adjudicate=adjudicate, held=held)
        ids = list(paper_ids) if paper_ids is not None else stored_paper_ids(ctx.store, ctx.iris)
        canonicalizer.prepare(ids)
        for paper_id in ids:
            plan = canonicalizer.canonicalize_paper(paper_id, force)
            if not plan.skipped:
                canonicalizer.checkpoint(checkpoint_seconds)
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
    splits: SplitReport


def reindex(
    ctx: Context,
    *,
    sidecar_dir: Path | None = None,
    embedder: Embedder | None = None,
    settings: CanonicalizeSettings | None = None,
    progress: Progress | None = None,
) -> ReindexSummary:
    """Repair the canonical graph (drop links whose member is gone, recount members, remove empty hubs, give a
    basis to links written before bases were recorded), then rebuild the sidecar from the store alone and write
    it (the cached embeddings are reused)."""
    canonical = {"canonical": ctx.iris.canonical_graph()}
    with single_writer(ctx) as held:
        healed = heal_splits(ctx, held)
        ctx.store.update(join_updates([bind(read_sparql("merge", name), canonical)
                                       for name in ("recount-hub-members.ru", "remove-empty-hubs.ru", "fill-link-bases.ru")]))
        canonicalizer = Canonicalizer(ctx, sidecar_dir=sidecar_dir, embedder=embedder, settings=settings, rebuild=True,
                                      progress=progress, held=held)
        canonicalizer.save()
    sizes = {name: len(partition) for name, partition in sorted(canonicalizer.sidecar.partitions.items())}
    return ReindexSummary(canonicalizer.directory, len(canonicalizer.sidecar.covered), sizes, canonicalizer.cache.computed,
                          canonicalizer.summary.rebuilt, healed)
