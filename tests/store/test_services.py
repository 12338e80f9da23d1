"""SERVICE clauses reach no server unless allowed, whatever path the SPARQL text takes into the store."""

from __future__ import annotations

import pytest
from pyoxigraph import NamedNode

from claimgraph.store import ServiceNotAllowedError, Store, check_services
from claimgraph.testing.sparql_doubles import Answer, scripted_sparql_server

RESULTS = b'{"head":{"vars":["s"]},"results":{"bindings":[]}}'


@pytest.mark.parametrize("text", [
    "SELECT * WHERE { SERVICE <{url}/sparql> { ?s ?p ?o } }",
    "select * where { service silent <{url}/sparql> { ?s ?p ?o } }",
    "SELECT * WHERE { BIND(<{url}/sparql> AS ?e) SERVICE ?e { ?s ?p ?o } }",
    "PREFIX x: <{url}/> SELECT * WHERE { SERVICE x:sparql { ?s ?p ?o } }",
    "INSERT { GRAPH <http://g> { ?s ?p ?o } } WHERE { SERVICE <{url}/sparql> { ?s ?p ?o } }",
])
def test_service_is_refused_and_nothing_is_sent(store: Store, text: str) -> None:
    with scripted_sparql_server([Answer(body=RESULTS)]) as server:
        sparql = text.replace("{url}", server.url)
        with pytest.raises(ServiceNotAllowedError, match="not allowed; pass --allow-service"):
            if sparql.startswith("INSERT"):
                store.update(sparql)
            else:
                store.query(sparql)
        assert server.requests == []


def test_an_allowed_endpoint_is_called_by_the_embedded_engine(tmp_path) -> None:
    from claimgraph.store import EmbeddedStore

    with scripted_sparql_server([Answer(body=RESULTS)]) as server, EmbeddedStore(tmp_path / "store") as store:
        store.allowed_services = frozenset({f"{server.url}/sparql"})
        assert store.select(f"SELECT ?s WHERE {{ SERVICE <{server.url}/sparql> {{ ?s ?p ?o }} }}") == []
        assert len(server.requests) == 1


def test_service_in_strings_iris_comments_and_names_is_not_a_call() -> None:
    check_services('SELECT * WHERE { ?s <http://x/SERVICE> "SERVICE <http://evil/>" } # SERVICE <http://evil/>')
    check_services("PREFIX cg: <http://x/> SELECT * WHERE { ?s cg:SERVICE ?o }")


def test_a_bound_value_cannot_smuggle_a_service_call(store: Store) -> None:
    from pyoxigraph import Literal

    rows = store.select("SELECT ?s WHERE { GRAPH ?g { ?s ?p ?o } }", {"o": Literal("} SERVICE <http://127.0.0.1:9/> {"), "g": NamedNode("http://g")})
    assert rows == []
