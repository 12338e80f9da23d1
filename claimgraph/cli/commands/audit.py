"""``claimgraph audit --paper ID``: the paper's audit trail (load, extraction, each repair script, gate)."""

from __future__ import annotations

import argparse

from rich.markup import escape

from claimgraph.cli.commands import iri_scheme, store_from
from claimgraph.cli.render import out, print_table
from claimgraph.errors import ClaimgraphError
from claimgraph.papers.audit import audit_trail


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("audit", help="print a paper's audit trail")
    parser.add_argument("--paper", required=True, help="paper id")
    parser.add_argument("--touched", action="store_true", help="also list every IRI each activity touched")
    parser.set_defaults(handler=run)


def _pairs(values: object) -> str:
    return ", ".join(f"{name}={value}" for name, value in values.items())  # type: ignore[attr-defined]


def run(args: argparse.Namespace) -> int:
    with store_from(args) as store:
        trail = audit_trail(store, iri_scheme(args), args.paper)
    if not trail:
        raise ClaimgraphError(f"no audit trail for paper {args.paper!r}: is it in the store? (claimgraph stats, claimgraph ingest)")
    rows = [
        [entry["sequence"], entry["kind"], entry["name"], _pairs(entry["counts"]), _pairs(entry["notes"]), len(entry["touched"])]  # type: ignore[arg-type]
        for entry in trail
    ]
    print_table(["#", "kind", "name", "counts", "notes", "touched"], rows, f"audit trail of {args.paper}")
    if args.touched:
        for entry in trail:
            for iri in entry["touched"]:  # type: ignore[attr-defined]
                out.print(f"{entry['sequence']}\t{entry['name']}\t{escape(iri)}")
    return 0
