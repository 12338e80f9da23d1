"""The default graph of served queries: the union of the named graphs with --union-default-graph, and
otherwise a hint header when a default-graph query finds nothing on a store whose triples are in named graphs."""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path

import pytest
from serve_support import request

from claimgraph.errors import ClaimgraphError
from claimgraph.serve.evaluate import HINT_HEADER
from claimgraph.serve.server import ClaimgraphServer, ServeOptions, running_server

DEFAULT_SELECT = "SELECT ?o WHERE { ?s ?p ?o }"
HINT = HINT_HEADER.lower()


def get(server: ClaimgraphServer, sparql: str, **params: str) -> tuple[int, dict[str, str], bytes]:
    return request(server, "GET", "/query?" + urllib.parse.urlencode({"query": sparql, **params}))


def rows(body: bytes) -> list[str]:
    return [row["o"]["value"] for row in json.loads(body)["results"]["bindings"]]


def test_union_default_graph_reads_every_named_graph(writable_store: Path) -> None:
    with running_server(writable_store, ServeOptions(port=0, workers=1, union_default_graph=True, log_requests=False)) as server:
        status, headers, body = get(server, DEFAULT_SELECT)
        assert status == 200 and rows(body) == ["o"]
        assert HINT not in headers


def test_an_empty_default_graph_answer_carries_a_hint(writable_store: Path) -> None:
    with running_server(writable_store, ServeOptions(port=0, workers=1, log_requests=False)) as server:
        status, headers, body = get(server, DEFAULT_SELECT)
        assert status == 200 and rows(body) == []
        assert "--union-default-graph" in headers[HINT] and "GRAPH ?g" in headers[HINT]
        assert HINT in get(server, "ASK { ?s ?p ?o }")[1]
        for media_type in ("text/csv", "text/tab-separated-values", "application/sparql-results+xml"):
            for sparql in (DEFAULT_SELECT, "ASK { ?s ?p ?o }"):
                status, headers, _ = request(server, "GET", "/query?" + urllib.parse.urlencode({"query": sparql}), headers={"Accept": media_type})
                assert status == 200 and HINT in headers, (media_type, sparql)
        _, headers, _ = request(server, "GET", "/query?" + urllib.parse.urlencode({"query": "ASK {}"}), headers={"Accept": "text/csv"})
        assert HINT not in headers
        assert HINT in request(server, "GET", "/query?" + urllib.parse.urlencode({"query": "CONSTRUCT WHERE { ?s ?p ?o }"}),
                               headers={"Accept": "application/n-triples"})[1]
        for sparql, params in [("SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }", {}),
                               ("SELECT ?o FROM <http://example.org/none> WHERE { ?s ?p ?o }", {}),
                               (DEFAULT_SELECT, {"default-graph-uri": "http://example.org/none"}),
                               ("SELECT ?o WHERE { BIND(1 AS ?o) }", {})]:
            assert HINT not in get(server, sparql, **params)[1], sparql


def test_no_hint_on_a_store_without_named_graphs(tmp_path: Path) -> None:
    from claimgraph.store import EmbeddedStore

    EmbeddedStore(tmp_path / "store").close()
    with running_server(tmp_path / "store", ServeOptions(port=0, workers=1, log_requests=False)) as server:
        assert HINT not in get(server, DEFAULT_SELECT)[1]


def test_a_remote_store_refuses_union_default_graph_at_start() -> None:
    with pytest.raises(ClaimgraphError, match="embedded store only"), \
            running_server("http://127.0.0.1:9/", ServeOptions(port=0, union_default_graph=True, log_requests=False)):
        pass
