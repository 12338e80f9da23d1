"""The ``claimgraph`` command: global options, subcommand dispatch, errors -> exit codes.

Exit codes: 0 all went well; 1 the command ran but found problems (an input
failed to load, a shape violation); 2 it could not run (bad arguments, store
unreachable, missing asset); 130 interrupted.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from rich.markup import escape

from claimgraph import __version__
from claimgraph.cli.commands import (
    audit,
    canonicalize,
    demo,
    diff,
    export,
    ingest,
    query,
    reasoning,
    reindex,
    repair,
    stats,
    validate,
)
from claimgraph.cli.render import err
from claimgraph.errors import ClaimgraphError

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_ERROR = 2

DEFAULT_STORE = "claimgraph-store"

COMMANDS = [demo, ingest, validate, query, export, stats, canonicalize, reindex, repair, audit, diff, reasoning]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="claimgraph",
        description="Turn scientific papers into a typed, validated, cross-paper knowledge graph.",
    )
    parser.add_argument("--version", action="version", version=f"claimgraph {__version__}")
    parser.add_argument(
        "--store",
        default=os.environ.get("CLAIMGRAPH_STORE", DEFAULT_STORE),
        help="embedded store directory, or http(s) URL of a SPARQL server "
        "(Oxigraph layout: URL/query, URL/update); env CLAIMGRAPH_STORE; default %(default)s",
    )
    parser.add_argument(
        "--base",
        default=os.environ.get("CLAIMGRAPH_BASE"),
        help="base IRI of instance data; env CLAIMGRAPH_BASE",
    )
    parser.add_argument(
        "--profile",
        default=os.environ.get("CLAIMGRAPH_PROFILE", "discourse"),
        help="profile (ontology + shapes + prompts + repairs); default %(default)s",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS:
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or EXIT_OK)
    except ClaimgraphError as error:
        err.print(f"[red]error:[/red] {escape(str(error))}")
        return EXIT_ERROR
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
