"""``claimgraph reindex``: rebuild the canonicalization sidecar (FAISS index + id map) from the store."""

from __future__ import annotations

import argparse

from claimgraph.canonical.canonicalizer import reindex
from claimgraph.canonical.embeddings import make_embedder
from claimgraph.cli.commands import iri_scheme, store_from
from claimgraph.cli.commands.canonicalize import add_sidecar_options
from claimgraph.cli.render import print_table
from claimgraph.rdf.vocab import local_name


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("reindex", help="rebuild the canonicalization sidecar from the store")
    add_sidecar_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with store_from(args) as store:
        embedder = make_embedder(args.embedder) if args.embedder else None
        summary = reindex(store, iri_scheme(args), args.profile, sidecar_dir=args.sidecar, embedder=embedder)
    rows: list[list[object]] = [["sidecar", summary.directory or "(in memory, not written)"],
                                ["papers covered", summary.covered], ["texts embedded (not cached)", summary.embedded]]
    for name, size in summary.partitions.items():
        role, type_iri = name.split(" ", 1)
        rows.append([f"indexed {role}: {local_name(type_iri)}", size])
    print_table(["measure", "value"], rows, title="reindex")
    return 0
