"""How far one ingest wanders through the package: the claimgraph files it runs and the calls between them.

Runs ``claimgraph`` (the command line, in this process) under ``sys.setprofile``
and records every call whose caller and callee are claimgraph source files in
different files. Every module is imported before the walk starts, so what
importing runs is not counted. It prints:

- files: distinct claimgraph files whose functions ran;
- cross-file edges: distinct (caller file, callee file) pairs;
- back edges: cross-file edges whose callee file was first entered before the
  caller file (the walk climbs back up to a file it already passed through);
- the files entered from the most distinct callers (a file every layer reaches into).

The figures depend on the command line given, so compare two trees with the
same arguments; the default ingests the bundled peirce example paper with a
reasoning reply from the bundled fake LLM server (claimgraph.testing)::

    python bench/ingest_walk.py                       # the tree on sys.path
    PYTHONPATH=/path/to/other/tree python bench/ingest_walk.py
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from types import FrameType
from typing import Any

REPO = Path(__file__).resolve().parents[1]
REPLY = ('digraph { a [label="(1,0,1) {Soap films cover the water}"]; b [label="(2,0,1) {Films damp ripples}"]; '
         'c [label="(0,0,0) {Ripples decay faster under soap}"]; a -> c [label="deduction-case"]; b -> c [label="deduction-rule"]; }')


class Walk:
    def __init__(self, package: Path) -> None:
        self.package = str(package)
        self.first_seen: dict[str, int] = {}
        self.edges: set[tuple[str, str]] = set()

    def _file(self, frame: FrameType | None) -> str | None:
        if frame is None:
            return None
        name = frame.f_code.co_filename
        return name[len(self.package) + 1:] if name.startswith(self.package) else None

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or frame.f_code.co_name == "<module>":  # importing a module is not a step of the walk
            return
        callee = self._file(frame)
        if callee is None:
            return
        self.first_seen.setdefault(callee, len(self.first_seen))
        caller = self._file(frame.f_back)
        if frame.f_back is not None and frame.f_back.f_code.co_name == "<module>":
            caller = None  # a call made while a module is imported
        if caller is not None and caller != callee:
            self.edges.add((caller, callee))

    def summary(self) -> dict[str, Any]:
        back = [(a, b) for a, b in self.edges if self.first_seen[b] < self.first_seen[a]]
        callers: dict[str, set[str]] = defaultdict(set)
        for a, b in self.edges:
            callers[b].add(a)
        busiest = sorted(((len(c), f) for f, c in callers.items()), reverse=True)[:5]
        return {"files": len(self.first_seen), "cross_file_edges": len(self.edges), "back_edges": len(back),
                "entered_from_most_callers": [{"file": f, "callers": n} for n, f in busiest]}


def import_everything(package: Path) -> None:
    """Import every module of the package first, so that both trees are measured on the calls of the ingest alone."""
    import importlib

    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if "testing" in parts or name.endswith("__main__"):
            continue
        with contextlib.suppress(Exception):
            importlib.import_module(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("argv", nargs="*", help="claimgraph arguments after --store (default: a peirce ingest of the example paper)")
    args = parser.parse_args()
    import claimgraph
    from claimgraph.cli.main import main as cli

    with tempfile.TemporaryDirectory() as tmp:
        store = str(Path(tmp) / "store")
        argv = args.argv or ["--profile", "peirce", "ingest", str(REPO / "examples" / "papers" / "soil-warming.md"), "--no-canonicalize"]
        from claimgraph.testing.fake_llm import running_fake_llm

        with running_fake_llm({"": [REPLY]}) as server:
            full = ["--store", store, *argv, "--base-url", server.base_url, "--no-cache"] if not args.argv else ["--store", store, *argv]
            import_everything(Path(claimgraph.__file__).parent)  # what importing runs is not part of the walk
            walk = Walk(Path(claimgraph.__file__).parent)
            sys.setprofile(walk.profile)
            try:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    code = cli(full)
            finally:
                sys.setprofile(None)
    print(json.dumps({"exit": code, "argv": argv, **walk.summary()}, indent=2))


if __name__ == "__main__":
    main()
