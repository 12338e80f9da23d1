"""Benchmark: canonicalize the 70 ARCHE papers (about 38,700 viewpoints), then, optionally, the corpus replicated.

Prints: embedding speed of the two MiniLM backends on the same texts in the same
run (sentence-transformers vs ONNX Runtime, texts/s and the cosine between their
vectors); seconds split into embed / ANN / SPARQL / other; recall@10 of the HNSW
partitions against exact search on the same vectors; hubs, mentions and
convergence from the store; how many hubs gather only byte-identical texts and
how many cross-paper links the policy finds beyond exact text, and the links per basis
(exact text or similarity alone; link-bases query); the ARCHE pair
set (identical texts: recall is 1.0 by construction, see docs/canonical-evaluation.md
for the set that can fail); the cost of an incremental sidecar save; and the
time per paper for papers 1-10 and 61-70 and, with the corpus replicated under
fresh paper ids, the last ten (the per-paper cost must stay flat as the store grows).

    HF_HUB_OFFLINE=1 python bench/canonicalize_arche.py [--arche DIR] [--replicas 1] [--embedder minilm] [--speed-sample 2000]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from claimgraph.canonical.canonicalizer import Canonicalizer
from claimgraph.canonical.convergence import convergence
from claimgraph.context import Context
from claimgraph.embedding.embedders import make_embedder
from claimgraph.loaders import Document, find_inputs, load_document
from claimgraph.papers.storage import store_document
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import local_name
from claimgraph.store import EmbeddedStore
from claimgraph.testing.corpora import real_arche_dir
from claimgraph.testing.pairset import LabelledPair, arche_pairs, hub_membership, score_pairs

DEFAULT_ARCHE = real_arche_dir()
PARTS = ("embed", "ann", "sparql", "other")
BACKENDS = ("minilm-st", "minilm-onnx")


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


def embedding_speed(texts: list[str]) -> list[str]:
    """Texts/s of each MiniLM backend on the same texts (after a warm-up), and how close their vectors are."""
    vectors = {}
    lines = []
    for spec in BACKENDS:
        embedder = make_embedder(spec)
        embedder.embed(texts[:64])  # load (and for ONNX, export once) outside the timing
        started = time.perf_counter()
        vectors[spec] = embedder.embed(texts)
        seconds = time.perf_counter() - started
        lines.append(f"  {spec:<12} {len(texts)} texts in {seconds:.1f} s: {len(texts) / seconds:.0f} texts/s")
    cosine = np.sum(vectors[BACKENDS[0]] * vectors[BACKENDS[1]], axis=1)
    lines.append(f"  cosine between the two backends' vectors: min {cosine.min():.5f}, mean {cosine.mean():.5f}")
    return lines


def exact_text_share(store: EmbeddedStore) -> list[str]:
    """Hubs that gather only byte-identical texts, and cross-paper links found beyond exact text.

    A link is cross-paper when its hub has a member in another paper; it is
    "exact" when some member of the hub in another paper has the same text."""
    members: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for row in store.select(read_named_query("hub-members")):
        members[row["hub"].value].append((row["paper"].value, row["text"].value if "text" in row else ""))
    identical = sum(1 for rows in members.values() if len({text for _, text in rows}) == 1)
    multi = [rows for rows in members.values() if len({paper for paper, _ in rows}) > 1]
    cross = beyond = 0
    for rows in multi:
        for paper, text in rows:
            others = [(p, t) for p, t in rows if p != paper]
            cross += 1
            beyond += not any(t == text for _, t in others)
    share = identical / max(1, len(members))
    lines = [f"  hubs: {len(members)}, of which {identical} ({share:.0%}) gather byte-identical texts only",
             f"  hubs spanning 2+ papers: {len(multi)}; their cross-paper member links: {cross}, "
             f"of which {beyond} have no identical text in another paper of the hub (found beyond exact text)",
             "  links by basis (the link-bases query): type, link, basis: links, cross-paper links, hubs"]
    for row in store.select(read_named_query("link-bases")):
        basis = local_name(row["basis"].value) if "basis" in row else "(none recorded)"
        lines.append(f"    {local_name(row['type'].value)}, {local_name(row['link'].value)}, {basis}: {row['links'].value}, "
                     f"{row['crossPaperLinks'].value}, {row['hubs'].value}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, default=DEFAULT_ARCHE)
    parser.add_argument("--replicas", type=int, default=1, help="total copies of the corpus (1 = no replication)")
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--speed-sample", type=int, default=2000, help="distinct texts for the backend speed comparison (0 skips it)")
    args = parser.parse_args()
    iris = IriScheme()
    documents: list[Document] = [load_document(path) for path in find_inputs([args.arche])]
    viewpoints = sum(len(document.viewpoints) for document in documents)
    distinct = sorted({viewpoint.text for document in documents for viewpoint in document.viewpoints})
    print(f"ARCHE input: {len(documents)} papers, {viewpoints} viewpoints ({len(distinct)} distinct texts), embedder {args.embedder}")
    if args.speed_sample:
        print("\nembedding speed, same texts, same run:")
        sample = [distinct[i] for i in np.random.default_rng(1).choice(len(distinct), min(args.speed_sample, len(distinct)), replace=False)]
        print("\n".join(embedding_speed(sample)))
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
        started = time.perf_counter()
        canonicalizer.save()
        again_seconds = time.perf_counter() - started
        seconds = canonicalizer.summary.seconds
        print(f"\n== canonicalization of {len(documents)} papers ({sum(t.nodes for t in timings)} nodes placed)")
        print(f"total seconds {sum(t.seconds for t in timings):.1f} (+ {save_seconds:.1f} s for the first sidecar save, "
              f"{again_seconds:.2f} s for a save with nothing new: saves write what changed, the fingerprint is not re-read)")
        print("  " + ", ".join(f"{part} {seconds.get(part, 0.0):.1f}" for part in PARTS) + "  (sparql = node reads + link/hub/audit updates)")
        print(f"texts embedded: {canonicalizer.cache.computed} distinct")
        summary = canonicalizer.summary
        print(f"merges {summary.merges}, hubs created {summary.hubs_created}, mentions {summary.links}, left unattached {summary.unattached}, "
              f"placed by exact text {summary.exact}, guard vetoes {summary.guard_vetoes}")
        print("\nexact text vs what the policy adds:")
        print("\n".join(exact_text_share(store)))
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
