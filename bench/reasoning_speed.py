"""Benchmark: reasoning graphs per second, this checkout against an earlier commit, measured in one run.

Two measures, each for both versions, the versions interleaved so that load
from other processes hits them alike:

- **in one process**: each version's own ``bench/repair.py`` (140 generated
  ARCHE-size responses with injected defects: materialize, store raw and
  repaired, repair scripts, gate, audit), run with its store on disk, as a
  user's store is, instead of in memory (``--memory`` keeps it in memory);
  the graphs/s it prints;
- **as a command**: ``claimgraph reasoning PAPER RESPONSE`` as whole
  processes, one per response, on a store of the 70 ARCHE papers ingested by
  that version (``--profile peirce ingest --no-canonicalize --no-validate``);
  the same responses for both versions, written by this checkout's generator.
  Both trees are byte-compiled first, as an installed wheel would be.

The earlier commit's tree comes from ``git archive`` and goes first on
PYTHONPATH; every child runs from a temporary folder, so each version imports
its own code.

    HF_HUB_OFFLINE=1 python bench/reasoning_speed.py [--before REV] [--responses 24] [--arche DIR]
"""

from __future__ import annotations

import argparse
import compileall
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from command_times import extract
from repair import clean_graph, inject, response

from claimgraph.loaders import find_inputs, load_document
from claimgraph.profile.manifest import load_profile
from claimgraph.testing.corpora import ARCHE_SKIP_REASON, real_arche_dir
from claimgraph.testing.reasoning_cases.graphs import graph_size, paper_viewpoints

REPO = Path(__file__).resolve().parents[1]
ON_DISK = """
import runpy, sys, tempfile
import claimgraph.store as store
memory = store.EmbeddedStore
folder = tempfile.mkdtemp(prefix="reasoning-speed-")
class OnDisk(memory):
    def __init__(self, path=None, *args, **kwargs):
        super().__init__(path if path is not None or OnDisk.used else folder, *args, **kwargs)
        OnDisk.used = True
OnDisk.used = False
store.EmbeddedStore = OnDisk
sys.argv = [sys.argv[1], "--arche", sys.argv[2]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def environment(tree: Path) -> dict[str, str]:
    return dict(os.environ, HF_HUB_OFFLINE="1", PYTHONPATH=str(tree))


def in_process(tree: Path, arche: Path, work: Path, memory: bool) -> float:
    """Graphs per second as the version's own bench/repair.py measures them (its first store on disk unless ``memory``)."""
    script = str(tree / "bench" / "repair.py")
    command = [sys.executable, script, "--arche", str(arche)] if memory else [sys.executable, "-c", ON_DISK, script, str(arche)]
    done = subprocess.run(command, env=environment(tree), cwd=work, capture_output=True, text=True, check=True)
    graphs = int(re.search(r"^graphs\s+(\d+)", done.stdout, re.MULTILINE).group(1))  # type: ignore[union-attr]
    seconds = float(re.search(r"^seconds\s+([\d.]+)", done.stdout, re.MULTILINE).group(1))  # type: ignore[union-attr]
    return graphs / seconds


def responses(arche: Path, folder: Path, count: int, seed: int = 11) -> list[tuple[str, Path]]:
    """``count`` generated responses for papers spread over the corpus, as (paper id, file)."""
    profile, rng = load_profile("peirce"), random.Random(seed)
    aliases: dict[str, list[str]] = {}
    for alias, label in profile.aliases.items():
        aliases.setdefault(label, []).append(alias.upper() if len(alias) <= 3 else alias)
    files = sorted(find_inputs([arche]))
    written = []
    for path in files[:: max(1, len(files) // count)][:count]:
        document = load_document(path)
        viewpoints = paper_viewpoints(document)
        generated = clean_graph(rng, viewpoints, graph_size(rng, len(viewpoints) - 4))
        inject(rng, generated, aliases)
        target = folder / f"{document.paper_id}.dot"
        target.write_text(response(rng, generated, aliases), encoding="utf-8")
        written.append((document.paper_id, target))
    return written


def claimgraph(tree: Path, work: Path, arguments: list[str]) -> float:
    """Seconds of one whole claimgraph process (exit 0 or 1: a residual is a verdict, not a failure)."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "claimgraph", *arguments], env=environment(tree), cwd=work,
                          capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{tree.name}: claimgraph {' '.join(arguments[:4])} ... exited {done.returncode}: {done.stderr.strip()[-400:]}")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="be6765a", help="the earlier version to compare with (a commit; default be6765a, the version of the figures in docs/peirce.md)")
    parser.add_argument("--arche", type=Path, help="ARCHE folder (default: CLAIMGRAPH_ARCHE_DIR or ../shared/data/arche)")
    parser.add_argument("--responses", type=int, default=24, help="responses stored through the command, per version")
    parser.add_argument("--memory", action="store_true", help="keep bench/repair.py's store in memory")
    args = parser.parse_args()
    arche = args.arche or real_arche_dir()
    if arche is None:
        raise SystemExit(f"no ARCHE corpus: {ARCHE_SKIP_REASON}")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        versions = {"before": extract(args.before, work), "after": REPO}
        for tree in versions.values():
            compileall.compile_dir(str(tree / "claimgraph"), quiet=1)
        rates: dict[str, list[float]] = {label: [] for label in versions}
        for label, tree in versions.items():
            rates[label].append(in_process(tree, arche.resolve(), work, args.memory))
            print(f"in one process, {label}: {rates[label][-1]:.2f} graphs/s", flush=True)
        made = responses(arche.resolve(), work, args.responses)
        seconds: dict[str, list[float]] = {label: [] for label in versions}
        for label, tree in versions.items():
            claimgraph(tree, work, ["--store", str(work / f"store-{label}"), "--profile", "peirce", "ingest", "--no-canonicalize",
                                    "--no-validate", str(arche.resolve())])
        for paper_id, path in made:
            for label, tree in versions.items():
                seconds[label].append(claimgraph(tree, work, ["--store", str(work / f"store-{label}"), "--profile", "peirce",
                                                              "reasoning", paper_id, str(path)]))
        where = "memory" if args.memory else "disk"
        print(f"\n| measure ({args.before} vs this checkout) | before | after | ratio |")
        print("| --- | --- | --- | --- |")
        print(f"| in one process, store on {where} (graphs/s) | {rates['before'][0]:.2f} | {rates['after'][0]:.2f} | "
              f"{rates['after'][0] / rates['before'][0]:.2f}x |")
        before, after = statistics.median(seconds["before"]), statistics.median(seconds["after"])
        print(f"| `claimgraph reasoning`, 70-paper store (median s per graph, {len(made)} responses) | {before:.2f} | {after:.2f} | "
              f"{before / after:.2f}x |")
        print(f"\nload average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
