"""``claimgraph canonicalize`` and ``claimgraph reindex``: cross-paper merges and CANON_ hubs, and their sidecar."""

from __future__ import annotations

import argparse

from claimgraph.cli.options import add_sidecar_options, open_context
from claimgraph.cli.render import ROW_FORMATS, print_rows, print_table


def register(subparsers: argparse._SubParsersAction) -> None:
    canonicalize = subparsers.add_parser("canonicalize", help="merge and link nodes across papers (CANON_ hubs)")
    canonicalize.add_argument("--paper", action="append", help="paper id (repeatable); default every paper not yet canonicalized")
    canonicalize.add_argument("--force", action="store_true", help="place any node of already canonicalized papers that is not placed yet")
    canonicalize.add_argument("--list-merges", action="store_true", help="list the merges recorded in the audit graphs and exit")
    canonicalize.add_argument("--format", choices=ROW_FORMATS, default="table", help="format of --list-merges")
    add_sidecar_options(canonicalize)
    canonicalize.set_defaults(handler=run_canonicalize)

    reindex = subparsers.add_parser("reindex", help="rebuild the canonicalization sidecar from the store")
    add_sidecar_options(reindex)
    reindex.set_defaults(handler=run_reindex)


def run_canonicalize(args: argparse.Namespace) -> int:
    if args.list_merges:
        from claimgraph.rdf.queries import read_named_query

        with open_context(args, read_only=True) as ctx:
            columns = ["paper", "type", "retired", "survivor", "similarity"]
            print_rows(columns, ctx.store.select(read_named_query("merges")), args.format, title="merges")
        return 0
    from claimgraph.cli.progress import TerminalProgress
    from claimgraph.cli.tables import print_canonicalization
    from claimgraph.workflow import Workflow

    with open_context(args) as ctx:
        outcome = Workflow(ctx, TerminalProgress()).canonicalize(args.paper, args.sidecar, args.embedder, force=args.force)
    print_canonicalization(outcome)
    return 0


def run_reindex(args: argparse.Namespace) -> int:
    from claimgraph.canonical.canonicalizer import reindex
    from claimgraph.canonical.embeddings import make_embedder
    from claimgraph.rdf.vocab import local_name

    with open_context(args) as ctx:
        summary = reindex(ctx, sidecar_dir=args.sidecar, embedder=make_embedder(args.embedder) if args.embedder else None)
    rows: list[list[object]] = [["sidecar", summary.directory or "(in memory, not written)"],
                                ["papers covered", summary.covered], ["texts embedded (not cached)", summary.embedded]]
    for name, size in summary.partitions.items():
        role, type_iri = name.split(" ", 1)
        rows.append([f"indexed {role}: {local_name(type_iri)}", size])
    print_table(["measure", "value"], rows, title="reindex")
    return 0
