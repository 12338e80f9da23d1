"""``claimgraph export``: the store's paper graphs as Turtle, TriG, N-Quads or JSON-LD, reasoning graphs as DOT."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from claimgraph.cli.commands import iri_scheme, store_from
from claimgraph.cli.render import err
from claimgraph.publish.export import ALL_FORMAT_NAMES, export


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("export", help="export paper graphs")
    parser.add_argument("--format", choices=ALL_FORMAT_NAMES, default="trig")
    parser.add_argument("--paper", action="append", help="paper id (repeatable); default every paper")
    parser.add_argument(
        "--graphs", default="paper", help="comma-separated graph kinds per paper: paper,raw,audit (default paper)"
    )
    parser.add_argument("--all", action="store_true", help="every named graph in the store (canonical hubs too)")
    parser.add_argument(
        "--evaluation-view", action="store_true", help="dot: leave the scaffolding aggregation root and its edges out"
    )
    parser.add_argument("-o", "--output", type=Path, help="output file; default standard output")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with store_from(args) as store:
        kinds = [kind.strip() for kind in args.graphs.split(",") if kind.strip()]
        data = export(
            store, args.format, args.paper, iri_scheme(args), kinds, everything=args.all, profile=args.profile, evaluation_view=args.evaluation_view
        )
    if args.output:
        tmp = args.output.with_name(args.output.name + ".part")
        tmp.write_bytes(data)
        tmp.replace(args.output)
        err.print(f"wrote {len(data):,} bytes to {args.output}")
    else:
        sys.stdout.buffer.write(data)
    return 0
