"""``claimgraph ingest``: load files or folders into the store, repair them (gate table), then validate."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from claimgraph.commands import iri_scheme, store_from
from claimgraph.commands.repair import print_gate
from claimgraph.console import err, print_table
from claimgraph.ingest import ingest_paths
from claimgraph.loaders import find_inputs


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("ingest", help="load papers (files or folders) into the store")
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--no-validate", action="store_true", help="skip ShEx validation after loading")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    iris = iri_scheme(args)
    files = list(find_inputs(args.paths))
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

            result = ingest_paths(store, files, iris, on_file, args.profile)
        triples = sum(store.count_triples(iris.paper(paper_id)) for paper_id in result.papers)
        summary: list[list[object]] = [
            ["files", len(files)],
            ["papers ingested", len(result.papers)],
            ["files failed", len(result.failures)],
            ["triples in ingested papers (from the store)", triples],
        ]
        violations = 0
        if result.papers and not args.no_validate:
            from claimgraph.commands.validate import validate_and_print

            violations = validate_and_print(store, args, result.papers, quiet=True)
            summary.append(["shape violations", violations])
        if result.repairs:
            print_gate(result.repairs)
        print_table(["measure", "value"], summary, title="ingest summary")
    return 1 if result.failures or violations else 0
