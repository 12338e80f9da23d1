"""The JSON-LD context covers every term we write: the ontology's declarations, and what a real store holds in
each kind of graph compacts to plain names, with no full IRI of our namespaces left."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from publish_support import REASONING_PAPER, open_context
from pyoxigraph import NamedNode

from claimgraph.publish.export import to_jsonld
from claimgraph.publish.jsonld_context import jsonld_context, missing_terms, ontology_terms

OUR_NAMESPACES = ("https://w3id.org/claimgraph/ontology/", "https://w3id.org/claimgraph/raw-label/")
ALLOWED_PREFIXES = ("rawLabel:",)  # raw edge labels are open-ended: they compact to rawLabel:<label>
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_every_declared_term_has_a_definition() -> None:
    missing = missing_terms(jsonld_context(), ontology_terms())
    assert missing == {}, f"run `python -m claimgraph.publish.jsonld_context` to add {', '.join(missing)} to ontology/context.jsonld"


def test_definitions_of_declared_terms_match_their_declaration() -> None:
    context = jsonld_context()
    differing = {name: (context[name], expected) for name, expected in ontology_terms().items() if name in context and context[name] != expected}
    assert differing == {}


def walk(value: object) -> Iterator[tuple[str, object]]:
    """(key, value) of every member of every object in a JSON document."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def leftovers(document: dict) -> list[str]:
    """Keys and type values that are not terms, and strings that are full IRIs of our namespaces."""
    context = document["@context"]
    found = []
    for key, value in walk({key: value for key, value in document.items() if key != "@context"}):
        if not key.startswith("@") and key not in context and not key.startswith(ALLOWED_PREFIXES):
            found.append(f"key {key}")
        if isinstance(value, dict) and "@value" in value:
            continue  # a literal: its @type is a datatype, not a class
        types = value if key == "@type" and isinstance(value, list) else [value] if key == "@type" else []
        found += [f"type {item}" for item in types if isinstance(item, str) and item not in context]
        strings = value if isinstance(value, list) else [value]
        found += [f"value {item}" for item in strings if isinstance(item, str) and item.startswith(OUR_NAMESPACES)]
    return sorted(set(found))


def graph_kinds(store: Path) -> dict[str, NamedNode]:
    with open_context(store) as ctx:
        iris = ctx.iris
        names = {graph.value for graph in ctx.store.graph_names()}
        kinds = {
            "paper": iris.paper("soil-warming"), "raw": iris.raw_graph("soil-warming"), "audit": iris.audit_graph("soil-warming"),
            "reasoning": iris.paper(REASONING_PAPER), "reasoning audit": iris.audit_graph(REASONING_PAPER),
            "canonical": iris.canonical_graph(), "links": NamedNode(f"{iris.base}graph/links/sample-terms"),
        }
        kinds.update({f"vocabulary {name.rsplit('/', 1)[-1]}": NamedNode(name) for name in names if "/graph/vocabulary/" in name})
    assert all(graph.value in names for graph in kinds.values()), "the store holds every kind of graph"
    return kinds


def test_each_kind_of_graph_compacts_to_terms_only(published_store: Path) -> None:
    problems = {}
    for kind, graph in graph_kinds(published_store).items():
        with open_context(published_store) as ctx:
            document = json.loads(to_jsonld(ctx.store, [graph]))
        assert document["@graph"], f"the {kind} graph exported nothing"
        left = leftovers(document)
        if left:
            problems[kind] = left
    assert problems == {}, "terms missing from ontology/context.jsonld"
