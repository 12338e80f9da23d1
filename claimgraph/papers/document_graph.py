"""A Document as RDF triples for the paper's named graph (structure + given viewpoints).

Besides claimgraph's own terms, the paper carries the standard ones a
linked-data consumer looks for: ``bibo:doi``, ``bibo:pmid`` and
``fabio:hasPubMedCentralId`` when the input names them, ``dcterms:title``,
``fabio:hasPublicationYear`` and ``dcterms:creator`` (the first author), and
``cito:cites`` for each reference it cites (our ``cg:cites`` says which
sentence cites it). A reference carries what the reference list says of the
cited work in the same terms (``fabio:hasPubMedId`` for its PubMed id,
``prism:publicationName`` for its journal, ``rdfs:label`` for the citation as
written) and ``cg:citedWork``, the work its best work key names. The paper
carries each of its own work keys as ``cg:workKey`` and the works they name as
``frbr:realizationOf``, so that a reference of another paper naming one of
those works is found to cite this paper (``claimgraph.citations``).
"""

from __future__ import annotations

from collections.abc import Iterator

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.errors import did_you_mean
from claimgraph.loaders.document import Bibliographic, Document, Reference, Viewpoint
from claimgraph.loaders.formats.identifiers import document_work, work_key, work_keys
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.rows import iri_of
from claimgraph.rdf.vocab import BIBO, CG, CITO, DCTERMS, FABIO, FRBR, PRISM, PROV, RDF, RDFS, XSD
from claimgraph.store import Store

BIBLIOGRAPHIC = {"doi": BIBO.doi, "pmid": BIBO.pmid, "pmcid": FABIO.hasPubMedCentralId}


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
    if document.year:
        yield Triple(paper, FABIO.hasPublicationYear, Literal(document.year, datatype=XSD.gYear))
    if document.first_author:
        yield Triple(paper, DCTERMS.creator, Literal(document.first_author))
    for key in work_keys(document_work(document)):
        yield Triple(paper, CG.workKey, Literal(key))
        yield Triple(paper, FRBR.realizationOf, iris.cited_work(key))
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
        yield from reference_triples(iris, pid, reference)
    for viewpoint in document.viewpoints:
        yield from viewpoint_triples(document, viewpoint, iris)


def reference_triples(iris: IriScheme, paper_id: str, reference: Reference) -> Iterator[Triple]:
    """A reference node with its bibliographic fields and cited work, the paper citing it, the sentences citing it."""
    paper, node = iris.paper(paper_id), reference_iri(iris, paper_id, reference.number)
    yield Triple(node, RDF.type, CG.Reference)
    yield Triple(node, DCTERMS.isPartOf, paper)
    yield Triple(node, CG.index, integer(reference.number))
    if reference.label:
        yield Triple(node, RDFS.label, Literal(reference.label))
    yield from bibliographic_triples(node, reference.work)
    key = work_key(reference.work)
    if key is not None:
        yield Triple(node, CG.citedWork, iris.cited_work(key))
    yield Triple(paper, CITO.cites, node)
    for sentence_index in reference.cited_by:
        yield Triple(sentence_iri(iris, paper_id, sentence_index), CG.cites, node)


def bibliographic_triples(node: NamedNode, work: Bibliographic) -> Iterator[Triple]:
    fields = ((BIBO.doi, work.doi), (FABIO.hasPubMedId, work.pmid), (FABIO.hasPubMedCentralId, work.pmcid),
              (DCTERMS.title, work.title), (DCTERMS.creator, work.first_author), (PRISM.publicationName, work.journal))
    for predicate, value in fields:
        if value:
            yield Triple(node, predicate, Literal(value))
    if work.year:
        yield Triple(node, FABIO.hasPublicationYear, Literal(work.year, datatype=XSD.gYear))


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


def unknown_paper(store: Store, iris: IriScheme, paper_id: str) -> str:
    """The message for a paper id naming no stored paper, with the closest stored ids."""
    return f"no paper {paper_id!r} in the store at {store.location}{did_you_mean(paper_id, stored_paper_ids(store, iris))}"


def stored_paper_ids(store: Store, iris: IriScheme) -> list[str]:
    """Ids of the papers whose paper graph is in the store, sorted."""
    rows = store.select(read_named_query("paper-graphs"))
    ids = (iris.paper_id_of(iri_of(row, "paper")) for row in rows)
    return sorted(paper_id for paper_id in ids if paper_id is not None)
