"""``claimgraph ingest`` and ``claimgraph demo``: the whole workflow on files, or on the bundled examples."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from claimgraph.cli.options import add_llm_arguments, add_sidecar_options, config_from_args, configured_llm, open_graph
from claimgraph.cli.render import err

if TYPE_CHECKING:
    from claimgraph.llm.config import LLMConfig


def register(subparsers: argparse._SubParsersAction) -> None:
    ingest = subparsers.add_parser("ingest", help="load papers (files or folders): extract, repair, gate, canonicalize, validate")
    ingest.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    ingest.add_argument("--no-validate", action="store_true", help="skip ShEx validation after loading")
    ingest.add_argument("--no-extract", action="store_true", help="make no LLM call: store each input's structure (and the claims it gives, ARCHE) only, even with an LLM configured")
    ingest.add_argument("--no-canonicalize", action="store_true", help="skip cross-paper merges and CANON_ hubs (run `claimgraph canonicalize` later)")
    ingest.add_argument("--replace", action="store_true", help="let a file replace a stored paper of the same id read from another file")
    ingest.add_argument("--follow-symlinks", action="store_true",
                        help="read symbolic links (given, or found in folders); by default each is refused by name")
    add_sidecar_options(ingest)
    add_llm_arguments(ingest)
    ingest.set_defaults(handler=run_ingest)

    demo = subparsers.add_parser("demo", help="run the whole pipeline on the bundled examples (offline: recorded responses)")
    demo.add_argument("--llm", metavar="URL", help="run live against this OpenAI-compatible endpoint instead of the recordings")
    demo.add_argument("--model", help="model for a live run; env CLAIMGRAPH_MODEL")
    demo.add_argument("--verbose", action="store_true", help="print every table of the run (extraction, gate, grounding, links, validation)")
    demo.set_defaults(handler=run_demo)


def run_workflow(args: argparse.Namespace, paths: list[Path], llm: LLMConfig | None) -> int:
    """Ingest with progress, print every table, exit 1 when a file failed, a paper has a residual or a graph has violations."""
    from claimgraph.cli.progress import TerminalProgress
    from claimgraph.cli.tables import print_first_run, print_ingest

    with open_graph(args, progress=TerminalProgress()) as graph:
        result = graph.ingest(paths, llm=llm, extract=not getattr(args, "no_extract", False),
                              canonicalize=not getattr(args, "no_canonicalize", False), validate=not getattr(args, "no_validate", False),
                              replace_papers=getattr(args, "replace", False), follow_symlinks=getattr(args, "follow_symlinks", False))
        if args.command == "demo" and not args.verbose:
            print_first_run(result, graph.stats(), graph.location)
        else:
            print_ingest(result, graph.ctx.iris)
    return 1 if result.problems else 0


def run_ingest(args: argparse.Namespace) -> int:
    llm = None if args.no_extract else config_from_args(args)
    return run_workflow(args, args.paths, llm if llm and configured_llm(llm) else None)


def run_demo(args: argparse.Namespace) -> int:
    from claimgraph.demo import demo_config, demo_papers
    from claimgraph.llm.config import load_config

    if args.llm or os.environ.get("OPENAI_API_KEY"):
        llm = load_config(overrides={"base_url": args.llm, "model": args.model})
        err(f"demo: live LLM run ({llm.base_url or 'OpenAI'}, model {llm.model})")
    else:
        err("demo: replaying recorded LLM responses (examples/demo/recordings); no network, no key")
        llm = demo_config()
    return run_workflow(args, demo_papers(), llm)
