"""``claimgraph --profile peirce reasoning PAPER_ID RESPONSE``: store an LLM reasoning-graph response for a paper."""

from __future__ import annotations

import argparse
from pathlib import Path

from claimgraph.cli.options import open_context
from claimgraph.cli.render import out


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "reasoning", help="materialize an LLM reasoning-graph response (DOT-like, XML, plist or JSON) for an ingested paper, then repair it"
    )
    parser.add_argument("paper", metavar="PAPER_ID", help="id of a paper already in the store (its ARCHE JSON ingested)")
    parser.add_argument("response", type=Path, metavar="RESPONSE", help="file holding the raw LLM response")
    parser.set_defaults(handler=run_reasoning)


def run_reasoning(args: argparse.Namespace) -> int:
    from claimgraph.cli.tables import print_gate
    from claimgraph.loaders.text_input import read_text
    from claimgraph.workflow import Workflow

    text = read_text(args.response)
    with open_context(args) as ctx:
        result = Workflow(ctx).store_reasoning(args.paper, text, str(args.response))
    parsed, made = result.parsed, result.materialized
    out(f"parser branch {parsed.branch}: {made.nodes} nodes and {made.edges} edges admitted, "
        f"{parsed.skipped} statements skipped, {parsed.duplicate_edges} duplicate edges collapsed, "
        f"{made.default_sources} nodes without a source tuple")
    print_gate([result.repair])
    return 0 if result.repair.gate and result.repair.gate.accepted else 1
