"""``claimgraph extract --paper ID [--step STEP]``: run LLM extraction steps again on a stored paper alone;
``claimgraph citation-intent --paper ID``: ask why each citing sentence cites each of its references."""

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
    intent = subparsers.add_parser(
        "citation-intent", help="ask the LLM why each citing sentence of stored papers cites each of its references "
        "(the profile's [citations.intents]); stored as CiTO properties, replacing earlier ones",
    )
    intent.add_argument("--paper", action="append", required=True, metavar="ID", help="paper id (repeatable)")
    add_llm_arguments(intent)
    intent.set_defaults(handler=run_citation_intent)


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


def run_citation_intent(args: argparse.Namespace) -> int:
    from claimgraph.cli.render import compact, print_rows, print_table
    from claimgraph.rdf.queries import read_named_query

    llm = config_from_args(args)
    if not configured_llm(llm):
        err("citation-intent: no LLM endpoint configured (set OPENAI_API_KEY / OPENAI_BASE_URL, or --base-url, or --replay DIR)")
        return 2
    with open_graph(args) as graph:
        run = graph.citation_intent(args.paper, llm)
        rows = [row for paper_id in args.paper for row in graph.select(read_named_query("citation-intents"), {"paper": graph.ctx.iris.paper(paper_id)})]
    cells = [(report.paper_id, report.pairs, report.stored, report.unknown_labels, report.not_a_pair, report.unanswered,
              report.failure or "; ".join(report.notes) or "-") for report in run.reports]
    print_table(["paper", "citing pairs", "intents stored", "unknown labels", "not a pair", "unanswered", "problem"], cells,
                title="citation intent (what the reply gave)")
    counts: dict[str, int] = {}
    for row in rows:
        counts[compact(row["intent"])] = counts.get(compact(row["intent"]), 0) + 1
    print_table(["intent (CiTO)", "citations"], sorted(counts.items()), title="citation intents stored (from the store)")
    print_rows(["paper", "sentenceIndex", "intent", "referenceIndex", "work"], rows[:40], title="first stored intents")
    columns, calls = run.accounting.table(("citations",))
    print_table(columns, calls, "LLM calls")
    return 1 if any(report.failure for report in run.reports) else 0
