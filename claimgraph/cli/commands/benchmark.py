"""``claimgraph benchmark score DIR`` and ``benchmark run``: the PEARL loop over reasoning graphs per model; the table from the store."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from claimgraph.cli.options import add_llm_arguments, config_from_args, open_graph
from claimgraph.cli.render import err, out, print_table

if TYPE_CHECKING:
    from claimgraph.api import ClaimGraph
    from claimgraph.benchmark.scoring import JudgePlan
    from claimgraph.benchmark.table import ModelRow
    from claimgraph.llm.config import LLMConfig


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("benchmark", help="reasoning graphs per model: materialize, repair, gate, judges, strict gate; table from the store")
    commands = parser.add_subparsers(dest="benchmark_command", required=True, metavar="{score,run}")
    score = commands.add_parser("score", help="score a folder of recorded responses <model>/<paper-id>.<dot|xml|plist|json> "
                                              "for papers already in the store (resumable: stored runs are skipped)")
    score.add_argument("archive", type=Path, metavar="DIR", help="folder of model folders, each holding <paper-id>.<ext> responses")
    score.add_argument("--paper", action="append", metavar="ID", help="only this paper (repeatable)")
    score.add_argument("--only-model", action="append", metavar="MODEL", help="only this model folder (repeatable)")
    _add_judge_arguments(score)
    add_llm_arguments(score)
    score.set_defaults(handler=run_score)
    run = commands.add_parser("run", help="ask LLMs for the reasoning graphs of stored papers (one run per model), then score them")
    run.add_argument("--paper", action="append", required=True, metavar="ID", help="a stored paper (repeatable)")
    run.add_argument("--model", action="append", dest="models", default=[], metavar="MODEL", help="a model to ask (repeatable)")
    run.add_argument("--models-file", type=Path, metavar="FILE", help="more models, one per line ('#' starts a comment)")
    run.add_argument("--judge-base-url", metavar="URL", help="the judges' endpoint (default: the generation endpoint when judges run)")
    _add_judge_arguments(run)
    _add_generation_arguments(run)
    run.set_defaults(handler=run_generate)


def _add_judge_arguments(parser: argparse.ArgumentParser) -> None:
    from claimgraph.benchmark.ablations import ABLATIONS

    parser.add_argument("--judge-replay", type=Path, metavar="DIR",
                        help="replay the judges (and repairer) from these recordings (an LLM cache folder); sends nothing")
    parser.add_argument("--judges", type=int, metavar="K", help="number of judges (default: the profile's [judges] count, 3)")
    parser.add_argument("--judge-model", action="append", default=[], metavar="MODEL[@URL]", help="a judge's model (repeatable, cycled to K)")
    parser.add_argument("--rounds", type=int, metavar="R", help="judge-feedback repair rounds (default: profile, 2)")
    parser.add_argument("--ablation", choices=ABLATIONS, default="full",
                        help="full; no-root (no claim root built); retained-root (no repair: judges once, strict gate); "
                             "root-only (claim root, no feedback rounds); no-judge-repair (judges once, nothing built or repaired)")
    parser.add_argument("--format", choices=("table", "json"), default="table", help="table (default) or json")
    parser.add_argument("--plot", type=Path, metavar="FILE", help="draw per-model before/after bars (.svg; .png needs matplotlib)")


def _add_generation_arguments(parser: argparse.ArgumentParser) -> None:
    """The LLM flags of ``run`` (its --model names the models to ask, so the shared LLM flags are not used whole)."""
    group = parser.add_argument_group("LLM endpoint of the models asked (flags > environment > config file > defaults)")
    group.add_argument("--config", type=Path, help="TOML file with an [llm] table")
    group.add_argument("--base-url", help="OpenAI-compatible endpoint; env OPENAI_BASE_URL")
    group.add_argument("--temperature", type=float)
    group.add_argument("--max-tokens", type=int, help="completion token limit per call")
    group.add_argument("--llm-timeout", type=float, dest="timeout", metavar="SECONDS", help="deadline of each request attempt")
    group.add_argument("--max-retries", type=int, help="retries of a call on 429, 5xx, timeouts, dropped connections")
    group.add_argument("--concurrency", type=int, dest="max_concurrency", help="LLM requests in flight at most")
    group.add_argument("--cache-dir", help="response cache directory ('none' disables)")
    group.add_argument("--no-cache", action="store_true", help="do not read or write the response cache")
    group.add_argument("--replay", dest="replay_dir", metavar="DIR", help="serve recorded responses from DIR; sends nothing")
    group.add_argument("--breaker", type=int, dest="breaker_threshold", metavar="N", help="consecutive connection failures that open the circuit")
    group.add_argument("--paper-budget", type=float, dest="paper_budget", metavar="SECONDS", help="time budget for the calls of one paper")


def _judge_plan(args: argparse.Namespace, graph: ClaimGraph, llm: LLMConfig, live: bool) -> JudgePlan | None:
    """Judges run when recordings (--judge-replay) or an endpoint (``live``) are named on the command line."""
    from claimgraph.benchmark.scoring import JudgePlan

    if args.judge_replay is None and not live:
        return None
    if args.judge_replay is not None:
        llm = replace(llm, replay_dir=args.judge_replay)
    settings = graph.judge_settings(llm, args.judges, args.judge_model, args.rounds)
    return JudgePlan(settings, llm, args.ablation)


def read_models(args: argparse.Namespace) -> list[str]:
    from claimgraph.benchmark.archive import ArchiveError

    models = list(args.models)
    if args.models_file is not None:
        try:
            lines = args.models_file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise ArchiveError(f"{args.models_file}: cannot be read: {error}") from error
        models += [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]
    if not models:
        raise ArchiveError("benchmark run: name the models to ask with --model MODEL or --models-file FILE")
    return list(dict.fromkeys(models))


def run_score(args: argparse.Namespace) -> int:
    from claimgraph.benchmark.archive import read_archive
    from claimgraph.benchmark.batch import score_archive
    from claimgraph.benchmark.table import model_rows

    archive = read_archive(args.archive, set(args.paper) if args.paper else None, set(args.only_model) if args.only_model else None)
    with open_graph(args) as graph:
        plan = _judge_plan(args, graph, config_from_args(args), args.base_url is not None)
        result = score_archive(graph.ctx, archive, plan)
        rows = [row for model in archive.models for row in model_rows(graph.ctx, model)]
    problems = result.problems
    _render(args, rows, problems, f"{len(result.scored)} responses: {len(result.scored) - result.skipped} scored now, "
                                  f"{result.skipped} already stored (skipped, no call)", plan is not None)
    return 1 if problems else 0


def run_generate(args: argparse.Namespace) -> int:
    from claimgraph.benchmark.generate import generate
    from claimgraph.benchmark.table import model_rows

    models = read_models(args)
    llm = config_from_args(args)
    judges = replace(llm, base_url=args.judge_base_url or llm.base_url)
    with open_graph(args) as graph:
        plan = _judge_plan(args, graph, judges, bool(args.judge_base_url or args.judge_model))
        problems = generate(graph.ctx, args.paper, models, llm, plan)
        rows = [row for model in models for row in model_rows(graph.ctx, model)]
    _render(args, rows, problems, f"{len(models)} models x {len(args.paper)} papers", plan is not None)
    return 1 if problems else 0


def _render(args: argparse.Namespace, rows: list[ModelRow], problems: list[str], summary: str, judged: bool) -> None:
    from claimgraph.benchmark.table import as_json

    for problem in problems:
        err(problem)
    if args.format == "json":
        out(json.dumps(as_json(rows), indent=2, sort_keys=True))
    else:
        _print(rows, summary, judged)
    if args.plot is not None:
        _plot(rows, args.plot)


def _print(rows: list[ModelRow], summary: str, judged: bool) -> None:
    from claimgraph.benchmark.table import TABLE_COLUMNS, table_cells

    judges = "judges run" if judged else "judge columns: not run (no --judge-replay DIR or judge endpoint)"
    print_table(TABLE_COLUMNS, table_cells(rows), f"benchmark per model (from the store: claimgraph query benchmark-models; {judges})")
    out(summary)


def _plot(rows: list[ModelRow], path: Path) -> None:
    from claimgraph.benchmark.plot import write_plot

    write_plot(rows, path)
    out(f"plot written to {path}")
