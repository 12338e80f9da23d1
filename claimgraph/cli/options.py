"""Options several commands share: the store and profile, the LLM endpoint, the canonicalization sidecar.

Everything heavy is imported when a command runs, not when the parser is
built, so ``claimgraph --help`` starts at once.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from claimgraph.progress import SILENT, Progress

if TYPE_CHECKING:
    from claimgraph.api import ClaimGraph
    from claimgraph.llm.config import LLMConfig
    from claimgraph.settings import Settings

from claimgraph.settings import DEFAULT_PROFILE


def add_global_options(parser: argparse.ArgumentParser) -> None:
    """--store, --base and --profile, and the remote store options: they come before the subcommand."""
    parser.add_argument(
        "--store",
        help="embedded store directory, or http(s) URL of a SPARQL server "
        "(Oxigraph layout: URL/query, URL/update, URL/store); env CLAIMGRAPH_STORE; [store] location in claimgraph.toml; default {DEFAULT_STORE}",
    )
    parser.add_argument("--base", help="base IRI of instance data; env CLAIMGRAPH_BASE")
    parser.add_argument(
        "--profile",
        help=f"profile (ontology + shapes + prompts + repairs); env CLAIMGRAPH_PROFILE; default {DEFAULT_PROFILE}",
    )
    remote = parser.add_argument_group(
        "remote SPARQL store (any SPARQL 1.1 server; credentials only from the environment: "
        "CLAIMGRAPH_STORE_TOKEN for a bearer token, or CLAIMGRAPH_STORE_USER and CLAIMGRAPH_STORE_PASSWORD)"
    )
    remote.add_argument("--query-url",
                        help="SPARQL query endpoint; overrides --store; env CLAIMGRAPH_QUERY_URL")
    remote.add_argument("--update-url",
                        help="SPARQL update endpoint (default: the query URL); env CLAIMGRAPH_UPDATE_URL")
    remote.add_argument("--gsp-url",
                        help="Graph Store Protocol endpoint for bulk reads and writes (optional); env CLAIMGRAPH_GSP_URL")
    remote.add_argument("--store-timeout", type=float, metavar="SECONDS",
                        help="total seconds one call to the server may take, retries included; env CLAIMGRAPH_STORE_TIMEOUT; default 120")
    remote.add_argument("--store-retries", type=int, metavar="N",
                        help="retries on 5xx answers and dropped connections, with backoff; env CLAIMGRAPH_STORE_RETRIES; default 3")


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The session settings: claimgraph.toml and the environment, overridden by the global options given."""
    from claimgraph.settings import load_settings

    store = {"location": args.store, "base": args.base, "profile": args.profile, "query_url": getattr(args, "query_url", None),
             "update_url": getattr(args, "update_url", None), "gsp_url": getattr(args, "gsp_url", None),
             "timeout": getattr(args, "store_timeout", None), "retries": getattr(args, "store_retries", None),
             "allowed_services": getattr(args, "allow_service", None) or None}
    canonicalize = {"sidecar": getattr(args, "sidecar", None), "embedder": getattr(args, "embedder", None)}
    return load_settings(getattr(args, "config", None), store=store, canonicalize=canonicalize)


def open_graph(args: argparse.Namespace, read_only: bool = False, progress: Progress | None = None) -> ClaimGraph:
    """The store of the global options, opened through the Python API (``claimgraph.open``) with its settings.

    A read-only command opens an embedded store without its write lock and loads the profile only if asked.
    """
    from claimgraph.api import open as open_claimgraph

    return open_claimgraph(settings=settings_from_args(args), read_only=read_only, progress=progress or SILENT)


def add_sidecar_options(parser: argparse.ArgumentParser) -> None:
    """--sidecar and --embedder (canonicalize, reindex, ingest)."""
    parser.add_argument("--sidecar", type=Path, help="sidecar folder (FAISS index, id map, embedding cache); "
                        "default <store>.sidecar next to an embedded store, a cache folder for a URL; env CLAIMGRAPH_SIDECAR")
    parser.add_argument("--embedder", help="minilm | hashing[:DIM] | openai:MODEL | st:PATH; default the profile's "
                        "[canonicalize] embedder; env CLAIMGRAPH_EMBEDDER")


def add_llm_arguments(parser: argparse.ArgumentParser) -> None:
    """The LLM flags of a command; every default is None so that unset flags do not override."""
    from claimgraph.llm.config import DEFAULT_CACHE_DIR, DEFAULT_CONFIG_FILE, DEFAULT_MODEL

    group = parser.add_argument_group("LLM endpoint (flags > environment > config file > defaults)")
    group.add_argument("--config", type=Path, help=f"TOML file with an [llm] table; default ./{DEFAULT_CONFIG_FILE} if present")
    group.add_argument("--model", help=f"model name; env CLAIMGRAPH_MODEL; default {DEFAULT_MODEL}")
    group.add_argument("--base-url", help="OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp ...); env OPENAI_BASE_URL")
    group.add_argument("--temperature", type=float)
    group.add_argument("--max-tokens", type=int, help="completion token limit per call")
    group.add_argument("--llm-timeout", type=float, dest="timeout", metavar="SECONDS", help="deadline of each request attempt as a whole (a trickling server cannot hold it longer)")
    group.add_argument("--max-retries", type=int, help="retries of a call on 429, 5xx, timeouts, dropped connections")
    group.add_argument("--concurrency", type=int, dest="max_concurrency", help="LLM requests in flight at most")
    group.add_argument("--cache-dir", help=f"response cache directory ('none' disables); env CLAIMGRAPH_LLM_CACHE; default {DEFAULT_CACHE_DIR}")
    group.add_argument("--no-cache", action="store_true", help="do not read or write the response cache")
    group.add_argument("--replay", dest="replay_dir", metavar="DIR", help="serve recorded responses from DIR (a cache directory); sends nothing")
    # extraction faults and structured output (docs/llm.md)
    group.add_argument("--no-structured-output", dest="structured_output", action="store_const", const=False,
                       help="do not ask for JSON-schema output (response_format); by default it is asked and refusals fall back")
    group.add_argument("--breaker", type=int, dest="breaker_threshold", metavar="N",
                       help="consecutive connection failures after which the remaining calls are skipped (0: never); default 5")
    group.add_argument("--paper-budget", type=float, dest="paper_budget", metavar="SECONDS",
                       help="time budget for all LLM calls of one paper; calls left after it are skipped")
    group.add_argument("--max-reply-bytes", type=int, dest="max_reply_bytes", metavar="BYTES",
                       help="size limit of one reply's body (a longer reply fails its call and is not cached); "
                            "env CLAIMGRAPH_LLM_MAX_REPLY_BYTES; default 2 MiB")


def config_from_args(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> LLMConfig:
    """The LLMConfig of a command whose parser had ``add_llm_arguments``."""
    from claimgraph.llm.config import load_config

    keys = ("model", "base_url", "temperature", "max_tokens", "timeout", "max_retries", "max_concurrency", "cache_dir", "replay_dir",
            "structured_output", "breaker_threshold", "paper_budget", "max_reply_bytes")
    overrides = {key: getattr(args, key, None) for key in keys}
    config = load_config(getattr(args, "config", None), environ, overrides)
    return replace(config, cache_dir=None) if getattr(args, "no_cache", False) else config


def configured_llm(config: LLMConfig) -> bool:
    """Whether the settings name an endpoint (or recordings) to extract with."""
    return bool(config.base_url or config.api_key or config.replay_dir)
