"""The Store contract, run on both backends (embedded pyoxigraph, real oxigraph server)."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest
from pyoxigraph import BlankNode, Literal, Quad, Triple

from claimgraph.errors import StoreError
from claimgraph.loaders import Document
from claimgraph.papers.document_graph import document_triples
from claimgraph.rdf.binding import bind
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, RDF, RDFS
from claimgraph.store import EmbeddedStore, RemoteStore, Store


def numbered_triples(iris: IriScheme, paper_id: str, count: int, tag: str) -> list[Triple]:
    return [Triple(iris.node(paper_id, "item", str(n)), CG.text, Literal(f"{tag} {n}")) for n in range(count)]


def test_replace_graph_and_triples_round_trip(loaded_store: Store, arche_documents: list[Document], iris: IriScheme) -> None:
    for document in arche_documents:
        expected = set(document_triples(document, iris))
        assert set(loaded_store.triples(iris.paper(document.paper_id))) == expected


def test_graph_names_and_counts(loaded_store: Store, arche_documents: list[Document], iris: IriScheme) -> None:
    graphs = [iris.paper(document.paper_id) for document in arche_documents]
    assert loaded_store.graph_names() == sorted(graphs, key=lambda graph: graph.value)
    counts = [len(set(document_triples(document, iris))) for document in arche_documents]
    assert [loaded_store.count_triples(graph) for graph in graphs] == counts
    assert loaded_store.count_triples() == sum(counts)
    assert loaded_store.count_triples(iris.paper("absent")) == 0


def test_replace_is_idempotent(loaded_store: Store, arche_documents: list[Document], iris: IriScheme) -> None:
    before = loaded_store.count_triples()
    for document in arche_documents:
        loaded_store.replace_graph(iris.paper(document.paper_id), document_triples(document, iris))
    quads = list(loaded_store.quads())
    assert len(quads) == len(set(quads)) == before


def test_replacing_one_paper_leaves_the_others(loaded_store: Store, arche_documents: list[Document], iris: IriScheme) -> None:
    target = iris.paper(arche_documents[0].paper_id)
    others_before = {quad for quad in loaded_store.quads() if quad.graph_name != target}
    replacement = numbered_triples(iris, arche_documents[0].paper_id, 5, "new")
    loaded_store.replace_graph(target, replacement)
    assert set(loaded_store.triples(target)) == set(replacement)
    assert {quad for quad in loaded_store.quads() if quad.graph_name != target} == others_before


def test_replace_graphs_and_drop_graphs(store: Store, iris: IriScheme) -> None:
    shared = BlankNode()
    graphs = {iris.paper("a"): [Triple(shared, CG.text, Literal("a"))], iris.paper("b"): [Triple(shared, CG.text, Literal("b"))]}
    store.replace_graphs(graphs)
    assert store.count_triples() == 2
    store.replace_graph(iris.paper("a"), [])
    assert store.graph_names() == [iris.paper("b")]
    store.drop_graphs([iris.paper("b"), iris.paper("never-there")])
    assert store.count_triples() == 0


def test_query_forms(loaded_store: Store, arche_documents: list[Document], iris: IriScheme) -> None:
    paper = iris.paper(arche_documents[0].paper_id)
    assert loaded_store.ask("ASK { GRAPH ?g { ?g a ?type } }", {"g": paper, "type": CG.Paper})
    assert not loaded_store.ask("ASK { GRAPH ?g { ?g a ?type } }", {"g": paper, "type": CG.Claim})
    constructed = list(loaded_store.query("CONSTRUCT { ?g a ?t } WHERE { GRAPH ?g { ?g a ?t } }", {"g": paper}))
    assert constructed == [Triple(paper, RDF.type, CG.Paper)]


def test_replace_is_atomic_under_a_concurrent_reader(store: Store, iris: IriScheme) -> None:
    """A reader that never pauses sees either version of the paper, never a mix, across many replacements.

    The writer waits for the reader to finish two more reads after each write
    (a count, not a clock), so reads and writes interleave on any machine.
    """
    graph = iris.paper("atomic")
    versions = [numbered_triples(iris, "atomic", 1500, "A"), numbered_triples(iris, "atomic", 4000, "B")]
    store.replace_graph(graph, versions[0])
    # Remote: a second client doing its own HTTP requests; embedded: the same object.
    reader = RemoteStore(store.query_url, store.update_url) if isinstance(store, RemoteStore) else store
    observed: list[int] = []
    errors: list[BaseException] = []
    stop = threading.Event()
    progress = threading.Condition()

    def read() -> None:
        try:
            while not stop.is_set():
                count = reader.count_triples(graph)
                with progress:
                    observed.append(count)
                    progress.notify_all()
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)
            with progress:
                progress.notify_all()

    thread = threading.Thread(target=read)
    thread.start()
    writes = 12
    try:
        for write in range(1, writes + 1):
            store.replace_graph(graph, versions[write % 2])
            with progress:
                seen = len(observed)
                progress.wait_for(lambda seen=seen: len(observed) >= seen + 2 or bool(errors))
    finally:
        stop.set()
        thread.join()
    assert not errors, errors
    assert len(observed) >= 2 * writes
    assert set(observed) == {1500, 4000}


def test_hostile_labels_round_trip(store: Store, iris: IriScheme, hostile_labels: list[str]) -> None:
    bystander = Triple(iris.node("bystander", "item", "1"), CG.text, Literal("keep me"))
    store.replace_graph(iris.paper("bystander"), [bystander])
    graph = iris.paper("hostile")
    literals = [Literal(label) for label in hostile_labels] + [Literal(hostile_labels[0], language="en")]
    triples = [Triple(iris.node("hostile", "item", str(n)), CG.text, literal) for n, literal in enumerate(literals)]
    before = set(store.quads())

    store.replace_graph(graph, triples)
    assert set(store.triples(graph)) == set(triples)
    assert {quad for quad in store.quads() if quad.graph_name != graph} == before

    bound_graph = iris.paper("hostile-bound")
    for n, literal in enumerate(literals):
        store.update(
            "INSERT { GRAPH ?g { ?s ?p ?o } } WHERE {}",
            {"g": bound_graph, "s": iris.node("hostile-bound", "item", str(n)), "p": RDFS.label, "o": literal},
        )
    for n, literal in enumerate(literals):
        rows = store.select("SELECT ?s WHERE { GRAPH ?g { ?s ?p ?o } }", {"g": bound_graph, "p": RDFS.label, "o": literal})
        assert rows == [{"s": iris.node("hostile-bound", "item", str(n))}]
    values = store.select("SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }", {"g": bound_graph})
    assert sorted(row["o"].value for row in values) == sorted(literal.value for literal in literals)

    store.drop_graphs([graph, bound_graph])
    assert set(store.quads()) == before - {Quad(t.subject, t.predicate, t.object, graph) for t in triples}
    assert store.triples(iris.paper("bystander")) == [bystander]


@pytest.mark.parametrize("value", ["<http://x/>", 42, None, BlankNode()])
def test_bind_rejects_non_terms(value: object) -> None:
    with pytest.raises(TypeError):
        bind("SELECT * WHERE { ?s ?p ?o }", {"o": value})  # type: ignore[dict-item]


def test_store_rejects_non_term_binding(store: Store) -> None:
    with pytest.raises(TypeError):
        store.select("SELECT ?s WHERE { ?s ?p ?o }", {"o": "} ; DROP ALL ; {"})  # type: ignore[dict-item]


def test_syntax_error_is_a_store_error(store: Store) -> None:
    with pytest.raises(StoreError, match=r"(?i)syntax"):
        store.query("SELEC ?s WHERE { ?s ?p ?o }")
    with pytest.raises(StoreError, match=r"(?i)syntax"):
        store.update("INSERT DATA { <http://a> <http://b> }")


def test_unreachable_endpoint_names_the_url() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        remote = RemoteStore.from_base_url(url)
        with pytest.raises(StoreError, match=f"cannot reach SPARQL endpoint {url}/query"):
            remote.count_triples()
        with pytest.raises(StoreError, match=f"{url}/update"):
            remote.update("DROP ALL")


def test_closed_embedded_store_says_so(tmp_path: Path) -> None:
    embedded = EmbeddedStore(tmp_path / "store")
    embedded.close()
    embedded.close()
    with pytest.raises(StoreError, match="closed"):
        embedded.count_triples()
