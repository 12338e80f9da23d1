"""``claimgraph repair`` and ``claimgraph validate``: the deterministic repairs with the gate, and ShEx + rules."""

from __future__ import annotations

import argparse

from claimgraph.cli.options import open_graph


def register(subparsers: argparse._SubParsersAction) -> None:
    repair = subparsers.add_parser("repair", help="run the deterministic repair scripts on stored papers (audited), then the gate")
    repair.add_argument("--paper", action="append", help="paper id (repeatable); default every paper")
    repair.set_defaults(handler=run_repair)

    validate = subparsers.add_parser("validate", help="validate paper graphs against the profile's shapes and rules")
    validate.add_argument("--paper", action="append", help="paper id (repeatable); default every paper")
    validate.set_defaults(handler=run_validate)


def run_repair(args: argparse.Namespace) -> int:
    from claimgraph.cli.progress import TerminalProgress
    from claimgraph.cli.tables import print_gate

    with open_graph(args, progress=TerminalProgress()) as graph:
        repairs = graph.repair(args.paper)
    print_gate(repairs)
    return 0 if all(repair.gate and repair.gate.accepted for repair in repairs) else 1


def run_validate(args: argparse.Namespace) -> int:
    from claimgraph.cli.progress import TerminalProgress
    from claimgraph.cli.tables import print_validation

    with open_graph(args, progress=TerminalProgress()) as graph:
        report = graph.validate(args.paper)
        print_validation(report, graph.ctx.iris)
    return 0 if report.conforms else 1
