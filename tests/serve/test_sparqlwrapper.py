"""A standard client, SPARQLWrapper, talks to the endpoint: every return format, GET and POST, and updates."""

from __future__ import annotations

from pathlib import Path

import pytest
from serve_support import UPDATE_TOKEN
from SPARQLWrapper import CSV, JSON, JSONLD, N3, POST, POSTDIRECTLY, TSV, TURTLE, URLENCODED, XML, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import QueryBadFormed

from claimgraph.serve.server import ClaimgraphServer, ServeOptions, running_server

PAPER_COUNT = "PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT (COUNT(?p) AS ?n) WHERE { GRAPH ?p { ?p a cg:Paper } }"
# SPARQLWrapper converts RDF answers with rdflib's deprecated ConjunctiveGraph.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
HUBS = ("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> CONSTRUCT { ?h a cg:CanonicalNode } "
        "WHERE { GRAPH <https://claimgraph.example/graph/canonical> { ?h a cg:CanonicalNode } }")


def wrapper(server: ClaimgraphServer, path: str = "/query") -> SPARQLWrapper:
    return SPARQLWrapper(server.base_url + path)


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("request_method", [URLENCODED, POSTDIRECTLY])
def test_select_as_json(served: ClaimgraphServer, method: str, request_method: str) -> None:
    client = wrapper(served)
    client.setQuery(PAPER_COUNT)
    client.setReturnFormat(JSON)
    client.setMethod(method)
    client.setRequestMethod(request_method)
    result = client.queryAndConvert()
    assert result["results"]["bindings"][0]["n"]["value"] == "3"  # type: ignore[index]


@pytest.mark.parametrize(("fmt", "marker"), [(XML, b"<sparql"), (CSV, b"n\r\n3"), (TSV, b"?n\n3")])
def test_select_in_the_other_formats(served: ClaimgraphServer, fmt: str, marker: bytes) -> None:
    client = wrapper(served)
    client.setQuery(PAPER_COUNT)
    client.setReturnFormat(fmt)
    raw = client.query().response.read()
    assert marker in raw


@pytest.mark.parametrize("fmt", [TURTLE, JSONLD, XML, N3])
def test_construct_converts_to_an_rdflib_graph(served: ClaimgraphServer, fmt: str) -> None:
    client = wrapper(served)
    client.setQuery(HUBS)
    client.setReturnFormat(fmt)
    result = client.query()
    converted = result.convert()
    graph = converted if hasattr(converted, "__len__") and not isinstance(converted, (bytes, str)) else None
    if graph is None:  # N3 and Turtle answers come back as bytes
        import rdflib

        graph = rdflib.Graph().parse(data=converted, format="turtle")
    assert len(graph) >= 1


def test_a_malformed_query_raises_query_bad_formed(served: ClaimgraphServer) -> None:
    client = wrapper(served)
    client.setQuery("SELECT WHERE {")
    with pytest.raises(QueryBadFormed):
        client.query()


def test_update_with_the_token(writable_store: Path) -> None:
    options = ServeOptions(port=0, workers=1, update_token=UPDATE_TOKEN, log_requests=False)
    with running_server(writable_store, options) as server:
        client = wrapper(server, "/update")
        client.setMethod(POST)
        client.addCustomHttpHeader("Authorization", f"Bearer {UPDATE_TOKEN}")
        client.setQuery('INSERT DATA { GRAPH <http://example.org/g> { <http://example.org/s> <http://example.org/p> "via wrapper" } }')
        client.query()
        reader = wrapper(server)
        reader.setQuery('ASK { GRAPH <http://example.org/g> { ?s ?p "via wrapper" } }')
        reader.setReturnFormat(JSON)
        assert reader.queryAndConvert()["boolean"] is True  # type: ignore[index]
