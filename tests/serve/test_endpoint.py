"""The SPARQL 1.1 Protocol endpoint over a real store, by plain HTTP: formats, status codes, Graph Store reads, updates."""

from __future__ import annotations

import csv
import io
import json
import urllib.parse
from pathlib import Path
from xml.etree import ElementTree

import pyoxigraph
import pytest
from pyoxigraph import RdfFormat
from serve_support import UPDATE_TOKEN, request

from claimgraph.rdf.iris import IriScheme
from claimgraph.serve.server import ClaimgraphServer, ServeOptions, running_server

PAPERS = "PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?paper WHERE { GRAPH ?paper { ?paper a cg:Paper } } ORDER BY ?paper"
EXPECTED_PAPERS = [IriScheme().paper(name).value for name in ("soil-moisture", "soil-warming", "synthetic-ripples")]
CONSTRUCT = "CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <https://claimgraph.example/graph/canonical> { ?s ?p ?o } }"


def get_query(server: ClaimgraphServer, sparql: str, accept: str | None = None) -> tuple[int, dict[str, str], bytes]:
    return request(server, "GET", "/query?" + urllib.parse.urlencode({"query": sparql}), headers={"Accept": accept} if accept else {})


def form(**fields: str) -> tuple[str, dict[str, str]]:
    return urllib.parse.urlencode(fields), {"Content-Type": "application/x-www-form-urlencoded"}


# ------------------------------------------------------------------ queries and formats


def test_get_select_answers_sparql_json_by_default(served: ClaimgraphServer) -> None:
    status, headers, body = get_query(served, PAPERS)
    assert status == 200
    assert headers["content-type"].startswith("application/sparql-results+json")
    rows = json.loads(body)["results"]["bindings"]
    assert [row["paper"]["value"] for row in rows] == EXPECTED_PAPERS


@pytest.mark.parametrize("media_type", ["application/sparql-results+xml", "text/csv", "text/tab-separated-values"])
def test_each_results_format_holds_the_same_rows(served: ClaimgraphServer, media_type: str) -> None:
    status, headers, body = get_query(served, PAPERS, media_type)
    assert status == 200 and headers["content-type"].startswith(media_type)
    text = body.decode("utf-8")
    if media_type.endswith("xml"):
        namespace = "{http://www.w3.org/2005/sparql-results#}"
        values = [uri.text for uri in ElementTree.fromstring(body).iter(f"{namespace}uri")]
    elif media_type == "text/csv":
        values = [row[0] for row in csv.reader(io.StringIO(text))][1:]
    else:
        values = [line.strip("<>") for line in text.splitlines()[1:]]
    assert values == EXPECTED_PAPERS


def test_post_form_and_post_direct_give_the_same_answer(served: ClaimgraphServer) -> None:
    body, headers = form(query=PAPERS)
    status_form, _, answer_form = request(served, "POST", "/query", body, headers)
    status_direct, _, answer_direct = request(served, "POST", "/query", PAPERS, {"Content-Type": "application/sparql-query"})
    assert status_form == status_direct == 200
    assert json.loads(answer_form) == json.loads(answer_direct)


def test_ask_answers_a_boolean(served: ClaimgraphServer) -> None:
    status, _, body = get_query(served, "ASK { GRAPH ?g { ?s ?p ?o } }")
    assert status == 200 and json.loads(body)["boolean"] is True


@pytest.mark.parametrize(("media_type", "rdf_format"), [
    ("text/turtle", RdfFormat.TURTLE), ("application/n-triples", RdfFormat.N_TRIPLES),
    ("application/ld+json", RdfFormat.JSON_LD), ("application/rdf+xml", RdfFormat.RDF_XML),
])
def test_construct_is_written_in_the_negotiated_rdf_syntax(served: ClaimgraphServer, media_type: str, rdf_format: RdfFormat) -> None:
    status, headers, body = get_query(served, CONSTRUCT, media_type)
    assert status == 200 and headers["content-type"].startswith(media_type)
    triples = {quad.triple for quad in pyoxigraph.parse(body, format=rdf_format)}
    _, _, turtle = get_query(served, CONSTRUCT, "text/turtle")
    assert triples and triples == {quad.triple for quad in pyoxigraph.parse(turtle, format=RdfFormat.TURTLE)}


def test_describe_is_a_graph_answer(served: ClaimgraphServer) -> None:
    status, headers, body = get_query(served, f"DESCRIBE <{EXPECTED_PAPERS[0]}>", "application/n-triples")
    assert status == 200 and headers["content-type"].startswith("application/n-triples")


def test_dataset_parameters_choose_the_default_graph(served: ClaimgraphServer) -> None:
    query = "SELECT (COUNT(*) AS ?n) WHERE { ?s a <https://w3id.org/claimgraph/ontology/v1#Paper> }"
    _, _, plain = get_query(served, query)
    path = "/query?" + urllib.parse.urlencode({"query": query, "default-graph-uri": EXPECTED_PAPERS[0]})
    status, _, scoped = request(served, "GET", path)
    count = lambda body: int(json.loads(body)["results"]["bindings"][0]["n"]["value"])  # noqa: E731
    assert status == 200 and (count(plain), count(scoped)) == (0, 1)


# ------------------------------------------------------------------ status codes


@pytest.mark.parametrize(("method", "path", "body", "headers", "status"), [
    ("GET", "/query?query=SELEC+%3Fx", "", {}, 400),
    ("GET", "/query", "", {}, 400),
    ("GET", "/query?query=ASK%7B%7D&query=ASK%7B%7D", "", {}, 400),
    ("POST", "/query", "query=ASK%7B%7D", {"Content-Type": "text/plain"}, 415),
    ("POST", "/query", "ASK {}", {}, 415),
    ("GET", "/query?query=ASK%7B%7D", "", {"Accept": "image/png"}, 406),
    ("GET", "/query?query=CONSTRUCT+WHERE+%7B%3Fs+%3Fp+%3Fo%7D", "", {"Accept": "application/sparql-results+json"}, 406),
    ("POST", "/query", "update=CLEAR+ALL", {"Content-Type": "application/x-www-form-urlencoded"}, 400),
    ("DELETE", "/query", "", {}, 405),
    ("GET", "/update", "", {}, 405),
    ("GET", "/nowhere", "", {}, 404),
    ("GET", "/store", "", {}, 400),
    ("GET", "/store?graph=https://claimgraph.example/graph/none", "", {}, 404),
    ("GET", "/store?graph=https://claimgraph.example/graph/canonical", "", {"Accept": "application/sparql-results+json"}, 406),
    ("PUT", "/store?graph=https://claimgraph.example/graph/canonical", "<a> <b> <c> .", {"Content-Type": "text/turtle"}, 405),
    ("POST", "/update", "update=CLEAR+ALL", {"Content-Type": "application/x-www-form-urlencoded"}, 403),
])
def test_status_codes(served: ClaimgraphServer, method: str, path: str, body: str, headers: dict[str, str], status: int) -> None:
    got, answer_headers, answer = request(served, method, path, body, headers)
    assert got == status, answer.decode("utf-8", "replace")
    assert answer.strip(), "an error answer names the problem"
    if status == 405:
        assert answer_headers["allow"]


def test_service_to_an_unlisted_host_is_refused_before_it_runs(served: ClaimgraphServer) -> None:
    status, _, body = get_query(served, "SELECT * WHERE { \\u0053ERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }")
    assert status == 403 and b"--allow-service http://127.0.0.1:9/sparql" in body


def test_read_only_server_answers_health_and_keeps_the_store(served: ClaimgraphServer) -> None:
    status, headers, body = request(served, "GET", "/health")
    assert status == 200 and json.loads(body)["status"] == "ok" and json.loads(body)["updates"] is False
    assert headers["content-type"].startswith("application/json")
    _, _, after = get_query(served, PAPERS)
    assert len(json.loads(after)["results"]["bindings"]) == 3


# ------------------------------------------------------------------ Graph Store Protocol


def test_graph_store_reads_one_named_graph(served: ClaimgraphServer, demo_store: Path) -> None:
    graph = IriScheme().canonical_graph()
    status, headers, body = request(served, "GET", "/store?" + urllib.parse.urlencode({"graph": graph.value}), headers={"Accept": "application/n-triples"})
    assert status == 200 and headers["content-type"].startswith("application/n-triples")
    served_triples = {quad.triple for quad in pyoxigraph.parse(body, format=RdfFormat.N_TRIPLES)}
    store = pyoxigraph.Store.read_only(str(demo_store))
    assert served_triples == {quad.triple for quad in store.quads_for_pattern(None, None, None, graph)}
    head_status, head_headers, head_body = request(served, "HEAD", "/store?" + urllib.parse.urlencode({"graph": graph.value}))
    assert head_status == 200 and head_body == b"" and int(head_headers["content-length"]) > 0


# ------------------------------------------------------------------ updates with the token


def test_updates_need_the_token(writable_store: Path) -> None:
    options = ServeOptions(port=0, workers=1, update_token=UPDATE_TOKEN, log_requests=False)
    insert = "INSERT DATA { GRAPH <http://example.org/g> { <http://example.org/s> <http://example.org/p> \"new\" } }"
    count = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://example.org/g> { ?s ?p ?o } }"
    with running_server(writable_store, options) as server:
        direct = {"Content-Type": "application/sparql-update"}
        assert request(server, "POST", "/update", insert, direct)[0] == 401
        assert request(server, "POST", "/update", insert, {**direct, "Authorization": "Bearer wrong-token-wrong-token"})[0] == 403
        assert request(server, "POST", "/update", insert, {"Content-Type": "text/plain", "Authorization": f"Bearer {UPDATE_TOKEN}"})[0] == 415
        assert request(server, "POST", "/update", "INSERT DATE {", {**direct, "Authorization": f"Bearer {UPDATE_TOKEN}"})[0] == 400
        _, _, before = get_query(server, count)
        status, _, _ = request(server, "POST", "/update", insert, {**direct, "Authorization": f"Bearer {UPDATE_TOKEN}"})
        assert status == 204
        _, _, after = get_query(server, count)  # a query worker reopens its read-only view after the write
        values = [int(json.loads(body)["results"]["bindings"][0]["n"]["value"]) for body in (before, after)]
        assert values == [1, 2]
        body, headers = form(update="LOAD <http://127.0.0.1:9/x.ttl>")
        assert request(server, "POST", "/update", body, {**headers, "Authorization": f"Bearer {UPDATE_TOKEN}"})[0] == 403


def test_a_short_token_is_refused_at_start(writable_store: Path) -> None:
    from claimgraph.serve.tokens import TokenError

    with pytest.raises(TokenError, match="at least 16"), running_server(writable_store, ServeOptions(port=0, update_token="short")):
        pass


def test_the_server_binds_to_loopback_by_default(served: ClaimgraphServer) -> None:
    assert ServeOptions().host == "127.0.0.1"
    assert served.server_address[0] == "127.0.0.1"
