"""``claimgraph repair``: run the profile's repair scripts on stored papers and print the gate."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from claimgraph.cli.commands import iri_scheme, store_from
from claimgraph.cli.render import print_table
from claimgraph.papers.document_graph import stored_paper_ids
from claimgraph.profile.manifest import load_profile
from claimgraph.profile.vocabulary import load_vocabulary
from claimgraph.quality.gate import gate_rows, residual_counts
from claimgraph.quality.repair import PaperRepair, repair_paper


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("repair", help="run the deterministic repair scripts on stored papers (audited)")
    parser.add_argument("--paper", action="append", help="paper id (repeatable); default every paper")
    parser.set_defaults(handler=run)


def print_gate(repairs: Sequence[PaperRepair]) -> None:
    """Per script: scope triples before/after and what changed (summed over papers); then the gate measures."""
    scripts: dict[str, list[int]] = {}
    for repair in repairs:
        for script in repair.runs:
            row = scripts.setdefault(script.name, [0, 0, 0, 0, 0])
            for index, value in enumerate((script.triples_before, script.triples_after, script.added, script.removed, int(script.changed))):
                row[index] += value
    title = f"repair scripts ({len(repairs)} paper{'s' if len(repairs) != 1 else ''})"
    print_table(["script", "scope before", "scope after", "added", "removed", "papers changed"], [[name, *row] for name, row in scripts.items()], title)
    reports = [repair.gate for repair in repairs if repair.gate]
    print_table(["measure", "raw", "repaired"], gate_rows(reports), "gate (computed in the store)")
    accepted = sum(1 for report in reports if report.accepted)
    residuals = residual_counts(reports)
    rows: list[list[object]] = [["accepted", accepted], *([f"residual {label}", count] for label, count in residuals.items())]
    print_table(["verdict", "papers"], rows, "gate verdicts")


def run(args: argparse.Namespace) -> int:
    iris = iri_scheme(args)
    profile = load_profile(args.profile)
    with store_from(args) as store:
        paper_ids = args.paper or stored_paper_ids(store, iris)
        vocabulary = load_vocabulary(store, iris, profile)
        repairs = [repair_paper(store, iris, profile, paper_id, vocabulary) for paper_id in paper_ids]
    print_gate(repairs)
    return 0 if all(repair.gate and repair.gate.accepted for repair in repairs) else 1
