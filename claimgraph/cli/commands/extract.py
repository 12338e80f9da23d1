"""``claimgraph extract --paper ID [--step STEP]``: run LLM extraction steps again on a stored paper alone."""

from __future__ import annotations

import argparse

from claimgraph.cli.options import add_llm_arguments, config_from_args, configured_llm, open_graph
from claimgraph.cli.render import err

DISCOURSE_STEPS = ("entities", "relations", "orphans", "gaps", "dangling")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "extract", help="run LLM extraction steps again on stored papers (each continues from its raw graph), then repair and gate",
    )
    parser.add_argument("--paper", action="append", required=True, metavar="ID", help="paper id (repeatable)")
    parser.add_argument("--step", action="append", metavar="STEP",
                        help=f"step to run (repeatable, in the order given): {', '.join(DISCOURSE_STEPS)}, or reasoning "
                        "for the peirce profile; default every step of the profile")
    add_llm_arguments(parser)
    parser.set_defaults(handler=run_extract)


def run_extract(args: argparse.Namespace) -> int:
    from claimgraph.cli.progress import TerminalProgress
    from claimgraph.cli.tables import print_extraction, print_gate

    llm = config_from_args(args)
    if not configured_llm(llm):
        err("extract: no LLM endpoint configured (set OPENAI_API_KEY / OPENAI_BASE_URL, or --base-url, or --replay DIR)")
        return 2
    with open_graph(args, progress=TerminalProgress()) as graph:
        result = graph.extract(args.paper, llm, args.step)
    for failure in result.failures:
        err(f"error: {failure.message}")
    print_extraction(result.extractions, result.accounting)
    if result.repairs:
        print_gate(result.repairs)
    accepted = all(repair.gate and repair.gate.accepted for repair in result.repairs)
    return 1 if result.problems or not accepted else 0
