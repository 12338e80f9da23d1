"""A Document as RDF triples for the paper's named graph (structure + given viewpoints).

Besides claimgraph's own terms, the paper carries the standard ones a
linked-data consumer looks for: ``bibo:doi`` and ``bibo:pmid`` when the input
names them, ``dcterms:title``, and ``cito:cites`` for each reference it cites
(our ``cg:cites`` says which sentence cites it).
"""

from __future__ import annotations

from collections.abc import Iterator

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.loaders.document import Document, Viewpoint
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import BIBO, CG, CITO, DCTERMS, PROV, RDF, RDFS, XSD
from claimgraph.store import Store

BIBLIOGRAPHIC = {"doi": BIBO.doi, "pmid": BIBO.pmid}


def integer(value: int) -> Literal:
    return Literal(str(value), datatype=XSD.integer)


def sentence_iri(iris: IriScheme, paper_id: str, index: int) -> NamedNode:
    return iris.node(paper_id, "sentence", str(index))


def passage_iri(iris: IriScheme, paper_id: str, index: int) -> NamedNode:
    return iris.node(paper_id, "passage", str(index))


def reference_iri(iris: IriScheme, paper_id: str, number: int) -> NamedNode:
    return iris.node(paper_id, "reference", str(number))


def viewpoint_iri(iris: IriScheme, paper_id: str, viewpoint: Viewpoint) -> NamedNode:
    x, y, z = viewpoint.source
    return iris.node(paper_id, "viewpoint", f"{x}-{y}-{z}")


def source_tuple_triples(node: NamedNode, source: tuple[int, int, int]) -> Iterator[Triple]:
    """The (x, y, z) source tuple as three integer-valued properties."""
    x, y, z = source
    yield Triple(node, CG.sourceSentence, integer(x))
    yield Triple(node, CG.sourceReference, integer(y))
    yield Triple(node, CG.sourceViewpoint, integer(z))


def document_triples(document: Document, iris: IriScheme) -> Iterator[Triple]:
    """Paper, passages, sentences, references and viewpoints of one document."""
    pid = document.paper_id
    paper = iris.paper(pid)
    yield Triple(paper, RDF.type, CG.Paper)
    yield Triple(paper, DCTERMS.identifier, Literal(pid))
    yield Triple(paper, DCTERMS.source, Literal(document.source.rsplit("/", 1)[-1]))
    yield Triple(paper, CG.inputFormat, Literal(document.format))
    if document.title:
        yield Triple(paper, DCTERMS.title, Literal(document.title))
    for key, value in sorted(document.metadata.items()):
        yield Triple(paper, BIBLIOGRAPHIC.get(key) or CG[key_to_property(key)], Literal(value))
    for passage in document.passages:
        passage_node = passage_iri(iris, pid, passage.index)
        yield Triple(passage_node, RDF.type, CG.Passage)
        yield Triple(passage_node, DCTERMS.isPartOf, paper)
        yield Triple(passage_node, CG.index, integer(passage.index))
        if passage.heading:
            yield Triple(passage_node, RDFS.label, Literal(passage.heading))
        for sentence in passage.sentences:
            node = sentence_iri(iris, pid, sentence.index)
            yield Triple(node, RDF.type, CG.Sentence)
            yield Triple(node, DCTERMS.isPartOf, paper)
            yield Triple(node, CG.inPassage, passage_node)
            yield Triple(node, CG.index, integer(sentence.index))
            yield Triple(node, CG.text, Literal(sentence.text))
    for reference in document.references.values():
        node = reference_iri(iris, pid, reference.number)
        yield Triple(node, RDF.type, CG.Reference)
        yield Triple(node, DCTERMS.isPartOf, paper)
        yield Triple(node, CG.index, integer(reference.number))
        yield Triple(paper, CITO.cites, node)
        for sentence_index in reference.cited_by:
            yield Triple(sentence_iri(iris, pid, sentence_index), CG.cites, node)
    for viewpoint in document.viewpoints:
        yield from viewpoint_triples(document, viewpoint, iris)


def viewpoint_triples(document: Document, viewpoint: Viewpoint, iris: IriScheme) -> Iterator[Triple]:
    pid = document.paper_id
    node = viewpoint_iri(iris, pid, viewpoint)
    sentence = sentence_iri(iris, pid, viewpoint.sentence_index)
    yield Triple(node, RDF.type, CG.Viewpoint)
    yield Triple(node, CG.text, Literal(viewpoint.text))
    yield Triple(node, CG.inSentence, sentence)
    yield from source_tuple_triples(node, viewpoint.source)
    if viewpoint.reference_index:
        reference = reference_iri(iris, pid, viewpoint.reference_index)
        yield Triple(node, CG.fromReference, reference)
        yield Triple(node, PROV.wasDerivedFrom, reference)
    else:
        yield Triple(node, PROV.wasDerivedFrom, sentence)


def key_to_property(key: str) -> str:
    """file_info keys (snake_case) as ontology property local names (camelCase)."""
    head, *rest = key.split("_")
    return head + "".join(part.capitalize() for part in rest)


def stored_paper_ids(store: Store, iris: IriScheme) -> list[str]:
    """Ids of the papers whose paper graph is in the store, sorted."""
    rows = store.select(read_named_query("paper-graphs"))
    ids = (iris.paper_id_of(row["paper"]) for row in rows)  # type: ignore[arg-type]
    return sorted(paper_id for paper_id in ids if paper_id is not None)
