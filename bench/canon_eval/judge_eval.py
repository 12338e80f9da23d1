"""An LLM judge measured on labelled pairs, through the product's own adjudicator.

No language model can be reached where claimgraph is developed, so no judge has been measured
there; this makes the measurement one command for whoever has an OpenAI-compatible endpoint:

    HF_HUB_OFFLINE=1 python -m bench.canon_eval.judge_eval --model MODEL [--base-url URL] [--config FILE]
        [--set arche_real --set heldout6 ...] [--vetoes polarity,numbers] [--floor 0.75] [--cache DIR] [--json out.json]

The judge is ``LLMAdjudicator`` built from the LLM settings the CLI reads (config file, then
environment, then these flags), asking prompts/canonical/adjudicate.md; its response cache makes a
rerun free. The bands, thresholds and vetoes are the discourse profile's, unless ``--vetoes`` names
the guards that still veto (``none`` for no guard) and ``--floor`` moves the low end of every band:
``python -m bench.canon_eval.veto_caps`` shows what each choice lets reach the judge. For the
cautious pairs of each set:

- cosine at the profile's threshold, and the full policy without a judge (the guards as well):
  the product's default;
- the judge alone: the judge asked about every pair;
- the guards, then the judge in the band, pairwise: what ``canonicalize --adjudicate`` decides
  for a pair;
- the canonicalizer with the judge: every text in a paper of its own, placed by the real
  canonicalizer with the judge deciding its band (questions are then between a node and a hub's
  founder, so they are not all labelled pairs).

Precision and recall on every pair and on the pairs no labeller marked unsure, the negatives each
policy accepts per kind, and the questions and calls. A call that fails counts as DIFFERENT, as in
the product, and the count is reported.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from claimgraph.canonical.guards.check import GUARDS, check_pair
from claimgraph.canonical.settings import CanonicalizeSettings, load_settings
from claimgraph.embedding.embedders import make_embedder
from claimgraph.judge.pairs.adjudicate import LLMAdjudicator
from claimgraph.llm.config import load_config
from claimgraph.profile.manifest import load_profile
from claimgraph.testing.corpora import ARCHE_SKIP_REASON, real_arche_dir

from .adjudication import placed_with_judge
from .build import CAUTIOUS, HELDOUT_SETS, Pair, handwritten_pairs, heldout_pairs
from .metrics import confusion
from .real_pairs import DEV_LABELS, WITHIN_LABELS, labelled_pairs, real_sets

DEFAULT_SETS = ("arche_real", "arche_within_test", "heldout6")  # the blind ones
POLICIES = ("cosine at the profile threshold", "full policy, no judge", "judge alone",
            "guards, then the judge in the band", "canonicalizer with the judge")


def labelled_set(name: str, corpus: Path | None) -> list[Pair]:
    """The pairs of one named set: a hand-written one, or a labelled real ARCHE sample (needs the corpus)."""
    if name == "handwritten":
        return handwritten_pairs()
    if name in HELDOUT_SETS:
        return heldout_pairs(name)
    if corpus is None:
        raise SystemExit(f"set {name} needs the ARCHE corpus: {ARCHE_SKIP_REASON}")
    extra = {"arche_dev": (DEV_LABELS, "arche-dev", "ad"), "arche_within_dev": (WITHIN_LABELS, "arche-within", "aw")}
    if name in extra:
        return labelled_pairs(corpus, *extra[name])
    sets = real_sets(corpus)
    if name not in sets:
        known = ["handwritten", *HELDOUT_SETS, *extra, *sets]
        raise SystemExit(f"unknown set {name!r}; known: {', '.join(known)}")
    return sets[name]


def judge_settings(vetoes: str | None = None, floor: float | None = None) -> CanonicalizeSettings:
    """The discourse profile's settings; ``vetoes`` (comma-separated guard names, or ``none``) replaces the
    guards that veto, ``floor`` the low end of every band."""
    settings = load_settings(load_profile("discourse"))
    if vetoes is not None:
        names = frozenset() if vetoes == "none" else frozenset(name.strip() for name in vetoes.split(",") if name.strip())
        unknown = sorted(names - set(GUARDS))
        if unknown:
            raise SystemExit(f"--vetoes: no guard named {unknown[0]!r}; the guards are {', '.join(GUARDS)} (or none)")
        settings = dataclasses.replace(settings, vetoes=names)
    if floor is not None:
        if not 0.0 < floor < 1.0:
            raise SystemExit(f"--floor {floor}: a cosine between 0 and 1 is needed")
        bands = {name: (floor, max(high, floor)) for name, (_, high) in settings.adjudicate.items()}
        settings = dataclasses.replace(settings, adjudicate=bands)
    return settings


def allowed_by_vetoes(fired: Sequence[set[str]], settings: CanonicalizeSettings) -> np.ndarray:
    """Per pair, whether no vetoing guard objects (every pair when the guards are off)."""
    return np.array([not settings.guards or not (names & settings.vetoes) for names in fired], dtype=bool)


def ask_every_pair(pairs: Sequence[Pair], judge: Callable[[str, str, str], bool]) -> np.ndarray:
    """The judge's verdict on each pair."""
    return np.array([judge(p.a, p.b, p.type) for p in pairs], dtype=bool)


def pairwise_policies(pairs: Sequence[Pair], cosine: np.ndarray, allowed: np.ndarray, answers: np.ndarray,
                      settings: CanonicalizeSettings) -> dict[str, np.ndarray]:
    """Per policy, which pairs it joins; the judge's ``answers`` stand for asking it in the band."""
    threshold = np.array([settings.threshold(p.type) for p in pairs])
    bands = [settings.band(p.type) or (settings.threshold(p.type),) * 2 for p in pairs]
    low, high = np.array([band[0] for band in bands]), np.array([band[1] for band in bands])
    at_threshold = cosine >= threshold - 1e-9
    in_band = (cosine >= low - 1e-9) & (cosine < high - 1e-9)
    return {POLICIES[0]: at_threshold, POLICIES[1]: at_threshold & allowed, POLICIES[2]: answers,
            POLICIES[3]: allowed & ((cosine >= high - 1e-9) | (in_band & answers))}


def false_accepts(pairs: Sequence[Pair], joined: np.ndarray) -> dict[str, str]:
    """Per negative kind, how many of its pairs a policy joined, as ``accepted/total``."""
    kinds = sorted({p.kind for p in pairs if not p.same})
    return {kind: f"{sum(bool(j) for p, j in zip(pairs, joined) if p.kind == kind and not p.same)}/"
                  f"{sum(p.kind == kind and not p.same for p in pairs)}" for kind in kinds}


def measure(pairs: Sequence[Pair], vectors: dict[str, np.ndarray], judge: LLMAdjudicator,
            settings: CanonicalizeSettings, seed: int = 0) -> dict[str, object]:
    """Every policy on the cautious pairs of one set, with the judge's answer to each pair."""
    chosen = [p for p in pairs if p.type in CAUTIOUS]
    cosine = np.array([float(vectors[p.a] @ vectors[p.b]) for p in chosen])
    verdicts = [check_pair(p.a, p.b) for p in chosen]
    allowed = allowed_by_vetoes([v.fired() for v in verdicts], settings)
    asked = len(judge.decisions)
    answers = ask_every_pair(chosen, judge)
    replies = [d.answer for d in judge.decisions[asked:]]
    joined = pairwise_policies(chosen, cosine, allowed, answers, settings)
    joined[POLICIES[4]], questions = placed_with_judge(chosen, vectors, settings.threshold, settings.band, judge, seed,
                                                             settings.vetoes)
    same = np.array([p.same for p in chosen], dtype=bool)
    sure = np.array(["(unsure)" not in p.detail for p in chosen], dtype=bool)
    return {
        "pairs": len(chosen), "same": int(same.sum()), "sure_pairs": int(sure.sum()),
        "policies": {name: {"all": confusion(same, mask).as_dict(), "sure": confusion(same[sure], mask[sure]).as_dict(),
                            "false_accepts": false_accepts(chosen, mask)} for name, mask in joined.items()},
        "canonicalizer_questions": questions,
        "decisions": [{"id": p.id, "detail": p.detail, "label": p.label, "kind": p.kind, "cosine": round(float(c), 4),
                       "guards": v.reasons, "answer": reply, "same": bool(answer)}
                      for p, c, v, reply, answer in zip(chosen, cosine, verdicts, replies, answers)],
    }


def _pr(point: dict[str, object]) -> str:
    precision, recall = point["precision"], point["recall"]
    shown = [f"{value:.3f}" if isinstance(value, float) else "  -  " for value in (precision, recall)]
    return f"P {shown[0]} R {shown[1]} (fp {point['fp']}, fn {point['fn']})"


def print_report(name: str, report: dict[str, object]) -> None:
    print(f"\n======== {name}: {report['pairs']} cautious pairs, {report['same']} same; {report['sure_pairs']} not marked unsure")
    for policy, row in report["policies"].items():
        accepts = ", ".join(f"{kind} {count}" for kind, count in row["false_accepts"].items())
        print(f"  {policy:<36} all: {_pr(row['all'])} | sure: {_pr(row['sure'])} | negatives joined: {accepts}")
    print(f"  the canonicalizer asked the judge {report['canonicalizer_questions']} questions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="the judge model (else [llm] model / CLAIMGRAPH_MODEL)")
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint (else OPENAI_BASE_URL)")
    parser.add_argument("--config", type=Path, help="an LLM settings file (the CLI's [llm] table)")
    parser.add_argument("--cache", type=Path, help="the response cache folder (default: the LLM settings')")
    parser.add_argument("--set", dest="sets", action="append", help=f"a labelled set, repeatable (default: {', '.join(DEFAULT_SETS)})")
    parser.add_argument("--vetoes", help=f"the guards that still veto, comma-separated ({', '.join(GUARDS)}) or none "
                                         "(default: the profile's)")
    parser.add_argument("--floor", type=float, help="the low end of every band (default: the profile's)")
    parser.add_argument("--seed", type=int, default=0, help="the arrival order of the canonicalizer run")
    parser.add_argument("--json", type=Path, help="every figure and the judge's answer to each pair, as JSON")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    config = load_config(args.config, overrides={"model": args.model, "base_url": args.base_url, "cache_dir": args.cache})
    corpus = real_arche_dir()
    sets = {name: labelled_set(name, corpus) for name in args.sets or DEFAULT_SETS}
    texts = sorted({t for pairs in sets.values() for p in pairs for t in (p.a, p.b)})
    vectors = dict(zip(texts, make_embedder().embed(texts)))
    settings = judge_settings(args.vetoes, args.floor)
    judge = LLMAdjudicator(config)
    try:
        reports = {name: measure(pairs, vectors, judge, settings, args.seed) for name, pairs in sets.items()}
    finally:
        judge.close()
    for name, report in reports.items():
        print_report(name, report)
    counters = judge.accounting.total()
    print(f"\njudge {judge.name}: {counters.calls} calls, {counters.cache_hits} cache hits, {judge.failures} failed "
          f"(counted as DIFFERENT), {counters.prompt_tokens} prompt and {counters.completion_tokens} completion tokens")
    if args.json:
        args.json.write_text(json.dumps({"judge": judge.name, "vetoes": sorted(settings.vetoes),
                                         "bands": {name: list(band) for name, band in settings.adjudicate.items()},
                                         "calls": counters.as_dict(), "failures": judge.failures,
                                         "sets": reports}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
