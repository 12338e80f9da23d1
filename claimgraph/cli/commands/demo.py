"""``claimgraph demo``: the whole pipeline on the bundled example papers.

Offline by default: the LLM steps replay recorded responses (see
claimgraph.demo), so no key is needed. With OPENAI_API_KEY set, or
``--llm URL``, the same run goes to a live endpoint.
"""

from __future__ import annotations

import argparse
import os

from claimgraph.cli.commands.ingest import ingest_and_report
from claimgraph.cli.render import err
from claimgraph.demo import demo_config, demo_papers
from claimgraph.llm.config import LLMConfig, load_config


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="run the whole pipeline on the bundled examples (offline: recorded responses)")
    parser.add_argument("--llm", metavar="URL", help="run live against this OpenAI-compatible endpoint instead of the recordings")
    parser.add_argument("--model", help="model for a live run; env CLAIMGRAPH_MODEL")
    parser.set_defaults(handler=run)


def demo_llm(args: argparse.Namespace) -> LLMConfig:
    if args.llm or os.environ.get("OPENAI_API_KEY"):
        config = load_config(overrides={"base_url": args.llm, "model": args.model})
        err.print(f"demo: live LLM run ({config.base_url or 'OpenAI'}, model {config.model})")
        return config
    err.print("demo: replaying recorded LLM responses (examples/demo/recordings); no network, no key")
    return demo_config()


def run(args: argparse.Namespace) -> int:
    return ingest_and_report(args, demo_papers(), demo_llm(args))
