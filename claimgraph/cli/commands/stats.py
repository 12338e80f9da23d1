"""``claimgraph stats``: papers, triples and nodes per type, computed by SPARQL on the store."""

from __future__ import annotations

import argparse

from pyoxigraph import Literal

from claimgraph.cli.commands import iri_scheme, store_from
from claimgraph.cli.render import ROW_FORMATS, print_rows
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import XSD
from claimgraph.store import Store


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("stats", help="papers, triples and nodes per type")
    parser.add_argument("--format", choices=ROW_FORMATS, default="table")
    parser.add_argument("--convergence", action="store_true",
                        help="cross-paper convergence: nodes per type, CANON_ hubs, attached nodes, merges, components")
    parser.set_defaults(handler=run)


def store_stats(store: Store) -> list[dict]:
    """Rows (measure, value): papers, triples, then one row per node type."""
    rows = store.select(read_named_query("store-totals"))
    for row in store.select(read_named_query("nodes-per-type")):
        rows.append({"measure": row["type"], "value": row["nodes"]})
    return rows


def convergence_rows(store: Store, args: argparse.Namespace) -> list[dict]:
    """Convergence measures as (measure, value) rows; imported here since canonicalization loads FAISS."""
    from claimgraph.canonical.convergence import convergence

    result = convergence(store, iri_scheme(args), args.profile)
    return [{"measure": Literal(name), "value": Literal(str(value), datatype=XSD.integer)} for name, value in result.rows()]


def run(args: argparse.Namespace) -> int:
    with store_from(args) as store:
        if args.convergence:
            print_rows(["measure", "value"], convergence_rows(store, args), args.format, title=f"convergence of {store.location}")
            return 0
        print_rows(["measure", "value"], store_stats(store), args.format, title=f"store {store.location}")
    return 0
