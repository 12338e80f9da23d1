"""Benchmark: 700 papers (the ARCHE corpus replicated under fresh ids) on the embedded and the remote store.

Writes N copies of every ARCHE paper into a temporary folder (``base_id``
suffixed ``-rK``; nothing lands in the repository), then ingests them in
batches of 10 through ``Workflow.ingest`` (no canonicalization unless
``--canonicalize``, which uses the hashing embedder) and prints:

- seconds per paper for each batch, and the ratio of the last batches to the
  batches right after paper 10 (flat: within 1.2x);
- peak memory of this process (and of the ``oxigraph serve`` process);
- the store's size on disk;
- the medians of ``shared-viewpoints`` and ``papers-by-claims`` at 70 papers
  and at the end.

    python bench/scale.py [--copies 10] [--backends embedded,remote] [--canonicalize]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import tempfile
import time
from pathlib import Path

from claimgraph.context import Context
from claimgraph.loaders import find_inputs
from claimgraph.rdf.queries import read_named_query
from claimgraph.store import EmbeddedStore, RemoteStore, Store
from claimgraph.testing.corpora import real_arche_dir
from claimgraph.testing.oxigraph import oxigraph_server
from claimgraph.workflow import IngestOptions, Workflow

QUERIES = ("shared-viewpoints", "papers-by-claims")
BATCH = 10


def replicate(arche: Path, folder: Path, copies: int) -> list[Path]:
    """``copies`` copies of each ARCHE paper under fresh ids, interleaved so every batch mixes papers."""
    originals = sorted(find_inputs([arche]))
    paths = []
    for copy in range(copies):
        for source in originals:
            document = json.loads(source.read_text(encoding="utf-8"))
            info = document["file_info"]
            info["base_id"] = f"{info.get('base_id') or source.stem}-r{copy}"
            target = folder / f"{source.stem}-r{copy}.json"
            target.write_text(json.dumps(document), encoding="utf-8")
            paths.append(target)
    return paths


def query_medians(store: Store, repeats: int = 3) -> dict[str, tuple[float, int]]:
    medians = {}
    for name in QUERIES:
        text = read_named_query(name)
        times, rows = [], 0
        for _ in range(repeats):
            started = time.perf_counter()
            rows = len(store.select(text))
            times.append(time.perf_counter() - started)
        medians[name] = (statistics.median(times), rows)
    return medians


def disk_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def process_peak_kib(pid: int) -> int:
    """VmHWM of a running process (peak resident set), in KiB; 0 when unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_backend(name: str, store: Store, files: list[Path], options: IngestOptions, folder: Path, server_pid: int | None) -> None:
    workflow = Workflow(Context(store))
    per_paper: list[float] = []
    at_70: dict[str, tuple[float, int]] = {}
    print(f"\n== {name} ({store.location}), {len(files)} papers in batches of {BATCH}")
    started_all = time.perf_counter()
    for start in range(0, len(files), BATCH):
        batch = files[start:start + BATCH]
        started = time.perf_counter()
        result = workflow.ingest(batch, options)
        seconds = time.perf_counter() - started
        per_paper.append(seconds / len(batch))
        if result.failures:
            print(f"  batch at {start}: {len(result.failures)} failures, first: {result.failures[0].message}")
        if start + len(batch) == 70:
            at_70 = query_medians(store)
        if (start // BATCH) % 7 == 0 or start + BATCH >= len(files):
            print(f"  papers {start + 1:4d}-{start + len(batch):4d}: {per_paper[-1]:.2f} s/paper")
    total = time.perf_counter() - started_all
    early = statistics.mean(per_paper[1:8])  # papers 11-80
    late = statistics.mean(per_paper[-7:])
    print(f"  total {total:.0f} s; s/paper papers 11-80 {early:.2f}, last 70 {late:.2f}: ratio {late / early:.2f} (flat: <= 1.2)")
    print(f"  triples {store.count_triples():,}")
    print(f"  peak memory of this process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"
          + (f", of oxigraph serve {process_peak_kib(server_pid) / 1024:.0f} MiB" if server_pid else ""))
    print(f"  store on disk {disk_bytes(folder) / 2**20:.0f} MiB")
    final = query_medians(store)
    for query in QUERIES:
        print(f"  {query:<18} at 70 papers {at_70[query][0]:.3f} s ({at_70[query][1]} rows), at {len(files)}: {final[query][0]:.3f} s ({final[query][1]} rows)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, default=real_arche_dir())
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--backends", default="embedded,remote")
    parser.add_argument("--canonicalize", action="store_true", help="canonicalize each batch too (hashing embedder)")
    args = parser.parse_args()
    if args.arche is None:
        raise SystemExit("no ARCHE corpus: set CLAIMGRAPH_ARCHE_DIR or pass --arche")
    options = IngestOptions(canonicalize=args.canonicalize, validate=False, embedder="hashing")
    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder) / "corpus"
        corpus.mkdir()
        files = replicate(args.arche, corpus, args.copies)
        for backend in args.backends.split(","):
            if backend == "embedded":
                location = Path(folder) / "embedded"
                with EmbeddedStore(location) as store:
                    run_backend("embedded", store, files, options, location, None)
            elif backend == "remote":
                location = Path(folder) / "served"
                with oxigraph_server(location) as server:
                    run_backend("remote", RemoteStore.from_base_url(server.url), files, options, location, server.pid)


if __name__ == "__main__":
    main()
