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

from claimgraph import __version__
from claimgraph.cli.options import add_global_options
from claimgraph.cli.render import err
from claimgraph.errors import ClaimgraphError

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_ERROR = 2
EXIT_INTERRUPTED = 130

COMMAND_MODULES = (
    "claimgraph.cli.commands.ingest",
    "claimgraph.cli.commands.quality",
    "claimgraph.cli.commands.canonical",
    "claimgraph.cli.commands.reasoning",
    "claimgraph.cli.commands.extract",
    "claimgraph.cli.commands.inspect",
    "claimgraph.cli.commands.serve",
    "claimgraph.cli.commands.link",
    "claimgraph.cli.commands.judge",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="claimgraph", description="Turn scientific papers into a typed, validated, cross-paper knowledge graph.")
    parser.add_argument("--version", action="version", version=f"claimgraph {__version__}")
    add_global_options(parser)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
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
