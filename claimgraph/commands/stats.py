"""``claimgraph stats``: papers, triples and nodes per type, computed by SPARQL on the store."""

from __future__ import annotations

import argparse

from claimgraph.commands import store_from
from claimgraph.console import ROW_FORMATS, print_rows
from claimgraph.sparql import read_named_query
from claimgraph.store import Store


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("stats", help="papers, triples and nodes per type")
    parser.add_argument("--format", choices=ROW_FORMATS, default="table")
    parser.set_defaults(handler=run)


def store_stats(store: Store) -> list[dict]:
    """Rows (measure, value): papers, triples, then one row per node type."""
    rows = store.select(read_named_query("store-totals"))
    for row in store.select(read_named_query("nodes-per-type")):
        rows.append({"measure": row["type"], "value": row["nodes"]})
    return rows


def run(args: argparse.Namespace) -> int:
    with store_from(args) as store:
        print_rows(["measure", "value"], store_stats(store), args.format, title=f"store {store.location}")
    return 0
