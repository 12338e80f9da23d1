"""Locate the data assets (ontology, shapes, sparql, profiles, prompts, examples).

In a checkout they are top-level folders next to the package; in an installed
wheel they are packed under ``claimgraph/_assets`` (see pyproject.toml).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from claimgraph.errors import AssetNotFoundError

ASSET_FOLDERS = ("ontology", "shapes", "sparql", "profiles", "prompts", "examples")


@cache
def asset_root() -> Path:
    """The folder that holds the asset folders."""
    package_dir = Path(__file__).resolve().parent
    for candidate in (package_dir / "_assets", package_dir.parent):
        if (candidate / "ontology").is_dir() and (candidate / "shapes").is_dir():
            return candidate
    raise AssetNotFoundError(
        f"cannot find the ontology/ and shapes/ folders near {package_dir}; "
        "reinstall claimgraph or run it from a checkout"
    )


def asset_path(*parts: str) -> Path:
    """Path of one asset, e.g. ``asset_path("sparql", "queries", "stats.rq")``."""
    path = asset_root().joinpath(*parts)
    if not path.exists():
        raise AssetNotFoundError(f"missing asset {'/'.join(parts)} (looked in {asset_root()})")
    return path


def read_asset(*parts: str) -> str:
    """Text of one asset file."""
    return asset_path(*parts).read_text(encoding="utf-8")
