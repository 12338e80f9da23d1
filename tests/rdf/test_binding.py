"""Binding terms to SPARQL variables: the variable is bound where it is a variable, never inside a string, an IRI or a comment."""

from __future__ import annotations

import pytest
from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.rdf.binding import TemplateError, bind
from claimgraph.store import Store

GRAPH = NamedNode("https://claimgraph.example/graph/bound")
OTHER = NamedNode("https://claimgraph.example/graph/other")
ITEM = NamedNode("https://claimgraph.example/item")
LABEL = NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
SEE_ALSO = NamedNode("http://www.w3.org/2000/01/rdf-schema#seeAlso")
TEMPLATE = """SELECT ?text ?link WHERE {
  GRAPH ?graph { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?text ; <http://www.w3.org/2000/01/rdf-schema#seeAlso> ?link }
  FILTER(?text = "what is ?graph" && ?link = <http://ex/q?graph=1>)  # ?graph in a comment
}"""


def test_a_name_inside_a_string_an_iri_or_a_comment_is_left_as_written() -> None:
    text = bind(TEMPLATE, {"graph": GRAPH})
    assert '"what is ?graph"' in text
    assert "<http://ex/q?graph=1>" in text
    assert "# ?graph in a comment" in text
    assert f"VALUES ?graph {{ {GRAPH} }}" in text


@pytest.mark.parametrize("name", ["grafé", "图表", "g·1"])
def test_a_variable_named_with_letters_beyond_ascii_is_bound_whole_and_a_longer_name_is_not(name: str, store: Store) -> None:
    """SPARQL variable names take letters of any script (VARNAME): the name is one token, never cut at its first non-ASCII letter."""
    store.insert({GRAPH: [Triple(ITEM, LABEL, Literal("here"))], OTHER: [Triple(ITEM, LABEL, Literal("elsewhere"))]})
    template = f"SELECT ?text WHERE {{ GRAPH ?{name} {{ ?s <{LABEL.value}> ?text }} OPTIONAL {{ ?s <{LABEL.value}> ?{name}x }} }}"
    text = bind(template, {name: GRAPH})
    assert f"VALUES ?{name} {{ {GRAPH} }}" in text and f"VALUES ?{name}x" not in text
    assert [row["text"].value for row in store.select(template, {name: GRAPH})] == ["here"]


def test_the_bound_query_reads_only_the_bound_graph_and_keeps_the_literal(store: Store) -> None:
    store.insert({
        GRAPH: [Triple(ITEM, LABEL, Literal("what is ?graph")), Triple(ITEM, SEE_ALSO, NamedNode("http://ex/q?graph=1"))],
        OTHER: [Triple(ITEM, LABEL, Literal("what is ?graph")), Triple(ITEM, SEE_ALSO, NamedNode("http://ex/q?other=1"))],
    })
    rows = store.select(TEMPLATE, {"graph": GRAPH})
    assert [(row["text"].value, row["link"].value) for row in rows] == [("what is ?graph", "http://ex/q?graph=1")]


def test_an_update_template_binds_its_insert_and_where_parts_alike(store: Store) -> None:
    store.insert({GRAPH: [Triple(ITEM, LABEL, Literal("a ?graph in text"))]})
    store.update('INSERT { GRAPH ?graph { ?s ?p "copied ?graph" } } WHERE { GRAPH ?graph { ?s ?p "a ?graph in text" } }', {"graph": GRAPH})
    assert {triple.object for triple in store.triples(GRAPH)} == {Literal("a ?graph in text"), Literal("copied ?graph")}
    assert store.triples(OTHER) == []


def test_operations_that_cannot_take_variables_are_refused() -> None:
    with pytest.raises(TemplateError):
        bind("INSERT DATA { GRAPH ?graph { <a:b> <a:c> <a:d> } }", {"graph": GRAPH})
