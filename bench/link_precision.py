"""Benchmark: precision and recall of `claimgraph link` on the labelled link set.

The set (examples/ontologies/link-gold.tsv, written for the project) holds
mentions a Factor, Variable, StudyDesign or StatisticalMethod node might carry,
each with the term of examples/ontologies/sample-terms.ttl it denotes (exactly,
or as a narrower measure or variant: "close") or none; about a quarter are
near misses with no right term (interleukin-17 against interleukin-6 and -10,
type 1 against type 2 diabetes, Spearman against Pearson correlation).

A decision is correct when its term is the labelled one. Precision: correct
decisions / decisions; recall: correct decisions / mentions that have a term.
Printed: labels and synonyms alone; with embedding similarity at several
thresholds (guards on, and off at the default threshold); the relation
(exactMatch vs closeMatch) against the labelled kind; per node type; the
wrong links and the misses at the default threshold; and a two-fold check of
the threshold (chosen on one half of the set, measured on the other).

    python bench/link_precision.py [--embedder minilm] [--json results.json]
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import Counter
from pathlib import Path

from pyoxigraph import NamedNode

from claimgraph.embedding.base import Embedder
from claimgraph.embedding.embedders import make_embedder
from claimgraph.federation.matching import CLOSE, DEFAULT_CLOSE_THRESHOLD, EXACT, Match, MatchSettings, Mention, match_mentions
from claimgraph.federation.rdf_input import rdf_format, read_quads
from claimgraph.federation.terms import OntologyTerm, ontology_terms
from claimgraph.store import EmbeddedStore

ONTOLOGIES = Path(__file__).resolve().parents[1] / "examples" / "ontologies"
SAMPLE = "https://w3id.org/claimgraph/examples/sample-terms/"
THRESHOLDS = (0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)


def load_terms(path: Path) -> list[OntologyTerm]:
    store = EmbeddedStore()
    graph = NamedNode("urn:bench:ontology")
    store.replace_graph(graph, [quad.triple for quad in read_quads(path, rdf_format(path))])
    return ontology_terms(store, graph)


def load_gold(path: Path) -> list[dict[str, str]]:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def gold_term(row: dict[str, str]) -> str | None:
    return None if row["term"] == "-" else f"{SAMPLE}CGS_{int(row['term']):07d}"


def score(rows: list[dict[str, str]], decided: dict[str, Match]) -> dict[str, float]:
    keys = [str(number) for number in range(len(rows))]
    correct = sum(1 for key in keys if key in decided and decided[key].term == gold_term(rows[int(key)]))
    positives = sum(1 for row in rows if gold_term(row))
    made = len(decided)
    precision = correct / made if made else 1.0
    recall = correct / positives if positives else 1.0
    return {"decisions": made, "correct": correct, "positives": positives, "precision": precision, "recall": recall,
            "f1": 2 * precision * recall / (precision + recall) if precision + recall else 0.0}


def decide(rows: list[dict[str, str]], terms: list[OntologyTerm], embedder: Embedder | None, settings: MatchSettings) -> dict[str, Match]:
    mentions = [Mention(str(number), row["mention"], row["type"]) for number, row in enumerate(rows)]
    return {match.mention.key: match for match in match_mentions(mentions, terms, embedder, settings)}


def line(name: str, figures: dict[str, float]) -> str:
    return (f"{name:<34} {figures['decisions']:>9.0f} {figures['correct']:>8.0f} {figures['precision']:>10.3f} "
            f"{figures['recall']:>7.3f} {figures['f1']:>6.3f}")


def two_fold(rows: list[dict[str, str]], terms: list[OntologyTerm], embedder: Embedder) -> list[tuple[float, dict[str, float]]]:
    """For each half: the threshold with the best F1 on the other half, measured on this half."""
    results = []
    for held_out in (0, 1):
        tune = [row for number, row in enumerate(rows) if number % 2 != held_out]
        test = [row for number, row in enumerate(rows) if number % 2 == held_out]
        best = max(THRESHOLDS, key=lambda t: score(tune, decide(tune, terms, embedder, MatchSettings(close_threshold=t)))["f1"])
        results.append((best, score(test, decide(test, terms, embedder, MatchSettings(close_threshold=best)))))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--ontology", type=Path, default=ONTOLOGIES / "sample-terms.ttl")
    parser.add_argument("--gold", type=Path, default=ONTOLOGIES / "link-gold.tsv")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    args = parser.parse_args()
    terms, rows = load_terms(args.ontology), load_gold(args.gold)
    embedder = make_embedder(args.embedder)
    kinds = Counter(row["kind"] for row in rows)
    print(f"{len(rows)} mentions ({kinds['exact']} exact, {kinds['close']} close, {kinds['none']} without a right term); {len(terms)} terms")
    print(f"{'setting':<34} {'decisions':>9} {'correct':>8} {'precision':>10} {'recall':>7} {'F1':>6}")
    results: dict[str, dict[str, float]] = {}
    results["labels and synonyms only"] = score(rows, decide(rows, terms, None, MatchSettings()))
    for threshold in THRESHOLDS:
        results[f"+ {embedder.name} >= {threshold:g}"] = score(rows, decide(rows, terms, embedder, MatchSettings(close_threshold=threshold)))
    unguarded = decide(rows, terms, embedder, MatchSettings(guards=False))
    results[f"+ {embedder.name} >= {DEFAULT_CLOSE_THRESHOLD:g}, no guards"] = score(rows, unguarded)
    for name, figures in results.items():
        print(line(name, figures))
    default = decide(rows, terms, embedder, MatchSettings())
    relation_kind = Counter((match.relation, rows[int(key)]["kind"]) for key, match in default.items()
                            if match.term == gold_term(rows[int(key)]))
    print(f"\nat the default threshold {DEFAULT_CLOSE_THRESHOLD:g}, correct links by relation and labelled kind: "
          + ", ".join(f"{relation}/{kind} {count}" for (relation, kind), count in sorted(relation_kind.items())))
    exact_right = relation_kind[(EXACT, "exact")] + relation_kind[(CLOSE, "close")]
    print(f"relation agrees with the labelled kind in {exact_right} of {sum(relation_kind.values())} correct links")
    for node_type in sorted({row["type"] for row in rows}):
        subset = [row for row in rows if row["type"] == node_type]
        print(line(f"  {node_type}", score(subset, decide(subset, terms, embedder, MatchSettings()))))
    print("\nwrong links:")
    for key, match in sorted(default.items(), key=lambda item: int(item[0])):
        row = rows[int(key)]
        if match.term != gold_term(row):
            print(f"  {row['mention']!r} -> {match.matched_label!r} ({match.relation}, {match.method}, {match.score}); labelled {row['term']}")
    print("misses:")
    for number, row in enumerate(rows):
        if gold_term(row) and str(number) not in default:
            print(f"  {row['mention']!r} (labelled {row['term']}, {row['kind']})")
    print("\ntwo-fold threshold check (threshold chosen on one half, measured on the other):")
    for best, figures in two_fold(rows, terms, embedder):
        print(line(f"  chosen {best:g}", figures))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
