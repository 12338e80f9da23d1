"""The judge benchmark (bench/canon_eval/judge_eval.py) scores what the endpoint answered: a real
local HTTP server plays the judge, and the figures follow its answers, not the labels."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from bench.canon_eval.adjudication import SimulatedAdjudicatorRule, gold_oracle
from bench.canon_eval.build import Pair
from bench.canon_eval.judge_eval import POLICIES, judge_settings, measure, pairwise_policies
from claimgraph.canonical.guards.check import GUARDS
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.embedding.embedders import HashingEmbedder
from claimgraph.judge.pairs.adjudicate import LLMAdjudicator
from claimgraph.testing.fake_llm import error

BASE = "Warming increases soil respiration in boreal forests."
PAIRS = [
    Pair("t-1", BASE, "Soil respiration in boreal forests rises under warming.", "Claim", "same", "paraphrase", "test"),
    Pair("t-2", BASE, "Warming does not increase soil respiration in boreal forests.", "Claim", "different", "negation", "test"),
    Pair("t-3", BASE, "Warming increases soil respiration in boreal forests only in moist soil.", "Claim", "different", "scope",
         "test", "x / y (unsure)"),
    Pair("t-4", "Drought lowers tree growth.", "Tree growth is lowered by drought.", "Claim", "same", "paraphrase", "test"),
]
SETTINGS = CanonicalizeSettings(thresholds={"Claim": 0.9}, adjudicate={"Claim": (0.1, 1.0)})


@pytest.fixture
def vectors() -> dict[str, np.ndarray]:
    texts = sorted({t for p in PAIRS for t in (p.a, p.b)})
    return dict(zip(texts, HashingEmbedder().embed(texts)))


def _run(server, llm_config, vectors, **overrides) -> tuple[dict, LLMAdjudicator]:
    judge = LLMAdjudicator(llm_config(server, **overrides))
    try:
        return measure(PAIRS, vectors, judge, SETTINGS), judge
    finally:
        judge.close()


def test_a_judge_that_answers_as_the_labels_scores_perfectly_alone(fake_llm, llm_config, vectors) -> None:
    server = fake_llm([SimulatedAdjudicatorRule(replies=["DIFFERENT"], gold=gold_oracle(PAIRS), error_rate=0.0)])
    report, _ = _run(server, llm_config, vectors)
    alone = report["policies"]["judge alone"]["all"]
    assert (alone["tp"], alone["fp"], alone["fn"], alone["tn"]) == (2, 0, 0, 2)
    assert [d["same"] for d in report["decisions"]] == [True, False, False, True]
    assert [d["answer"] for d in report["decisions"]] == ["SAME", "DIFFERENT", "DIFFERENT", "SAME"]


def test_a_judge_that_always_says_same_is_charged_every_negative(fake_llm, llm_config, vectors) -> None:
    server = fake_llm({"": ["SAME"]})
    report, _ = _run(server, llm_config, vectors)
    alone = report["policies"]["judge alone"]
    assert alone["all"]["precision"] == 0.5 and alone["all"]["recall"] == 1.0
    assert alone["false_accepts"] == {"negation": "1/1", "scope": "1/1"}
    assert alone["sure"]["fp"] == 1  # the scope pair is marked unsure and left out of "sure"
    guarded = report["policies"]["guards, then the judge in the band"]["false_accepts"]
    assert guarded == {"negation": "0/1", "scope": "0/1"}  # the guards stop both before the judge is asked


def test_a_failing_endpoint_counts_as_different_and_joins_nothing_new(fake_llm, llm_config, vectors) -> None:
    server = fake_llm({"": [error(500)]})
    report, judge = _run(server, llm_config, vectors, max_retries=0)
    assert judge.failures >= len(PAIRS)
    for name in ("judge alone", "guards, then the judge in the band", "canonicalizer with the judge"):
        assert report["policies"][name]["all"]["tp"] + report["policies"][name]["all"]["fp"] == 0


def test_the_band_policy_asks_the_judge_only_between_low_and_high() -> None:
    pairs = PAIRS[:1] * 4
    settings = CanonicalizeSettings(thresholds={"Claim": 0.9}, adjudicate={"Claim": (0.8, 0.95)})
    cosine = np.array([0.97, 0.85, 0.70, 0.85])
    allowed = np.array([True, True, True, False])
    says_same = np.array([False, True, True, True])
    joined = pairwise_policies(pairs, cosine, allowed, says_same, settings)
    assert joined[POLICIES[3]].tolist() == [True, True, False, False]  # above the band; asked; below; vetoed
    assert joined[POLICIES[0]].tolist() == [True, False, False, False]
    assert joined[POLICIES[2]].tolist() == says_same.tolist()


def test_vetoes_and_floor_replace_the_profiles_and_a_wrong_name_is_refused() -> None:
    settings = judge_settings("polarity, numbers", 0.7)
    assert settings.vetoes == {"polarity", "numbers"}
    assert settings.band("Claim") == (0.7, 1.0) and settings.band("Viewpoint") == (0.7, 1.0)
    assert judge_settings("none").vetoes == frozenset()
    assert judge_settings().vetoes == set(GUARDS) and judge_settings().band("Claim") == (0.81, 1.0)
    with pytest.raises(SystemExit, match="no guard named 'polarty'"):
        judge_settings("polarty")


def test_only_the_vetoing_guards_stop_a_pair_before_the_judge(fake_llm, llm_config, vectors) -> None:
    """With the scope guard not vetoing, the scope pair reaches a judge that always says SAME; the negation
    pair is still stopped by the polarity guard."""
    server = fake_llm({"": ["SAME"]})
    judge = LLMAdjudicator(llm_config(server))
    try:
        report = measure(PAIRS, vectors, judge, dataclasses.replace(SETTINGS, vetoes=frozenset({"polarity"})))
    finally:
        judge.close()
    assert report["policies"]["guards, then the judge in the band"]["false_accepts"] == {"negation": "0/1", "scope": "1/1"}
