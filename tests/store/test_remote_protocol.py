"""The remote store against servers that misbehave: deadlines, retries, HTML pages, auth, error messages."""

from __future__ import annotations

import base64

import pytest

from claimgraph.errors import StoreError
from claimgraph.store import HttpSettings, RemoteStore
from claimgraph.store.http import DeadlineError, authorization_from_environment
from claimgraph.testing.sparql_doubles import EMPTY_RESULTS, Answer, scripted_sparql_server

FAST = HttpSettings(timeout=1.0, retries=3, backoff=0.001, backoff_max=0.01)
COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


def remote(url: str, settings: HttpSettings = FAST, authorization: str | None = None) -> RemoteStore:
    return RemoteStore(f"{url}/sparql", f"{url}/update", None, settings, authorization)


def test_a_trickling_server_is_cut_at_the_total_deadline() -> None:
    """Forty bytes, one every 0.1 s: without a wall-clock deadline the call would succeed after 4 s."""
    body = b'{"head":{"vars":[]},"results":{"bindings":[]}}'.ljust(40)
    with scripted_sparql_server([Answer("trickle", body=body, interval=0.1)]) as server, \
            pytest.raises(DeadlineError, match=r"no complete answer within 1 s") as caught:
        remote(server.url).select(COUNT)
    assert "\n" not in str(caught.value)


def test_a_server_that_never_answers_is_cut_at_the_deadline() -> None:
    with scripted_sparql_server([Answer("hang")]) as server, pytest.raises(DeadlineError, match=f"{server.url}/sparql"):
        remote(server.url).select(COUNT)


def test_5xx_answers_and_dropped_connections_are_retried_for_queries() -> None:
    script = [Answer(status=503, body=b"busy"), Answer("drop"), Answer(status=502, body=b"gateway"), Answer()]
    with scripted_sparql_server(script) as server:
        assert remote(server.url).scalar(COUNT) == 7
        assert len(server.requests) == 4


def test_retries_stop_after_the_configured_count_and_quote_the_server() -> None:
    with scripted_sparql_server([Answer(status=500, body=b"\n  storage exploded: disk full\nmore detail")]) as server:
        with pytest.raises(StoreError, match=r"failed \(4 attempts\): HTTP 500: storage exploded: disk full$"):
            remote(server.url).select(COUNT)
        assert len(server.requests) == 4


def test_an_update_is_not_repeated_after_a_500_it_may_have_applied() -> None:
    with scripted_sparql_server([Answer(status=500, body=b"transaction failed"), Answer(status=204, body=b"")]) as server:
        with pytest.raises(StoreError, match="HTTP 500: transaction failed"):
            remote(server.url).update("INSERT DATA { <http://a> <http://b> <http://c> }")
        assert len(server.requests) == 1


def test_an_update_is_retried_on_503_which_says_nothing_was_done() -> None:
    with scripted_sparql_server([Answer(status=503, body=b"later"), Answer(status=204, body=b"")]) as server:
        remote(server.url).update("INSERT DATA { <http://a> <http://b> <http://c> }")
        assert [request.path for request in server.requests] == ["/update", "/update"]


def test_connections_are_kept_alive_between_calls() -> None:
    with scripted_sparql_server([Answer()]) as server:
        store = remote(server.url)
        for _ in range(5):
            store.select(COUNT)
        assert {request.headers.get("Connection") for request in server.requests} == {"keep-alive"}
        connections = store.http._local.connections
        assert len(connections) == 1
        (connection,) = connections.values()
        assert connection.sock is not None  # still open after five calls


def test_an_html_page_with_status_200_is_a_clear_error() -> None:
    page = b"<html><head><title>Login</title><style>p{}</style></head><body><h1>Please sign in</h1></body></html>"
    expected = r"answered an HTML page \(HTTP 200\), not SPARQL results: .*It says: Please sign in"
    with scripted_sparql_server([Answer(body=page, content_type="text/html; charset=utf-8")]) as server, pytest.raises(StoreError, match=expected):
        remote(server.url).select(COUNT)


def test_an_answer_in_an_unknown_format_is_named() -> None:
    expected = "answered application/octet-stream, not SPARQL results: hello"
    with scripted_sparql_server([Answer(body=b"hello", content_type="application/octet-stream")]) as server, pytest.raises(StoreError, match=expected):
        remote(server.url).select(COUNT)


def test_malformed_results_quote_the_answer() -> None:
    with scripted_sparql_server([Answer(body=b'{"head": {"vars": ["n"]}, "results": ')]) as server, pytest.raises(StoreError, match="does not parse"):
        remote(server.url).select(COUNT)


def test_basic_and_bearer_auth_come_from_the_environment_only() -> None:
    assert authorization_from_environment({}) is None
    assert authorization_from_environment({"CLAIMGRAPH_STORE_TOKEN": "t0k"}) == "Bearer t0k"
    basic = authorization_from_environment({"CLAIMGRAPH_STORE_USER": "ann", "CLAIMGRAPH_STORE_PASSWORD": "s3cret"})
    assert basic == "Basic " + base64.b64encode(b"ann:s3cret").decode()
    with scripted_sparql_server([Answer(status=401, body=b"who are you")]) as server:
        with pytest.raises(StoreError) as caught:
            remote(server.url, authorization=basic).select(COUNT)
        assert server.requests[0].headers["Authorization"] == basic
    assert "s3cret" not in str(caught.value) and "refused the credentials" in str(caught.value)


def test_credentials_in_the_url_are_refused_without_echoing_them() -> None:
    with pytest.raises(StoreError) as caught:
        RemoteStore("http://ann:s3cret@127.0.0.1:9/sparql")
    assert "s3cret" not in str(caught.value) and "CLAIMGRAPH_STORE_PASSWORD" in str(caught.value)


def test_the_graph_store_protocol_reads_a_graph(oxigraph_server: str) -> None:
    from pyoxigraph import Literal, NamedNode, Triple

    store = RemoteStore.from_base_url(oxigraph_server)
    store.update("DROP ALL")
    graph = NamedNode("https://claimgraph.example/paper/gsp")
    triples = [Triple(NamedNode(f"{graph.value}/n/{n}"), NamedNode("http://p"), Literal(f"é {n}")) for n in range(50)]
    store.replace_graph(graph, triples)
    assert set(store.triples(graph)) == set(triples)
    assert store.triples(NamedNode("https://claimgraph.example/paper/absent")) == []
    assert {quad.triple for quad in store.quads()} == set(triples)
    without_gsp = RemoteStore(store.query_url, store.update_url)
    assert set(without_gsp.triples(graph)) == set(triples)
    assert {quad.triple for quad in without_gsp.quads()} == set(triples)


def test_query_results_equal_through_results_json_and_xml() -> None:
    xml = (b'<?xml version="1.0"?><sparql xmlns="http://www.w3.org/2005/sparql-results#"><head><variable name="n"/></head>'
           b'<results><result><binding name="n"><literal datatype="http://www.w3.org/2001/XMLSchema#integer">7</literal></binding></result></results></sparql>')
    with scripted_sparql_server([Answer(body=EMPTY_RESULTS), Answer(body=xml, content_type="application/sparql-results+xml")]) as server:
        store = remote(server.url)
        assert store.scalar(COUNT) == store.scalar(COUNT) == 7
