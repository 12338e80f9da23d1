"""Exports read back, with rdflib and with pyoxigraph, as the store's graphs."""

from __future__ import annotations

import json
from collections import defaultdict

import pyoxigraph
import pytest
import rdflib
from pyoxigraph import Literal, NamedNode, RdfFormat, Triple
from rdflib.compare import isomorphic

from claimgraph.context import Context
from claimgraph.loaders import Document
from claimgraph.publish.export import EXPORT_FORMAT_NAMES, ExportError, export
from claimgraph.publish.jsonld_context import jsonld_context
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, XSD
from claimgraph.store import Store

RDFLIB_FORMATS = {"ttl": "turtle", "nt": "nt", "trig": "trig", "nq": "nquads", "jsonld": "json-ld"}
OXIGRAPH_FORMATS = {
    "ttl": RdfFormat.TURTLE,
    "nt": RdfFormat.N_TRIPLES,
    "trig": RdfFormat.TRIG,
    "nq": RdfFormat.N_QUADS,
    "jsonld": RdfFormat.JSON_LD,
}
DATASET_FORMATS = {"trig", "nq", "jsonld"}
UNION = "union"
# rdflib's own JSON-LD and Dataset plugins call its deprecated ConjunctiveGraph API.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:rdflib")  # the key of the single graph of a Turtle / N-Triples export


def rdflib_graphs(data: bytes, fmt: str) -> dict[str, rdflib.Graph]:
    """Non-empty graphs of a document parsed by rdflib, keyed by graph IRI."""
    if fmt not in DATASET_FORMATS:
        return {UNION: rdflib.Graph().parse(data=data, format=RDFLIB_FORMATS[fmt])}
    dataset = rdflib.Dataset()
    dataset.parse(data=data, format=RDFLIB_FORMATS[fmt])
    return {str(graph.identifier): graph for graph in dataset.graphs() if len(graph)}


def oxigraph_graphs(data: bytes, fmt: str) -> dict[str, set[Triple]]:
    """Graphs of a document parsed by pyoxigraph, keyed by graph IRI."""
    graphs: dict[str, set[Triple]] = defaultdict(set)
    for quad in pyoxigraph.parse(data, format=OXIGRAPH_FORMATS[fmt]):
        key = UNION if fmt not in DATASET_FORMATS else quad.graph_name.value
        graphs[key].add(quad.triple)
    return dict(graphs)


def expected_graphs(store: Store, graphs: list[NamedNode], fmt: str) -> dict[str, set[Triple]]:
    expected: dict[str, set[Triple]] = defaultdict(set)
    for graph in graphs:
        for quad in store.quads(graph):
            expected[UNION if fmt not in DATASET_FORMATS else graph.value].add(quad.triple)
    return dict(expected)


def assert_round_trip(store: Store, graphs: list[NamedNode], fmt: str, data: bytes) -> None:
    """Both parsers read the export back as exactly the store's graphs (no blank nodes here)."""
    expected = expected_graphs(store, graphs, fmt)
    assert oxigraph_graphs(data, fmt) == expected
    parsed = rdflib_graphs(data, fmt)
    assert parsed.keys() == expected.keys()
    for key, triples in expected.items():
        reference = rdflib.Graph().parse(data=pyoxigraph.serialize(list(triples), format=RdfFormat.N_TRIPLES), format="nt")
        assert isomorphic(parsed[key], reference), f"{fmt}: graph {key} differs"


@pytest.mark.parametrize("fmt", EXPORT_FORMAT_NAMES)
def test_round_trip_of_selected_papers(loaded_store: Store, arche_documents: list[Document], iris: IriScheme, fmt: str) -> None:
    chosen = [document.paper_id for document in arche_documents[:2]]
    data = export(Context(loaded_store, iris), fmt, chosen, merge_graphs=fmt not in DATASET_FORMATS)
    assert_round_trip(loaded_store, [iris.paper(paper_id) for paper_id in chosen], fmt, data)


@pytest.mark.parametrize("fmt", ["ttl", "nt"])
def test_a_format_without_graph_names_refuses_several_graphs_unless_asked_to_merge(loaded_store: Store, arche_documents: list[Document],
                                                                                  iris: IriScheme, fmt: str) -> None:
    chosen = [document.paper_id for document in arche_documents[:2]]
    with pytest.raises(ExportError, match="export trig or nq to keep the names"):
        export(Context(loaded_store, iris), fmt, chosen)
    assert export(Context(loaded_store, iris), fmt, chosen[:1])  # one graph loses nothing


@pytest.mark.parametrize("fmt", ["trig", "jsonld"])
def test_whole_store_export_keeps_every_graph(loaded_store: Store, fmt: str) -> None:
    data = export(Context(loaded_store), fmt)
    assert_round_trip(loaded_store, loaded_store.graph_names(), fmt, data)


def test_turtle_uses_the_prefixes(loaded_store: Store, arche_documents: list[Document]) -> None:
    text = export(Context(loaded_store), "ttl", [arche_documents[0].paper_id]).decode("utf-8")
    assert "@prefix cg: <https://w3id.org/claimgraph/ontology/v1#> ." in text
    assert "cg:Paper" in text


def test_jsonld_is_compacted_with_the_published_context(loaded_store: Store, arche_documents: list[Document]) -> None:
    document = json.loads(export(Context(loaded_store), "jsonld", [arche_documents[0].paper_id]))
    assert document["@context"] == jsonld_context()
    nodes = [node for graph in document["@graph"] for node in graph["@graph"]]
    sentence = next(node for node in nodes if node.get("@type") == "Sentence")
    assert isinstance(sentence["index"], str) and isinstance(sentence["inPassage"], str)


def test_raw_and_audit_graphs_only_when_asked(loaded_store: Store, arche_documents: list[Document], iris: IriScheme) -> None:
    paper_id = arche_documents[0].paper_id
    raw = Triple(iris.node(paper_id, "item", "raw"), CG.text, Literal("unrepaired"))
    loaded_store.replace_graph(iris.raw_graph(paper_id), [raw])
    assert set(oxigraph_graphs(export(Context(loaded_store), "nq", [paper_id]), "nq")) == {iris.paper(paper_id).value}
    with_raw = oxigraph_graphs(export(Context(loaded_store), "nq", [paper_id], kinds=("paper", "raw")), "nq")
    assert with_raw[iris.raw_graph(paper_id).value] == {raw}


@pytest.mark.parametrize("fmt", EXPORT_FORMAT_NAMES)
def test_hostile_labels_survive_export(store: Store, iris: IriScheme, hostile_labels: list[str], fmt: str) -> None:
    literals = [Literal(label) for label in hostile_labels] + [
        Literal(hostile_labels[0], language="en"),
        Literal("0.50", datatype=XSD.decimal),
        Literal("7", datatype=XSD.integer),
    ]
    properties = [CG.text] * len(hostile_labels) + [CG.text, CG.confidence, CG.index]
    triples = [Triple(iris.node("hostile", "item", str(n)), prop, literal) for n, (prop, literal) in enumerate(zip(properties, literals))]
    store.replace_graph(iris.paper("hostile"), triples)
    assert_round_trip(store, [iris.paper("hostile")], fmt, export(Context(store, iris), fmt, ["hostile"]))


def test_unknown_paper_is_an_export_error(loaded_store: Store) -> None:
    with pytest.raises(ExportError, match="no paper 'not-a-paper'"):
        export(Context(loaded_store), "ttl", ["not-a-paper"])


@pytest.mark.parametrize("fmt", ["xml", "json", "TTL", ""])
def test_unknown_format_is_an_export_error(loaded_store: Store, fmt: str) -> None:
    with pytest.raises(ExportError, match="unknown export format"):
        export(Context(loaded_store), fmt)


def test_unknown_graph_kind_is_an_export_error(loaded_store: Store, arche_documents: list[Document]) -> None:
    with pytest.raises(ExportError, match="unknown graph kind"):
        export(Context(loaded_store), "nq", [arche_documents[0].paper_id], kinds=("paper", "drafts"))
