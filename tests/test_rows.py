"""Typed rows: a SELECT read into dataclasses, with clear errors on a missing or mistyped binding."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from pyoxigraph import Literal, NamedNode

from claimgraph.rdf.rows import RowError, integer_of, iri_of, read_rows
from claimgraph.store import EmbeddedStore


@dataclass(frozen=True)
class Count:
    thing: NamedNode
    label: str
    n: int
    note: str | None


def test_rows_are_read_into_the_declared_types() -> None:
    with EmbeddedStore(None) as store:
        rows = store.select('SELECT ?thing ?label ?n ?note WHERE { VALUES (?thing ?label ?n) { (<urn:a> "A" 3) (<urn:b> "B" 4.0) } }')
    assert read_rows(rows, Count) == [Count(NamedNode("urn:a"), "A", 3, None), Count(NamedNode("urn:b"), "B", 4, None)]


def test_a_missing_binding_names_the_variable() -> None:
    with pytest.raises(RowError, match=r"no binding for \?n"):
        read_rows([{"thing": NamedNode("urn:a"), "label": Literal("A")}], Count)


def test_a_mistyped_binding_names_the_value() -> None:
    with pytest.raises(RowError, match=r"\?n = '2.5' is not a whole number"):
        integer_of({"n": Literal("2.5")}, "n")
    with pytest.raises(RowError, match="is not an IRI"):
        iri_of({"thing": Literal("urn:a")}, "thing")
