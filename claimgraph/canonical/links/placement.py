"""Where one node goes: an existing CANON_ node, a new one founded with its unattached peers, or the
pending partition, under the merge policy, the cosine threshold, the guards and (optionally) an LLM.

The same steps serve both policies; they differ in the link they write
(aggressive: ``skos:exactMatch``, a merge; cautious: ``cg:mentions``). Either
joins nodes of one paper only by exact text (duplicates inside one paper are the
repair step's job); a profile may let cautious nodes of one paper share a hub by
cosine (``join_within_paper``). Every hub keeps the papers of its members.

1. Exact text: a node whose text is byte-identical to a text already in a hub of
   its type joins that hub without an ANN search; within one paper, nodes of a
   cautious type with the same text are placed as one group (one search, and the
   others follow: into the same hub, or founding one together).
2. Hubs: the nearest hubs of the type, best first; the first at or above the
   threshold whose representative text the guards find compatible wins, so a
   guard veto gives the next candidate its chance.
3. Pending peers: the node's unattached neighbours at or above the threshold that
   the guards accept against the node's text. With ``hub_size - 1`` of them the node
   founds a hub: its text is the hub's text and its vector the hub's fixed vector
   (never an average, so a hub cannot drift); otherwise it waits in ``pending``.

With a judge (an LLM adjudicator, or a pair model) and a band [low, high) for
the type, candidates from ``low`` up that the vetoing guards pass are accepted at
``high`` or above and put to the judge below it.

Every link records its basis: ``cg:exactText`` (the member's text is the hub's own
text, byte for byte), ``cg:similarity`` (cosine at or above the threshold, no guard
objecting, no judge asked) or ``cg:judged`` (a judge answered SAME; its name goes
with the link). A text that joins through the exact-text map takes ``cg:exactText``
only when it is the hub's own text; otherwise it is as good as the link that brought
that text in: ``cg:judged`` (with the same judge) when a judge found that very text
the same as the hub's, in this run or an earlier one, else ``cg:similarity``. The same verdict
holds when the ANN search, not the map, brings a copy to that hub (the map may name another hub
that the copy cannot join, a merge hub holding its paper already): it is not asked again. Only
the first and the last are decisions a reader can check; a link by similarity is a candidate
(docs/canonicalization.md gives its measured precision, and ``links/recheck.py``
puts such links to a judge later).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from typing import Protocol

import numpy as np
from pyoxigraph import NamedNode

from claimgraph.canonical.guards.check import check_pair
from claimgraph.canonical.links.state import HubRow, NodeRow
from claimgraph.canonical.links.writes import LINK_PREDICATES
from claimgraph.canonical.plan import JudgedApart, Link, Plan
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.canonical.sidecar import Sidecar
from claimgraph.embedding.base import normalize_rows
from claimgraph.rdf.iris import IriScheme, content_hash
from claimgraph.rdf.vocab import CG, local_name


class Adjudicate(Protocol):
    """A judge of the band: an LLM adjudicator or a pair model."""

    @property
    def name(self) -> str:
        """What judged, for the audit trail (``llm:MODEL``, ``pair-model:FOLDER``)."""

    def __call__(self, a: str, b: str, type_name: str, /) -> bool:
        """Whether texts ``a`` and ``b`` of the class ``type_name`` (a local name) state the same thing."""

    def verdict(self, a: str, b: str, type_name: str, /) -> bool | None:
        """SAME (True), DIFFERENT (False), or None when the judge could not answer (a failed call, an unclear reply)."""


def apart_pairs(rows: Sequence[NodeRow], hubs: Iterable[HubRow],
                different: Iterable[tuple[str, str]] = ()) -> set[tuple[str, frozenset[str]]]:
    """The text pairs that verdicts keep apart, per type:

    - each held-apart node's text and its hub's text, and the texts of nodes held apart from one hub,
      pairwise (a dissolved hub's members, whose hub text is gone with it);
    - each (node, other) a judge found ``different`` while placing: the node's text and the other's (a hub's
      text, or an unattached node's), when both are still known.

    Identical texts are never paired: the same words are not a verdict's subject."""
    hub_texts = {hub.hub.value: hub.text for hub in hubs}
    held: dict[tuple[str, str], set[str]] = {}
    for row in rows:
        if row.apart is not None:
            held.setdefault((row.type, row.apart.value), set()).add(row.text)
    pairs: set[tuple[str, frozenset[str]]] = set()
    for (type_iri, hub), texts in held.items():
        group = texts | ({hub_texts[hub]} if hub in hub_texts else set())
        pairs.update((type_iri, frozenset((a, b))) for a in group for b in group if a < b)
    node_texts = {row.node.value: row.text for row in rows}
    node_types = {row.node.value: row.type for row in rows}
    for node, other in different:
        text, other_text = node_texts.get(node), hub_texts.get(other, node_texts.get(other))
        if text is not None and other_text is not None and text != other_text:
            pairs.add((node_types[node], frozenset((text, other_text))))
    return pairs


def judged_texts(rows: Sequence[NodeRow], judged: Iterable[tuple[str, str, str]]) -> dict[tuple[str, str, str], str]:
    """(type, text, hub) -> judge, for each (member, hub, judge) link a judge decided whose member is in ``rows``."""
    by_node = {row.node.value: row for row in rows}
    texts: dict[tuple[str, str, str], str] = {}
    for member, hub, judge in judged:
        row = by_node.get(member)
        if row is not None:
            texts.setdefault((row.type, row.text, hub), judge)
    return texts


class Placer:
    """Places nodes into the sidecar's partitions and records the links in a Plan.

    ``texts`` maps every hub and pending IRI to its text (the guards read them);
    ``exact`` maps (type, text) to the hub that already holds that exact text;
    ``judged`` maps (type, text, hub) to the judge that found the text the same as the hub's;
    ``apart`` holds (type, {text, text}) pairs that a verdict keeps apart (an unmerge, or a judge's
    DIFFERENT on recheck: see ``apart_pairs``); texts so paired never meet by similarity, in a hub
    or as pending peers, whichever nodes carry them. A copy of a text still follows a copy that
    stayed in a hub (the exact-text map): the verdict was about one node.
    """

    def __init__(self, sidecar: Sidecar, settings: CanonicalizeSettings, policies: Mapping[str, str], iris: IriScheme,
                 texts: MutableMapping[str, str], exact: MutableMapping[tuple[str, str], str],
                 adjudicate: Adjudicate | None = None, judged: MutableMapping[tuple[str, str, str], str] | None = None,
                 apart: set[tuple[str, frozenset[str]]] | None = None) -> None:
        self.sidecar = sidecar
        self.settings = settings
        self.policies = policies
        self.iris = iris
        self.texts = texts
        self.exact = exact
        self.adjudicate = adjudicate
        self.judged = judged if judged is not None else {}
        self.apart = apart if apart is not None else set()

    def place(self, row: NodeRow, vector: np.ndarray, plan: Plan, duplicates: Sequence[NodeRow] = ()) -> None:
        """Place ``row``; ``duplicates`` (same type and text, same paper, cautious types only) follow it."""
        policy = self.policies[row.type]
        hub = self._exact_hub(row, policy)
        if hub is not None:
            basis, judge = self._same_text_basis(row.type, row.text, hub)
            similarity = 1.0 if basis == CG.exactText else self._cosine(vector, row.type, hub)
            for member in (row, *duplicates):
                plan.exact += 1
                self._link(member.node, member.graph, member.type, member.text, NamedNode(hub), similarity, policy, plan, basis,
                           judge)
            return
        linked = len(plan.links)
        self._search(row, vector, policy, plan, len(duplicates))
        if len(plan.links) > linked:
            own = plan.links[linked]  # the row's own link comes first, whether it joined or founded the hub
            for member in duplicates:
                plan.exact += 1
                self._link(member.node, member.graph, member.type, member.text, own.hub, 1.0, policy, plan, own.basis, own.judge)
        else:
            pending = self.sidecar.partition("pending", row.type)
            for member in duplicates:
                pending.add(member.node.value, vector, [member.graph.value])
                self.texts[member.node.value] = member.text

    def _search(self, row: NodeRow, vector: np.ndarray, policy: str, plan: Plan, duplicates: int) -> None:
        """Link ``row`` to a hub, found one with its peers (``duplicates`` more members to come), or leave it pending."""
        low, high = self._band(row.type)
        hubs = self.sidecar.partition("hub", row.type)
        for hit in hubs.search(vector, self.settings.candidates, self.settings.ef_search):
            if hit.similarity < low - 1e-9:
                break
            if (self._apart(policy) and row.graph.value in hubs.graphs_of(hit.iri)) or self._held_apart(row, hit.iri):
                continue
            judge = self.judged.get((row.type, row.text, hit.iri))  # a verdict on this very text and hub stands
            basis = CG.judged if judge is not None else self._accept(row, hit.iri, hit.similarity, high, plan)
            if basis is not None:
                self._link(row.node, row.graph, row.type, row.text, NamedNode(hit.iri), hit.similarity, policy, plan, basis, judge)
                return
        self._join_peers(row, vector, policy, low, high, plan, duplicates)

    def _exact_hub(self, row: NodeRow, policy: str) -> str | None:
        hub = self.exact.get((row.type, row.text))
        if hub is None or not self.sidecar.has("hub", row.type, hub):
            return None
        if policy == "aggressive" and row.graph.value in self.sidecar.partition("hub", row.type).graphs_of(hub):
            return None
        return hub

    def _held_apart(self, row: NodeRow, other: str) -> bool:
        """Whether a verdict keeps ``row``'s text apart from the text of ``other`` (a hub or a pending node)."""
        if not self.apart:
            return False
        text = self.texts.get(other)
        return text is not None and text != row.text and (row.type, frozenset((row.text, text))) in self.apart

    def _cosine(self, vector: np.ndarray, type_iri: str, hub: str) -> float:
        """The cosine of a vector and a hub's fixed vector (both unit length)."""
        return float(normalize_rows(vector)[0] @ self.sidecar.partition("hub", type_iri).vector(hub))

    def _same_text_basis(self, type_iri: str, text: str, hub: str) -> tuple[NamedNode, str | None]:
        """The basis (and judge) of a link by the exact-text map: cg:exactText when ``text`` is the hub's own text;
        cg:judged when a judge found this text the same as the hub's; else cg:similarity, since a text that a
        similarity link brought in is no closer to the hub than that link."""
        if self.texts.get(hub) == text:
            return CG.exactText, None
        judge = self.judged.get((type_iri, text, hub))
        return (CG.judged, judge) if judge is not None else (CG.similarity, None)

    def _apart(self, policy: str) -> bool:
        """Whether two nodes of one paper stay out of each other's hub unless their texts are the same."""
        return policy == "aggressive" or not self.settings.join_within_paper

    def _band(self, type_iri: str) -> tuple[float, float]:
        band = self.settings.band(type_iri) if self.adjudicate else None
        threshold = self.settings.threshold(type_iri)
        return band if band else (threshold, threshold)

    def _accept(self, row: NodeRow, other_iri: str, similarity: float, high: float, plan: Plan) -> NamedNode | None:
        """Whether ``row`` joins the candidate ``other_iri`` (a hub or a pending node) found above the low threshold,
        and on what basis (``cg:similarity``: cosine and the guards; ``cg:judged``: the judge said SAME): the
        vetoing guards first, then the judge in the band. A DIFFERENT is kept as a verdict (``plan.judged_apart``);
        an answer the judge could not give keeps the two apart in this run only."""
        text, other = row.text, self.texts[other_iri]
        if text == other:
            return CG.exactText
        if self.settings.guards and check_pair(text, other).fired() & self.settings.vetoes:
            plan.guard_vetoes += 1
            return None
        if similarity >= high - 1e-9 or self.adjudicate is None:
            return CG.similarity
        answer = self.adjudicate.verdict(text, other, local_name(row.type))
        plan.adjudicated["same" if answer else "different"] += 1
        if answer is False:
            plan.judged_apart.append(JudgedApart(row.node, row.graph, NamedNode(other_iri), self.adjudicate.name))
            self.apart.add((row.type, frozenset((text, other))))
        return CG.judged if answer else None

    def _join_peers(self, row: NodeRow, vector: np.ndarray, policy: str, low: float, high: float, plan: Plan,
                    duplicates: int) -> None:
        pending = self.sidecar.partition("pending", row.type)
        peers: list[tuple[str, str, float, NamedNode]] = []
        papers = {row.graph.value}
        for hit in pending.search(vector, self.settings.candidates, self.settings.ef_search):
            if hit.similarity < low - 1e-9:
                break
            graph = pending.graphs_of(hit.iri)[0]
            if hit.iri == row.node.value or (self._apart(policy) and graph in papers) or self._held_apart(row, hit.iri):
                continue
            basis = self._accept(row, hit.iri, hit.similarity, high, plan)
            if basis is not None:
                peers.append((hit.iri, graph, hit.similarity, basis))
                papers.add(graph)
        if len(peers) + 1 + duplicates < self.settings.hub_size:
            pending.add(row.node.value, vector, [row.graph.value])
            self.texts[row.node.value] = row.text
            return
        hub = self.iris.canonical_node(local_name(row.type), content_hash(row.node.value))
        self.sidecar.partition("hub", row.type).add(hub.value, vector, sorted(papers))
        self.texts[hub.value] = row.text
        plan.new_hubs.append(HubRow(hub, row.type, row.text))
        self._link(row.node, row.graph, row.type, row.text, hub, 1.0, policy, plan, CG.exactText)
        for iri, graph, similarity, basis in peers:
            pending.retire(iri)
            self._link(NamedNode(iri), NamedNode(graph), row.type, self.texts.pop(iri), hub, similarity, policy, plan, basis)

    def _link(self, node: NamedNode, graph: NamedNode, type_iri: str, text: str, hub: NamedNode, similarity: float,
              policy: str, plan: Plan, basis: NamedNode, judge: str | None = None) -> None:
        """Record the link; ``basis`` says how it was decided (cg:exactText for the hub's own text, the
        founder's, and exact duplicates); a judged link names ``judge``, by default this run's."""
        if basis == CG.judged and judge is None and self.adjudicate is not None:
            judge = self.adjudicate.name
        plan.links.append(Link(node, graph, hub, similarity, LINK_PREDICATES[policy], type_iri, text, policy, basis, judge))
        self.exact.setdefault((type_iri, text), hub.value)
        if basis == CG.judged and judge is not None:
            self.judged.setdefault((type_iri, text, hub.value), judge)
        hubs = self.sidecar.partition("hub", type_iri)
        if graph.value not in hubs.graphs_of(hub.value):
            hubs.add(hub.value, hubs.vector(hub.value), (*hubs.graphs_of(hub.value), graph.value))
