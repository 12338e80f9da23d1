"""``claimgraph --profile peirce reasoning PAPER_ID RESPONSE``: store an LLM reasoning-graph response for a paper."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.markup import escape

from claimgraph.cli.commands import iri_scheme, store_from
from claimgraph.cli.commands.repair import print_gate
from claimgraph.cli.render import out
from claimgraph.loaders.text_input import read_text
from claimgraph.profile.manifest import load_profile
from claimgraph.reasoning.peirce import store_reasoning


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "reasoning", help="materialize an LLM reasoning-graph response (DOT-like, XML or plist) for an ingested paper, then repair it"
    )
    parser.add_argument("paper", metavar="PAPER_ID", help="id of a paper already in the store (its ARCHE JSON ingested)")
    parser.add_argument("response", type=Path, metavar="RESPONSE", help="file holding the raw LLM response")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    profile = load_profile(args.profile)
    text = read_text(args.response)
    with store_from(args) as store:
        result = store_reasoning(store, iri_scheme(args), profile, args.paper, text, str(args.response))
    parsed, made = result.parsed, result.materialized
    out.print(
        f"parser branch {escape(parsed.branch)}: {made.nodes} nodes and {made.edges} edges admitted, "
        f"{parsed.skipped} statements skipped, {parsed.duplicate_edges} duplicate edges collapsed, "
        f"{made.default_sources} nodes without a source tuple",
    )
    print_gate([result.repair])
    return 0 if result.repair.gate and result.repair.gate.accepted else 1
