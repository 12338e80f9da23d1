"""Benchmark: ingest the 70 ARCHE papers and validate every paper graph, embedded and remote.

Prints papers, triples, seconds for load / validate, triples per second,
validated nodes per second for each backend, then the median time (of 5) of
each shipped query on the full store.

    python bench/ingest_arche.py [--arche ../shared/data/arche] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from claimgraph.context import Context
from claimgraph.loaders import find_inputs
from claimgraph.rdf.queries import list_named_queries
from claimgraph.store import EmbeddedStore, RemoteStore, Store
from claimgraph.testing.oxigraph import running_oxigraph
from claimgraph.workflow import IngestOptions, Workflow

DEFAULT_ARCHE = Path(__file__).resolve().parents[2] / "shared" / "data" / "arche"


def measure_backend(name: str, store: Store, files: list[Path], repeats: int) -> None:
    workflow = Workflow(Context(store))
    started = time.perf_counter()
    result = workflow.ingest(files, IngestOptions(canonicalize=False, validate=False))
    load_seconds = time.perf_counter() - started
    triples = store.count_triples()
    started = time.perf_counter()
    report = workflow.validate(result.papers)
    validate_seconds = time.perf_counter() - started
    print(f"\n== {name} backend ({store.location})")
    print(f"papers                 {len(result.papers)} (failed files: {len(result.failures)})")
    print(f"triples                {triples}")
    print(f"ingest seconds         {load_seconds:.2f} (load, raw copy, repair scripts, gate)")
    print(f"validate seconds       {validate_seconds:.2f}")
    print(f"triples per second     {triples / load_seconds:,.0f} (ingest)")
    print(f"validated nodes/second {report.nodes_validated / validate_seconds:,.0f} ({report.nodes_validated} nodes, {report.nodes_failed} failed, {len(report.violations)} rule violations)")
    print(f"query medians of {repeats} runs (seconds):")
    for query_name, path in list_named_queries().items():
        text = path.read_text(encoding="utf-8")
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            rows = store.select(text)
            times.append(time.perf_counter() - started)
        print(f"  {query_name:<28} {statistics.median(times):8.3f}  ({len(rows)} rows)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, default=DEFAULT_ARCHE)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    files = list(find_inputs([args.arche]))
    print(f"ARCHE input: {len(files)} files from {args.arche}")
    with tempfile.TemporaryDirectory() as folder:
        with EmbeddedStore(Path(folder) / "embedded") as store:
            measure_backend("embedded", store, files, args.repeats)
        with running_oxigraph(Path(folder) / "served") as url:
            measure_backend("remote", RemoteStore.from_base_url(url), files, args.repeats)


if __name__ == "__main__":
    main()
