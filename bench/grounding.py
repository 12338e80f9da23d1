"""Benchmark and calibration of the source grounding audit on the 70 ARCHE papers.

Two measurements, both with the audit's own scoring (token F1 and containment,
their maximum):

1. Sentence viewpoints as node texts. ARCHE's annotators restated each
   sentence as atomic viewpoints, the closest thing in the data to an LLM
   node paraphrasing its source. Each viewpoint is scored against its own
   sentence (real anchor), against a random other sentence of the same paper
   (shuffled anchor) and against the neighbouring sentence (hard negative: same
   topic, next line). The threshold is calibrated here: the largest multiple of
   0.05 that keeps at least --keep of the real anchors, with the false-pass
   rate of shuffled and neighbouring anchors at that threshold.
2. Through the store. Clean reasoning graphs over each paper's own viewpoints
   (claimgraph.testing.reasoning_cases.graphs) are stored once with their real
   source tuples and once with each tuple replaced by another sentence of the
   paper (shuffled anchors), and audited with claimgraph.quality.grounding.audit_paper. Reference viewpoints
   (y > 0) are reported apart: their text is part of their own span, so their
   real-anchor score is 1 by construction.

    python bench/grounding.py [--arche ../shared/data/arche] [--seed 7] [--keep 0.95] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pyoxigraph import Literal, Triple

from claimgraph.context import Context
from claimgraph.loaders import Document, find_inputs, load_document
from claimgraph.papers.document_graph import document_triples, source_tuple_triples
from claimgraph.profile.manifest import load_profile
from claimgraph.quality.grounding import audit_paper, overlap_scores, roc_auc
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, RDF
from claimgraph.store import EmbeddedStore
from claimgraph.testing.corpora import real_arche_dir
from claimgraph.testing.reasoning_cases.graphs import graph_size, grow_graph, paper_viewpoints


def quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"n": len(values), "mean": round(statistics.fmean(values), 3), **{f"p{int(q * 100):02d}": round(pick(q), 3) for q in (0.05, 0.25, 0.5, 0.75, 0.95)}}


def score(text: str, span: str) -> float:
    return max(overlap_scores(text, span))


def viewpoint_scores(documents: list[Document], rng: random.Random) -> dict[str, list[float]]:
    """Sentence viewpoints against their own, a random other and the next sentence."""
    scores: dict[str, list[float]] = {"real": [], "shuffled": [], "neighbour": []}
    for document in documents:
        texts = {sentence.index: sentence.text for sentence in document.sentences}
        indexes = sorted(texts)
        if len(indexes) < 3:
            continue
        for viewpoint in document.viewpoints:
            x = viewpoint.sentence_index
            if viewpoint.reference_index or x not in texts:
                continue
            other = rng.choice([index for index in indexes if index != x])
            neighbour = x + 1 if x + 1 in texts else x - 1
            scores["real"].append(score(viewpoint.text, texts[x]))
            scores["shuffled"].append(score(viewpoint.text, texts[other]))
            scores["neighbour"].append(score(viewpoint.text, texts[neighbour]))
    return scores


def calibrate(real: list[float], keep: float) -> float:
    """The largest multiple of 0.05 at or below which at most 1 - keep of the real anchors fall."""
    best = 0.0
    for step in range(1, 20):
        threshold = step / 20
        if sum(value >= threshold for value in real) / len(real) >= keep:
            best = threshold
    return best


def store_graph(ctx: Context, document: Document, nodes: list[tuple[str, str, tuple[int, int, int]]]) -> None:
    triples = list(document_triples(document, ctx.iris))
    for local, text, source in nodes:
        node = ctx.iris.extracted_node(document.paper_id, local)
        triples += [Triple(node, RDF.type, CG.ReasoningNode), Triple(node, CG.text, Literal(text)), *source_tuple_triples(node, source)]
    ctx.store.replace_graph(ctx.iris.paper(document.paper_id), triples)


def misanchored(sources: list[tuple[int, int, int]], sentences: list[int], rng: random.Random) -> list[tuple[int, int, int]]:
    """Each tuple replaced by another sentence of the same paper, (x', 0, 0) with x' != x.

    Permuting the tuples among a graph's own nodes is no test here: a clean
    graph takes consecutive viewpoints, often all from two or three sentences.
    """
    return [(rng.choice([x for x in sentences if x != source[0]]), 0, 0) for source in sources]


def graph_scores(documents: list[Document], rng: random.Random, folder: Path) -> tuple[dict[str, list[float]], float]:
    ctx = Context(EmbeddedStore(folder / "store"), IriScheme(), load_profile("peirce"))
    scores: dict[str, list[float]] = {"real_own": [], "real_cited": [], "shuffled_own": [], "shuffled_cited": []}
    started = time.perf_counter()
    for document in documents:
        viewpoints = paper_viewpoints(document)
        if len(viewpoints) < 12:
            continue
        graph = grow_graph(rng, viewpoints, graph_size(rng, len(viewpoints)))
        sources = [node.source for node in graph.nodes]
        sentences = [sentence.index for sentence in document.sentences]
        for name, tuples in (("real", sources), ("shuffled", misanchored(sources, sentences, rng))):
            store_graph(ctx, document, [(node.id, node.text, source) for node, source in zip(graph.nodes, tuples)])
            audit = audit_paper(ctx, document.paper_id)
            kind = {ctx.iris.extracted_node(document.paper_id, node.id): "cited" if node.source[1] else "own" for node in graph.nodes}
            for node in audit.nodes:
                scores[f"{name}_{kind[node.node]}"].append(node.score)
    ctx.close()
    return scores, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, default=real_arche_dir())
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=float, default=0.95, help="share of real anchors the threshold must keep")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args(argv)
    if args.arche is None or not args.arche.is_dir():
        print("no ARCHE folder: pass --arche or set CLAIMGRAPH_ARCHE_DIR", file=sys.stderr)
        return 2
    documents = [load_document(path) for path in find_inputs([args.arche])]
    rng = random.Random(args.seed)
    viewpoints = viewpoint_scores(documents, rng)
    threshold = calibrate(viewpoints["real"], args.keep)
    report: dict[str, object] = {"papers": len(documents), "seed": args.seed, "keep": args.keep, "threshold": threshold}
    print(f"{len(documents)} papers; sentence viewpoints scored against their own, a random other and the next sentence")
    for name, values in viewpoints.items():
        passed = sum(value >= threshold for value in values) / len(values)
        print(f"  {name:10} {quantiles(values)}  pass at threshold: {passed:.3f}")
        report[f"viewpoints_{name}"] = {**quantiles(values), "pass_at_threshold": round(passed, 3)}
    for negative in ("shuffled", "neighbour"):
        auc = roc_auc(viewpoints["real"], viewpoints[negative])
        report[f"auc_real_vs_{negative}"] = round(auc, 4)
        print(f"  AUC real vs {negative}: {auc:.4f}")
    print(f"calibrated threshold (largest multiple of 0.05 keeping >= {args.keep:.0%} of real anchors): {threshold:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        graphs, seconds = graph_scores(documents, rng, Path(folder))
    print(f"clean reasoning graphs through the store ({seconds:.1f} s for real + shuffled audits):")
    for name, values in graphs.items():
        if values:
            print(f"  {name:15} {quantiles(values)}")
            report[f"graphs_{name}"] = quantiles(values)
    for part in ("own", "cited"):
        auc = roc_auc(graphs[f"real_{part}"], graphs[f"shuffled_{part}"])
        report[f"graphs_auc_{part}"] = round(auc, 4)
        print(f"  AUC real vs shuffled anchors, {part} viewpoints: {auc:.4f}")
    auc_all = roc_auc(graphs["real_own"] + graphs["real_cited"], graphs["shuffled_own"] + graphs["shuffled_cited"])
    report["graphs_auc_all"] = round(auc_all, 4)
    print(f"  AUC real vs shuffled anchors, all nodes: {auc_all:.4f}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
