"""The single-writer section of canonicalization on a shared store.

Placing a node reads the CANON_ hubs, decides, and writes links; two processes
doing that at once on one server both see no hub for a text they share and
both found one (a split). Every writer of the canonical graph's hubs
(``canonicalize``, the canonicalization step of ``ingest``, ``reindex``,
``unmerge``, ``release``, and storing a paper again, which takes its links out) therefore runs its read-place-write section under a
lease on the canonical graph's IRI, held in the store itself
(``claimgraph.store.lease``), renewed while the section runs and checked before
each write. On an embedded store the process lock already excludes other
writers and the lease costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from claimgraph.context import Context
from claimgraph.store.lease import LONG_WAIT_SECONDS, Held, lease


@contextmanager
def single_writer(ctx: Context) -> Iterator[Held]:
    """Hold the canonical graph against every other claimgraph writer of it for the duration of the block."""
    with lease(ctx.store, ctx.iris.canonical_graph(), wait=LONG_WAIT_SECONDS, keep_alive=True) as held:
        yield held
