"""A SIMULATION of LLM adjudication of the borderline band, through the real mechanism.

No language model is reachable here, so this does not measure any model. It measures what an
adjudicator of a stated accuracy would give: the project's fake OpenAI-compatible server
(claimgraph.testing.fake_llm) answers each adjudication prompt as a simulated adjudicator that
knows the gold labels and gives the wrong answer on a stated share of the distinct questions
(a seeded draw per question, so a repeated question gets the same answer, as a model at
temperature 0 would). Everything else is the product's: ``LLMAdjudicator`` (prompt, client,
cache, answer parsing), the guards first, and the canonicalizer's band logic.

Gold: two texts of one type are "same" when they are in one connected component of the
positive pairs (the canonicalizer asks about a node and a hub's founder, which may not be a
labelled pair). Reported: precision and recall, pairwise and as the canonicalizer places the
texts, and the number of questions and of HTTP calls the band costs.
"""

from __future__ import annotations

import hashlib
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from claimgraph.canonical.links.placement import Adjudicate
from claimgraph.judge.pairs.adjudicate import LLMAdjudicator
from claimgraph.llm.config import LLMConfig
from claimgraph.testing.fake_llm import FakeLLMServer, Reply, Rule, ok, running_fake_llm

from .build import CAUTIOUS, Pair
from .metrics import confusion, gold_clusters
from .policy_run import place_texts, predicted_same

_PROMPT = re.compile(r"as one (?P<type>\w+)\..*Statement A: (?P<a>.*)\nStatement B: (?P<b>.*?)\s*$", re.DOTALL)
Gold = Callable[[str, str, str], bool]


def gold_oracle(pairs: Sequence[Pair]) -> Gold:
    """``(a, b, type) -> same?`` from the connected components of each type's positive pairs."""
    clusters: dict[tuple[str, str], int] = {}
    for name in sorted({p.type for p in pairs}):
        chosen = [p for p in pairs if p.type == name]
        texts = sorted({t for p in chosen for t in (p.a, p.b)})
        ids = gold_clusters(texts, [(p.a, p.b) for p in chosen if p.same])
        clusters.update({(name, text): f for text, f in zip(texts, ids)})

    def same(a: str, b: str, type_name: str) -> bool:
        first, second = clusters.get((type_name, a)), clusters.get((type_name, b))
        return first is not None and first == second

    return same


def wrong_on(a: str, b: str, error_rate: float, seed: int) -> bool:
    """Whether the simulated adjudicator errs on this question (order of a and b does not matter)."""
    key = "\x00".join(sorted((a, b))) + f"\x00{seed}"
    draw = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big") / 2 ** 64
    return draw < error_rate


@dataclass
class SimulatedAdjudicatorRule(Rule):
    """A fake-server rule that reads the adjudication prompt and answers from the gold labels,
    wrong on ``error_rate`` of the distinct questions."""

    gold: Gold | None = None
    error_rate: float = 0.0
    seed: int = 0
    _last: str = field(default="", repr=False)

    def matches(self, last_user: str, phase: str | None, passage: int | None = None) -> bool:
        self._last = last_user  # the server calls matches, then next_reply, under one lock
        return True

    def next_reply(self) -> Reply:
        self.served += 1
        found = _PROMPT.search(self._last)
        if found is None or self.gold is None:
            return ok("unreadable prompt")
        truth = self.gold(found["a"], found["b"], found["type"])
        return ok("SAME" if truth != wrong_on(found["a"], found["b"], self.error_rate, self.seed) else "DIFFERENT")


@contextmanager
def _simulated_judge(gold: Gold, rate: float, seed: int) -> Iterator[tuple[LLMAdjudicator, FakeLLMServer]]:
    """An ``LLMAdjudicator`` on a fresh fake server and an empty response cache (repeated questions are free)."""
    rule = SimulatedAdjudicatorRule(replies=["DIFFERENT"], gold=gold, error_rate=rate, seed=seed)
    with running_fake_llm([rule]) as server, tempfile.TemporaryDirectory() as cache:
        config = LLMConfig(model=f"simulated-adjudicator-{rate:.2f}", base_url=server.base_url, api_key="none",
                           timeout=5.0, max_retries=0, cache_dir=Path(cache))
        judge = LLMAdjudicator(config)
        try:
            yield judge, server
        finally:
            judge.close()


def placed_with_judge(pairs: Sequence[Pair], vectors: dict[str, np.ndarray], threshold: Callable[[str], float],
                      band: Callable[[str], tuple[float, float] | None], judge: Adjudicate, seed: int = 0,
                      vetoes: frozenset[str] | None = None) -> tuple[np.ndarray, int]:
    """Per pair, whether the canonicalizer puts both texts under one CANON_ node when ``judge`` decides
    each cautious type's band (guards on; ``vetoes``, default all, are those that reject); and how many
    questions the judge was asked."""
    placed = np.zeros(len(pairs), dtype=bool)
    questions = 0
    for name in sorted({p.type for p in pairs if p.type in CAUTIOUS}):
        texts = sorted({t for p in pairs if p.type == name for t in (p.a, p.b)})
        placement = place_texts(name, texts, vectors, threshold(name), True, seed, band(name), judge, vetoes)
        questions += placement.adjudicated
        for index, pair in enumerate(pairs):
            if pair.type == name:
                placed[index] = predicted_same(placement, pair.a, pair.b)
    return placed, questions


def simulate(pairs: Sequence[Pair], vectors: dict[str, np.ndarray], cosine: np.ndarray, allowed: np.ndarray,
             band: tuple[float, float], error_rates: Sequence[float], seed: int = 0) -> dict[str, object]:
    """Cautious types pooled: guards, then in [low, high) the simulated adjudicator, at or above high accepted."""
    low, high = band
    cautious = np.array([p.type in CAUTIOUS for p in pairs])
    same = np.array([p.same for p in pairs])
    gold = gold_oracle(pairs)
    in_band = cautious & allowed & (cosine >= low - 1e-9) & (cosine < high - 1e-9)
    accepted = cautious & allowed & (cosine >= high - 1e-9)
    result: dict[str, object] = {"band": list(band), "pairs_in_band": int(in_band.sum()),
                                 "no_adjudication": {"at_low": confusion(same[cautious], (cautious & allowed & (cosine >= low - 1e-9))[cautious]).as_dict(),
                                                     "at_high": confusion(same[cautious], accepted[cautious]).as_dict()}, "runs": {}}
    for rate in error_rates:
        with _simulated_judge(gold, rate, seed) as (judge, server):
            pairwise = accepted.copy()
            for index in np.flatnonzero(in_band):
                pairwise[index] = judge(pairs[index].a, pairs[index].b, pairs[index].type)
            pair_calls = len(server.chat_requests())
        with _simulated_judge(gold, rate, seed) as (judge, server):
            placed, questions = placed_with_judge(pairs, vectors, lambda _: high, lambda _: band, judge, seed)
            placed_calls = len(server.chat_requests())
        result["runs"][f"{rate:.2f}"] = {
            "pairwise": confusion(same[cautious], pairwise[cautious]).as_dict(), "pairwise_questions": int(in_band.sum()), "pairwise_calls": pair_calls,
            "canonicalizer": confusion(same[cautious], placed[cautious]).as_dict(), "canonicalizer_questions": questions,
            "canonicalizer_calls": placed_calls}
    return result


def _pr(point: dict[str, object]) -> str:
    precision, recall = point["precision"], point["recall"]
    return f"P {precision:.3f} R {recall:.3f}" if isinstance(precision, float) and isinstance(recall, float) else "nothing joined"


def print_simulation(result: dict[str, object]) -> None:
    low, high = result["band"]
    print(f"\nSIMULATED LLM adjudication (no model: the fake server answers from the gold labels, wrong on a stated share), "
          f"cautious types pooled, band [{low:.2f}, {high:.2f}), {result['pairs_in_band']} guard-passed pairs in the band")
    for label, point in result["no_adjudication"].items():
        print(f"  no adjudication, threshold {low if label == 'at_low' else high:.2f}: {_pr(point)}")
    for rate, run in result["runs"].items():
        pair, placed = run["pairwise"], run["canonicalizer"]
        print(f"  simulated adjudicator wrong on {float(rate):.0%}: pairwise {_pr(pair)} ({run['pairwise_questions']} questions, "
              f"{run['pairwise_calls']} calls) | canonicalizer {_pr(placed)} ({run['canonicalizer_questions']} questions, "
              f"{run['canonicalizer_calls']} calls)")
