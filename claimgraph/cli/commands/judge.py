"""``claimgraph ground``, ``claimgraph rules`` and ``claimgraph judge``: grounding audit, semantic rules, judge-feedback repair."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from claimgraph.cli.options import add_llm_arguments, config_from_args, configured_llm, open_graph
from claimgraph.cli.render import err, format_table, out

if TYPE_CHECKING:
    from claimgraph.judge.runner import JudgeResult
    from claimgraph.quality.reports import RuleViolation


def register(subparsers: argparse._SubParsersAction) -> None:
    ground = subparsers.add_parser("ground", help="source grounding audit: each anchored node against the span it cites (token F1, containment)")
    ground.add_argument("--paper", action="append", help="paper id (repeatable); default every paper")
    ground.add_argument("--threshold", type=float, help="grounding threshold (default: the profile's [grounding] threshold)")
    ground.add_argument("--no-record", action="store_true", help="do not append the audit to the papers' audit graphs")
    ground.add_argument("--show", type=int, default=20, metavar="N", help="list at most N nodes below the threshold (default %(default)s)")
    ground.set_defaults(handler=run_ground)

    rules = subparsers.add_parser("rules", help="the profile's semantic rules (SPARQL and Z3) on stored papers, critical and warnings")
    rules.add_argument("--paper", action="append", help="paper id (repeatable); default every paper")
    rules.set_defaults(handler=run_rules)

    judge = subparsers.add_parser("judge", help="judge-feedback repair: k LLM judges vote on each reasoning unit, rejected units are "
                                  "repaired locally with their feedback and judged again; final strict gate")
    judge.add_argument("--paper", action="append", help="paper id (repeatable); default every paper")
    judge.add_argument("--judges", type=int, metavar="K", help="number of judges (default: the profile's [judges] count, 3)")
    judge.add_argument("--judge-model", action="append", default=[], metavar="MODEL[@URL]",
                       help="a judge's model, optionally on its own endpoint (repeatable; cycled to K judges); default --model")
    judge.add_argument("--rounds", type=int, metavar="R", help="repair rounds after the first judgment (default: profile, 2)")
    judge.add_argument("--no-repair", action="store_true", help="judge only: no repair, no claim root")
    add_llm_arguments(judge)
    judge.set_defaults(handler=run_judge)


def _papers(args: argparse.Namespace) -> list[str] | None:
    return list(args.paper) if args.paper else None


def run_ground(args: argparse.Namespace) -> int:
    from claimgraph.cli.progress import TerminalProgress
    from claimgraph.cli.tables import print_grounding

    with open_graph(args, read_only=args.no_record, progress=TerminalProgress()) as graph:
        audits = graph.ground(_papers(args), args.threshold, record=not args.no_record)
    print_grounding(audits, args.show)
    return 1 if any(audit.verdict == "failed" for audit in audits) else 0


def run_rules(args: argparse.Namespace) -> int:
    with open_graph(args) as graph:
        found = graph.rules(_papers(args))
    print_semantic(found)
    return 1 if any(violation.critical for violations in found.values() for violation in violations) else 0


def print_semantic(found: dict[str, list[RuleViolation]]) -> None:
    rows = [[paper_id, violation.severity, violation.rule, violation.reason] for paper_id, violations in found.items() for violation in violations]
    out(format_table(["paper", "severity", "rule", "message"], rows, f"semantic rules ({len(found)} papers, {len(rows)} findings)"))
    critical = sum(1 for paper_id, violations in found.items() if any(violation.critical for violation in violations))
    out(f"{critical} of {len(found)} papers with critical findings")


def run_judge(args: argparse.Namespace) -> int:
    from claimgraph.cli.progress import TerminalProgress
    from claimgraph.judge.runner import judge_calls
    from claimgraph.llm.accounting import Accounting

    llm = config_from_args(args)
    if not configured_llm(llm):
        err("judge: no LLM endpoint configured (set OPENAI_API_KEY / OPENAI_BASE_URL, or --base-url, or --replay DIR)")
        return 2
    accounting = Accounting()
    with open_graph(args, progress=TerminalProgress()) as graph:
        settings = graph.judge_settings(llm, args.judges, args.judge_model, args.rounds, repair=not args.no_repair)
        results = graph.judge(settings, llm, _papers(args), accounting)
    calls = {result.paper_id: judge_calls(accounting, result.paper_id, settings) for result in results}
    print_judged(results, calls, [f"{judge.name}={judge.model}" for judge in settings.judges])
    return 0 if all(result.accepted for result in results) else 1


def print_judged(results: list[JudgeResult], calls: dict[str, dict[str, int]], panel: list[str]) -> None:
    rows = []
    for result in results:
        made = calls.get(result.paper_id, {})
        rows.append([result.paper_id, result.verdict + (" (unchanged)" if result.skipped else ""), ", ".join(result.residuals) or "-",
                     f"{result.cg:.3f}", f"{result.rea:.3f}", result.units, result.rounds, result.repairs_applied, result.repairs_failed,
                     result.judge_failures, sum(made.values())])
    out(format_table(["paper", "verdict", "residuals", "CG", "REA", "units", "rounds", "repaired", "repair failed", "judge failures", "calls"],
                     rows, f"judge-feedback repair (judges {', '.join(panel)})"))
    for result in results:
        for reason in result.reasons[:5] if not result.accepted else []:
            out(f"  {result.paper_id}: {reason}")
