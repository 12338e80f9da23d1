"""Benchmark: ingest the 70 ARCHE papers (no canonicalization) against a plain pyoxigraph bulk load, and validate.

For each backend (embedded, and an ``oxigraph serve`` process) it prints the
ingest time (load, raw copy, repair scripts, gate, audit: what ``claimgraph
ingest --no-canonicalize --no-validate`` does), the validation time and
nodes per second, and the median time of each shipped query. Then, in the
same run, the floor an ingest is measured against: pyoxigraph's ``bulk_extend``
of the very quads the ingest stored, plus each repair script run once over
all graphs at once; the ratio ingest / floor is the overhead of doing it paper
by paper, audited (the target: at most 5).

    python bench/ingest_arche.py [--arche DIR] [--repeats 3] [--no-remote] [--limit N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import pyoxigraph

from claimgraph.context import Context
from claimgraph.loaders import find_inputs
from claimgraph.quality.repair import script_paths
from claimgraph.rdf.binding import bind
from claimgraph.rdf.queries import list_named_queries, read_sparql_file
from claimgraph.store import EmbeddedStore, RemoteStore, Store
from claimgraph.testing.corpora import real_arche_dir
from claimgraph.testing.oxigraph import running_oxigraph
from claimgraph.workflow import IngestOptions, Workflow


def measure_backend(name: str, store: Store, files: list[Path], repeats: int) -> tuple[float, list[pyoxigraph.Quad]]:
    """Ingest, validate and query on one backend; returns the ingest seconds and the quads it stored."""
    ctx = Context(store)
    workflow = Workflow(ctx)
    started = time.perf_counter()
    result = workflow.ingest(files, IngestOptions(canonicalize=False, validate=False))
    ingest_seconds = time.perf_counter() - started
    triples = store.count_triples()
    started = time.perf_counter()
    report = workflow.validate(result.papers)
    validate_seconds = time.perf_counter() - started
    print(f"\n== {name} backend ({store.location})")
    print(f"papers                 {len(result.papers)} (failed files: {len(result.failures)})")
    print(f"triples                {triples:,}")
    print(f"ingest seconds         {ingest_seconds:.2f} (load, raw copy, repair scripts, gate, audit)")
    print(f"validate seconds       {validate_seconds:.2f}  ({report.nodes_validated / validate_seconds:,.0f} nodes/s, "
          f"{report.nodes_validated} nodes, {report.nodes_failed} failed, {len(report.violations)} rule violations)")
    print(f"query medians of {repeats} runs (seconds):")
    for query_name, path in list_named_queries().items():
        text = read_sparql_file(path)
        times = []
        rows = 0
        for _ in range(repeats):
            started = time.perf_counter()
            rows = len(list(store.query(text)))  # type: ignore[arg-type]
            times.append(time.perf_counter() - started)
        print(f"  {query_name:<32} {statistics.median(times):8.3f}  ({rows} rows)")
    return ingest_seconds, list(store.quads())


def bulk_floor(folder: Path, quads: list[pyoxigraph.Quad]) -> tuple[float, float]:
    """(bulk load seconds, seconds of every repair script run once over all graphs) in a fresh pyoxigraph store."""
    store = pyoxigraph.Store(str(folder))
    started = time.perf_counter()
    store.bulk_extend(quads)
    loaded = time.perf_counter() - started
    with EmbeddedStore(None) as helper:
        ctx = Context(helper)
        vocabulary = ctx.vocabulary
        scripts = [read_sparql_file(path) for path in script_paths(ctx.profile)]
    started = time.perf_counter()
    for text in scripts:
        store.update(bind(text, {"vocabulary": vocabulary}))
    repaired = time.perf_counter() - started
    return loaded, repaired


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, default=real_arche_dir())
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--no-remote", action="store_true")
    args = parser.parse_args()
    if args.arche is None:
        raise SystemExit("no ARCHE corpus: set CLAIMGRAPH_ARCHE_DIR or pass --arche")
    files = sorted(find_inputs([args.arche]))[: args.limit or None]
    print(f"ARCHE input: {len(files)} files from {args.arche}")
    with tempfile.TemporaryDirectory() as folder:
        with EmbeddedStore(Path(folder) / "embedded") as store:
            ingest_seconds, quads = measure_backend("embedded", store, files, args.repeats)
        loaded, repaired = bulk_floor(Path(folder) / "floor", quads)
        floor = loaded + repaired
        print(f"\nfloor: bulk_extend of the same {len(quads):,} quads {loaded:.2f} s + repair scripts once over all graphs {repaired:.2f} s")
        print(f"ingest / floor (embedded): {ingest_seconds / floor:.2f}x (target: at most 5x)")
        if not args.no_remote:
            with running_oxigraph(Path(folder) / "served") as url:
                remote_seconds, _ = measure_backend("remote", RemoteStore.from_base_url(url), files, args.repeats)
            print(f"ingest / floor (remote):   {remote_seconds / floor:.2f}x")


if __name__ == "__main__":
    main()
