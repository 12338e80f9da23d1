"""How well each embedder's cosine separates the labelled pairs, scored at every cosine rather than on a grid.

Every model puts its cosines on its own scale (multilingual-e5-small scores unrelated sentences
at 0.75 to 0.85, all-MiniLM-L6-v2 below 0.1), so a fixed threshold grid compares nothing across
models. For the cautious pairs of each labelled set and each embedder this reports, at every
cut of the sorted cosines:

- average precision of cosine alone (the area under its precision-recall curve);
- the best precision of cosine alone at recall >= 0.90, and the cosine at which it is reached;
- the best precision of cosine with the guards vetoing (the full policy without a judge) at
  recall >= 0.40, 0.50 and 0.55 (``--full-recall``); the guards read no vectors, so the highest
  recall they leave (``cap``) is the same for every embedder, and on the blind written and real
  sets it is below 0.90.

These thresholds are chosen on the set they are scored on: an upper bound for each model,
fair between models, not what a profile would get.

    HF_HUB_OFFLINE=1 CLAIMGRAPH_ARCHE_DIR=... python -m bench.canon_eval.compare_embedders \\
        --embedder minilm --embedder st:/path/to/model [--set arche_real --set heldout6 ...] [--json out.json]

The real candidates (``arche_real*``) were drawn as the bundled MiniLM's nearest neighbours
(cosine >= 0.70): they measure how another model orders MiniLM's candidates, not the
candidates that model would draw itself.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from claimgraph.canonical.guards.check import check_pair
from claimgraph.embedding.embedders import make_embedder
from claimgraph.testing.corpora import real_arche_dir

from .build import CAUTIOUS, Pair
from .judge_eval import labelled_set

DEFAULT_SETS = ("arche_real", "arche_real_second", "arche_real_agreed", "heldout4", "heldout5", "heldout6", "handwritten")
COSINE_RECALL, FULL_RECALLS = 0.90, (0.40, 0.50, 0.55)


def ranked_points(same: np.ndarray, cosine: np.ndarray, allowed: np.ndarray | None = None) -> list[tuple[float, float, float]]:
    """(threshold, precision, recall) at every distinct cosine, the guards vetoing when ``allowed`` is given."""
    kept = np.ones_like(same) if allowed is None else allowed
    positives = int(same.sum())
    points = []
    for threshold in np.unique(cosine):
        predicted = (cosine >= threshold) & kept
        if predicted.any() and positives:
            tp = int((predicted & same).sum())
            points.append((float(threshold), tp / int(predicted.sum()), tp / positives))
    return points


def best_at(points: Sequence[tuple[float, float, float]], recall: float) -> dict[str, float] | None:
    """The point of highest precision (then recall) with at least ``recall``."""
    eligible = [p for p in points if p[2] >= recall - 1e-9]
    if not eligible:
        return None
    threshold, precision, reached = max(eligible, key=lambda p: (p[1], p[2]))
    return {"threshold": threshold, "precision": precision, "recall": reached}


def average_precision(same: np.ndarray, cosine: np.ndarray) -> float:
    """Mean of the precision at the rank of each positive, ranked by cosine (ties broken against the positives)."""
    order = np.lexsort((same, -cosine))
    hits = same[order]
    precision_at = np.cumsum(hits) / np.arange(1, len(hits) + 1)
    return float(precision_at[hits].mean()) if hits.any() else 0.0


@dataclass(frozen=True)
class SetScores:
    """One embedder's figures on the cautious pairs of one set (points: threshold, precision, recall)."""

    pairs: int
    same: int
    average_precision: float
    cosine_at_recall: dict[str, float] | None
    full_at_recall: dict[str, dict[str, float] | None]
    guard_cap: float | None


def score_set(pairs: Sequence[Pair], vectors: dict[str, np.ndarray], full_recalls: Sequence[float]) -> SetScores:
    chosen = [p for p in pairs if p.type in CAUTIOUS]
    same = np.array([p.same for p in chosen])
    cosine = np.array([float(vectors[p.a] @ vectors[p.b]) for p in chosen])
    allowed = np.array([check_pair(p.a, p.b).compatible for p in chosen])
    full = ranked_points(same, cosine, allowed)
    return SetScores(len(chosen), int(same.sum()), average_precision(same, cosine),
                     best_at(ranked_points(same, cosine), COSINE_RECALL),
                     {f"{recall:.2f}": best_at(full, recall) for recall in full_recalls},
                     float((same & allowed).sum() / same.sum()) if same.any() else None)


def embed_all(spec: str, texts: Sequence[str]) -> dict[str, np.ndarray]:
    matrix = make_embedder(spec).embed(list(texts))
    return dict(zip(texts, matrix, strict=True))


def cell(point: dict[str, float] | None) -> str:
    """precision/recall@threshold, or '-' when no threshold reaches the recall."""
    if point is None:
        return "-"
    return f"{point['precision']:.3f}/{point['recall']:.3f}@{point['threshold']:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--embedder", action="append", help="an embedder spec (repeat); default: minilm")
    parser.add_argument("--set", action="append", dest="sets", help=f"a labelled set (repeat); default: {', '.join(DEFAULT_SETS)}")
    parser.add_argument("--full-recall", type=float, action="append", help="a recall for the full policy (repeat); default: 0.40, 0.50, 0.55")
    parser.add_argument("--json", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()
    corpus = real_arche_dir()
    names = args.sets or [name for name in DEFAULT_SETS if corpus is not None or not name.startswith("arche")]
    sets = {name: labelled_set(name, corpus) for name in names}
    texts = sorted({text for pairs in sets.values() for p in pairs for text in (p.a, p.b)})
    recalls = args.full_recall or list(FULL_RECALLS)
    results: dict[str, dict[str, SetScores]] = {}
    for spec in args.embedder or ["minilm"]:
        vectors = embed_all(spec, texts)
        results[spec] = {name: score_set(pairs, vectors, recalls) for name, pairs in sets.items()}
        print(f"\n{spec}  ({len(texts)} texts); cells: best precision/its recall@threshold")
        print(f"  {'set':<18} {'n/same':>8}  {'AP':>5}  {'cosine R>=0.90':<19}  "
              + "  ".join(f"{f'full R>={recall:.2f}':<19}" for recall in recalls) + "  cap")
        for name, row in results[spec].items():
            cap = "-" if row.guard_cap is None else f"{row.guard_cap:.3f}"
            fulls = "  ".join(f"{cell(point):<19}" for point in row.full_at_recall.values())
            print(f"  {name:<18} {row.pairs:>4}/{row.same:<3}  {row.average_precision:.3f}  "
                  f"{cell(row.cosine_at_recall):<19}  {fulls}  {cap}")
    if args.json:
        table = {spec: {name: asdict(row) for name, row in rows.items()} for spec, rows in results.items()}
        args.json.write_text(json.dumps(table, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
