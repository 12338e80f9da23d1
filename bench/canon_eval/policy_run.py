"""The evaluation set run through the real canonicalizer: hub assignments as the product does them.

For each node type, every distinct text of the type's pairs becomes a node in
an in-memory store, and ``claimgraph.canonical.canonicalizer.Canonicalizer``
places them: guards (or not), candidate search over hubs, the pending stage,
``hub_size`` 2, fixed hub vectors, exact-text hubs. Every text goes in a paper
of its own, arriving in a seeded order: two nodes of one paper share a hub only
by exact text (``join_within_paper`` is off), and the pairs stand for
candidates across papers. Two texts are predicted "same" when they end up
linked to the same CANON_ node.

Vectors are the ones the benchmark already computed (``Precomputed``), so
every run is a placement run, not an embedding run.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from pyoxigraph import Literal, Triple

from claimgraph.canonical.canonicalizer import Canonicalizer
from claimgraph.canonical.links.placement import Adjudicate
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.context import Context
from claimgraph.profile.manifest import load_profile
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, DCTERMS, RDF
from claimgraph.store import EmbeddedStore


class Precomputed:
    """An embedder that returns vectors computed before (texts it was not given are an error)."""

    name = "precomputed"

    def __init__(self, vectors: dict[str, np.ndarray]) -> None:
        self.vectors = vectors
        self.dimension = len(next(iter(vectors.values())))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([self.vectors[text] for text in texts]).astype(np.float32)


@dataclass(frozen=True)
class Placement:
    """Which CANON_ node each text ended in (None: unattached), and what placing them took."""

    hub_of: dict[str, str | None]
    guard_vetoes: int
    exact: int
    adjudicated: int = 0


def _paper(iris: IriScheme, paper_id: str, type_name: str, number: int, text: str) -> list[Triple]:
    """A paper graph holding one node of ``type_name`` with ``text``."""
    graph, node = iris.paper(paper_id), iris.node(paper_id, "node", f"{number:06d}")
    return [Triple(graph, RDF.type, CG.Paper), Triple(graph, DCTERMS.identifier, Literal(paper_id)),
            Triple(node, RDF.type, CG[type_name]), Triple(node, CG.text, Literal(text))]


def place_texts(type_name: str, texts: Sequence[str], vectors: dict[str, np.ndarray], threshold: float,
                guards: bool, seed: int, band: tuple[float, float] | None = None,
                adjudicate: Adjudicate | None = None, vetoes: frozenset[str] | None = None) -> Placement:
    """Run the canonicalizer on ``texts`` (arriving in a seeded order) at one threshold, guards on or off;
    with ``band`` and ``adjudicate``, candidates in the band go to the judge as ``--adjudicate`` or
    ``--pair-model`` does; ``vetoes`` (default all) are the guards whose objection rejects."""
    profile = load_profile("discourse")
    order = list(texts)
    random.Random(seed).shuffle(order)
    iris = IriScheme()
    store = EmbeddedStore()
    papers: list[str] = []
    text_of: dict[str, str] = {}
    for number, text in enumerate(order):
        paper_id = f"eval-{number:06d}"
        store.replace_graph(iris.paper(paper_id), _paper(iris, paper_id, type_name, number, text))
        papers.append(paper_id)
        text_of[iris.node(paper_id, "node", f"{number:06d}").value] = text
    settings = CanonicalizeSettings(hub_size=2, candidates=10, ef_search=128, thresholds={type_name: threshold}, guards=guards,
                                    adjudicate={type_name: band} if band else {},
                                    **({"vetoes": vetoes} if vetoes is not None else {}))
    canonicalizer = Canonicalizer(Context(store, iris, profile), embedder=Precomputed(vectors), settings=settings,
                                  adjudicate=adjudicate if band else None)
    hub_of: dict[str, str | None] = dict.fromkeys(order)
    vetoes = exact = adjudicated = 0
    for paper_id in papers:
        plan = canonicalizer.canonicalize_paper(paper_id)
        vetoes += plan.guard_vetoes
        exact += plan.exact
        adjudicated += plan.adjudicated["same"] + plan.adjudicated["different"]
        hub_of.update({text_of[link.node.value]: link.hub.value for link in plan.links})
    store.close()
    return Placement(hub_of, vetoes, exact, adjudicated)


def predicted_same(placement: Placement, a: str, b: str) -> bool:
    hub = placement.hub_of.get(a)
    return hub is not None and hub == placement.hub_of.get(b)


def cluster_ids(placement: Placement, texts: Sequence[str]) -> list[int]:
    """A cluster id per text: its hub, or a cluster of its own when unattached."""
    ids: dict[object, int] = {}
    return [ids.setdefault(placement.hub_of[text] or f"alone:{index}", len(ids)) for index, text in enumerate(texts)]
