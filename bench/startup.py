"""Benchmark: whole-process time of CLI commands against plain pyoxigraph scripts doing the same work.

Builds (or reuses, with --store) an embedded store holding the ARCHE papers,
then runs each command and its plain-pyoxigraph equivalent N times in fresh
processes and prints the medians and their ratio. Each equivalent reads the same
data with the same query file where the command has one (``paper-graphs.rq``,
``internal/audit-trail.rq`` and ``audit-touched.rq`` with the paper's audit graph written in,
the ``stats`` queries), or the same quads (``export``). Targets: ``--help``
at most 0.5 s, so that asking for help feels instant; ``query paper-graphs``, ``export``, ``audit`` and ``stats`` at
most 1.5x their plain equivalents.

    python bench/startup.py [--arche DIR] [--store DIR] [--repeats 5]
"""

from __future__ import annotations

import argparse
import compileall
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from claimgraph.testing.corpora import real_arche_dir

PLAIN = {
    "query paper-graphs": """
import pyoxigraph, sys
store = pyoxigraph.Store.read_only(sys.argv[1])
query = open(sys.argv[2]).read()
for row in store.query(query):
    print(row["paper"].value)
""",
    "export --paper P --format trig": """
import pyoxigraph, sys
store = pyoxigraph.Store.read_only(sys.argv[1])
graph = pyoxigraph.NamedNode("https://claimgraph.example/paper/" + sys.argv[3])
sys.stdout.buffer.write(pyoxigraph.serialize(list(store.quads_for_pattern(None, None, None, graph)), format=pyoxigraph.RdfFormat.TRIG))
""",
    "audit --paper P": """
import pyoxigraph, sys
store = pyoxigraph.Store.read_only(sys.argv[1])
audit = pyoxigraph.NamedNode("https://claimgraph.example/paper/" + sys.argv[3] + "/audit")
for name in ("audit-trail", "audit-touched"):
    query = open(sys.argv[4] + "/../internal/" + name + ".rq").read().replace("GRAPH ?audit", "GRAPH <" + audit.value + ">")
    for row in store.query(query):
        print(*(term.value if term is not None else "" for term in row))
""",
    "stats": """
import pyoxigraph, sys
store = pyoxigraph.Store.read_only(sys.argv[1])
for name in ("store-totals", "nodes-per-type"):
    for row in store.query(open(sys.argv[4] + "/" + name + ".rq").read()):
        print(*(term.value for term in row))
""",
}


def command_args(name: str, paper: str) -> list[str]:
    return {
        "query paper-graphs": ["query", "paper-graphs"],
        "export --paper P --format trig": ["export", "--paper", paper, "--format", "trig"],
        "audit --paper P": ["audit", "--paper", paper],
        "stats": ["stats"],
    }[name]


def median_seconds(argv: list[str], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def build_store(arche: Path, store: Path) -> None:
    subprocess.run([sys.executable, "-m", "claimgraph", "--store", str(store), "ingest", str(arche), "--no-canonicalize", "--no-validate"],
                   check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arche", type=Path, default=real_arche_dir())
    parser.add_argument("--store", type=Path, help="an existing store to measure (default: build one from --arche)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    claimgraph = shutil.which("claimgraph") or sys.exit("the claimgraph command is not installed")
    import claimgraph as package

    # Bytecode as an installed wheel has it: an editable install under PYTHONDONTWRITEBYTECODE=1 would otherwise
    # compile every module on every start, which no user of an installed claimgraph pays.
    compileall.compile_dir(str(Path(package.__file__).parent), quiet=1)
    folder = tempfile.mkdtemp(prefix="claimgraph-startup-")
    store = args.store or Path(folder) / "store"
    if args.store is None:
        if args.arche is None:
            sys.exit("no ARCHE corpus: set CLAIMGRAPH_ARCHE_DIR or pass --arche/--store")
        build_store(args.arche, store)
    paper = sorted(Path(args.arche).glob("*.json"))[0].stem if args.arche else "synth-0001"
    queries = Path(__file__).resolve().parents[1] / "sparql" / "queries"
    print(f"store {store}; {args.repeats} runs each, medians in seconds")
    help_seconds = median_seconds([claimgraph, "--help"], args.repeats)
    print(f"{'claimgraph --help':<34} {help_seconds:7.3f}  (target <= 0.5)")
    print(f"{'command':<34} {'claimgraph':>10} {'pyoxigraph':>10} {'ratio':>7}")
    for name, script in PLAIN.items():
        cli = median_seconds([claimgraph, "--store", str(store), *command_args(name, paper)], args.repeats)
        plain = median_seconds([sys.executable, "-c", script, str(store), str(queries / "paper-graphs.rq"), paper, str(queries)], args.repeats)
        print(f"{name:<34} {cli:10.3f} {plain:10.3f} {cli / plain:7.2f}")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
