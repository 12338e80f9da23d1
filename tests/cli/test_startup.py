"""Start-up stays instant: building the parser and printing help imports no heavy library (counted, not timed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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


def registered_commands(module: str) -> list[str]:
    """The commands a command module's ``register`` adds, in order."""
    import argparse
    import importlib

    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers()
    importlib.import_module(module).register(subparsers)
    return list(subparsers.choices)


def test_the_command_table_names_exactly_what_each_module_registers() -> None:
    from claimgraph.cli.main import COMMAND_MODULES, COMMANDS

    for module in COMMAND_MODULES:
        assert registered_commands(module) == [name for name, owner in COMMANDS.items() if owner == module], module


def test_running_a_command_on_an_embedded_store_imports_only_its_module_and_no_http_client(tmp_path: Path) -> None:
    from claimgraph.store import EmbeddedStore

    EmbeddedStore(tmp_path / "store").close()
    loaded = modules_after("--store", str(tmp_path / "store"), "query", "paper-graphs")
    assert {"claimgraph.store.embedded", "claimgraph.cli.commands.inspect"} <= loaded
    assert {name for name in loaded if name.startswith("claimgraph.cli.commands.")} == {"claimgraph.cli.commands.inspect"}
    assert {"http.client", "claimgraph.store.remote", "claimgraph.store.http", "importlib.metadata"} & loaded == set()


def test_a_global_option_whose_value_is_a_command_name_does_not_pick_the_command(tmp_path: Path) -> None:
    """``--profile query`` is the profile's value; the command is the word after it, and the profile is then refused by name."""
    from claimgraph.cli.main import invoked_command

    assert invoked_command(["--store", "ingest", "--profile", "query", "audit", "--paper", "p"]) == "audit"
    assert invoked_command(["--store=query", "stats"]) == "stats"
    assert invoked_command(["--help"]) is None and invoked_command(["quer"]) is None and invoked_command([]) is None
    result = subprocess.run([sys.executable, "-m", "claimgraph", "--store", str(tmp_path / "s"), "--profile", "stats", "repair"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 2 and "stats" in result.stderr and "Traceback" not in result.stderr


def test_a_mistyped_command_gets_one_line_naming_the_closest_commands() -> None:
    result = subprocess.run([sys.executable, "-m", "claimgraph", "quer"], capture_output=True, text=True, check=False)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "no command 'quer' (did you mean 'query'" in result.stderr and "claimgraph --help" in result.stderr
    far = subprocess.run([sys.executable, "-m", "claimgraph", "zzzz"], capture_output=True, text=True, check=False)
    assert far.returncode == 2 and "did you mean" not in far.stderr
