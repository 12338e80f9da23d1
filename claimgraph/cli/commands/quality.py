"""``claimgraph repair`` and ``claimgraph validate``: the deterministic repairs with the gate, and ShEx + rules."""

from __future__ import annotations

import argparse

from claimgraph.cli.options import open_context


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
    from claimgraph.workflow import Workflow

    with open_context(args) as ctx:
        repairs = Workflow(ctx, TerminalProgress()).repair(args.paper)
    print_gate(repairs)
    return 0 if all(repair.gate and repair.gate.accepted for repair in repairs) else 1


def run_validate(args: argparse.Namespace) -> int:
    from claimgraph.cli.progress import TerminalProgress
    from claimgraph.cli.tables import print_validation
    from claimgraph.workflow import Workflow

    with open_context(args) as ctx:
        report = Workflow(ctx, TerminalProgress()).validate(args.paper)
        print_validation(report, ctx.iris)
    return 0 if report.conforms else 1
