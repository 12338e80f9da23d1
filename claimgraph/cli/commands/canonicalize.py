"""``claimgraph canonicalize``: merge aggressive nodes and link cautious nodes to CANON_ hubs across papers."""

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
from claimgraph.canonical.embeddings import make_embedder
from claimgraph.canonical.plan import Plan
from claimgraph.cli.commands import iri_scheme, store_from
from claimgraph.cli.render import ROW_FORMATS, err, print_rows, print_table
from claimgraph.papers.document_graph import stored_paper_ids
from claimgraph.rdf.queries import read_named_query


def add_sidecar_options(parser: argparse.ArgumentParser) -> None:
    """--sidecar and --embedder, shared with ``reindex``."""
    parser.add_argument("--sidecar", type=Path, help="sidecar folder (FAISS index, id map, embedding cache); "
                        "default <store>.sidecar next to an embedded store, a cache folder for a URL; env CLAIMGRAPH_SIDECAR")
    parser.add_argument("--embedder", help="minilm | hashing[:DIM] | openai:MODEL | st:PATH; default the profile's "
                        "[canonicalize] embedder; env CLAIMGRAPH_EMBEDDER")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("canonicalize", help="merge and link nodes across papers (CANON_ hubs)")
    parser.add_argument("--paper", action="append", help="paper id (repeatable); default every paper not yet canonicalized")
    parser.add_argument("--force", action="store_true", help="place any node of already canonicalized papers that is not placed yet")
    parser.add_argument("--list-merges", action="store_true", help="list the merges recorded in the audit graphs and exit")
    parser.add_argument("--format", choices=ROW_FORMATS, default="table", help="format of --list-merges")
    add_sidecar_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    iris = iri_scheme(args)
    with store_from(args) as store:
        if args.list_merges:
            columns = ["paper", "type", "retired", "survivor", "similarity"]
            print_rows(columns, store.select(read_named_query("merges")), args.format, title="merges")
            return 0
        papers = args.paper or stored_paper_ids(store, iris)
        embedder = make_embedder(args.embedder) if args.embedder else None
        with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=err, transient=True) as progress:
            task = progress.add_task("canonicalizing", total=len(papers))

            def on_paper(paper_id: str, plan: Plan) -> None:
                progress.update(task, advance=1, description=f"canonicalized {escape(paper_id)}")

            summary = canonicalize_papers(store, iris, papers, args.profile, sidecar_dir=args.sidecar,
                                          embedder=embedder, on_paper=on_paper)
        print_table(["measure", "value"], summary.rows(), title="canonicalize summary")
    return 0
