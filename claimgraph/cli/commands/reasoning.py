"""``claimgraph --profile peirce reasoning PAPER_ID RESPONSE``: store an LLM reasoning-graph response for a paper."""

from __future__ import annotations

import argparse
from pathlib import Path

from claimgraph.cli.options import open_graph
from claimgraph.cli.render import out


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "reasoning", help="materialize an LLM reasoning-graph response (DOT-like, XML, plist or JSON) for an ingested paper, then repair it"
    )
    parser.add_argument("paper", metavar="PAPER_ID", help="id of a paper already in the store (its ARCHE JSON ingested)")
    parser.add_argument("response", type=Path, metavar="RESPONSE", help="file holding the raw LLM response")
    parser.add_argument("--run", metavar="NAME", help="also keep the repaired graph as run NAME of the paper (for `claimgraph consensus`)")
    parser.set_defaults(handler=run_reasoning)


def run_reasoning(args: argparse.Namespace) -> int:
    from claimgraph.cli.tables import print_gate
    from claimgraph.loaders.text_input import read_text

    text = read_text(args.response)
    with open_graph(args) as graph:
        result = graph.reasoning(args.paper, text, source_name=str(args.response), run=args.run)
    parsed, made = result.parsed, result.materialized
    anchors = made.anchors
    out(f"parser branch {parsed.branch}: {made.nodes} nodes and {made.edges} edges admitted, "
        f"{parsed.skipped} statements skipped ({parsed.skipped_material} holding graph material), "
        f"{parsed.cut_statements} cut by the end of the text, {parsed.duplicate_edges} duplicate edges collapsed, "
        f"{made.nodes_without_text} nodes without a text")
    out(f"source anchors: {anchors['resolved']} resolved, {anchors['fallen_back']} fallen back to their sentence, "
        f"{anchors['unresolved']} unresolved, {anchors['implicit']} implicit ({made.default_sources} without any tuple, "
        f"{made.conflicting_anchors} stating two tuples); tuple reading {made.reading}")
    print_gate([result.repair])
    return 0 if result.repair.gate and result.repair.gate.accepted else 1
