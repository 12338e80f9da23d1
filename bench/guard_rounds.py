"""Benchmark: the guards of an earlier commit and today's on the same hand-written pairs, in one run.

A change to the guards is only worth something if it helps on pairs it was not tuned on.
This benchmark scores a held-out set (default ``heldout4``: written blind to the guards) with
the guards of ``--before COMMIT`` (that commit's
tree from ``git archive``, run in a subprocess with the tree first on PYTHONPATH) and with
today's, on one set of cosines from today's embedder. It prints, for cautious types:
precision / recall per threshold, the share of each negative kind joined, and the paraphrases
each version rejects that the other lets through.

    HF_HUB_OFFLINE=1 python bench/guard_rounds.py [--before REV] [--set heldout4] [--embedder minilm]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from canon_eval.build import CAUTIOUS, HELDOUT_SETS, NEGATIVE_KINDS, Pair, heldout_pairs
from canon_eval.metrics import curve
from command_times import extract

from claimgraph.canonical.guards.check import check_pair
from claimgraph.embedding.embedders import make_embedder

SHOWN = (0.80, 0.85, 0.90, 0.92, 0.95)
# Run inside the earlier tree: reads [[a, b], ...] on stdin, prints [compatible, ...]. The import
# covers both layouts (an early claimgraph/canonical/guards.py, and guards/check.py today).
EARLIER = """
import json, sys
try:
    from claimgraph.canonical.guards.check import check_pair
except ImportError:
    from claimgraph.canonical.guards import check_pair
print(json.dumps([check_pair(a, b).compatible for a, b in json.load(sys.stdin)]))
"""


def earlier_verdicts(commit: str, pairs: list[Pair]) -> list[bool]:
    """The guard verdicts of ``commit`` on the pairs."""
    with tempfile.TemporaryDirectory() as folder:
        tree = extract(commit, Path(folder))
        done = subprocess.run([sys.executable, "-c", EARLIER], input=json.dumps([[p.a, p.b] for p in pairs]),
                              env=dict(os.environ, PYTHONPATH=str(tree)), cwd=folder, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the guards of {commit} could not be run:\n{done.stderr[-800:]}")
    return list(json.loads(done.stdout))


def kind_rates(pairs: list[Pair], cosine: np.ndarray, allowed: np.ndarray, threshold: float) -> dict[str, str]:
    """For each negative kind: joined / total at the threshold."""
    rates = {}
    for kind in NEGATIVE_KINDS:
        rows = np.array([p.kind == kind for p in pairs])
        joined = rows & (cosine >= threshold - 1e-9) & allowed
        rates[kind] = f"{int(joined.sum())}/{int(rows.sum())}"
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="74fcde9", help="the commit whose guards to compare (default: before round 3)")
    parser.add_argument("--set", default="heldout4", choices=sorted(HELDOUT_SETS))
    parser.add_argument("--embedder", default="minilm")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    pairs = [p for p in heldout_pairs(args.set) if p.type in CAUTIOUS]
    texts = sorted({t for p in pairs for t in (p.a, p.b)})
    vectors = dict(zip(texts, make_embedder(args.embedder).embed(texts)))
    cosine = np.array([float(np.dot(vectors[p.a], vectors[p.b])) for p in pairs])
    same = np.array([p.same for p in pairs])
    verdicts = {args.before: np.array(earlier_verdicts(args.before, pairs)),
                "now": np.array([check_pair(p.a, p.b).compatible for p in pairs])}
    print(f"{args.set}: {len(pairs)} cautious pairs ({int(same.sum())} same, {int((~same).sum())} different); embedder {args.embedder}")
    print("\nthreshold:  cosine P / R   | " + " | ".join(f"{name:>8} guards P / R" for name in verdicts))
    points = {"cosine": curve(same, cosine, None, SHOWN), **{name: curve(same, cosine, allowed, SHOWN) for name, allowed in verdicts.items()}}
    for index, threshold in enumerate(SHOWN):
        cells = [f"{fmt(p[index].precision)} / {fmt(p[index].recall)}" for p in points.values()]
        print(f"  {threshold:.2f}:   " + "   |   ".join(cells))
    for threshold in (0.80, 0.92):
        print(f"\nnegatives joined at {threshold:.2f} (cosine | " + " | ".join(verdicts) + "):")
        columns = [kind_rates(pairs, cosine, np.ones(len(pairs), bool), threshold)] + [kind_rates(pairs, cosine, a, threshold) for a in verdicts.values()]
        for kind in NEGATIVE_KINDS:
            print(f"  {kind:<10} " + "  |  ".join(f"{column[kind]:>6}" for column in columns))
    before, now = verdicts.values()
    print(f"\nparaphrases rejected: {args.before} {int((same & ~before).sum())}, now {int((same & ~now).sum())} of {int(same.sum())}")
    print(f"  let through now, rejected by {args.before}: {int((same & now & ~before).sum())}; rejected now only: {int((same & ~now & before).sum())}")
    print(f"negatives caught by the guards: {args.before} {int((~same & ~before).sum())}, now {int((~same & ~now).sum())} of {int((~same).sum())}")


def fmt(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.3f}"


if __name__ == "__main__":
    main()
