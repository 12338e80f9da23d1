"""SERVICE and LOAD reach only allow-listed endpoints, however the query spells them."""

from __future__ import annotations

import pytest

from claimgraph.serve.policy import decode_codepoints, refusal

ALLOWED = ["http://127.0.0.1:7878/query"]


@pytest.mark.parametrize(
    "sparql",
    [
        "SELECT * WHERE { ?s ?p ?o }",
        'SELECT * WHERE { ?s ?p "SERVICE <http://evil.example/> { }" }',
        "SELECT * WHERE { ?s <http://example.org/SERVICE> ?o }",
        "PREFIX ex: <http://example.org/> SELECT * WHERE { ?s ex:service ?o . ?s ex:load ?x }",
        "# SERVICE <http://evil.example/sparql>\nSELECT * WHERE { ?s ?p ?o }",
        "SELECT ?SERVICE WHERE { ?SERVICE ?p ?o }",
        "SELECT * WHERE { SERVICE <http://127.0.0.1:7878/query> { ?s ?p ?o } }",
        "SELECT * WHERE { SERVICE SILENT <http://127.0.0.1:7878/query> { ?s ?p ?o } }",
    ],
)
def test_queries_that_reach_nothing_unlisted_pass(sparql: str) -> None:
    assert refusal(sparql, ALLOWED) is None


@pytest.mark.parametrize(
    ("sparql", "target"),
    [
        ("SELECT * WHERE { SERVICE <http://evil.example/sparql> { ?s ?p ?o } }", "<http://evil.example/sparql>"),
        ("select * where { service silent <http://169.254.169.254/> { ?s ?p ?o } }", "<http://169.254.169.254/>"),
        ("SELECT * WHERE { \\u0053ERVICE <http://evil.example/> { ?s ?p ?o } }", "<http://evil.example/>"),
        ("SELECT * WHERE { SERVICE <http://127.0.0.1:7878/\\u0071uery2> { ?s ?p ?o } }", "<http://127.0.0.1:7878/query2>"),
        ("SELECT * WHERE { SERVICE ?endpoint { ?s ?p ?o } VALUES ?endpoint { <http://127.0.0.1:7878/query> } }", "?endpoint"),
        ("PREFIX ex: <http://evil.example/> SELECT * WHERE { SERVICE ex:sparql { ?s ?p ?o } }", "ex"),
        ("LOAD <http://evil.example/data.ttl> INTO GRAPH <http://g>", "<http://evil.example/data.ttl>"),
        ("LOAD SILENT <file:///etc/passwd>", "<file:///etc/passwd>"),
        ("SELECT * WHERE { SERVICE", "(nothing)"),
    ],
)
def test_unlisted_targets_are_refused_by_name(sparql: str, target: str) -> None:
    refused = refusal(sparql, ALLOWED)
    assert refused is not None
    assert refused.target == target
    assert target in refused.message


def test_a_refusal_says_how_to_allow_the_endpoint() -> None:
    refused = refusal("SELECT * WHERE { SERVICE <http://other.example/sparql> { } }", ALLOWED)
    assert refused is not None and "--allow-service http://other.example/sparql" in refused.message


def test_codepoint_escapes_decode_like_the_parser() -> None:
    assert decode_codepoints("\\u0053ERVICE \\U0001F9EA \\uZZZZ") == "SERVICE \U0001F9EA \\uZZZZ"
