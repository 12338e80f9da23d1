"""What each choice of vetoes lets reach a judge (bench/canon_eval/veto_caps.py): counted from the guards'
own verdicts and the band, on pairs whose outcome the test knows."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from bench.canon_eval.build import Pair
from bench.canon_eval.veto_caps import caps, expected_scores, reach_judge, tolerated_false_same, veto_choices
from claimgraph.canonical.guards.check import GUARDS, check_pair
from claimgraph.canonical.settings import CanonicalizeSettings

BASE = "Warming increases soil respiration in boreal forests."
PAIRS = [
    Pair("v-1", BASE, "Soil respiration in boreal forests rises under warming.", "Claim", "same", "paraphrase", "test"),
    Pair("v-2", BASE, "Warming does not increase soil respiration in boreal forests.", "Claim", "different", "negation", "test"),
    # labelled same so that a guard stops a positive: a cap counts what the guards stop, right or wrong
    Pair("v-3", BASE, "Warming increases soil respiration in boreal forests by 40%.", "Claim", "same", "paraphrase", "test"),
    Pair("v-4", BASE, "Warming increases soil respiration.", "Factor", "same", "paraphrase", "test"),  # not a cautious type
]
SETTINGS = CanonicalizeSettings(thresholds={"Claim": 0.9}, adjudicate={"Claim": (0.5, 1.0)})


def test_a_pair_reaches_the_judge_only_in_the_band_and_past_the_vetoing_guards() -> None:
    pairs = PAIRS[:3]
    fired = [check_pair(p.a, p.b).fired() for p in pairs]
    assert "polarity" in fired[1] and "numbers" in fired[2]
    cosine = np.array([0.4, 0.9, 0.9])
    every = reach_judge(pairs, cosine, fired, SETTINGS)
    assert every.tolist() == [False, False, False]  # below the band; the polarity guard; the numbers guard
    only_polarity = reach_judge(pairs, cosine, fired, dataclasses.replace(SETTINGS, vetoes=frozenset({"polarity"})))
    assert only_polarity.tolist() == [False, False, True]
    assert reach_judge(pairs, cosine, fired, dataclasses.replace(SETTINGS, vetoes=frozenset())).tolist() == [False, True, True]


def test_caps_count_the_cautious_paraphrases_and_negatives_that_reach_the_judge() -> None:
    vectors = {text: np.array([1.0, 0.0]) for p in PAIRS for text in (p.a, p.b)}  # every cosine is 1: the band lets all in
    report = caps(PAIRS, vectors, SETTINGS, {"all": frozenset(GUARDS), "none": frozenset()})
    assert (report["pairs"], report["same"]) == (3, 2)  # the Factor pair is not a cautious type
    every, none = report["choices"]["all"], report["choices"]["none"]
    assert (every["paraphrases_reaching"], every["negatives_reaching"], every["recall_cap"]) == (1, 0, 0.5)
    assert (none["paraphrases_reaching"], none["negatives_reaching"], none["recall_cap"]) == (2, 1, 1.0)
    assert none["negatives_by_kind"] == {"negation": "1/1"} and every["negatives_by_kind"] == {"negation": "0/1"}
    assert none["judge_error"]["0.00"] == {"precision": 1.0, "recall": 1.0}


def test_the_expected_scores_and_the_tolerated_false_same_rate() -> None:
    assert expected_scores(90, 100, 100, 0.1) == pytest.approx({"precision": 81 / 91, "recall": 0.81})
    assert expected_scores(0, 0, 10, 0.05) == {"precision": None, "recall": 0.0}
    rate = tolerated_false_same(49, 10)
    assert rate == pytest.approx(0.1) and 49 / (49 + 10 * rate) == pytest.approx(0.98)
    assert tolerated_false_same(5, 0) is None


def test_the_choices_cover_the_default_the_cue_guards_none_and_each_guard_left_out() -> None:
    choices = veto_choices()
    assert choices["all"] == set(GUARDS) and choices["none"] == frozenset()
    assert {name for name in choices if name.startswith("all but ")} == {f"all but {name}" for name in GUARDS}
