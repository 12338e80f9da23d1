"""The ``claimgraph`` command: global options, subcommand dispatch, errors -> one line and an exit code.

Exit codes: 0 all went well; 1 the command ran but found problems (an input
failed to load, a shape violation, a residual); 2 it could not run (bad
arguments, store unreachable, missing asset); 130 interrupted. Building the
parser imports no heavy library, so ``--help`` is instant.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from claimgraph import __version__
from claimgraph.cli.options import add_global_options
from claimgraph.cli.render import err
from claimgraph.errors import ClaimgraphError, did_you_mean

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_ERROR = 2
EXIT_INTERRUPTED = 130

COMMANDS = {
    "ingest": "claimgraph.cli.commands.ingest",
    "demo": "claimgraph.cli.commands.ingest",
    "repair": "claimgraph.cli.commands.quality",
    "validate": "claimgraph.cli.commands.quality",
    "canonicalize": "claimgraph.cli.commands.canonical",
    "reindex": "claimgraph.cli.commands.canonical",
    "unmerge": "claimgraph.cli.commands.canonical",
    "release": "claimgraph.cli.commands.canonical",
    "consensus": "claimgraph.cli.commands.canonical",
    "reasoning": "claimgraph.cli.commands.reasoning",
    "extract": "claimgraph.cli.commands.extract",
    "citation-intent": "claimgraph.cli.commands.extract",
    "query": "claimgraph.cli.commands.inspect",
    "stats": "claimgraph.cli.commands.inspect",
    "audit": "claimgraph.cli.commands.inspect",
    "diff": "claimgraph.cli.commands.inspect",
    "export": "claimgraph.cli.commands.inspect",
    "serve": "claimgraph.cli.commands.serve",
    "link": "claimgraph.cli.commands.link",
    "load": "claimgraph.cli.commands.link",
    "ground": "claimgraph.cli.commands.judge",
    "rules": "claimgraph.cli.commands.judge",
    "judge": "claimgraph.cli.commands.judge",
    "benchmark": "claimgraph.cli.commands.benchmark",
}
"""Each command and the module that registers it (tests/cli/test_startup.py checks the two agree)."""

COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))


class _NoCommand(Exception):
    """The arguments name no command the front parser can see (help, a typo, nothing)."""


class _FrontParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _NoCommand(message)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or with only the module of ``command`` registered (enough to run it)."""
    parser = argparse.ArgumentParser(prog="claimgraph", description="Turn scientific papers into a typed, validated, cross-paper knowledge graph.")
    parser.add_argument("--version", action="version", version=f"claimgraph {__version__}")
    add_global_options(parser)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES if command is None else (COMMANDS[command],):
        importlib.import_module(name).register(subparsers)
    helps = {action.dest: action.help for action in subparsers._choices_actions}
    for name, subparser in subparsers.choices.items():
        if not subparser.description:  # `claimgraph COMMAND --help` says what the command does
            subparser.description = helps.get(name)
    return parser


def _front_word(argv: Sequence[str] | None) -> str | None:
    """The word past the global options, read by a parser that knows no command; None when there is none."""
    front = _FrontParser(prog="claimgraph", add_help=False)
    add_global_options(front)
    front.add_argument("command")
    front.add_argument("arguments", nargs=argparse.REMAINDER)
    try:
        known, _ = front.parse_known_args(argv)
    except _NoCommand:
        return None
    return str(known.command)


def invoked_command(argv: Sequence[str] | None) -> str | None:
    """The command ``argv`` runs, read past the global options alone; None when it names none.

    Running one command then imports one command module instead of all of them;
    anything else (``--help``, ``--version``, a typo) gets the whole parser and its messages.
    """
    word = _front_word(argv)
    return word if word in COMMANDS else None


def unknown_command(argv: Sequence[str] | None) -> str | None:
    """The word given where a command belongs when it names none, or None (nothing given, or --help)."""
    word = _front_word(argv)
    return None if word is None or word in COMMANDS or word.startswith("-") else word


def main(argv: Sequence[str] | None = None) -> int:
    word = unknown_command(argv)
    if word is not None:
        err(f"error: no command {word!r}{did_you_mean(word, COMMANDS)}; `claimgraph --help` lists the commands")
        return EXIT_ERROR
    args = build_parser(invoked_command(argv)).parse_args(argv)
    try:
        return int(args.handler(args) or EXIT_OK)
    except ClaimgraphError as error:
        err(f"error: {error}")
        return EXIT_ERROR
    except KeyboardInterrupt:
        err("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK
    except Exception as error:
        if os.environ.get("CLAIMGRAPH_DEBUG"):
            raise
        err(f"error: unexpected {type(error).__name__}: {error} (set CLAIMGRAPH_DEBUG=1 for the traceback, and please report it)")
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
