"""Canonicalization settings: the ``[canonicalize]`` table of a profile manifest."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field

from claimgraph.canonical.guards.check import GUARDS
from claimgraph.embedding.base import DEFAULT_EMBEDDER
from claimgraph.errors import ClaimgraphError
from claimgraph.profile.manifest import Profile
from claimgraph.rdf.vocab import local_name


class CanonicalizeError(ClaimgraphError):
    """Canonicalization cannot run (bad settings, unknown paper)."""


@dataclass(frozen=True)
class CanonicalizeSettings:
    """The ``[canonicalize]`` table of a profile manifest.

    ``adjudicate`` maps a class local name to a cosine band [low, high): with an LLM
    configured for adjudication, a candidate the guards pass is accepted at or above
    ``high``, asked about in the band, and rejected below ``low``; without one, the
    class's threshold decides alone. The judge may also be a pair model (``links/pair_model.py``).

    ``vetoes`` names the guards whose objection rejects a candidate (default: all of them);
    a profile that leaves structure to a pair model can keep only the cue guards.

    ``join_within_paper`` lets two nodes of one paper share a hub of a cautious type by cosine;
    off by default, as for aggressive types: within one paper a near-duplicate is mostly a
    sibling claim (one of several findings split from one sentence), and exact texts are
    grouped anyway.
    """

    embedder: str = DEFAULT_EMBEDDER
    hub_size: int = 2
    candidates: int = 10
    ef_search: int = 64
    default_threshold: float = 0.9
    thresholds: Mapping[str, float] = field(default_factory=dict, hash=False)
    adjudicate: Mapping[str, tuple[float, float]] = field(default_factory=dict, hash=False)
    guards: bool = True
    vetoes: frozenset[str] = field(default=frozenset(GUARDS), hash=False)
    join_within_paper: bool = False

    def threshold(self, type_iri: str) -> float:
        """The cosine similarity a candidate of this class must reach."""
        return self.thresholds.get(local_name(type_iri), self.default_threshold)

    def band(self, type_iri: str) -> tuple[float, float] | None:
        """The adjudication band of this class, if the profile sets one."""
        return self.adjudicate.get(local_name(type_iri))


def _band(where: str, name: str, value: object) -> tuple[float, float]:
    if (isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value)
            and 0.0 < value[0] < value[1] <= 1.0):
        return float(value[0]), float(value[1])
    raise CanonicalizeError(f"{where} adjudicate.{name} = {value!r}: a band [low, high] with 0 < low < high <= 1 is needed")


def _vetoes(where: str, value: object) -> frozenset[str]:
    if isinstance(value, list) and all(isinstance(name, str) and name in GUARDS for name in value):
        return frozenset(value)
    raise CanonicalizeError(f"{where} vetoes = {value!r}: a list of guard names from {', '.join(GUARDS)} is needed")


def load_settings(profile: Profile) -> CanonicalizeSettings:
    """Settings from the profile manifest's ``[canonicalize]`` table (defaults where absent)."""
    table = tomllib.loads(profile.manifest.read_text(encoding="utf-8")).get("canonicalize", {})
    where = f"{profile.manifest}: [canonicalize]"
    thresholds = dict(table.get("thresholds", {}))
    for name, value in thresholds.items():
        if not isinstance(value, (int, float)) or not 0.0 < value <= 1.0:
            raise CanonicalizeError(f"{where} thresholds.{name} = {value!r}: a cosine similarity in (0, 1] is needed")
    settings = CanonicalizeSettings(
        embedder=str(table.get("embedder", DEFAULT_EMBEDDER)),
        hub_size=table.get("hub_size", 2),
        candidates=table.get("candidates", 10),
        ef_search=table.get("ef_search", 64),
        default_threshold=float(thresholds.pop("default", 0.9)),
        thresholds={name: float(value) for name, value in thresholds.items()},
        adjudicate={name: _band(where, name, value) for name, value in table.get("adjudicate", {}).items()},
        guards=table.get("guards", True),
        vetoes=_vetoes(where, table.get("vetoes", list(GUARDS))),
        join_within_paper=table.get("join_within_paper", False),
    )
    for name in ("hub_size", "candidates", "ef_search"):
        value = getattr(settings, name)
        if not isinstance(value, int) or value < (2 if name == "hub_size" else 1):
            raise CanonicalizeError(f"{where} {name} = {value!r}: a positive integer is needed (hub_size at least 2)")
    for name in ("guards", "join_within_paper"):
        if not isinstance(getattr(settings, name), bool):
            raise CanonicalizeError(f"{where} {name} = {getattr(settings, name)!r}: true or false")
    return settings
