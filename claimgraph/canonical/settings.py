"""Canonicalization settings: the ``[canonicalize]`` table of a profile manifest."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field

from claimgraph.canonical.embeddings import DEFAULT_EMBEDDER
from claimgraph.errors import ClaimgraphError
from claimgraph.profile.manifest import Profile
from claimgraph.rdf.vocab import local_name


class CanonicalizeError(ClaimgraphError):
    """Canonicalization cannot run (bad settings, unknown paper)."""


@dataclass(frozen=True)
class CanonicalizeSettings:
    """The ``[canonicalize]`` table of a profile manifest."""

    embedder: str = DEFAULT_EMBEDDER
    hub_size: int = 2
    candidates: int = 10
    ef_search: int = 64
    default_confidence: float = 0.5
    default_threshold: float = 0.9
    thresholds: Mapping[str, float] = field(default_factory=dict, hash=False)

    def threshold(self, type_iri: str) -> float:
        """The cosine similarity a candidate of this class must reach."""
        return self.thresholds.get(local_name(type_iri), self.default_threshold)


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
        default_confidence=float(table.get("default_confidence", 0.5)),
        default_threshold=float(thresholds.pop("default", 0.9)),
        thresholds={name: float(value) for name, value in thresholds.items()},
    )
    for name in ("hub_size", "candidates", "ef_search"):
        value = getattr(settings, name)
        if not isinstance(value, int) or value < (2 if name == "hub_size" else 1):
            raise CanonicalizeError(f"{where} {name} = {value!r}: a positive integer is needed (hub_size at least 2)")
    if not 0.0 <= settings.default_confidence <= 1.0:
        raise CanonicalizeError(f"{where} default_confidence must be in [0, 1]")
    return settings
