"""Benchmark: every command a user waits for, timed as whole processes on one store, for two versions of claimgraph.

Give a store folder (e.g. the 70 ARCHE papers ingested and canonicalized) and
optionally an earlier commit; the commit's tree is extracted with ``git
archive`` into a temporary folder and put first on PYTHONPATH, so the same
store is read by the old and the new code. Each command runs ``--repeats``
times on a copy of the store (commands that write get a fresh copy each time);
the table gives the median seconds, before and after.

    python bench/command_times.py STORE [--before COMMIT] [--repeats 3] [--paper ID]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def commands(paper: str, out: Path) -> list[tuple[str, list[str], bool]]:
    """(label, arguments after --store, whether it writes)."""
    return [
        ("--help", ["--help"], False),
        ("stats", ["stats"], False),
        ("stats --convergence", ["stats", "--convergence"], False),
        ("query paper-graphs", ["query", "paper-graphs"], False),
        ("query shared-viewpoints", ["query", "shared-viewpoints"], False),
        ("query papers-by-claims", ["query", "papers-by-claims"], False),
        ("audit --paper", ["audit", "--paper", paper], False),
        ("diff --paper", ["diff", "--paper", paper], False),
        ("export trig --paper", ["export", "--format", "trig", "--paper", paper, "-o", str(out / "one.trig")], False),
        ("export trig (all papers)", ["export", "--format", "trig", "-o", str(out / "all.trig")], False),
        ("export jsonld --paper", ["export", "--format", "jsonld", "--paper", paper, "-o", str(out / "one.jsonld")], False),
        ("canonicalize --list-merges", ["canonicalize", "--list-merges"], False),
        ("validate --paper", ["validate", "--paper", paper], True),
        ("validate (all papers)", ["validate"], True),
        ("repair --paper", ["repair", "--paper", paper], True),
    ]


def timed(pythonpath: str | None, store: Path, arguments: list[str]) -> tuple[float, int]:
    """Seconds and exit code of one command, run from the store's folder (``python -m`` puts the working folder
    first on the path, so running from the checkout would import its code for both versions)."""
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    command = [sys.executable, "-m", "claimgraph"] if arguments == ["--help"] else [sys.executable, "-m", "claimgraph", "--store", str(store)]
    started = time.perf_counter()
    process = subprocess.run([*command, *arguments], env=env, capture_output=True, check=False, cwd=store.parent)
    return time.perf_counter() - started, process.returncode


def extract(commit: str, folder: Path) -> Path:
    target = folder / f"claimgraph-{commit[:10]}"
    target.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("store", type=Path)
    parser.add_argument("--before", help="an earlier commit to compare with")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--paper", default="s41467-025-55907-w")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        versions: list[tuple[str, str | None]] = [("after", str(REPO))]
        if args.before:
            versions.insert(0, ("before", str(extract(args.before, work))))
        results: dict[str, dict[str, str]] = {}
        for label, arguments, writes in commands(args.paper, work):
            for version, path in versions:
                times, codes = [], set()
                copy = work / "store"
                for _ in range(args.repeats):
                    if writes or not copy.exists():
                        shutil.rmtree(copy, ignore_errors=True)
                        shutil.copytree(args.store, copy)
                    seconds, code = timed(path, copy, arguments)
                    times.append(seconds)
                    codes.add(code)
                results.setdefault(label, {})[version] = f"{statistics.median(times):7.2f}" + ("" if codes <= {0, 1} else f" (exit {sorted(codes)})")
            print(f"{label:<28} " + "  ".join(f"{version} {results[label][version]}" for version, _ in versions), flush=True)
        print("\n| command | " + " | ".join(f"{version} (s)" for version, _ in versions) + " |")
        print("| --- | " + " | ".join("---" for _ in versions) + " |")
        for label, row in results.items():
            print(f"| `{label}` | " + " | ".join(row[version].strip() for version, _ in versions) + " |")


if __name__ == "__main__":
    main()
