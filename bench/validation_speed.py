"""Benchmark: validating the 70 ARCHE papers with pyshex alone (as before) and with rudof sorting the nodes, in one run.

Loads every ARCHE paper into an embedded store (structure only, as ingest
stores it), then validates the whole store twice through ``validate_store``
with the default worker count: ``CLAIMGRAPH_SHEX_ENGINE=pyshex`` (every node
checked by pyshex, the engine claimgraph used before) and the default (rudof
decides, pyshex words the rejected nodes). Prints nodes, seconds, nodes per
second and the ratio; then compares the two engines node by node (rudof alone
against pyshex alone) on every focus node and reports the pairs compared and
any disagreement. ``--before COMMIT`` also runs that commit's own
``bench/ingest_arche.py`` (its tree from ``git archive``, first on PYTHONPATH)
and reads the validation rate it prints for the embedded store: the code as it
was, in the same run.

    python bench/validation_speed.py [--arche DIR] [--limit N] [--workers N] [--before REV]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from command_times import extract

from claimgraph.context import Context
from claimgraph.loaders import find_inputs, load_document
from claimgraph.papers.document_graph import document_triples
from claimgraph.quality.shapes import compile_profile, shape_results
from claimgraph.quality.shex_rudof import ENGINE_ENV, conforming_pairs
from claimgraph.quality.validation import validate_store
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore
from claimgraph.testing.corpora import real_arche_dir


def timed_validation(ctx: Context, engine: str, workers: int | None) -> tuple[float, int, int]:
    os.environ[ENGINE_ENV] = engine
    started = time.perf_counter()
    report = validate_store(ctx, workers=workers)
    seconds = time.perf_counter() - started
    return seconds, report.nodes_validated, report.nodes_failed


def differential(ctx: Context) -> tuple[int, int, list[str]]:
    """(pairs compared, failing pairs, disagreements) of rudof alone vs pyshex alone over every paper graph."""
    compiled = compile_profile(ctx.profile)
    compared = failing = 0
    problems: list[str] = []
    for graph in ctx.store.graph_names():
        triples = ctx.store.triples(graph)
        reference = {(focus, shape): passed for focus, blank, shape, passed, _ in shape_results(triples, compiled, engine="pyshex")
                     if shape and not blank}
        classes = {cls for cls, shape in compiled.shape_of_class.items() if shape in {shape for _, shape in reference}}
        fast = conforming_pairs(triples, compiled.shex_texts, compiled.shape_of_class, classes)
        compared += len(reference)
        failing += sum(1 for passed in reference.values() if not passed)
        problems += [f"{graph.value} {pair}: pyshex {passed}, rudof {fast.get(pair)}" for pair, passed in reference.items() if fast.get(pair) != passed]
    return compared, failing, problems


def earlier_rate(commit: str, arche: Path) -> float:
    """Validated nodes per second on the embedded store, as the commit's own bench/ingest_arche.py measures them."""
    with tempfile.TemporaryDirectory() as folder:
        tree = extract(commit, Path(folder))
        done = subprocess.run([sys.executable, str(tree / "bench" / "ingest_arche.py"), "--arche", str(arche.resolve()), "--repeats", "1"],
                              env=dict(os.environ, PYTHONPATH=str(tree)), cwd=folder, capture_output=True, text=True, check=True)
    found = re.search(r"validated nodes/second\s+([\d,]+)", done.stdout)
    if found is None:
        raise SystemExit(f"{commit}'s bench/ingest_arche.py printed no validation rate:\n{done.stdout[-800:]}")
    return float(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, default=real_arche_dir())
    parser.add_argument("--limit", type=int, default=0, help="only the first N papers")
    parser.add_argument("--workers", type=int, default=None, help="validation processes (default: one per CPU, as the command uses)")
    parser.add_argument("--no-differential", action="store_true")
    parser.add_argument("--before", help="an earlier commit whose own benchmark measures its validation in this run")
    args = parser.parse_args()
    if args.arche is None:
        raise SystemExit("no ARCHE corpus: set CLAIMGRAPH_ARCHE_DIR or pass --arche")
    files = sorted(find_inputs([args.arche]))[: args.limit or None]
    iris = IriScheme()
    with tempfile.TemporaryDirectory() as folder, EmbeddedStore(Path(folder) / "store") as store:
        for path in files:
            document = load_document(path)
            store.replace_graph(iris.paper(document.paper_id), document_triples(document, iris))
        ctx = Context(store, iris)
        print(f"{len(files)} ARCHE papers from {args.arche}, {store.count_triples():,} triples, workers {args.workers or os.cpu_count()}")
        results = {}
        for engine in ("pyshex", "auto"):
            seconds, nodes, failed = timed_validation(ctx, engine, args.workers)
            results[engine] = nodes / seconds
            label = "pyshex alone (before)" if engine == "pyshex" else "rudof + pyshex for failures"
            print(f"  {label:<30} {seconds:8.2f} s  {nodes:7,} nodes  {failed} failed  {nodes / seconds:9,.0f} nodes/s")
        print(f"  speed-up (nodes/s ratio)      {results['auto'] / results['pyshex']:.2f}x")
        if args.before:
            before = earlier_rate(args.before, args.arche)
            print(f"  {args.before} (its own benchmark)     {before:9,.0f} nodes/s; now {results['auto'] / before:.2f}x that")
        if not args.no_differential:
            compared, failing, problems = differential(ctx)
            print(f"differential: {compared:,} focus/shape pairs compared, {failing} nonconformant, {len(problems)} disagreements")
            for problem in problems[:20]:
                print(f"  {problem}")


if __name__ == "__main__":
    main()
