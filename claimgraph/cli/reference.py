"""The command-line reference (docs/cli.md) generated from the parser, so the docs say what ``--help`` says.

``python -m cogapp -r docs/cli.md`` rewrites the page; tests/cli/test_reference.py fails when it drifts.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager

WIDTH = "100"
ENVIRONMENT_DEFAULTS = ("CLAIMGRAPH_STORE", "CLAIMGRAPH_BASE", "CLAIMGRAPH_PROFILE")


@contextmanager
def fixed_width() -> Iterator[None]:
    """argparse wraps help at $COLUMNS and shows defaults read from the environment: fix both for the page."""
    saved = {name: os.environ.get(name) for name in ("COLUMNS", *ENVIRONMENT_DEFAULTS)}
    os.environ["COLUMNS"] = WIDTH
    for name in ENVIRONMENT_DEFAULTS:
        os.environ.pop(name, None)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def cli_reference() -> str:
    """Markdown: the main help, then one section per subcommand with its help."""
    from claimgraph.cli.main import build_parser

    with fixed_width():
        parser = build_parser()
        sections = ["## claimgraph\n\n```text\n" + parser.format_help().rstrip() + "\n```\n"]
        for name, command in subcommands(parser).items():
            sections.append(f"## claimgraph {name}\n\n```text\n" + command.format_help().rstrip() + "\n```\n")
    return "\n".join(sections)
