"""``claimgraph diff --paper ID``: what repair added to and removed from a paper (raw graph vs paper graph)."""

from __future__ import annotations

import argparse

from pyoxigraph import Triple

from claimgraph.cli.commands import iri_scheme, store_from
from claimgraph.cli.render import out
from claimgraph.errors import ClaimgraphError
from claimgraph.rdf.queries import read_internal_query
from claimgraph.store import ntriples


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("diff", help="what repair changed in a paper: raw graph vs repaired paper graph")
    parser.add_argument("--paper", required=True, help="paper id")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    iris = iri_scheme(args)
    raw, paper = iris.raw_graph(args.paper), iris.paper(args.paper)
    with store_from(args) as store:
        if not store.ask("ASK { GRAPH ?raw { ?s ?p ?o } }", {"raw": raw}):
            raise ClaimgraphError(f"paper {args.paper!r} has no raw graph in the store at {store.location}; ingest it first")
        rows = store.select(read_internal_query("graph-diff"), {"from": raw, "to": paper})
    for change, sign in (("added", "+"), ("removed", "-")):
        triples = [Triple(row["s"], row["p"], row["o"]) for row in rows if row["change"].value == change]  # type: ignore[arg-type]
        for line in ntriples(triples).splitlines():
            out.print(f"{sign} {line}", markup=False)
    added = sum(1 for row in rows if row["change"].value == "added")
    out.print(f"# {added} added, {len(rows) - added} removed (raw -> repaired)", markup=False)
    return 0
