"""`claimgraph load`: external RDF into a named graph of the store, replacing it; syntaxes by suffix; OWL syntaxes
that are not RDF, malformed files and graphs claimgraph writes itself are refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from link_support import ONTOLOGIES

from claimgraph.cli.main import main
from claimgraph.context import Context
from claimgraph.federation.rdf_input import RdfInputError, load_rdf
from claimgraph.store import EmbeddedStore

EXTERNAL = "https://claimgraph.example/graph/external/"


def graphs(store_path: Path) -> dict[str, int]:
    with EmbeddedStore(store_path, read_only=True) as store:
        return {graph.value: store.count_triples(graph) for graph in store.graph_names()}


def test_a_turtle_file_goes_into_an_external_graph_named_after_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "store"
    assert main(["--store", str(store), "load", str(ONTOLOGIES / "study-designs.skos.ttl")]) == 0
    assert graphs(store) == {f"{EXTERNAL}study-designs.skos.ttl": 56}
    assert "loaded 56 triples" in capsys.readouterr().err


def test_loading_again_replaces_the_graph_and_rdf_xml_reads_like_turtle(tmp_path: Path) -> None:
    store = tmp_path / "store"
    target = f"{EXTERNAL}sample"
    assert main(["--store", str(store), "load", str(ONTOLOGIES / "sample-terms.ttl"), "--graph", target]) == 0
    turtle = graphs(store)
    assert main(["--store", str(store), "load", str(ONTOLOGIES / "sample-terms.owl"), "--graph", target]) == 0
    assert graphs(store) == turtle == {target: 292}


def test_a_dataset_keeps_its_graph_names(tmp_path: Path) -> None:
    trig = tmp_path / "data.trig"
    trig.write_text("<http://example.org/g1> { <http://example.org/a> <http://example.org/b> 1 . }\n"
                    "<http://example.org/g2> { <http://example.org/a> <http://example.org/b> 2 . }\n"
                    "<http://example.org/a> <http://example.org/b> 3 .\n", encoding="utf-8")
    with Context(EmbeddedStore(tmp_path / "store")) as ctx:
        result = load_rdf(ctx, trig)
    assert result.graphs == {"http://example.org/g1": 1, "http://example.org/g2": 1, f"{EXTERNAL}data.trig": 1}


@pytest.mark.parametrize(("name", "content", "words"), [
    ("functional.owl", "Prefix(:=<http://example.org/>)\nOntology(<http://example.org/o>)\n", "functional syntax"),
    ("owlxml.owl", '<?xml version="1.0"?>\n<Ontology xmlns="http://www.w3.org/2002/07/owl#" ontologyIRI="http://example.org/o"/>\n', "OWL/XML"),
    ("broken.ttl", "<http://example.org/a> <http://example.org/b> .\n", "not valid"),
    ("data.csv", "a,b\n", "cannot tell the RDF syntax"),
])
def test_what_is_not_loadable_rdf_is_refused_by_name(tmp_path: Path, name: str, content: str, words: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with Context(EmbeddedStore(tmp_path / "store")) as ctx, pytest.raises(RdfInputError, match=words):
        load_rdf(ctx, path)


@pytest.mark.parametrize("graph", ["https://claimgraph.example/paper/soil-warming", "https://claimgraph.example/graph/canonical",
                                   "https://claimgraph.example/graph/vocabulary/discourse"])
def test_graphs_claimgraph_writes_cannot_be_loaded_over(tmp_path: Path, graph: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--store", str(tmp_path / "store"), "load", str(ONTOLOGIES / "study-designs.skos.ttl"), "--graph", graph]) == 2
    assert "claimgraph writes itself" in capsys.readouterr().err
