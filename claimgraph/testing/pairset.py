"""A labelled pair set from ARCHE documents, and merge precision/recall of a canonicalized store.

Positives: two viewpoints with the identical text stated in different sentences
or papers (the same cited abstract, quoted again). Negatives: two different
viewpoints of the same reference cited by the same sentence (related, often
similar, but distinct claims). A pair is predicted "same" when both nodes
mention the same CANON_ hub, or are the same node after a merge.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from pyoxigraph import NamedNode

from claimgraph.loaders.document import Document
from claimgraph.papers.document_graph import viewpoint_iri
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_internal_query
from claimgraph.store import Store


@dataclass(frozen=True)
class LabelledPair:
    a: NamedNode
    b: NamedNode
    same: bool


def arche_pairs(documents: Iterable[Document], iris: IriScheme) -> list[LabelledPair]:
    """Positive and negative viewpoint pairs of the documents (see the module docstring)."""
    by_text: dict[str, list[tuple[str, int, NamedNode]]] = defaultdict(list)
    by_citation: dict[tuple[str, int, int], list[tuple[int, str, NamedNode]]] = defaultdict(list)
    for document in documents:
        for viewpoint in document.viewpoints:
            node = viewpoint_iri(iris, document.paper_id, viewpoint)
            by_text[viewpoint.text].append((document.paper_id, viewpoint.sentence_index, node))
            if viewpoint.reference_index:
                key = (document.paper_id, viewpoint.sentence_index, viewpoint.reference_index)
                by_citation[key].append((viewpoint.viewpoint_index, viewpoint.text, node))
    pairs: list[LabelledPair] = []
    for occurrences in by_text.values():
        first_paper, first_sentence, first = occurrences[0]
        pairs += [LabelledPair(first, node, True) for paper, sentence, node in occurrences[1:]
                  if (paper, sentence) != (first_paper, first_sentence)]
    for viewpoints in by_citation.values():
        ordered = sorted(viewpoints, key=lambda item: item[0])
        pairs += [LabelledPair(a[2], b[2], False) for a, b in pairwise(ordered) if a[1] != b[1]]
    return pairs


@dataclass(frozen=True)
class PairScores:
    positives: int
    negatives: int
    true_positives: int
    false_positives: int

    @property
    def precision(self) -> float:
        predicted = self.true_positives + self.false_positives
        return self.true_positives / predicted if predicted else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.positives if self.positives else 1.0


def hub_membership(store: Store, iris: IriScheme) -> dict[str, set[str]]:
    """Node IRI -> the CANON_ hubs it mentions, read from the store."""
    members: dict[str, set[str]] = defaultdict(set)
    for row in store.select(read_internal_query("canonical-nodes"), {"canonical": iris.canonical_graph()}):
        if "hub" in row:
            members[row["node"].value].add(row["hub"].value)
    return members


def score_pairs(pairs: Sequence[LabelledPair], members: dict[str, set[str]]) -> PairScores:
    """Precision and recall of "same hub (or same node)" as the prediction of a pair's label."""
    def predicted(pair: LabelledPair) -> bool:
        return pair.a == pair.b or bool(members.get(pair.a.value, set()) & members.get(pair.b.value, set()))

    positives = [pair for pair in pairs if pair.same]
    negatives = [pair for pair in pairs if not pair.same]
    return PairScores(len(positives), len(negatives), sum(map(predicted, positives)), sum(map(predicted, negatives)))
