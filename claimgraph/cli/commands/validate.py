"""``claimgraph validate``: ShEx shapes and SPARQL rules on each paper graph."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from rich.markup import escape

from claimgraph.cli.commands import iri_scheme, store_from
from claimgraph.cli.render import out, print_table
from claimgraph.quality.validation import validate_store
from claimgraph.store import Store


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("validate", help="validate paper graphs against the profile's shapes and rules")
    parser.add_argument("--paper", action="append", help="paper id (repeatable); default every paper")
    parser.set_defaults(handler=run)


def validate_and_print(store: Store, args: argparse.Namespace, paper_ids: Sequence[str] | None, quiet: bool = False) -> int:
    """Validate, print failures (and a per-paper table unless quiet); returns the number of problems."""
    iris = iri_scheme(args)
    report = validate_store(store, args.profile, paper_ids, iris)
    for line in report.lines():
        out.print(escape(line))
    if not quiet:
        rows = [
            [iris.paper_id_of(graph.graph) or graph.graph.value, graph.nodes_validated, graph.nodes_failed, len(graph.violations), "pass" if graph.conforms else "FAIL"]
            for graph in report.graphs
        ]
        print_table(["paper", "nodes", "failed", "rule violations", "result"], rows, title=f"validation ({report.profile})")
        out.print(f"{len(report.graphs)} graphs, {report.nodes_validated} nodes validated, {report.nodes_failed} failed, {len(report.violations)} rule violations")
    return report.nodes_failed + len(report.violations)


def run(args: argparse.Namespace) -> int:
    with store_from(args) as store:
        problems = validate_and_print(store, args, args.paper)
    return 1 if problems else 0
