"""Scores for the canonicalization evaluation: pair precision/recall curves, and a hub-formation
simulation scored by hub purity and B-cubed precision/recall.

A pair is predicted "same" by cosine alone when its cosine reaches the threshold, and by the
full policy (without LLM adjudication) when, in addition, the guards find the texts compatible.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import numpy as np

THRESHOLDS = tuple(round(0.80 + 0.01 * step, 2) for step in range(20))


@dataclass(frozen=True)
class Point:
    """Confusion counts at one threshold."""

    threshold: float
    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p is not None and r is not None and p + r else None

    @property
    def false_accept_rate(self) -> float | None:
        return self.fp / (self.fp + self.tn) if self.fp + self.tn else None

    def as_dict(self) -> dict[str, object]:
        return {**asdict(self), "precision": self.precision, "recall": self.recall, "f1": self.f1,
                "false_accept_rate": self.false_accept_rate}


def confusion(same: np.ndarray, predicted: np.ndarray, threshold: float = 0.0) -> Point:
    """The confusion counts of ``predicted`` against the labels ``same`` (two boolean arrays of one length)."""
    return Point(threshold, int(np.sum(predicted & same)), int(np.sum(predicted & ~same)),
                 int(np.sum(~predicted & same)), int(np.sum(~predicted & ~same)))


def curve(same: np.ndarray, cosine: np.ndarray, allowed: np.ndarray | None = None,
          thresholds: Sequence[float] = THRESHOLDS) -> list[Point]:
    """One point per threshold; ``allowed`` (the guards' verdicts) vetoes pairs when given."""
    points = []
    for threshold in thresholds:
        predicted = cosine >= threshold - 1e-9
        if allowed is not None:
            predicted &= allowed
        points.append(confusion(same, predicted, threshold))
    return points


def best_at_recall(points: Sequence[Point], minimum: float) -> Point | None:
    """The point of highest precision among those with recall >= minimum (higher recall breaks ties)."""
    eligible = [p for p in points if p.recall is not None and p.recall >= minimum and p.precision is not None]
    return max(eligible, key=lambda p: (p.precision, p.recall), default=None)


# ---------------------------------------------------------------- hub formation


def gold_clusters(texts: Sequence[str], positives: Sequence[tuple[str, str]]) -> list[int]:
    """Cluster id of each text: the connected components of the positive pairs (singletons elsewhere)."""
    parent = {text: text for text in texts}

    def root(text: str) -> str:
        while parent[text] != text:
            parent[text] = parent[parent[text]]
            text = parent[text]
        return text

    for a, b in positives:
        parent[root(a)] = root(b)
    ids: dict[str, int] = {}
    return [ids.setdefault(root(text), len(ids)) for text in texts]


def simulate_hubs(texts: Sequence[str], vectors: np.ndarray, threshold: float,
                  compatible: Callable[[str, str], bool] | None, seed: int) -> list[int]:
    """Greedy hub formation in a seeded arrival order, as the policy places a node: join the most
    similar hub at or above the threshold that the guards allow (the hub keeps its founder's
    vector and text), else found a new hub."""
    order = list(range(len(texts)))
    random.Random(seed).shuffle(order)
    hub_vectors = np.zeros((len(texts), vectors.shape[1]), dtype=np.float32)
    founders: list[int] = []
    assignment = [-1] * len(texts)
    for index in order:
        if founders:
            similarity = hub_vectors[:len(founders)] @ vectors[index]
            for hub in np.argsort(-similarity):
                if similarity[hub] < threshold - 1e-9:
                    break
                if compatible is None or compatible(texts[founders[hub]], texts[index]):
                    assignment[index] = int(hub)
                    break
        if assignment[index] < 0:
            assignment[index] = len(founders)
            hub_vectors[len(founders)] = vectors[index]
            founders.append(index)
    return assignment


@dataclass(frozen=True)
class HubScores:
    hubs: int             # hubs with two or more members (the ones the store would create)
    members: int          # texts in those hubs
    purity: float | None  # share of those members that belong to their hub's majority gold cluster
    wrong_members: int    # members outside their hub's majority gold cluster
    bcubed_precision: float
    bcubed_recall: float
    bcubed_f1: float


def score_hubs(predicted: Sequence[int], gold: Sequence[int]) -> HubScores:
    by_hub: dict[int, list[int]] = defaultdict(list)
    for index, hub in enumerate(predicted):
        by_hub[hub].append(index)
    multi = [members for members in by_hub.values() if len(members) > 1]
    members = sum(len(group) for group in multi)
    majority = sum(Counter(gold[i] for i in group).most_common(1)[0][1] for group in multi)
    gold_sizes = Counter(gold)
    joint = Counter(zip(predicted, gold))
    hub_sizes = Counter(predicted)
    precision = float(np.mean([joint[(predicted[i], gold[i])] / hub_sizes[predicted[i]] for i in range(len(gold))]))
    recall = float(np.mean([joint[(predicted[i], gold[i])] / gold_sizes[gold[i]] for i in range(len(gold))]))
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return HubScores(len(multi), members, majority / members if members else None, members - majority, precision, recall, f1)


def mean_scores(scores: Sequence[HubScores]) -> dict[str, float | None]:
    """The mean of each field over several arrival orders (purity over the orders that made hubs)."""
    result: dict[str, float | None] = {}
    for name in HubScores.__dataclass_fields__:
        values = [getattr(score, name) for score in scores if getattr(score, name) is not None]
        result[name] = float(np.mean(values)) if values else None
    return result


@dataclass(frozen=True)
class Agreement:
    """Two labellers' same/different labels on one list of pairs."""

    pairs: int
    both_same: int
    both_different: int
    only_first_same: int
    only_second_same: int

    @property
    def observed(self) -> float:
        return (self.both_same + self.both_different) / self.pairs

    @property
    def kappa(self) -> float | None:
        """Cohen's kappa: agreement beyond what the two labellers' rates of "same" give by chance."""
        first = (self.both_same + self.only_first_same) / self.pairs
        second = (self.both_same + self.only_second_same) / self.pairs
        chance = first * second + (1 - first) * (1 - second)
        return (self.observed - chance) / (1 - chance) if chance < 1 else None

    def as_dict(self) -> dict[str, object]:
        return {**asdict(self), "observed": self.observed, "kappa": self.kappa}


def agreement(first: Sequence[bool], second: Sequence[bool]) -> Agreement:
    """How two labellers' "same" labels (one bool per pair, in one order) agree."""
    if len(first) != len(second) or not first:
        raise ValueError("two non-empty label lists of one length are needed")
    pairs = list(zip(first, second, strict=True))
    return Agreement(len(pairs), pairs.count((True, True)), pairs.count((False, False)),
                     pairs.count((True, False)), pairs.count((False, True)))
