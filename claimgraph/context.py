"""The context every step works in: one store, one IRI scheme, one profile, travelling together.

A Context also knows the profile's vocabulary graph in the store (edge
properties, aliases, extracted classes, reasoning families): ``vocabulary``
writes it on first use when it is missing or stale, so a step never joins
against an outdated table. A context opened read-only never writes; it then
refuses to work with a missing or stale vocabulary graph and says what to run.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.errors import StoreError
from claimgraph.profile.manifest import Profile, load_profile
from claimgraph.profile.vocabulary import vocabulary_graph, vocabulary_triples
from claimgraph.rdf.iris import DEFAULT_BASE, IriScheme
from claimgraph.rdf.vocab import CG
from claimgraph.store import Store, ntriples, open_store


def vocabulary_fingerprint(triples: list[Triple]) -> str:
    """A hash of the vocabulary triples, stored with them to tell a current graph from a stale one."""
    return hashlib.sha256(ntriples(sorted(triples, key=str)).encode("utf-8")).hexdigest()[:16]


@dataclass
class Context:
    """The store, IRI scheme and profile of a run; ``read_only`` contexts never write."""

    store: Store
    iris: IriScheme = field(default_factory=IriScheme)
    profile: Profile = field(default_factory=lambda: load_profile("discourse"))
    read_only: bool = False
    _vocabulary: NamedNode | None = field(default=None, init=False, repr=False)

    @classmethod
    def open(cls, location: str | Path, base: str | None = None, profile: str | Profile = "discourse", read_only: bool = False) -> Context:
        """Open the store at ``location`` (a directory or an http(s) URL) with the given base and profile."""
        loaded = load_profile(profile) if isinstance(profile, str) else profile
        iris = IriScheme(base or DEFAULT_BASE)
        return cls(open_store(location, read_only=read_only), iris, loaded, read_only)

    def __enter__(self) -> Context:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self.store.close()

    @property
    def vocabulary(self) -> NamedNode:
        """The profile's vocabulary graph, written first when missing or stale (checked once per context)."""
        if self._vocabulary is None:
            self._vocabulary = self._current_vocabulary()
        return self._vocabulary

    def _current_vocabulary(self) -> NamedNode:
        graph = vocabulary_graph(self.iris, self.profile)
        triples = list(vocabulary_triples(self.profile))
        stamp = Triple(graph, CG.contentHash, Literal(vocabulary_fingerprint(triples)))
        if self.store.ask("ASK WHERE { GRAPH ?graph { ?graph ?hash ?value } }", {"graph": graph, "hash": CG.contentHash, "value": stamp.object}):
            return graph
        if self.read_only:
            raise StoreError(
                f"the {self.profile.name} vocabulary graph in {self.store.location} is missing or out of date; "
                "run `claimgraph repair` (or any writing command) once to refresh it"
            )
        self.store.replace_graph(graph, [*triples, stamp])
        return graph
