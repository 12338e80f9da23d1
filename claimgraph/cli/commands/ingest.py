"""``claimgraph ingest``: load files or folders, extract prose with the LLM, repair, canonicalize, validate.

``demo`` reuses ``ingest_and_report`` with its own arguments, so options only
``ingest`` has are read with ``getattr`` and a default.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from claimgraph.canonical.canonicalizer import canonicalize_papers
from claimgraph.canonical.convergence import convergence, convergence_delta
from claimgraph.canonical.embeddings import make_embedder
from claimgraph.cli.commands import iri_scheme, store_from
from claimgraph.cli.commands.canonicalize import add_sidecar_options
from claimgraph.cli.commands.repair import print_gate
from claimgraph.cli.commands.validate import validate_and_print
from claimgraph.cli.render import err, print_table
from claimgraph.extract.steps import STEPS
from claimgraph.llm.config import LLMConfig, add_llm_arguments, config_from_args
from claimgraph.loaders import find_inputs
from claimgraph.store import Store
from claimgraph.workflow import IngestResult, ingest_paths


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("ingest", help="load papers (files or folders) into the store")
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--no-validate", action="store_true", help="skip ShEx validation after loading")
    parser.add_argument("--no-extract", action="store_true", help="store prose inputs' structure only, even with an LLM configured")
    parser.add_argument("--no-canonicalize", action="store_true", help="skip cross-paper merges and CANON_ hubs (run `claimgraph canonicalize` later)")
    add_sidecar_options(parser)
    add_llm_arguments(parser)
    parser.set_defaults(handler=run)


def llm_config(args: argparse.Namespace) -> LLMConfig | None:
    """The LLM settings when an endpoint (or a replay directory) is configured, else None."""
    if args.no_extract:
        return None
    config = config_from_args(args)
    if config.base_url or config.api_key or config.replay_dir:
        return config
    err.print("no LLM endpoint configured: prose inputs are stored as structure only "
              "(set OPENAI_API_KEY / OPENAI_BASE_URL, or --base-url, or --replay DIR, to extract)")
    return None


def print_extraction(result: IngestResult) -> None:
    """Per paper: each gate measure after each LLM step and after repair; then LLM calls per paper and phase."""
    for report in result.extractions:
        steps = [step for step, _ in report.measures]
        names = list(report.measures[0][1]) if report.measures else []
        rows = [[name, *(measures.get(name, "") for _, measures in report.measures)] for name in names]
        print_table(["measure", *steps], rows, f"extraction gate: {report.paper_id} (computed in the store after each step)")
        for failure in report.failed_calls:
            err.print(f"[yellow]skipped:[/yellow] {escape(report.paper_id)} {escape(failure)}")
    if result.extractions:
        columns, rows = result.accounting.table(STEPS)
        print_table(columns, rows, "LLM calls")


def run(args: argparse.Namespace) -> int:
    return ingest_and_report(args, list(find_inputs(args.paths)), llm_config(args))


def canonicalize_and_report(store: Store, args: argparse.Namespace, paper_ids: list[str]) -> None:
    """Merge and link the new papers across the store; print what the batch changed in the convergence figures."""
    iris = iri_scheme(args)
    before = convergence(store, iris, args.profile)
    embedder = make_embedder(args.embedder) if getattr(args, "embedder", None) else None
    summary = canonicalize_papers(store, iris, paper_ids, args.profile, sidecar_dir=getattr(args, "sidecar", None), embedder=embedder)
    print_table(["measure", "value"], summary.rows(), title="canonicalize")
    delta = convergence_delta(before, convergence(store, iris, args.profile))
    print_table(["measure", "before", "after", "change"], delta, title="convergence (computed in the store)")


def ingest_and_report(args: argparse.Namespace, files: list[Path], llm: LLMConfig | None) -> int:
    """Ingest with a progress bar, then print the extraction, repair, gate and convergence tables and the summary."""
    iris = iri_scheme(args)
    with store_from(args) as store:
        with Progress(
            TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=err, transient=True,
        ) as progress:
            task = progress.add_task("ingesting", total=len(files))

            def on_file(path: Path, error: str | None) -> None:
                if error:
                    progress.console.print(f"[red]failed:[/red] {escape(error)}")
                progress.update(task, advance=1, description=f"ingesting {path.name}")

            result = ingest_paths(store, files, iris, on_file, args.profile, llm)
        print_extraction(result)
        if result.repairs:
            print_gate(result.repairs)
        if result.papers and not getattr(args, "no_canonicalize", False):
            canonicalize_and_report(store, args, result.papers)
        triples = sum(store.count_triples(iris.paper(paper_id)) for paper_id in result.papers)
        summary: list[list[object]] = [
            ["files", len(files)],
            ["papers ingested", len(result.papers)],
            ["files failed", len(result.failures)],
            ["triples in ingested papers (from the store)", triples],
        ]
        violations = 0
        if result.papers and not getattr(args, "no_validate", False):
            violations = validate_and_print(store, args, result.papers, quiet=True)
            summary.append(["shape violations and rule violations", violations])
        print_table(["measure", "value"], summary, title="ingest summary")
    return 1 if result.failures or violations else 0
