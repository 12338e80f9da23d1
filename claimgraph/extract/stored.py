"""A paper's extraction read back from its raw graph, so that one LLM step can be run again on it alone.

The raw graph holds what the last extraction step left: the document structure
(paper, passages, sentences, references), the extracted nodes with their
passage, sentence and confidence, the edges with their annotations, and
dangling endpoints whose IRIs keep the name the model used. This module turns
it back into a ``PaperExtraction`` (and the structure triples as stored), which
``claimgraph.extract.runner.extract_paper`` continues from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.extract.model import Edge, Node, PaperExtraction, dangling_name, qualified_id
from claimgraph.extract.sanitize import DEFAULT_CONFIDENCE
from claimgraph.loaders.document import Document, Passage, Sentence
from claimgraph.profile.ontology import edge_labels, extracted_class_names
from claimgraph.profile.vocabulary import raw_label_of
from claimgraph.rdf.vocab import CG, DCTERMS, PROV, RDF, RDFS

STRUCTURE_CLASSES = (CG.Paper, CG.Passage, CG.Sentence, CG.Reference, CG.Viewpoint)
PAPER_OUTCOMES = (CG.residual, CG.parserBranch)
SLOTS = (CG.arg0, CG.arg1)


class ExtractionError(ClaimgraphError):
    """A stored paper cannot be extracted again (not in the store, or its claims came with the input)."""


@dataclass
class StoredExtraction:
    extraction: PaperExtraction
    structure: list[Triple]


class _Graph:
    """The raw graph's triples indexed by subject."""

    def __init__(self, triples: Iterable[Triple]) -> None:
        self.triples = list(triples)
        self.by_subject: dict[object, list[Triple]] = {}
        for triple in self.triples:
            self.by_subject.setdefault(triple.subject, []).append(triple)

    def values(self, subject: object, predicate: NamedNode) -> list[object]:
        return [t.object for t in self.by_subject.get(subject, []) if t.predicate == predicate]

    def value(self, subject: object, predicate: NamedNode) -> object | None:
        found = self.values(subject, predicate)
        return found[0] if found else None

    def typed(self, classes: Iterable[NamedNode]) -> dict[NamedNode, NamedNode]:
        """Subjects (IRIs) typed with one of ``classes``, and that class."""
        wanted = set(classes)
        return {t.subject: t.object for t in self.triples
                if t.predicate == RDF.type and isinstance(t.subject, NamedNode) and isinstance(t.object, NamedNode) and t.object in wanted}


def _integer(term: object | None) -> int | None:
    try:
        return int(term.value) if isinstance(term, Literal) else None
    except ValueError:
        return None


def _decimal(term: object | None) -> Decimal:
    try:
        return Decimal(term.value) if isinstance(term, Literal) else DEFAULT_CONFIDENCE
    except InvalidOperation:
        return DEFAULT_CONFIDENCE


def _text(term: object | None) -> str:
    return term.value if isinstance(term, Literal) else ""


def _document(graph: _Graph, paper: NamedNode, paper_id: str) -> Document:
    typed = graph.typed([CG.Passage, CG.Sentence, CG.Viewpoint])
    if any(kind == CG.Viewpoint for kind in typed.values()):
        raise ExtractionError(f"paper {paper_id!r} holds its claims (ARCHE input): there is no LLM extraction to run again")
    passages: dict[object, Passage] = {}
    for subject, kind in typed.items():
        if kind == CG.Passage:
            passages[subject] = Passage(_integer(graph.value(subject, CG.index)) or 0, _text(graph.value(subject, RDFS.label)))
    for subject, kind in typed.items():
        passage = passages.get(graph.value(subject, CG.inPassage)) if kind == CG.Sentence else None
        if passage is not None:
            passage.sentences.append(Sentence(_integer(graph.value(subject, CG.index)) or 0, _text(graph.value(subject, CG.text)), passage.index))
    for passage in passages.values():
        passage.sentences.sort(key=lambda sentence: sentence.index)
    return Document(paper_id, _text(graph.value(paper, DCTERMS.source)), _text(graph.value(paper, CG.inputFormat)),
                    _text(graph.value(paper, DCTERMS.title)), passages=sorted(passages.values(), key=lambda p: p.index))


def _nodes(graph: _Graph, ctx: Context, paper_id: str, document: Document) -> dict[object, Node]:
    classes = {CG[name]: name for name in extracted_class_names(ctx.profile)}
    passage_index: dict[object, int] = {ctx.iris.node(paper_id, "passage", str(p.index)): p.index for p in document.passages}
    sentence_index: dict[object, int] = {ctx.iris.node(paper_id, "sentence", str(s.index)): s.index for s in document.sentences}
    prefix = ctx.iris.node(paper_id, "node", "x").value[:-1]
    nodes: dict[object, Node] = {}
    for subject, kind in graph.typed(classes).items():
        local = subject.value.removeprefix(prefix)
        passage = passage_index.get(graph.value(subject, CG.inPassage), 0)
        node_id = local.removeprefix(f"p{passage}-") if local.startswith(f"p{passage}-") else local
        sentence = sentence_index.get(graph.value(subject, CG.inSentence))
        nodes[subject] = Node(node_id, classes[kind], _text(graph.value(subject, CG.text)), passage, sentence,
                              _decimal(graph.value(subject, CG.confidence)), step="stored", local=local)
    return nodes


def _name(ctx: Context, paper_id: str, nodes: Mapping[object, Node], iri: object, passage: int) -> str | None:
    node = nodes.get(iri)
    if node is not None:
        return node.id if node.passage == passage else qualified_id(node)
    dangling = dangling_name(ctx.iris, paper_id, iri) if isinstance(iri, NamedNode) else None
    return dangling[1] if dangling else None


def stored_extraction(ctx: Context, paper_id: str) -> StoredExtraction:
    """The extraction as the paper's raw graph holds it; ExtractionError when there is none to continue."""
    paper = ctx.iris.paper(paper_id)
    graph = _Graph(ctx.store.triples(ctx.iris.raw_graph(paper_id)))
    if graph.value(paper, RDF.type) != CG.Paper:
        raise ExtractionError(f"no paper {paper_id!r} in the store at {ctx.store.location}; ingest it first")
    document = _document(graph, paper, paper_id)
    structural = graph.typed(STRUCTURE_CLASSES)
    structure = [t for t in graph.triples if t.subject in structural and not (t.subject == paper and t.predicate in PAPER_OUTCOMES)]
    nodes = _nodes(graph, ctx, paper_id, document)
    extraction = PaperExtraction(document, {(node.passage, node.id): node for node in nodes.values()})
    labels = {NamedNode(iri): label for label, iri in edge_labels(ctx.profile).items()}
    annotations = {(graph.value(a, RDF.subject), graph.value(a, RDF.predicate), graph.value(a, RDF.object)): a
                   for a in graph.typed([CG.EdgeAnnotation])}
    sentence_passage: dict[object, tuple[int, int]] = {ctx.iris.node(paper_id, "sentence", str(s.index)): (s.index, s.passage_index) for s in document.sentences}
    for triple in graph.triples:
        label = labels.get(triple.predicate) or raw_label_of(triple.predicate)
        if label is None or (triple.subject not in nodes and not isinstance(triple.subject, NamedNode)):
            continue
        source_node = nodes.get(triple.subject)
        annotation = annotations.get((triple.subject, triple.predicate, triple.object))
        derived = sentence_passage.get(graph.value(annotation, PROV.wasDerivedFrom)) if annotation else None
        dangling = dangling_name(ctx.iris, paper_id, triple.subject) if isinstance(triple.subject, NamedNode) else None
        passage = derived[1] if derived else source_node.passage if source_node else dangling[0] if dangling else 0
        if triple.predicate in SLOTS and source_node is not None:
            setattr(source_node, label, _name(ctx, paper_id, nodes, triple.object, source_node.passage))
            continue
        source, target = _name(ctx, paper_id, nodes, triple.subject, passage), _name(ctx, paper_id, nodes, triple.object, passage)
        if source is None or target is None:
            continue
        confidence = _decimal(graph.value(annotation, CG.confidence)) if annotation else DEFAULT_CONFIDENCE
        extraction.edges.append(Edge(source, label, target, passage, confidence, derived[0] if derived else None, "stored"))
    return StoredExtraction(extraction, structure)
