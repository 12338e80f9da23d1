"""Binding terms to SPARQL variables: the variable is bound where it is a variable, never inside a string, an IRI or a
comment; as a constant where one may stand, by VALUES where it must stay a variable, with the same solutions either way."""

from __future__ import annotations

import pytest
from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.rdf.binding import TemplateError, bind, bind_constants
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
    assert f"GRAPH {GRAPH} {{" in text and "VALUES" not in text


@pytest.mark.parametrize("name", ["grafé", "图表", "g·1"])
def test_a_variable_named_with_letters_beyond_ascii_is_bound_whole_and_a_longer_name_is_not(name: str, store: Store) -> None:
    """SPARQL variable names take letters of any script (VARNAME): the name is one token, never cut at its first non-ASCII letter."""
    store.insert({GRAPH: [Triple(ITEM, LABEL, Literal("here"))], OTHER: [Triple(ITEM, LABEL, Literal("elsewhere"))]})
    template = f"SELECT ?text WHERE {{ GRAPH ?{name} {{ ?s <{LABEL.value}> ?text }} OPTIONAL {{ ?s <{LABEL.value}> ?{name}x }} }}"
    text = bind(template, {name: GRAPH})
    assert f"GRAPH {GRAPH} {{" in text and f"?{name}x" in text
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


LABELS = [Triple(ITEM, LABEL, Literal("here")), Triple(NamedNode("https://claimgraph.example/other-item"), LABEL, Literal("there"))]
# (template, bindings, whether every bound variable becomes a constant)
TEMPLATES = [
    ("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?graph { ?s ?p ?o } }", {"graph": GRAPH}, True),
    ("SELECT ?s WHERE { GRAPH ?graph { ?s ?p ?text } }", {"graph": GRAPH, "text": Literal("here")}, True),
    ("SELECT ?graph ?s WHERE { GRAPH ?graph { ?s ?p ?o } }", {"graph": GRAPH}, False),
    ("SELECT * WHERE { GRAPH ?graph { ?s ?p ?o } }", {"graph": GRAPH}, False),
    ("SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g", {"g": GRAPH}, False),
    ("SELECT ?s WHERE { GRAPH ?graph { ?s ?p ?o } } ORDER BY ?o", {"graph": GRAPH, "o": Literal("here")}, False),
    ("SELECT ?s ?copy WHERE { GRAPH ?graph { ?s ?p ?o } BIND(?graph AS ?copy) }", {"graph": GRAPH}, True),
    ("SELECT ?s WHERE { GRAPH ?graph { ?s ?p ?o } FILTER(BOUND(?graph)) }", {"graph": GRAPH}, False),
    ("SELECT ?s WHERE { GRAPH ?graph { ?s ?p ?o } MINUS { GRAPH ?graph { ?s ?p \"there\" } } }", {"graph": GRAPH}, False),
    ("SELECT ?s WHERE { GRAPH ?name { ?s ?p ?o } }", {"name": Literal("not a graph")}, False),
    ("SELECT ?n WHERE { { SELECT (COUNT(?o) AS ?n) WHERE { GRAPH ?graph { ?s ?p ?o } } } }", {"graph": GRAPH}, True),
    ("PREFIX order: <https://claimgraph.example/> SELECT ?s WHERE { GRAPH ?graph { ?s order:as ?o } }", {"graph": GRAPH}, True),
    ('SELECT (GROUP_CONCAT(?o ; separator="|") AS ?all) WHERE { GRAPH ?graph { ?s ?p ?o } }', {"graph": GRAPH}, True),
]


@pytest.mark.parametrize(("template", "bindings", "constant"), TEMPLATES, ids=[str(n) for n in range(len(TEMPLATES))])
def test_constants_and_values_blocks_give_the_same_solutions(template: str, bindings: dict, constant: bool, store: Store) -> None:
    """A bound variable becomes a constant only where one may stand; the solutions equal those of VALUES blocks alone."""
    store.insert({GRAPH: LABELS, OTHER: [Triple(ITEM, LABEL, Literal("elsewhere"))]})
    text = bind(template, bindings)
    assert ("VALUES" not in text) is constant
    reference = bind(template, bindings, values_only=True)
    assert "VALUES" in reference
    solutions = sorted(sorted((name, str(term)) for name, term in row.items()) for row in store.select(text))
    assert solutions == sorted(sorted((name, str(term)) for name, term in row.items()) for row in store.select(reference))


def test_an_update_with_constants_changes_what_the_values_form_would(store: Store) -> None:
    template = 'DELETE { GRAPH ?graph { ?s ?p ?o } } INSERT { GRAPH ?graph { ?s ?p "moved" } } WHERE { GRAPH ?graph { ?s ?p ?o FILTER(?o = ?old) } }'
    assert "VALUES" not in bind(template, {"graph": GRAPH, "old": Literal("here")})
    store.insert({GRAPH: LABELS, OTHER: LABELS})
    store.update(template, {"graph": GRAPH, "old": Literal("here")})
    assert {triple.object.value for triple in store.triples(GRAPH)} == {"moved", "there"}
    assert set(store.triples(OTHER)) == set(LABELS)


def test_bind_constants_refuses_a_variable_that_must_stay_one() -> None:
    assert bind_constants("SELECT ?s WHERE { GRAPH ?graph { ?s ?p ?o } }", {"graph": GRAPH}) == f"SELECT ?s WHERE {{ GRAPH {GRAPH} {{ ?s ?p ?o }} }}"
    with pytest.raises(TemplateError, match=r"\?graph"):
        bind_constants("SELECT ?graph WHERE { GRAPH ?graph { ?s ?p ?o } }", {"graph": GRAPH})
