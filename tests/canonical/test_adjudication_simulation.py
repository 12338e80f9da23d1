"""The benchmark's simulated adjudicator reads the product's real adjudication prompt: if the prompt
changed shape, the simulation would answer every question DIFFERENT and its figures would be wrong."""

from __future__ import annotations

from bench.canon_eval.adjudication import SimulatedAdjudicatorRule, wrong_on
from claimgraph.judge.pairs.adjudicate import adjudication_prompt as _prompt


def test_the_simulated_adjudicator_answers_from_gold_through_the_real_prompt() -> None:
    gold = {("Claim", "x rises", "x goes up")}
    rule = SimulatedAdjudicatorRule(replies=["DIFFERENT"], gold=lambda a, b, t: (t, a, b) in gold, error_rate=0.0)
    assert rule.matches(_prompt("x rises", "x goes up", "Claim"), None)
    assert rule.next_reply().content == "SAME"
    rule.matches(_prompt("x rises", "x falls", "Claim"), None)
    assert rule.next_reply().content == "DIFFERENT"


def test_the_error_draw_is_seeded_and_ignores_order() -> None:
    assert wrong_on("a", "b", 1.0, 0) and not wrong_on("a", "b", 0.0, 0)
    assert all(wrong_on(f"t{i}", "u", 0.2, 3) == wrong_on("u", f"t{i}", 0.2, 3) for i in range(50))
    assert 2 <= sum(wrong_on(f"t{i}", "u", 0.2, 3) for i in range(100)) <= 40
