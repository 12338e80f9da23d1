"""Benchmark: 700 papers (the ARCHE corpus replicated under fresh ids) on the embedded and the remote store.

Writes N copies of every ARCHE paper into a temporary folder (``base_id``
suffixed ``-rK``; nothing lands in the repository), then ingests them in
batches of 10 through ``Workflow.ingest`` (no canonicalization unless
``--canonicalize``, which uses the hashing embedder) and prints:

- seconds per paper for each batch (wall clock, and CPU seconds of this process
  and of the ``oxigraph serve`` process, with the part RocksDB's background
  flushes and compactions took), with the load average when the batch
  ended, and the ratio of the last 70 papers to papers 11-80 (flat: within
  1.2x); the machine is shared, so the ratio within one run is what counts;
- peak memory of this process (and of the ``oxigraph serve`` process);
- the store's size on disk (and how much of it is RocksDB's write-ahead log);
- the medians of ``shared-viewpoints`` and ``papers-by-claims`` at 70 papers
  and at the end.

    python bench/scale.py [--copies 10] [--backends embedded,remote] [--canonicalize] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import pyoxigraph

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


def disk_bytes(folder: Path, suffix: str = "") -> int:
    return sum(path.stat().st_size for path in folder.rglob(f"*{suffix}") if path.is_file())


def reopened_bytes(folder: Path) -> int:
    """The store's size once opened again after its writer closed: RocksDB's recovery writes the write-ahead log
    into table files and deletes it (the size a store settles at, uncompressed)."""
    started = time.perf_counter()
    pyoxigraph.Store(str(folder)).flush()
    size = disk_bytes(folder)
    print(f"  store on disk after closing and opening again ({time.perf_counter() - started:.0f} s): {size / 2**20:.0f} MiB"
          f", of which {disk_bytes(folder, '.log') / 2**20:.0f} MiB write-ahead log")
    return size


def _cpu_seconds(stat: Path) -> float:
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_cpu_seconds(pid: int | None) -> tuple[float, float]:
    """User + system CPU seconds of a running process (every thread, ended ones included), and of RocksDB's background
    threads (flushes and compactions, named ``rocksdb:*``) among them; (0, 0) when there is no process."""
    if pid is None:
        return 0.0, 0.0
    background = 0.0
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            if (task / "comm").read_text().startswith("rocksdb"):
                background += _cpu_seconds(task / "stat")
        except OSError:
            continue  # a thread that ended meanwhile
    return _cpu_seconds(Path(f"/proc/{pid}/stat")), background


@dataclass
class Batch:
    """One batch of papers: wall-clock and CPU seconds per paper, the 1-minute load average at its end.

    ``cpu`` counts every thread of this process, ``server_cpu`` every thread of the server; ``compaction`` RocksDB's
    background threads of whichever process holds the store (included in the other figure).
    """

    first: int
    papers: int
    wall: float
    cpu: float
    server_cpu: float
    compaction: float
    load: float


def process_peak_kib(pid: int) -> int:
    """VmHWM of a running process (peak resident set), in KiB; 0 when unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def ingest_batches(store: Store, files: list[Path], options: IngestOptions, server_pid: int | None) -> tuple[list[Batch], dict[str, tuple[float, int]]]:
    """Ingest the files in batches of ``BATCH``; the figures of each batch, and the query medians at 70 papers."""
    workflow = Workflow(Context(store))
    batches: list[Batch] = []
    at_70: dict[str, tuple[float, int]] = {}
    for start in range(0, len(files), BATCH):
        batch = files[start:start + BATCH]
        started, cpu, server = time.perf_counter(), process_cpu_seconds(os.getpid()), process_cpu_seconds(server_pid)
        result = workflow.ingest(batch, options)
        count = len(batch)
        cpu_after, server_after = process_cpu_seconds(os.getpid()), process_cpu_seconds(server_pid)
        compaction = (server_after[1] - server[1]) if server_pid else (cpu_after[1] - cpu[1])
        batches.append(Batch(start + 1, count, (time.perf_counter() - started) / count, (cpu_after[0] - cpu[0]) / count,
                             (server_after[0] - server[0]) / count, compaction / count, os.getloadavg()[0]))
        if result.failures:
            print(f"  batch at {start}: {len(result.failures)} failures, first: {result.failures[0].message}")
        if start + count == 70:
            at_70 = query_medians(store)
        row = batches[-1]
        print(f"  papers {start + 1:4d}-{start + count:4d}: {row.wall:.2f} s/paper (cpu {row.cpu:.2f} here, {row.server_cpu:.2f} server, "
              f"{row.compaction:.2f} of it compaction), load {row.load:.2f}", flush=True)
    return batches, at_70


def ratio_line(name: str, early: list[Batch], late: list[Batch]) -> str:
    first = statistics.mean(getattr(batch, name) for batch in early)
    last = statistics.mean(getattr(batch, name) for batch in late)
    return f"{first:.3f} for papers 11-80, {last:.3f} for the last 70: ratio {last / first:.2f}" if first else "n/a"


def run_backend(name: str, store: Store, files: list[Path], options: IngestOptions, folder: Path, server_pid: int | None) -> dict[str, object]:
    print(f"\n== {name} ({store.location}), {len(files)} papers in batches of {BATCH}; load average {os.getloadavg()[0]:.2f} at the start")
    started_all = time.perf_counter()
    batches, at_70 = ingest_batches(store, files, options, server_pid)
    total = time.perf_counter() - started_all
    early, late = batches[1:8], batches[-7:]  # papers 11-80 and the last 70
    print(f"  total {total:.0f} s for {len(files)} papers")
    print(f"  wall s/paper: {ratio_line('wall', early, late)} (flat: <= 1.2)")
    print(f"  cpu s/paper of this process: {ratio_line('cpu', early, late)}")
    if server_pid:
        print(f"  cpu s/paper of oxigraph serve: {ratio_line('server_cpu', early, late)}")
    print(f"  cpu s/paper of RocksDB's flushes and compactions (in the figure above): {ratio_line('compaction', early, late)}")
    print(f"  load average: {ratio_line('load', early, late)}; {min(b.load for b in batches):.2f} to {max(b.load for b in batches):.2f} over the run")
    slowest = max(batches, key=lambda batch: batch.wall)
    print(f"  slowest batch: papers {slowest.first}-{slowest.first + slowest.papers - 1}, {slowest.wall:.2f} s/paper")
    print(f"  triples {store.count_triples():,}")
    peak_client = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peak_server = process_peak_kib(server_pid) / 1024 if server_pid else 0.0
    print(f"  peak memory of this process {peak_client:.0f} MiB" + (f", of oxigraph serve {peak_server:.0f} MiB" if server_pid else ""))
    disk, wal = disk_bytes(folder), disk_bytes(folder, ".log")
    print(f"  store on disk {disk / 2**20:.0f} MiB, of which {wal / 2**20:.0f} MiB write-ahead log (RocksDB *.log files, not yet flushed)")
    final = query_medians(store)
    for query in QUERIES:
        print(f"  {query:<18} at 70 papers {at_70[query][0]:.3f} s ({at_70[query][1]} rows), at {len(files)}: {final[query][0]:.3f} s ({final[query][1]} rows)")
    return {"backend": name, "total": total, "batches": [asdict(batch) for batch in batches], "peak_client_mib": peak_client,
            "peak_server_mib": peak_server, "disk_bytes": disk, "wal_bytes": wal, "queries_at_70": at_70, "queries_at_end": final}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, default=real_arche_dir())
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--backends", default="embedded,remote")
    parser.add_argument("--canonicalize", action="store_true", help="canonicalize each batch too (hashing embedder)")
    parser.add_argument("--json", type=Path, help="also write every figure (each batch's) to this file")
    args = parser.parse_args()
    if args.arche is None:
        raise SystemExit("no ARCHE corpus: set CLAIMGRAPH_ARCHE_DIR or pass --arche")
    options = IngestOptions(canonicalize=args.canonicalize, validate=False, embedder="hashing")
    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder) / "corpus"
        corpus.mkdir()
        files = replicate(args.arche, corpus, args.copies)
        figures = []
        for backend in args.backends.split(","):
            if backend == "embedded":
                location = Path(folder) / "embedded"
                with EmbeddedStore(location) as store:
                    figures.append(run_backend("embedded", store, files, options, location, None))
            elif backend == "remote":
                location = Path(folder) / "served"
                with oxigraph_server(location) as server:
                    figures.append(run_backend("remote", RemoteStore.from_base_url(server.url), files, options, location, server.pid))
            else:
                raise SystemExit(f"unknown backend {backend!r}: embedded or remote")
            figures[-1]["disk_bytes_reopened"] = reopened_bytes(location)
        if args.json:
            args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
