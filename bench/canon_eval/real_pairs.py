"""Real cross-paper candidates: pairs of ARCHE statements from different papers that the
embedding index would put in front of the canonicalizer, labelled by hand.

Every other set of this evaluation is written or generated for it; these pairs are what the
product meets. A statement is one ARCHE viewpoint (a sentence's own claim or a cited
abstract's claim), addressed ``PAPER#x.y.z`` by its source tuple. Two statements are a
candidate when their texts differ, no paper holds both, and each is among the other's
``--neighbours`` nearest by cosine of the bundled MiniLM, at or above ``--floor``. A seeded
sample, stratified over cosine bands so that the rare high-cosine pairs are all there, is
written with its texts for labelling to a file outside the project (ARCHE text is not ours
to commit); arche_labels.toml keeps only the addresses and the labels, and
``labelled_pairs`` turns them back into pairs by reading the corpus.

    HF_HUB_OFFLINE=1 python -m bench.canon_eval.real_pairs --out /tmp/candidates.jsonl [--per-band 100]
        [--neighbours 5] [--seed 7] [--exclude arche_labels.toml]

The labeller writes one JSON line per candidate, ``{"n", "label", "kind", "unsure"}``;
``labels_toml`` turns both files into a labels file.

arche_labels.toml is the test sample (seed 7, 5 neighbours, 100 per band); arche_dev_labels.toml
a second sample that leaves those pairs out (seed 11, 10 neighbours, 150 per band), and
arche_within_labels.toml pairs of one paper (``--within --edges 0.85 0.90 0.95 1.0``, seed 5,
10 neighbours, 100 per band), both for training and for choosing thresholds.
arche_within_test_labels.toml is a second within-paper sample that leaves those out (seed 23),
the test sample of the ``join_within_paper`` default; arche_labels_second.toml holds the test
sample's pairs labelled again by a second labeller, for agreement.
"""

from __future__ import annotations

import argparse
import json
import random
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np

from claimgraph.loaders import load_document
from claimgraph.testing.corpora import ARCHE_SKIP_REASON, real_arche_dir

from .build import GENERATED_TYPE, EvalSetError, Pair

LABELS = Path(__file__).with_name("arche_labels.toml")          # the test sample
DEV_LABELS = Path(__file__).with_name("arche_dev_labels.toml")  # a second sample, development data
WITHIN_LABELS = Path(__file__).with_name("arche_within_labels.toml")  # pairs of one paper, development data
WITHIN_TEST_LABELS = Path(__file__).with_name("arche_within_test_labels.toml")  # pairs of one paper, test sample
SECOND_LABELS = Path(__file__).with_name("arche_labels_second.toml")  # the test sample, labelled by a second labeller
EDGES = (0.70, 0.80, 0.90, 1.0)  # the cosine bands the sample is stratified over


@dataclass(frozen=True)
class Statement:
    address: str          # PAPER#x.y.z, the first place the text occurs
    text: str
    papers: frozenset[str]


@dataclass(frozen=True)
class Candidate:
    a: Statement
    b: Statement
    cosine: float


def _viewpoints(folder: Path) -> Iterator[tuple[str, str, str]]:
    """Every viewpoint of the corpus as (address ``PAPER#x.y.z``, paper id, text)."""
    for path in sorted(folder.glob("*.json")):
        document = load_document(path)
        for viewpoint in document.viewpoints:
            x, y, z = viewpoint.source
            yield f"{document.paper_id}#{x}.{y}.{z}", document.paper_id, viewpoint.text


def arche_statements(folder: Path) -> list[Statement]:
    """One statement per distinct viewpoint text of the corpus, with every paper that holds it."""
    first: dict[str, str] = {}
    papers: dict[str, set[str]] = {}
    for address, paper, text in _viewpoints(folder):
        first.setdefault(text, address)
        papers.setdefault(text, set()).add(paper)
    return [Statement(first[text], text, frozenset(papers[text])) for text in sorted(first)]


def statement_texts(folder: Path) -> dict[str, str]:
    """Every address ``PAPER#x.y.z`` of the corpus and its text."""
    return {address: text for address, _, text in _viewpoints(folder)}


def candidates(statements: Sequence[Statement], vectors: np.ndarray, neighbours: int, floor: float,
               within: bool = False) -> list[Candidate]:
    """Cross-paper pairs (``within``: pairs of one paper instead) among each statement's nearest
    neighbours at cosine >= ``floor``, once each."""
    import faiss

    index = faiss.IndexFlatIP(vectors.shape[1])
    index.add(vectors.astype(np.float32))
    scores, rows = index.search(vectors.astype(np.float32), neighbours + 1)
    found: dict[tuple[int, int], float] = {}
    for left, (row_scores, row_ids) in enumerate(zip(scores, rows, strict=True)):
        for score, right in zip(row_scores, row_ids, strict=True):
            if right < 0 or right == left or score < floor:
                continue
            if bool(statements[left].papers & statements[int(right)].papers) != within:
                continue
            found[(min(left, int(right)), max(left, int(right)))] = float(score)
    return [Candidate(statements[i], statements[j], cosine) for (i, j), cosine in sorted(found.items())]


def stratified(found: Sequence[Candidate], per_band: int, seed: int, edges: Sequence[float] = EDGES) -> list[Candidate]:
    """Up to ``per_band`` candidates of each cosine band between ``edges``, seeded, in a shuffled order."""
    rng = random.Random(seed)
    chosen: list[Candidate] = []
    for low, high in pairwise(edges):
        band = [c for c in found if low <= c.cosine < high]
        chosen += rng.sample(band, min(per_band, len(band)))
    rng.shuffle(chosen)
    return chosen


def labelled_pairs(folder: Path, path: Path = LABELS, source: str = "arche-real", prefix: str = "ar") -> list[Pair]:
    """The labelled candidates of ``path`` as pairs (ids ``PREFIX-NNN``), their texts read from the corpus at ``folder``."""
    texts = statement_texts(folder)
    rows = tomllib.loads(path.read_text(encoding="utf-8")).get("pair", [])
    pairs = []
    for number, row in enumerate(rows, start=1):
        where = f"{path}: pair {number}"
        missing = [side for side in ("a", "b") if row.get(side) not in texts]
        if missing:
            raise EvalSetError(f"{where}: address {row.get(missing[0])!r} is not in the corpus at {folder}")
        if row.get("label") not in ("same", "different"):
            raise EvalSetError(f"{where}: label must be 'same' or 'different', not {row.get('label')!r}")
        pairs.append(Pair(f"{prefix}-{number:03d}", texts[row["a"]], texts[row["b"]], GENERATED_TYPE, row["label"],
                          row.get("kind", "paraphrase" if row["label"] == "same" else "topic"), source,
                          f"{row['a']} / {row['b']}" + (" (unsure)" if row.get("unsure") else "")))
    return pairs


def second_labeller(folder: Path) -> tuple[list[Pair], list[Pair]]:
    """The test sample as the first and as the second labeller labelled it (one order, checked)."""
    first = labelled_pairs(folder)
    second = labelled_pairs(folder, SECOND_LABELS, "arche-real-second", "ar2")
    if [(p.a, p.b) for p in first] != [(p.a, p.b) for p in second]:
        raise EvalSetError(f"{SECOND_LABELS} must hold the pairs of {LABELS} in the same order")
    return first, second


def real_sets(folder: Path) -> dict[str, list[Pair]]:
    """The labelled real test samples: cross-paper candidates by each labeller and where both agree,
    and the within-paper test sample."""
    first, second = second_labeller(folder)
    return {"arche_real": first, "arche_real_second": second,
            "arche_real_agreed": [a for a, b in zip(first, second) if a.same == b.same],
            "arche_within_test": labelled_pairs(folder, WITHIN_TEST_LABELS, "arche-within-test", "awt")}


def labelled_addresses(path: Path) -> set[frozenset[str]]:
    """The address pairs a labels file already holds, in either order."""
    rows = tomllib.loads(path.read_text(encoding="utf-8")).get("pair", [])
    return {frozenset((row["a"], row["b"])) for row in rows}


def write_candidates(chosen: Iterable[Candidate], out: Path) -> int:
    """The chosen candidates as JSON lines (addresses, texts, no score) for a labeller; how many."""
    count = 0
    with out.open("w", encoding="utf-8") as handle:
        for number, candidate in enumerate(chosen, start=1):
            handle.write(json.dumps({"n": number, "a_id": candidate.a.address, "b_id": candidate.b.address,
                                     "a": candidate.a.text, "b": candidate.b.text}) + "\n")
            count += 1
    return count


def labels_toml(candidates: Path, labels: Path, header: str) -> str:
    """A labels file from the candidates given to a labeller and the labels it wrote (both JSON lines,
    matched by ``n``): the header as comments, then per pair the two addresses and the label."""
    given = {row["n"]: row for row in map(json.loads, candidates.read_text(encoding="utf-8").splitlines())}
    lines = [f"# {line}".rstrip() for line in header.splitlines()] + [""]
    for row in map(json.loads, labels.read_text(encoding="utf-8").splitlines()):
        pair = given[row["n"]]
        lines += ["[[pair]]", f"a = {json.dumps(pair['a_id'])}", f"b = {json.dumps(pair['b_id'])}", f"label = {json.dumps(row['label'])}",
                  f"kind = {json.dumps(row['kind'])}", f"unsure = {json.dumps(bool(row.get('unsure')))}", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="JSON lines for the labeller (outside the project)")
    parser.add_argument("--per-band", type=int, default=100)
    parser.add_argument("--neighbours", type=int, default=5)
    parser.add_argument("--edges", type=float, nargs="+", default=list(EDGES), help="cosine bands to stratify over")
    parser.add_argument("--within", action="store_true", help="pairs of one paper instead of cross-paper pairs")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--exclude", type=Path, nargs="*", default=[], help="labels files whose pairs are left out (a second, disjoint sample)")
    args = parser.parse_args()
    folder = real_arche_dir()
    if folder is None:
        raise SystemExit(ARCHE_SKIP_REASON)
    from claimgraph.embedding.embedders import make_embedder

    statements = arche_statements(folder)
    vectors = make_embedder().embed([s.text for s in statements])
    found = candidates(statements, vectors, args.neighbours, args.edges[0], args.within)
    taken = set().union(*(labelled_addresses(path) for path in args.exclude))
    found = [c for c in found if frozenset((c.a.address, c.b.address)) not in taken]
    for low, high in pairwise(args.edges):
        print(f"cosine [{low:.2f}, {high:.2f}): {sum(low <= c.cosine < high for c in found)} {'within-paper' if args.within else 'cross-paper'} candidates")
    print(f"{len(statements)} distinct statements; wrote {write_candidates(stratified(found, args.per_band, args.seed, args.edges), args.out)} to {args.out}")


if __name__ == "__main__":
    main()
