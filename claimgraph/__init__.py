"""claimgraph: scientific papers into a typed, validated, cross-paper knowledge graph.

``claimgraph.open(location)`` opens a store and gives a ``ClaimGraph`` whose
methods are the commands (``ingest``, ``query``, ``stats``...); see docs/api.md.
The package imports nothing heavy until a method needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["ClaimGraph", "Settings", "__version__", "load_settings", "open"]

if TYPE_CHECKING:
    from claimgraph.api import ClaimGraph, open
    from claimgraph.settings import Settings, load_settings


def __getattr__(name: str) -> Any:
    """``open`` and ``ClaimGraph`` (claimgraph.api), ``Settings`` and ``load_settings`` (claimgraph.settings), on first use."""
    if name in ("open", "ClaimGraph"):
        from claimgraph import api

        return getattr(api, name)
    if name in ("Settings", "load_settings"):
        from claimgraph import settings

        return getattr(settings, name)
    raise AttributeError(f"module 'claimgraph' has no attribute {name!r}")
