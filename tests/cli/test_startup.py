"""Start-up stays instant: building the parser and printing help imports no heavy library (counted, not timed)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("torch", "faiss", "sentence_transformers", "openai", "pyshex", "rdflib", "lxml", "pypdf", "numpy", "z3")

PROBE = """
import contextlib, io, json, sys
from claimgraph.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(json.dumps(sorted(name for name in sys.modules)))
"""


def modules_after(*args: str) -> set[str]:
    """Module names loaded by a fresh interpreter after running ``claimgraph ARGS``."""
    result = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True)
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_help_loads_no_heavy_library() -> None:
    loaded = modules_after("--help")
    assert {name for name in HEAVY if name in loaded} == set()
    assert "claimgraph.testing" not in loaded and not any(name.startswith("claimgraph.testing.") for name in loaded)


def test_every_subcommand_help_loads_no_heavy_library() -> None:
    from claimgraph.cli.main import build_parser

    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for command in commands:
        loaded = modules_after(command, "--help")
        assert {name for name in HEAVY if name in loaded} == set(), command
