"""One module per subcommand; each has ``register(subparsers)`` and sets ``handler``."""

from __future__ import annotations

import argparse

from claimgraph.rdf.iris import DEFAULT_BASE, IriScheme
from claimgraph.store import Store, open_store


def iri_scheme(args: argparse.Namespace) -> IriScheme:
    return IriScheme(args.base or DEFAULT_BASE)


def store_from(args: argparse.Namespace) -> Store:
    return open_store(args.store)
