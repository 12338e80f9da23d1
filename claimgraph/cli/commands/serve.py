"""``claimgraph serve``: the SPARQL endpoint, Graph Store reads and the browser viewer over the store."""

from __future__ import annotations

import argparse
import os
import signal
from pathlib import Path

from claimgraph.cli.options import settings_from_args
from claimgraph.cli.render import err
from claimgraph.errors import ClaimgraphError

TOKEN_ENV = "CLAIMGRAPH_UPDATE_TOKEN"


def register(subparsers: argparse._SubParsersAction) -> None:
    serve = subparsers.add_parser(
        "serve", help="serve the store: SPARQL 1.1 endpoint (/query, /update), Graph Store reads (/store), viewer (/viewer/)",
        description="Read-only and bound to 127.0.0.1 unless told otherwise. Updates need a token, read from "
                    f"--update-token-file or the {TOKEN_ENV} environment variable (or --update-token, which other users can see in ps).",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default %(default)s; 0.0.0.0 exposes the server to the network)")
    serve.add_argument("--port", type=int, default=7879, help="port (default %(default)s; 0 picks a free one)")
    serve.add_argument("--update-token-file", type=Path, metavar="FILE", help="file holding the update token; enables /update")
    serve.add_argument("--update-token", metavar="TOKEN", help=f"the update token itself (prefer --update-token-file or {TOKEN_ENV})")
    serve.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS", help="query timeout; a query past it is stopped (default %(default)s)")
    serve.add_argument("--workers", type=int, help="query worker processes for an embedded store (default: CPUs, 2 to 8)")
    serve.add_argument("--allow-service", action="append", default=[], metavar="URL",
                       help="let SERVICE clauses (and LOAD) reach this endpoint (repeatable); any other is refused")
    serve.add_argument("--union-default-graph", action="store_true",
                       help="the default graph of a query is the union of all named graphs (embedded store only)")
    serve.add_argument("--read-timeout", type=float, default=30.0, metavar="SECONDS",
                       help="drop a connection that sends nothing for this long, mid-request or idle (default %(default)s)")
    serve.add_argument("--connections", type=int, default=64, metavar="N",
                       help="connections served at once; more wait in a bounded queue, beyond it 503 (default %(default)s)")
    serve.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                       help="also answer requests whose Host header is NAME (repeatable); by default only loopback names "
                            "and the bound address, against DNS rebinding")
    serve.add_argument("--cors", action="append", default=[], metavar="ORIGIN",
                       help="let web pages from ORIGIN (e.g. https://example.org, or *) read answers (repeatable; default: none)")
    serve.add_argument("--quiet", action="store_true", help="do not log each request to standard error")
    serve.add_argument("--no-warm", action="store_true",
                       help="do not compute the viewer's hub list and corpus in the background at start (they are then computed on first use)")
    serve.set_defaults(handler=run_serve)


def update_token(args: argparse.Namespace) -> str | None:
    """The token from --update-token-file, --update-token or the environment (in that order)."""
    from claimgraph.serve.tokens import read_token_file

    if args.update_token_file is not None:
        return read_token_file(args.update_token_file)
    if args.update_token:
        err("warning: --update-token is visible to other users in the process list; prefer --update-token-file or "
            f"the {TOKEN_ENV} environment variable")
        return str(args.update_token)
    return os.environ.get(TOKEN_ENV) or None


def run_serve(args: argparse.Namespace) -> int:
    from claimgraph.serve.server import ServeOptions, default_workers, make_server

    if args.timeout <= 0:
        raise ClaimgraphError("--timeout must be a positive number of seconds")
    if args.workers is not None and args.workers < 1:
        raise ClaimgraphError("--workers must be at least 1")
    if args.read_timeout <= 0:
        raise ClaimgraphError("--read-timeout must be a positive number of seconds")
    if args.connections < 1:
        raise ClaimgraphError("--connections must be at least 1")
    options = ServeOptions(
        host=args.host, port=args.port, update_token=update_token(args), timeout=args.timeout,
        workers=args.workers or default_workers(), allowed_services=tuple(args.allow_service),
        union_default_graph=args.union_default_graph, log_requests=not args.quiet, read_timeout=args.read_timeout,
        connections=args.connections, allowed_hosts=tuple(args.allow_host), cors_origins=tuple(args.cors),
        warm_viewer=not args.no_warm,
    )
    store = settings_from_args(args).store
    try:
        server = make_server(store.location, options, base=store.base, profile=store.profile)
    except OSError as error:
        raise ClaimgraphError(f"cannot listen on {args.host}:{args.port}: {error}") from error
    mode = "updates need the token" if options.update_token else "read-only"
    err(f"serving {store.location} at {server.base_url}: SPARQL {server.base_url}/query, viewer {server.base_url}/viewer/ ({mode}); Ctrl-C stops")
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        err(f"warning: bound to {args.host}; anyone who can reach this address can query the store")
    signal.signal(signal.SIGTERM, _interrupt)  # docker stop: close the store and the workers as Ctrl-C does
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
