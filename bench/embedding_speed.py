"""Benchmark: texts/s of the sentence-transformers reference vs the ONNX Runtime embedder, same texts, same run.

Texts are distinct ARCHE viewpoint texts (sentence and reference viewpoints,
evenly spread over the 70 papers), or the synthetic ARCHE corpus's when the
real one is absent. Three embedders embed all of them three times, the runs
interleaved (reference, ONNX, ONNX, reference, ...) so that load from other
processes hits them alike: sentence-transformers, the ONNX embedder as it runs
by default (batches in parallel, one thread each) and the ONNX embedder running
one batch at a time on intra-op threads. The table gives the best of the runs
(wall clock, and CPU seconds of this process). The one-time export is timed into
a fresh temporary cache folder, with opening the warm cache (what every later
process pays). Vectors are compared as a sanity check (cosine to the reference).

    HF_HUB_OFFLINE=1 python bench/embedding_speed.py [--texts 5000] [--runs 3] [--batch-size 32]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from claimgraph.embedding.base import Embedder
from claimgraph.embedding.embedders import SentenceTransformerEmbedder
from claimgraph.embedding.onnx_embedder import OnnxSentenceEmbedder, available_cores
from claimgraph.loaders.formats.arche import arche_document, load_arche
from claimgraph.testing.corpora import real_arche_dir
from claimgraph.testing.synthetic.arche import corpus_documents


@dataclass
class Timings:
    label: str
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def record(self, run: Callable[[], object]) -> object:
        wall, cpu = time.perf_counter(), time.process_time()
        result = run()
        self.wall.append(time.perf_counter() - wall)
        self.cpu.append(time.process_time() - cpu)
        return result


def distinct(texts: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(texts))


def corpus_texts(count: int) -> tuple[str, list[str]]:
    """Up to ``count`` distinct viewpoint texts spread evenly over the corpus, and where they came from."""
    folder = real_arche_dir()
    if folder is not None:
        texts = distinct(v.text for path in sorted(folder.glob("*.json")) for v in load_arche(path).viewpoints)
        origin = f"real ARCHE ({folder})"
    else:
        documents = corpus_documents(papers=60)
        texts = distinct(v.text for name, data in sorted(documents.items())
                         for v in arche_document(data, Path(name)).viewpoints)
        origin = "synthetic ARCHE (real corpus not found)"
    step = max(1, len(texts) // count)
    return origin, texts[::step][:count]


def export_cost(batch_size: int) -> tuple[float, float, float]:
    """Seconds to export into an empty cache (first use), to open the warm cache, and the model's size in MB."""
    with tempfile.TemporaryDirectory(prefix="claimgraph-bench-models-") as root:
        started = time.perf_counter()
        first = OnnxSentenceEmbedder(batch_size=batch_size, cache_root=Path(root))
        first.embed(["warm-up"])
        cold = time.perf_counter() - started
        started = time.perf_counter()
        OnnxSentenceEmbedder(batch_size=batch_size, cache_root=Path(root)).embed(["warm-up"])
        warm = time.perf_counter() - started
        size = first.export.model_file.stat().st_size / 1e6
    return cold, warm, size


def row(label: str, timings: Timings, texts: int, reference: Timings | None) -> str:
    best_wall, best_cpu = min(timings.wall), min(timings.cpu)
    speedup = f"{min(reference.wall) / best_wall:5.2f}x" if reference else "    - "
    runs = " ".join(f"{texts / wall:6.0f}" for wall in timings.wall)
    return f"{label:<38} {texts / best_wall:8.0f} {texts / best_cpu:9.0f} {speedup}   {runs}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32, help="ONNX embedder batch size")
    parser.add_argument("--reference-batch-size", type=int, default=128, help="sentence-transformers batch size")
    args = parser.parse_args(argv)
    os.environ["HF_HUB_OFFLINE"] = "1"

    origin, texts = corpus_texts(args.texts)
    print(f"{len(texts)} distinct texts from {origin}; {available_cores()} cores; "
          f"load average before {os.getloadavg()[0]:.2f}")
    cold, warm, size = export_cost(args.batch_size)
    print(f"one-time export into an empty cache: {cold:.1f} s (model.onnx {size:.0f} MB); "
          f"opening the warm cache: {warm:.2f} s")

    embedders: list[tuple[Timings, Embedder]] = [
        (Timings(f"sentence-transformers (batch {args.reference_batch_size})"),
         SentenceTransformerEmbedder(batch_size=args.reference_batch_size)),
        (Timings(f"ONNX fp32, batches in parallel ({args.batch_size})"), OnnxSentenceEmbedder(batch_size=args.batch_size)),
        (Timings(f"ONNX fp32, intra-op threads ({args.batch_size})"),
         OnnxSentenceEmbedder(batch_size=args.batch_size, parallel_batches=False)),
    ]
    vectors = []
    for _, embedder in embedders:
        embedder.embed(texts[:64])  # load the model and warm up outside the timed runs
    for _ in range(args.runs):
        vectors = [timings.record(lambda e=embedder: e.embed(texts)) for timings, embedder in embedders]
    cosine = np.sum(vectors[0] * vectors[1], axis=1)
    threads_agree = bool(np.allclose(vectors[1], vectors[2], atol=1e-5))

    print(f"\n{'embedder':<38} {'texts/s':>8} {'texts/cpu-s':>9} {'speedup':>7}   texts/s of each run")
    reference = embedders[0][0]
    for timings, _ in embedders:
        print(row(timings.label, timings, len(texts), None if timings is reference else reference))
    print(f"\ncosine ONNX vs reference: min {cosine.min():.6f}, mean {cosine.mean():.6f}; both ONNX modes "
          f"{'agree' if threads_agree else 'DISAGREE'}; load average after {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
