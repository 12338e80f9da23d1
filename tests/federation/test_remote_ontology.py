"""`claimgraph link --endpoint`: the terms of an ontology held by a second SPARQL server (a real `oxigraph serve`)
are copied with SPARQL SERVICE and linked exactly as from the file; only that endpoint is let through."""

from __future__ import annotations

from pathlib import Path

import pytest
from link_support import LEXICAL, ONTOLOGIES, links_in_store

from claimgraph.context import Context
from claimgraph.federation.linker import LinkError, OntologySource, link_ontology
from claimgraph.federation.rdf_input import rdf_format, read_quads
from claimgraph.store import EmbeddedStore, RemoteStore
from claimgraph.testing.oxigraph import free_port, oxigraph_binary, running_oxigraph


@pytest.fixture(scope="module")
def ontology_endpoint(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The query URL of an `oxigraph serve` holding the sample ontology (in its default graph)."""
    if oxigraph_binary() is None:
        pytest.skip("the oxigraph server binary is not installed (pip package 'oxigraph')")
    path = ONTOLOGIES / "sample-terms.ttl"
    with running_oxigraph(tmp_path_factory.mktemp("ontology-server") / "data") as base_url:
        remote = RemoteStore.from_base_url(base_url)
        body = " ".join(f"{t.subject} {t.predicate} {t.object} ." for t in (q.triple for q in read_quads(path, rdf_format(path))))
        remote.update(f"INSERT DATA {{ {body} }}")
        yield f"{base_url}/query"


def test_terms_come_through_service_and_link_like_the_file(papers_store: Path, ontology_endpoint: str) -> None:
    with Context(EmbeddedStore(papers_store)) as ctx:
        report = link_ontology(ctx, OntologySource("remote-sample", endpoint=ontology_endpoint), embedder="none")
        assert report.terms == 67
        assert links_in_store(ctx.store, "remote-sample") == LEXICAL
        assert not getattr(ctx.store, "allowed_services", frozenset()), "the endpoint is allowed only while its terms are copied"
        source = ctx.store.select("SELECT ?s WHERE { GRAPH ?l { ?l <http://purl.org/dc/terms/source> ?s } }", {"l": report.links})
    assert source[0]["s"].value == ontology_endpoint


def test_an_unreachable_endpoint_is_an_error_naming_it(papers_store: Path) -> None:
    endpoint = f"http://127.0.0.1:{free_port()}/sparql"  # nothing listens there
    with Context(EmbeddedStore(papers_store)) as ctx, pytest.raises(LinkError, match=f"endpoint {endpoint}"):
        link_ontology(ctx, OntologySource("nowhere", endpoint=endpoint), embedder="none")
