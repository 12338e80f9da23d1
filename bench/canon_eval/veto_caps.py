"""Which guards should still veto when a judge decides the band: what each choice lets reach the judge.

With a judge on (``canonicalize --adjudicate`` or ``--pair-model``), a candidate of a cautious type
reaches the judge only when its cosine lies in the type's band and none of the vetoing guards
objects (``[canonicalize] vetoes``). The vetoes therefore cap recall before any judge is asked, and
every negative they let through is one the judge must turn away. Neither needs a model to count.
For the cautious pairs of each labelled set and each choice of vetoes this reports:

- the paraphrases that reach the judge: the recall of a judge that never errs (the cap);
- the negatives that reach it, per kind: the judge's load;
- the largest share of those negatives a judge may call SAME and keep precision at 0.98, if it
  calls every paraphrase SAME (``tolerated false SAME``);
- the expected precision and recall of a judge that errs on each question independently with
  probability e, pairwise. This is arithmetic on the counts, a simulation: it measures no judge.

    HF_HUB_OFFLINE=1 python -m bench.canon_eval.veto_caps [--set arche_real --set heldout6 ...] [--floor 0.75] [--json out.json]

The bands are the discourse profile's; ``--floor`` moves the low end of every band (cosine below it
never reaches a judge, so it caps recall as the vetoes do). ``python -m bench.canon_eval.judge_eval --vetoes ...`` then
measures a real judge under the choice this suggests.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from claimgraph.canonical.guards.check import GUARDS, check_pair
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.embedding.embedders import make_embedder
from claimgraph.testing.corpora import ARCHE_SKIP_REASON, real_arche_dir

from .build import CAUTIOUS, Pair
from .judge_eval import allowed_by_vetoes, false_accepts, judge_settings, labelled_set

CUE_GUARDS = frozenset({"polarity", "numbers", "direction", "hedge"})  # those that compare explicit cues
DEFAULT_SETS = ("arche_real", "arche_within_test", "heldout5", "heldout6")  # blind sets
ERROR_RATES = (0.0, 0.02, 0.05, 0.10)
TARGET_PRECISION = 0.98


def veto_choices() -> dict[str, frozenset[str]]:
    """The choices compared: every guard (the default), the cue guards, polarity and numbers, none, and
    every guard but one."""
    choices = {"all": frozenset(GUARDS), "cue": CUE_GUARDS, "polarity+numbers": frozenset({"polarity", "numbers"}),
               "none": frozenset()}
    choices.update({f"all but {name}": frozenset(GUARDS) - {name} for name in GUARDS})
    return choices


def reach_judge(pairs: Sequence[Pair], cosine: np.ndarray, fired: Sequence[set[str]], settings: CanonicalizeSettings) -> np.ndarray:
    """Per pair, whether it reaches the judge (or is accepted above the band): cosine at the band's low end
    (the threshold for a type without a band) and none of the settings' vetoing guards objecting."""
    low = np.array([(settings.band(p.type) or (settings.threshold(p.type),))[0] for p in pairs])
    return (cosine >= low - 1e-9) & allowed_by_vetoes(fired, settings)


def expected_scores(paraphrases: int, negatives: int, same: int, error_rate: float) -> dict[str, float | None]:
    """Expected precision and recall of a judge that errs on each question with ``error_rate``."""
    tp, fp = paraphrases * (1 - error_rate), negatives * error_rate
    return {"precision": tp / (tp + fp) if tp + fp else None, "recall": tp / same if same else None}


def tolerated_false_same(paraphrases: int, negatives: int) -> float | None:
    """The largest share of the negatives reaching the judge that it may call SAME, calling every paraphrase
    SAME, with precision still at TARGET_PRECISION."""
    if not negatives:
        return None
    return min(1.0, paraphrases * (1 - TARGET_PRECISION) / TARGET_PRECISION / negatives)


def caps(pairs: Sequence[Pair], vectors: Mapping[str, np.ndarray], settings: CanonicalizeSettings,
         choices: Mapping[str, frozenset[str]]) -> dict[str, object]:
    """Every choice of vetoes on the cautious pairs of one set."""
    chosen = [p for p in pairs if p.type in CAUTIOUS]
    cosine = np.array([float(vectors[p.a] @ vectors[p.b]) for p in chosen])
    fired = [check_pair(p.a, p.b).fired() for p in chosen]
    same = np.array([p.same for p in chosen], dtype=bool)
    report: dict[str, object] = {"pairs": len(chosen), "same": int(same.sum()), "choices": {}}
    for name, vetoes in choices.items():
        reached = reach_judge(chosen, cosine, fired, dataclasses.replace(settings, vetoes=vetoes))
        paraphrases, negatives = int((reached & same).sum()), int((reached & ~same).sum())
        report["choices"][name] = {  # type: ignore[index]
            "vetoes": sorted(vetoes), "paraphrases_reaching": paraphrases, "negatives_reaching": negatives,
            "recall_cap": paraphrases / int(same.sum()) if same.any() else None,
            "tolerated_false_same": tolerated_false_same(paraphrases, negatives),
            "negatives_by_kind": false_accepts(chosen, reached),
            "judge_error": {f"{rate:.2f}": expected_scores(paraphrases, negatives, int(same.sum()), rate) for rate in ERROR_RATES}}
    return report


def _shown(value: object) -> str:
    return f"{value:.3f}" if isinstance(value, float) else "  -  "


def print_report(name: str, report: Mapping[str, object]) -> None:
    print(f"\n======== {name}: {report['pairs']} cautious pairs, {report['same']} same")
    rates = "  ".join(f"e={rate:.2f} P / R" for rate in ERROR_RATES)
    print(f"  {'vetoes':<18} {'cap':>5} {'neg':>4} {'tol.':>5}  {rates}")
    for choice, row in report["choices"].items():  # type: ignore[attr-defined]
        scores = "  ".join(f"{_shown(s['precision'])} / {_shown(s['recall'])}" for s in row["judge_error"].values())
        print(f"  {choice:<18} {_shown(row['recall_cap'])} {row['negatives_reaching']:>4} {_shown(row['tolerated_false_same'])}  {scores}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", dest="sets", action="append", help=f"a labelled set, repeatable (default: {', '.join(DEFAULT_SETS)})")
    parser.add_argument("--floor", type=float, help="the low end of every band (default: the profile's bands)")
    parser.add_argument("--json", type=Path, help="every count, per set and choice, as JSON")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    corpus = real_arche_dir()
    names = args.sets or [name for name in DEFAULT_SETS if corpus is not None or not name.startswith("arche")]
    if corpus is None and not args.sets:
        print(f"the ARCHE sets are left out: {ARCHE_SKIP_REASON}")
    sets = {name: labelled_set(name, corpus) for name in names}
    texts = sorted({t for pairs in sets.values() for p in pairs for t in (p.a, p.b)})
    vectors = dict(zip(texts, make_embedder().embed(texts)))
    settings = judge_settings(floor=args.floor)
    reports = {name: caps(pairs, vectors, settings, veto_choices()) for name, pairs in sets.items()}
    for name, report in reports.items():
        print_report(name, report)
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
