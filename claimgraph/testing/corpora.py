"""Where the real ARCHE corpus is, when a machine has it.

The real papers cannot ship with claimgraph. ``CLAIMGRAPH_ARCHE_DIR`` names the folder
of their JSON files; without it, ``../shared/data/arche`` next to the checkout is used
when it exists. Tests that need the real corpus skip with ``ARCHE_SKIP_REASON`` otherwise;
the rest run on the synthetic corpus (``claimgraph.testing.synthetic.arche``).
"""

from __future__ import annotations

import os
from pathlib import Path

ARCHE_ENV = "CLAIMGRAPH_ARCHE_DIR"
ARCHE_SKIP_REASON = f"real ARCHE corpus not found: set {ARCHE_ENV} to the folder of its JSON files (see README)"
REPOSITORY_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ARCHE_DIR = REPOSITORY_ROOT.parent / "shared" / "data" / "arche"


def real_arche_dir() -> Path | None:
    """The folder named by CLAIMGRAPH_ARCHE_DIR (None when it names no folder), else the
    default next to the checkout when it exists, else None."""
    named = os.environ.get(ARCHE_ENV)
    if named:
        folder = Path(named).expanduser()
        return folder if folder.is_dir() else None
    return DEFAULT_ARCHE_DIR if DEFAULT_ARCHE_DIR.is_dir() else None
