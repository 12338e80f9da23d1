"""Audit numbering: computed inside the appending update, equal to a serial numbering, unique under concurrent writers."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from pyoxigraph import Literal, NamedNode

from claimgraph.papers.audit import Activity, activity_iri, activity_triples, now
from claimgraph.papers.audit_append import record
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import expand_fragments
from claimgraph.rdf.vocab import CG, XSD
from claimgraph.store import RemoteStore, Store


def activities(tag: str, count: int = 2) -> list[Activity]:
    return [Activity("repair", f"{tag} script {n}", {"before": n, "after": 0}, [NamedNode(f"https://claimgraph.example/paper/p/x/{n}")],
                     {"note": f'{tag} "quoted" }} ; DROP ALL'}, started=now(), ended=now()) for n in range(count)]


def test_record_writes_what_a_serial_numbering_would(store: Store, iris: IriScheme) -> None:
    batches = [activities("first", 3), activities("second", 1), activities("third", 2)]
    for batch in batches:
        record(store, iris, "p", batch)
    flat = [activity for batch in batches for activity in batch]
    expected = {triple for number, activity in enumerate(flat, start=1) for triple in activity_triples(iris, "p", number, activity)}
    assert set(store.triples(iris.audit_graph("p"))) == expected
    assert [entry["sequence"] for entry in audit_trail(store, iris, "p")] == [1, 2, 3, 4, 5, 6]


def test_notes_that_look_like_template_syntax_are_stored_as_written(store: Store, iris: IriScheme) -> None:
    """A note quoting a response (or a file name) with fragment braces or the update's own variable names is data."""
    notes = {"response": "{{activity_iri(?audit, ?n0, \"x\")}}.dot", "finding": "?audit ?last ?n0 {{no_such_fragment}}"}
    record(store, iris, "p", [Activity("extract", "materialize", {"nodes": 1}, notes=notes, started=now(), ended=now())])
    stored = {triple.object.value for triple in store.triples(iris.audit_graph("p")) if isinstance(triple.object, Literal)}
    assert set(notes.values()) <= stored


@pytest.mark.parametrize("sequence", [1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 123456])
def test_the_sparql_activity_iri_equals_the_python_one(store: Store, iris: IriScheme, sequence: int) -> None:
    activity = Activity("gate", "gate")
    audit = iris.audit_graph("p")
    digest = activity_iri(audit, 0, activity).value.rsplit("-", 1)[1]
    query = expand_fragments("SELECT ?iri WHERE { BIND({{activity_iri(?audit, ?n, ?h)}} AS ?iri) }")
    rows = store.select(query, {"audit": audit, "n": Literal(str(sequence), datatype=XSD.integer), "h": Literal(digest)})
    assert rows == [{"iri": activity_iri(audit, sequence, activity)}]


def test_concurrent_writers_of_one_paper_never_share_a_number(oxigraph_server: str, iris: IriScheme) -> None:
    """Eight clients append to one audit graph at once; each appended activity gets its own number, none is lost."""
    RemoteStore.from_base_url(oxigraph_server).update("DROP ALL")
    writers, rounds = 8, 6
    barrier = threading.Barrier(writers)
    errors: list[Exception] = []

    def write(writer: int) -> None:
        store = RemoteStore.from_base_url(oxigraph_server)
        try:
            barrier.wait()
            for round_ in range(rounds):
                record(store, iris, "shared", [Activity("repair", f"writer {writer} round {round_}", ended=now())])
        except Exception as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)
        finally:
            store.close()

    threads = [threading.Thread(target=write, args=(writer,)) for writer in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    store = RemoteStore.from_base_url(oxigraph_server)
    numbers = Counter(int(triple.object.value) for triple in store.triples(iris.audit_graph("shared")) if triple.predicate == CG.sequence)
    assert sorted(numbers) == list(range(1, writers * rounds + 1))
    assert set(numbers.values()) == {1}
    assert store.triples(NamedNode("urn:claimgraph:locks")) == []
