"""The context every step works in: one store, one IRI scheme, one profile, travelling together.

A Context also knows the profile's vocabulary graph in the store (edge
properties, aliases, extracted classes, reasoning families): ``vocabulary``
writes it on first use when it is missing or stale, so a step never joins
against an outdated table. A context opened read-only never writes; it then
refuses to work with a missing or stale vocabulary graph and says what to run.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, cast

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.errors import StoreError
from claimgraph.profile.manifest import load_profile
from claimgraph.profile.vocabulary import vocabulary_graph, vocabulary_triples
from claimgraph.rdf.iris import DEFAULT_BASE, IriScheme
from claimgraph.rdf.vocab import CG
from claimgraph.settings import StoreSettings
from claimgraph.store import HttpSettings, Store, ntriples, open_endpoints, open_store

if TYPE_CHECKING:
    from claimgraph.profile.manifest import Profile
    from claimgraph.settings import StoreSettings


def vocabulary_fingerprint(triples: list[Triple]) -> str:
    """A hash of the vocabulary triples, stored with them to tell a current graph from a stale one."""
    import hashlib

    return hashlib.sha256(ntriples(sorted(triples, key=str)).encode("utf-8")).hexdigest()[:16]


@cache
def vocabulary_content(iris: IriScheme, profile: Profile) -> tuple[NamedNode, tuple[Triple, ...], Triple]:
    """The vocabulary graph's IRI, its triples and the stamp triple that marks it current (computed once)."""

    graph = vocabulary_graph(iris, profile)
    triples = tuple(vocabulary_triples(profile))
    return graph, triples, Triple(graph, CG.contentHash, Literal(vocabulary_fingerprint(list(triples))))


class Context:
    """The store, IRI scheme and profile of a run; ``read_only`` contexts never write.

    A profile given by name is loaded on first use, so a command that never
    needs it (a query, an export) does not pay for reading the ontology.
    """

    def __init__(self, store: Store, iris: IriScheme | None = None, profile: Profile | str = "discourse", read_only: bool = False) -> None:
        self.store = store
        self.iris = iris or IriScheme()
        self.read_only = read_only
        self._profile = profile
        self._vocabulary: NamedNode | None = None

    @property
    def profile(self) -> Profile:
        if isinstance(self._profile, str):

            self._profile = load_profile(self._profile)
        return self._profile

    @classmethod
    def open(cls, location: str | Path, base: str | None = None, profile: str = "discourse", read_only: bool = False) -> Context:
        """Open the store at ``location`` (a directory or an http(s) URL) with the given base and profile (see ``from_settings``)."""

        return cls.from_settings(StoreSettings(location=str(location), base=base, profile=profile), read_only)

    @classmethod
    def from_settings(cls, settings: StoreSettings, read_only: bool = False) -> Context:
        """Open the store the settings name (its endpoints when ``query_url`` is set, else its location).

        The base IRI and the profile are checked before the store is opened, so a typo never leaves a store
        folder or a lock behind. A read-only context loads its profile on first use (a query never reads it).
        """

        try:
            iris = IriScheme(settings.base or DEFAULT_BASE)
        except ValueError as error:
            raise StoreError(f"--base {settings.base!r} is not an absolute IRI ({error}); give e.g. https://example.org/claims/") from None
        profile: Profile | str = settings.profile
        if not read_only:

            profile = load_profile(settings.profile)
        http = HttpSettings(timeout=settings.timeout, retries=settings.retries)
        if settings.query_url:
            store = open_endpoints(settings.query_url, settings.update_url, settings.gsp_url, http, settings.allowed_services)
        else:
            store = open_store(settings.location, read_only=read_only, settings=http, allowed_services=settings.allowed_services)
        return cls(store, iris, profile, read_only)

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
        graph, triples, stamp = vocabulary_content(self.iris, self.profile)
        if self.store.ask("ASK WHERE { GRAPH ?graph { ?graph ?hash ?value } }", {"graph": graph, "hash": CG.contentHash, "value": cast(Literal, stamp.object)}):
            return graph
        if self.read_only:
            raise StoreError(
                f"the {self.profile.name} vocabulary graph in {self.store.location} is missing or out of date; "
                "run `claimgraph repair` (or any writing command) once to refresh it"
            )
        self.store.replace_graph(graph, [*triples, stamp])
        return graph
