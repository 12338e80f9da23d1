"""A paper's edge measures and its dangling-edge repair look up each edge, never each triple of the paper graph.

A filter that probes an index for every triple of a paper graph costs more the
more papers the store holds (an index probe in RocksDB goes through more
levels), so ingest slowed down as the store grew (docs/scaling.md). These
queries find the edge triples first, then check only them. The lookups are
counted in rdflib's evaluator, which runs the algebra as written: the count
is what the query asks for, and it must not grow with the paper's document
structure (sentences, viewpoints), which holds no edges.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rdflib
from pyoxigraph import Literal, NamedNode, Quad, RdfFormat, Triple, parse, serialize
from rdflib.plugins.stores.memory import Memory

from claimgraph.assets import asset_path
from claimgraph.context import Context
from claimgraph.profile.manifest import load_profile
from claimgraph.rdf.binding import bind
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_sparql_file
from claimgraph.rdf.vocab import CG, RDF
from claimgraph.store import EmbeddedStore

CASE = Path(__file__).parent / "repair_cases" / "drop_dangling_edges.before.ttl"
IRIS = IriScheme()
PAPER = IRIS.paper("p1")
pytestmark = pytest.mark.filterwarnings("ignore:Dataset.*is deprecated:DeprecationWarning")
FILES = [asset_path("sparql", "queries", "gate", "edges.rq"), asset_path("sparql", "queries", "gate", "dangling_edges.rq"),
         asset_path("sparql", "repair", "drop_dangling_edges.ru")]


class CountingMemory(Memory):
    """rdflib's in-memory store, counting the triple-pattern lookups a query makes."""

    lookups = 0

    def triples(self, triple_pattern: Any, context: Any = None) -> Iterator[Any]:
        CountingMemory.lookups += 1
        return super().triples(triple_pattern, context)


def paper_quads(sentences: int) -> tuple[list[Quad], NamedNode]:
    """The dangling-edge case's paper graph with ``sentences`` sentences of document structure, and the vocabulary."""
    triples = [quad.triple for quad in parse(path=str(CASE), format=RdfFormat.TURTLE)]
    for number in range(sentences):
        sentence = NamedNode(f"{PAPER.value}/sentence/{number}")
        triples += [Triple(sentence, RDF.type, CG.Sentence), Triple(sentence, CG.text, Literal(f"sentence {number}")),
                    Triple(PAPER, CG.hasSentence, sentence)]
    ctx = Context(EmbeddedStore(None), IRIS, load_profile("peirce"))
    ctx.store.replace_graph(PAPER, triples)
    vocabulary = ctx.vocabulary  # written into the store on first use
    return list(ctx.store.quads()), vocabulary


def lookups(path: Path, sentences: int) -> tuple[int, int]:
    """The lookups the query (or update) makes on the paper, and the triples left in the paper graph."""
    quads, vocabulary = paper_quads(sentences)
    dataset = rdflib.Dataset(store=CountingMemory())
    dataset.parse(data=serialize(quads, format=RdfFormat.N_QUADS), format="nquads")
    text = bind(read_sparql_file(path), {"graph": PAPER, "paper": PAPER, "vocabulary": vocabulary})
    CountingMemory.lookups = 0
    if path.suffix == ".ru":
        dataset.update(text)
    else:
        list(dataset.query(text))
    counted = CountingMemory.lookups
    return counted, len(dataset.graph(rdflib.URIRef(PAPER.value)))


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_the_lookups_of_an_edge_query_do_not_grow_with_the_papers_sentences(path: Path) -> None:
    few, many = lookups(path, 5), lookups(path, 200)
    assert many[0] == few[0], f"{path.name}: {few[0]} lookups with 5 sentences, {many[0]} with 200"
    assert many[1] - few[1] == 3 * 195
