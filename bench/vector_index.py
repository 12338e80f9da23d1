"""Benchmark: an IVF-PQ FAISS index against the exact (flat) one on real node vectors, and at 10x the size.

Reads the vectors a canonicalization already computed (the embedding cache
shards ``embeddings-*/shard-*.npz`` of a sidecar folder, e.g. the 70 ARCHE
papers with all-MiniLM-L6-v2), normalizes them, holds out ``--queries`` of
them as queries, and compares IndexIVFPQ (trained on the rest) with
IndexFlatIP: recall@k of the exact top k, build and search seconds, bytes per
vector. ``--scale 10`` also builds the indexes on ten noisy copies of every
vector (a stand-in for the 700-paper corpus, whose replicated texts would
give identical vectors and a meaningless recall) to show how search time and
memory grow.

    python bench/vector_index.py SIDECAR [--queries 1000] [--k 10] [--scale 10]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import faiss
import numpy as np


def load_vectors(sidecar: Path) -> np.ndarray:
    shards = sorted(sidecar.glob("embeddings-*/shard-*.npz"))
    if not shards:
        raise SystemExit(f"no embedding shards under {sidecar} (run claimgraph canonicalize first)")
    parts = []
    for shard in shards:
        with np.load(shard, allow_pickle=False) as data:
            parts.append(np.asarray(data["vectors"], dtype=np.float32))
    vectors = np.unique(np.concatenate(parts), axis=0)
    faiss.normalize_L2(vectors)
    return vectors


def recall(exact: np.ndarray, approximate: np.ndarray) -> float:
    hits = sum(len(set(a) & set(e)) for a, e in zip(approximate, exact))
    return hits / exact.size


def compare(base: np.ndarray, queries: np.ndarray, k: int, nlist: int, m: int, label: str) -> None:
    dimension = base.shape[1]
    started = time.perf_counter()
    flat = faiss.IndexFlatIP(dimension)
    flat.add(base)
    flat_build = time.perf_counter() - started
    started = time.perf_counter()
    _, exact = flat.search(queries, k)
    flat_search = time.perf_counter() - started
    print(f"\n== {label}: {len(base):,} vectors of {dimension} dimensions, {len(queries)} queries, k={k}")
    print(f"  flat (exact)       build {flat_build:6.2f} s  search {1000 * flat_search / len(queries):7.3f} ms/query  {4 * dimension} bytes/vector")
    sample = base[np.random.default_rng(0).choice(len(base), min(len(base), 64 * nlist), replace=False)]
    index = ivf_pq(dimension, nlist, m)
    started = time.perf_counter()
    index.train(sample)
    index.add(base)
    build = time.perf_counter() - started
    for nprobe in (4, 16, 64):
        index.nprobe = nprobe
        started = time.perf_counter()
        _, found = index.search(queries, k)
        seconds = time.perf_counter() - started
        print(f"  IVF{nlist},PQ{m} nprobe {nprobe:3d}  build {build:6.2f} s  search {1000 * seconds / len(queries):7.3f} ms/query  "
              f"{m} bytes/vector  recall@{k} {recall(exact, found):.3f}")
    inner = ivf_pq(dimension, nlist, m)
    refine = faiss.IndexRefineFlat(inner)
    started = time.perf_counter()
    refine.train(sample)
    refine.add(base)
    build = time.perf_counter() - started
    inner.nprobe = 16
    refine.k_factor = 4
    started = time.perf_counter()
    _, found = refine.search(queries, k)
    seconds = time.perf_counter() - started
    print(f"  IVF{nlist},PQ{m} nprobe  16 + exact re-ranking of {4 * k} candidates  build {build:6.2f} s  search {1000 * seconds / len(queries):7.3f} ms/query  "
          f"{m} + {4 * dimension} bytes/vector (codes + exact vectors for re-ranking)  recall@{k} {recall(exact, found):.3f}")


def ivf_pq(dimension: int, nlist: int, m: int) -> faiss.IndexIVFPQ:
    """An untrained IVF-PQ index over inner products: ``nlist`` lists, ``m`` sub-quantizers of 8 bits."""
    return faiss.IndexIVFPQ(faiss.IndexFlatIP(dimension), dimension, nlist, m, 8, faiss.METRIC_INNER_PRODUCT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sidecar", type=Path)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--noise", type=float, default=0.05, help="standard deviation of the noise added to each copy (unit vectors)")
    args = parser.parse_args()
    faiss.omp_set_num_threads(2)
    vectors = load_vectors(args.sidecar)
    rng = np.random.default_rng(14)
    order = rng.permutation(len(vectors))
    queries, base = vectors[order[: args.queries]], vectors[order[args.queries:]]
    nlist = max(16, int(4 * np.sqrt(len(base))) // 16 * 16)
    m = 48 if base.shape[1] % 48 == 0 else 32
    compare(base, queries, args.k, nlist, m, "the real vectors")
    if args.scale > 1:
        copies = [base] + [base + rng.normal(0, args.noise / np.sqrt(base.shape[1]), base.shape).astype(np.float32) for _ in range(args.scale - 1)]
        big = np.concatenate(copies)
        faiss.normalize_L2(big)
        compare(big, queries, args.k, max(16, int(4 * np.sqrt(len(big))) // 16 * 16), m, f"{args.scale} noisy copies")


if __name__ == "__main__":
    main()
