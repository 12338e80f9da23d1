"""Build the canonicalization evaluation set: hand-written pairs plus pairs generated from ARCHE.

Every pair has one format: ``{id, a, b, type, label, kind, source, detail}`` with label
``same`` or ``different``, kind ``paraphrase`` for positives and negation / direction /
quantity / scope / hedge / swap / topic for hard negatives, source ``handwritten`` or
``generated``, and ``detail`` saying which rewrites or edit made a generated pair.

- handwritten.toml: the hand-written pairs (committed), development pairs.
- heldout.toml, heldout2.toml, heldout3.toml: further hand-written minimal pairs, each written
  before the guards were changed against it; their failures were read while the guards were
  written, so they are development data (sources "heldout", "heldout2", "heldout3"; ids
  ``ho-NNN``, ``h2-NNN``, ``h3-NNN``).
- heldout4.toml, heldout5.toml: hand-written minimal pairs written blind to the guards (the
  writer read no guard code, word list or benchmark output); never tuned on (ids ``h4-NNN``,
  ``h5-NNN``).
- heldout6.toml: hand-written pairs written blind in the style of abstracts and results sections
  (longer sentences, numbers, citation markers) where the other sets are minimal pairs; never
  tuned on (source "heldout6", ids ``h6-NNN``).
  ``heldout_pairs(name)`` reads any of them; the benchmark scores each apart.
- Generated (never committed: ARCHE text stays in its folder, CLAIMGRAPH_ARCHE_DIR or
  ../shared/data/arche): a seeded sample of ARCHE viewpoints, each giving a paraphrase
  (rewrites.py) and hard negatives (perturb.py); and "topic" negatives: two different
  viewpoints of the same reference cited by the same sentence, as written by ARCHE.

    python -m bench.canon_eval.build [--out pairs.jsonl] [--sample 1000] [--per-kind 120] [--seed 13]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tomllib
from collections import Counter
from dataclasses import asdict, dataclass
from itertools import pairwise
from pathlib import Path

from claimgraph.errors import ClaimgraphError
from claimgraph.loaders import load_document
from claimgraph.testing.corpora import ARCHE_SKIP_REASON, real_arche_dir

from .perturb import PERTURBATIONS
from .rewrites import Lexicon, load_lexicon, paraphrase

HANDWRITTEN = Path(__file__).with_name("handwritten.toml")
HELDOUT_SETS = {"heldout": (Path(__file__).with_name("heldout.toml"), "ho"),
                "heldout2": (Path(__file__).with_name("heldout2.toml"), "h2"),
                "heldout3": (Path(__file__).with_name("heldout3.toml"), "h3"),
                "heldout4": (Path(__file__).with_name("heldout4.toml"), "h4"),
                "heldout5": (Path(__file__).with_name("heldout5.toml"), "h5"),
                "heldout6": (Path(__file__).with_name("heldout6.toml"), "h6")}
CAUTIOUS = ("Claim", "Hypothesis", "Association", "ResearchQuestion", "Evidence", "Viewpoint")
AGGRESSIVE = ("Factor", "Variable", "StudyDesign", "StatisticalMethod")
NEGATIVE_KINDS = ("negation", "direction", "quantity", "scope", "hedge", "swap", "topic")
GENERATED_TYPE = "Viewpoint"  # ARCHE viewpoints are ingested as cg:Viewpoint nodes


class EvalSetError(ClaimgraphError):
    """The evaluation set's data is malformed."""


@dataclass(frozen=True)
class Pair:
    id: str
    a: str
    b: str
    type: str
    label: str
    kind: str
    source: str
    detail: str = ""

    @property
    def same(self) -> bool:
        return self.label == "same"


def heldout_pairs(name: str = "heldout4") -> list[Pair]:
    """The pairs of one held-out set of ``HELDOUT_SETS`` (source ``name``)."""
    path, prefix = HELDOUT_SETS[name]
    return handwritten_pairs(path, source=name, prefix=prefix)


def handwritten_pairs(path: Path = HANDWRITTEN, source: str = "handwritten", prefix: str = "hw") -> list[Pair]:
    """The hand-written pairs of ``path``, checked field by field."""
    try:
        rows = tomllib.loads(path.read_text(encoding="utf-8")).get("pair", [])
    except tomllib.TOMLDecodeError as error:
        raise EvalSetError(f"{path} is not valid TOML: {error}") from error
    pairs = []
    for number, row in enumerate(rows, start=1):
        where = f"{path}: pair {number}"
        if row.get("type") not in CAUTIOUS + AGGRESSIVE:
            raise EvalSetError(f"{where}: type {row.get('type')!r} is not a canonicalized class")
        expected_kinds = ("paraphrase",) if row.get("label") == "same" else NEGATIVE_KINDS
        if row.get("label") not in ("same", "different") or row.get("kind") not in expected_kinds:
            raise EvalSetError(f"{where}: label {row.get('label')!r} with kind {row.get('kind')!r} (kinds: {', '.join(expected_kinds)})")
        if not all(isinstance(row.get(side), str) and row[side].strip() for side in ("a", "b")) or row["a"] == row["b"]:
            raise EvalSetError(f"{where}: a and b must be two different non-empty texts")
        pairs.append(Pair(f"{prefix}-{number:03d}", row["a"], row["b"], row["type"], row["label"], row["kind"], source))
    return pairs


# ---------------------------------------------------------------- ARCHE


@dataclass(frozen=True)
class ArcheTexts:
    viewpoints: list[str]                 # distinct viewpoint texts, sorted
    citation_groups: list[list[str]]      # viewpoints of one reference cited by one sentence, in order


def read_arche(folder: Path) -> ArcheTexts:
    texts: set[str] = set()
    groups: dict[tuple[str, int, int], list[tuple[int, str]]] = {}
    for path in sorted(folder.glob("*.json")):
        document = load_document(path)
        for viewpoint in document.viewpoints:
            texts.add(viewpoint.text)
            if viewpoint.reference_index:
                key = (document.paper_id, viewpoint.sentence_index, viewpoint.reference_index)
                groups.setdefault(key, []).append((viewpoint.viewpoint_index, viewpoint.text))
    ordered = [[text for _, text in sorted(group)] for _, group in sorted(groups.items())]
    return ArcheTexts(sorted(texts), ordered)


def usable(text: str) -> bool:
    """A one-sentence statement the rewrites can work on (6 to 35 words, ends with a full stop)."""
    words = len(text.split())
    return 6 <= words <= 35 and text.endswith(".") and "\n" not in text


def generated_pairs(arche: ArcheTexts, lexicon: Lexicon, sample: int, seed: int, topic: int, per_kind: int) -> list[Pair]:
    """A paraphrase of each sampled viewpoint where a rewrite applies; hard negatives of the same
    viewpoints, at most ``per_kind`` of each kind (seeded); ``topic`` pairs as ARCHE wrote them."""
    rng = random.Random(seed)
    chosen = rng.sample([text for text in arche.viewpoints if usable(text)], sample)
    pairs: list[Pair] = []
    negatives: dict[str, list[Pair]] = {kind: [] for kind, _ in PERTURBATIONS}
    for number, text in enumerate(chosen, start=1):
        rewritten = paraphrase(text, lexicon)
        if rewritten is not None:
            pairs.append(Pair(f"gen-{number:04d}-p", text, rewritten[0], GENERATED_TYPE, "same", "paraphrase",
                              "generated", "+".join(rewritten[1])))
        for kind, perturb in PERTURBATIONS:
            changed = perturb(text, lexicon)
            if changed is not None and changed != text:
                negatives[kind].append(Pair(f"gen-{number:04d}-{kind}", text, changed, GENERATED_TYPE, "different", kind,
                                            "generated", perturb.__name__))
    for found in negatives.values():
        pairs += sorted(rng.sample(found, min(per_kind, len(found))), key=lambda pair: pair.id)
    candidates = [(first, second) for group in arche.citation_groups for first, second in pairwise(group)
                  if first != second and usable(first) and usable(second)]
    for number, (first, second) in enumerate(rng.sample(candidates, min(topic, len(candidates))), start=1):
        pairs.append(Pair(f"gen-topic-{number:04d}", first, second, GENERATED_TYPE, "different", "topic",
                          "generated", "same reference, same citing sentence"))
    return pairs


def build_pairs(arche_dir: Path | None = None, sample: int = 1000, seed: int = 13, topic: int = 150,
                per_kind: int = 120, generated: bool = True) -> tuple[list[Pair], str | None]:
    """All pairs, and why the generated part is missing (None when it is there)."""
    pairs = handwritten_pairs()
    if not generated:
        return pairs, "generated pairs not requested"
    folder = arche_dir or real_arche_dir()
    if folder is None or not folder.is_dir():
        return pairs, ARCHE_SKIP_REASON
    return pairs + generated_pairs(read_arche(folder), load_lexicon(), sample, seed, topic, per_kind), None


def summary(pairs: list[Pair]) -> list[str]:
    counts = Counter((pair.source, pair.label, pair.kind) for pair in pairs)
    return [f"{source:<12} {label:<10} {kind:<11} {count:>5}" for (source, label, kind), count in sorted(counts.items())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="write the pairs as JSON lines here")
    parser.add_argument("--arche", type=Path, help="ARCHE folder (default: CLAIMGRAPH_ARCHE_DIR or ../shared/data/arche)")
    parser.add_argument("--sample", type=int, default=1000, help="ARCHE viewpoints to rewrite and perturb")
    parser.add_argument("--per-kind", type=int, default=120, help="at most this many generated negatives of each kind")
    parser.add_argument("--topic", type=int, default=150, help="ARCHE same-reference topic negatives")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    pairs, skipped = build_pairs(args.arche, args.sample, args.seed, args.topic, args.per_kind)
    if skipped:
        print(f"generated pairs skipped: {skipped}", file=sys.stderr)
    print("\n".join(summary(pairs)))
    if args.out:
        with args.out.open("w", encoding="utf-8") as handle:
            for pair in pairs:
                handle.write(json.dumps(asdict(pair), ensure_ascii=False) + "\n")
        print(f"{len(pairs)} pairs written to {args.out}")


if __name__ == "__main__":
    main()
