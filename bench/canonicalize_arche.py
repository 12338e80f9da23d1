"""Benchmark: canonicalize the 70 ARCHE papers (about 38,700 viewpoints), then the corpus replicated.

Prints seconds split into embed / ANN / SPARQL merge+link / other; recall@10 of
the HNSW partitions against exact search on the same vectors; hubs, mentions
and convergence from the store; merge precision/recall on the ARCHE pair set
(with a cosine-threshold sweep); and the time per paper for papers 1-10,
61-70 and, with the corpus replicated under fresh paper ids, 691-700, with
their ratio (the per-paper cost must stay flat as the store grows).

    python bench/canonicalize_arche.py [--arche ../shared/data/arche] [--replicas 10] [--embedder minilm]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from claimgraph.canonical.canonicalizer import Canonicalizer
from claimgraph.canonical.convergence import convergence
from claimgraph.canonical.embeddings import make_embedder
from claimgraph.context import Context
from claimgraph.loaders import Document, find_inputs, load_document
from claimgraph.papers.storage import store_document
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore
from claimgraph.testing.pairset import LabelledPair, arche_pairs, hub_membership, score_pairs

DEFAULT_ARCHE = Path(__file__).resolve().parents[2] / "shared" / "data" / "arche"
PARTS = ("embed", "ann", "sparql", "other")


@dataclasses.dataclass
class PaperTiming:
    number: int
    paper_id: str
    nodes: int
    seconds: float
    parts: dict[str, float]


def canonicalize_timed(canonicalizer: Canonicalizer, number: int, paper_id: str) -> PaperTiming:
    before = dict(canonicalizer.summary.seconds)
    started = time.perf_counter()
    plan = canonicalizer.canonicalize_paper(paper_id)
    seconds = time.perf_counter() - started
    parts = {part: canonicalizer.summary.seconds.get(part, 0.0) - before.get(part, 0.0) for part in PARTS}
    return PaperTiming(number, paper_id, plan.nodes, seconds, parts)


def window(timings: list[PaperTiming], first: int, last: int) -> str:
    chosen = [t for t in timings if first <= t.number <= last]
    per_paper = statistics.mean(t.seconds for t in chosen)
    no_embed = statistics.mean(t.seconds - t.parts["embed"] for t in chosen)
    per_100 = 100 * sum(t.seconds for t in chosen) / max(1, sum(t.nodes for t in chosen))
    parts = ", ".join(f"{part} {statistics.mean(t.parts[part] for t in chosen):.3f}" for part in PARTS)
    return (f"papers {first}-{last}: {per_paper:.3f} s/paper ({parts}), {no_embed:.3f} s/paper without embedding, "
            f"{per_100:.3f} s per 100 nodes")


def mean_window(timings: list[PaperTiming], first: int, last: int, embed: bool = True) -> float:
    chosen = [t for t in timings if first <= t.number <= last]
    return statistics.mean(t.seconds - (0.0 if embed else t.parts["embed"]) for t in chosen)


def hnsw_recall(canonicalizer: Canonicalizer, queries: np.ndarray, k: int = 10) -> list[str]:
    lines = []
    for name, partition in sorted(canonicalizer.sidecar.partitions.items()):
        if len(partition) < 100:
            continue
        found = []
        started = time.perf_counter()
        approximate = [partition.search(query, k, canonicalizer.settings.ef_search) for query in queries]
        hnsw_seconds = time.perf_counter() - started
        for query, hits in zip(queries, approximate):
            exact = {hit.iri for hit in partition.exact_search(query, k)}
            found.append(len(exact & {hit.iri for hit in hits}) / len(exact))
        role, type_iri = name.split(" ", 1)
        lines.append(f"  {role:<8} {type_iri.rsplit('#', 1)[-1]:<10} {len(partition):>7} live / {partition.rows:>7} rows: "
                     f"recall@{k} {statistics.mean(found):.4f} ({1000 * hnsw_seconds / len(queries):.2f} ms/query)")
    return lines


def threshold_sweep(pairs: list[LabelledPair], canonicalizer: Canonicalizer, texts: dict[str, str]) -> list[str]:
    left = canonicalizer.cache.embed([texts[pair.a.value] for pair in pairs])
    right = canonicalizer.cache.embed([texts[pair.b.value] for pair in pairs])
    similarity = np.sum(left * right, axis=1)
    labels = np.array([pair.same for pair in pairs])
    lines = []
    for threshold in (0.8, 0.85, 0.9, 0.95, 0.98):
        predicted = similarity >= threshold
        tp = int(np.sum(predicted & labels))
        precision = tp / max(1, int(np.sum(predicted)))
        lines.append(f"  cosine >= {threshold:.2f}: precision {precision:.4f} recall {tp / max(1, int(labels.sum())):.4f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, default=DEFAULT_ARCHE)
    parser.add_argument("--replicas", type=int, default=10, help="total copies of the corpus (1 = no replication)")
    parser.add_argument("--embedder", default="minilm")
    args = parser.parse_args()
    iris = IriScheme()
    documents: list[Document] = [load_document(path) for path in find_inputs([args.arche])]
    viewpoints = sum(len(document.viewpoints) for document in documents)
    print(f"ARCHE input: {len(documents)} papers, {viewpoints} viewpoints, embedder {args.embedder}")
    with tempfile.TemporaryDirectory() as folder, EmbeddedStore(Path(folder) / "store") as store:
        started = time.perf_counter()
        for document in documents:
            store_document(store, iris, document)
        print(f"load seconds (ingest, not canonicalization): {time.perf_counter() - started:.1f}")
        canonicalizer = Canonicalizer(Context(store, iris), sidecar_dir=Path(folder) / "side", embedder=make_embedder(args.embedder))
        timings = [canonicalize_timed(canonicalizer, number, document.paper_id) for number, document in enumerate(documents, 1)]
        started = time.perf_counter()
        canonicalizer.save()
        save_seconds = time.perf_counter() - started
        seconds = canonicalizer.summary.seconds
        print(f"\n== canonicalization of {len(documents)} papers ({sum(t.nodes for t in timings)} nodes placed)")
        print(f"total seconds {sum(t.seconds for t in timings):.1f} (+ {save_seconds:.1f} s saving the sidecar with a store fingerprint)")
        print("  " + ", ".join(f"{part} {seconds.get(part, 0.0):.1f}" for part in PARTS) + "  (sparql = node reads + merge/link/hub/audit updates + fingerprints)")
        print(f"texts embedded: {canonicalizer.cache.computed} distinct")
        summary = canonicalizer.summary
        print(f"merges {summary.merges}, hubs created {summary.hubs_created}, mentions {summary.links}, left unattached {summary.unattached}")
        rng = np.random.default_rng(0)
        all_texts = [viewpoint.text for document in documents for viewpoint in document.viewpoints]
        queries = canonicalizer.cache.embed([all_texts[i] for i in rng.choice(len(all_texts), 1000, replace=False)])
        print("\nHNSW vs exact search on the same vectors (1000 viewpoint queries):")
        print("\n".join(hnsw_recall(canonicalizer, queries)))
        print("\nconvergence after 70 papers (from the store):")
        for name, value in convergence(Context(store, iris)).rows():
            print(f"  {name:<36} {value}")
        pairs = arche_pairs(documents, iris)
        scores = score_pairs(pairs, hub_membership(store, iris))
        print(f"\npair set: {scores.positives} positive, {scores.negatives} negative pairs")
        print(f"merge (same hub) precision {scores.precision:.4f} recall {scores.recall:.4f}"
              f" ({scores.true_positives} TP, {scores.false_positives} FP)")
        texts = {viewpoint_iri.value: text for viewpoint_iri, text in
                 ((iris.node(d.paper_id, "viewpoint", "-".join(map(str, v.source))), v.text) for d in documents for v in d.viewpoints)}
        print("pairwise cosine alone, for comparison:")
        print("\n".join(threshold_sweep(pairs, canonicalizer, texts)))
        print(f"\n{window(timings, 1, 10)}\n{window(timings, 61, 70)}")
        if args.replicas > 1:
            ingest_seconds = 0.0
            number = len(documents)
            for replica in range(1, args.replicas):
                for document in documents:
                    copy = dataclasses.replace(document, paper_id=f"{document.paper_id}-r{replica}")
                    started = time.perf_counter()
                    store_document(store, iris, copy)
                    ingest_seconds += time.perf_counter() - started
                    number += 1
                    timings.append(canonicalize_timed(canonicalizer, number, copy.paper_id))
                print(f"replica {replica}: {number} papers, papers {number - 69}-{number} "
                      f"{mean_window(timings, number - 69, number):.3f} s/paper", flush=True)
            started = time.perf_counter()
            canonicalizer.save()
            print(f"\n== replicated {args.replicas}x: {number} papers (ingest {ingest_seconds:.1f} s, final save {time.perf_counter() - started:.1f} s)")
            last = (number - 9, number)
            print(window(timings, *last))
            print(f"ratio papers {last[0]}-{last[1]} / 1-10:  {mean_window(timings, *last) / mean_window(timings, 1, 10):.2f} "
                  f"(without embedding {mean_window(timings, *last, embed=False) / mean_window(timings, 1, 10, embed=False):.2f})")
            print(f"ratio papers {last[0]}-{last[1]} / 61-70 (same papers, same sizes): "
                  f"{mean_window(timings, *last) / mean_window(timings, 61, 70):.2f} "
                  f"(without embedding {mean_window(timings, *last, embed=False) / mean_window(timings, 61, 70, embed=False):.2f})")
            if args.replicas > 2:
                print(f"ratio papers {last[0]}-{last[1]} / 201-210 (same papers, both only join existing hubs): "
                      f"{mean_window(timings, *last) / mean_window(timings, 201, 210):.2f}")
            print("\nconvergence after the replicas (from the store):")
            for name, value in convergence(Context(store, iris)).rows()[:9]:
                print(f"  {name:<36} {value}")


if __name__ == "__main__":
    main()
