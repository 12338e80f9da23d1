"""Threshold-free scores of an embedder on labelled pairs (bench/canon_eval/compare_embedders.py)."""

from __future__ import annotations

import numpy as np
import pytest

from bench.canon_eval.build import Pair
from bench.canon_eval.compare_embedders import average_precision, best_at, ranked_points, score_set
from claimgraph.embedding.embedders import HashingEmbedder


def test_average_precision_follows_the_ranking() -> None:
    same = np.array([True, True, False, False])
    assert average_precision(same, np.array([0.9, 0.8, 0.7, 0.6])) == pytest.approx(1.0)
    # positives ranked 2nd and 4th: (1/2 + 2/4) / 2
    assert average_precision(same, np.array([0.8, 0.6, 0.9, 0.7])) == pytest.approx(0.5)


def test_ties_count_against_the_positives() -> None:
    same = np.array([True, False])
    assert average_precision(same, np.array([0.5, 0.5])) == pytest.approx(0.5)


def test_best_precision_is_taken_at_any_cosine_not_a_grid() -> None:
    same = np.array([True, True, True, False, True, False])
    cosine = np.array([0.991, 0.987, 0.983, 0.981, 0.979, 0.5])
    best = best_at(ranked_points(same, cosine), 0.75)
    assert best == {"threshold": pytest.approx(0.983), "precision": pytest.approx(1.0), "recall": pytest.approx(0.75)}
    assert best_at(ranked_points(same, cosine), 1.0)["precision"] == pytest.approx(0.8)


def test_guard_vetoes_cap_recall_whatever_the_vectors() -> None:
    pairs = [Pair("p1", "Warming speeds up soil respiration.", "Soil respiration is sped up by warming.", "Claim", "same", "paraphrase", "t"),
             Pair("p2", "Drought reduces maize yield.", "Drought does not reduce maize yield.", "Claim", "same", "paraphrase", "t"),
             Pair("n1", "Grazing increases soil carbon.", "Grazing decreases soil carbon.", "Claim", "different", "direction", "t")]
    texts = sorted({text for pair in pairs for text in (pair.a, pair.b)})
    vectors = dict(zip(texts, HashingEmbedder().embed(texts), strict=True))
    scores = score_set(pairs, vectors, (0.5, 1.0))
    assert (scores.pairs, scores.same, scores.guard_cap) == (3, 2, 0.5)
    assert scores.full_at_recall["1.00"] is None
    best = scores.full_at_recall["0.50"]
    assert best is not None and (best["precision"], best["recall"]) == (1.0, 0.5)
