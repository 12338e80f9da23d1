"""What the LLM phases produce for one paper, and its RDF form.

The phases work on plain Python objects (nodes keyed by the ids the model gave
them inside a passage, edges naming their endpoints) so that each step can
inspect and change them; ``extraction_triples`` turns the current state into
the triples of a named graph: the document structure, the nodes with their
source anchors, plain edge triples and one reification annotation per edge.

Every node is anchored: ``cg:inPassage``, an (x, y, z) source tuple ((s, 0, 0)
for the sentence the model named, (0, 0, 0) when it named none the passage
has) and ``prov:wasDerivedFrom`` its sentence, else its passage. A name no node
carries is kept in the IRI of its dangling endpoint (percent-encoded), so an
extraction read back from the store (claimgraph.extract.stored) has its
dangling names again.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.loaders.document import Document, Passage
from claimgraph.papers.annotations import confidence_literal, edge_annotation_triples
from claimgraph.papers.document_graph import document_triples, passage_iri, sentence_iri, source_tuple_triples
from claimgraph.profile.manifest import Profile
from claimgraph.profile.vocabulary import edge_predicate
from claimgraph.rdf.iris import IriScheme, content_hash
from claimgraph.rdf.vocab import CG, PROV, RDF


@dataclass
class Node:
    """A discourse node the model named ``id`` inside passage ``passage``."""

    id: str
    type: str  # class local name, e.g. "Association"
    text: str
    passage: int
    sentence: int | None
    confidence: Decimal
    arg0: str | None = None
    arg1: str | None = None
    step: str = "entities"
    local: str | None = None  # the IRI's local name when read back from the store (may differ from p<passage>-<id>)


@dataclass
class Edge:
    """``source --label--> target``; an endpoint that names no node is a dangling name."""

    source: str
    label: str
    target: str
    passage: int
    confidence: Decimal
    sentence: int | None = None
    step: str = "relations"


@dataclass
class PaperExtraction:
    document: Document
    nodes: dict[tuple[int, str], Node] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)

    def passage_nodes(self, passage: int) -> list[Node]:
        return [node for (index, _), node in self.nodes.items() if index == passage]

    def resolve(self, passage: int, name: str) -> Node | None:
        """The node a relation endpoint names: an id of the passage, a qualified id ``p<k>-<id>`` of any
        passage, else a node's exact text (case-insensitive)."""
        node = self.nodes.get((passage, name))
        if node is not None:
            return node
        qualified = _QUALIFIED.match(name)
        if qualified and (int(qualified.group(1)), qualified.group(2)) in self.nodes:
            return self.nodes[(int(qualified.group(1)), qualified.group(2))]
        folded = name.casefold()
        same_passage = [n for n in self.passage_nodes(passage) if n.text.casefold() == folded]
        if same_passage:
            return same_passage[0]
        elsewhere = [n for n in self.nodes.values() if n.text.casefold() == folded or n.id == name]
        return elsewhere[0] if len(elsewhere) == 1 else None

    def dangling(self, passage: int | None = None) -> list[tuple[Edge, str]]:
        """(edge, unresolved name) for each endpoint that names no node."""
        found = []
        for edge in self.edges:
            if passage is not None and edge.passage != passage:
                continue
            for name in (edge.source, edge.target):
                if self.resolve(edge.passage, name) is None:
                    found.append((edge, name))
        return found

    def linked(self) -> set[tuple[int, str]]:
        """Keys of the nodes that take part in at least one resolved edge or Association slot."""
        keys: set[tuple[int, str]] = set()
        for edge in self.edges:
            source, target = self.resolve(edge.passage, edge.source), self.resolve(edge.passage, edge.target)
            if source is not None and target is not None:
                keys.add((source.passage, source.id))
                keys.add((target.passage, target.id))
        for node in self.nodes.values():
            for slot in (node.arg0, node.arg1):
                factor = self.resolve(node.passage, slot) if slot else None
                if factor is not None:
                    keys.add((node.passage, node.id))
                    keys.add((factor.passage, factor.id))
        return keys

    def orphans(self, passage: int) -> list[Node]:
        linked = self.linked()
        return [node for node in self.passage_nodes(passage) if (node.passage, node.id) not in linked]

    def gap_nodes(self, passage: int) -> list[Node]:
        """Nodes of the passage with no edge to another node of the same passage."""
        partners: dict[str, set[str]] = {node.id: set() for node in self.passage_nodes(passage)}
        for edge in self.edges:
            source, target = self.resolve(edge.passage, edge.source), self.resolve(edge.passage, edge.target)
            if source and target and source.passage == target.passage == passage and source.id != target.id:
                partners[source.id].add(target.id)
                partners[target.id].add(source.id)
        for node in self.passage_nodes(passage):
            for slot in (node.arg0, node.arg1):
                factor = self.resolve(passage, slot) if slot else None
                if factor is not None and factor.passage == passage:
                    partners[node.id].add(factor.id)
                    partners[factor.id].add(node.id)
        return [node for node in self.passage_nodes(passage) if not partners[node.id]]

    def drop_node(self, node: Node) -> None:
        del self.nodes[(node.passage, node.id)]

    def colocation(self) -> tuple[int, int]:
        """(co-located node pairs, those joined by an edge or Association slot): seed 002's connectivity ratio."""
        pairs = linked = 0
        joined = self.joined_pairs()
        for passage in {node.passage for node in self.nodes.values()}:
            keys = sorted((n.passage, n.id) for n in self.passage_nodes(passage))
            for index, first in enumerate(keys):
                for second in keys[index + 1:]:
                    pairs += 1
                    linked += (first, second) in joined
        return pairs, linked

    def joined_pairs(self) -> set[tuple[tuple[int, str], tuple[int, str]]]:
        """Ordered key pairs of nodes joined by a resolved edge or an Association slot."""
        joined = set()
        ends = [(e.passage, e.source, e.target) for e in self.edges]
        ends += [(n.passage, n.id, slot) for n in self.nodes.values() for slot in (n.arg0, n.arg1) if slot]
        for passage, source_name, target_name in ends:
            source, target = self.resolve(passage, source_name), self.resolve(passage, target_name)
            if source is not None and target is not None and source is not target:
                pair = sorted([(source.passage, source.id), (target.passage, target.id)])
                joined.add((pair[0], pair[1]))
        return joined


_QUALIFIED = re.compile(r"^p(\d+)-(.+)$")
MAX_DANGLING_NAME = 200


def qualified_id(node: Node) -> str:
    """How a node of another passage is named in a prompt (and in a reply): ``p<passage>-<id>``."""
    return f"p{node.passage}-{node.id}"


def node_iri(iris: IriScheme, paper_id: str, node: Node) -> NamedNode:
    """The IRI of an extracted node: ids are local to a passage, so the passage number is part of the name."""
    if node.local is not None:
        return iris.node(paper_id, "node", node.local)
    return iris.extracted_node(paper_id, qualified_id(node))


def dangling_iri(iris: IriScheme, paper_id: str, passage: int, name: str) -> NamedNode:
    """An untyped IRI standing for a name no node carries (what the gate counts as a dangle).

    The name is kept, percent-encoded, so that it can be read back; a very long
    one is hashed (and comes back as its hash).
    """
    encoded = urllib.parse.quote(name, safe="")
    local = encoded if len(encoded) <= MAX_DANGLING_NAME else "h-" + content_hash(name.casefold(), length=16)
    return NamedNode(f"{iris.paper(paper_id).value}/dangling/p{passage}/{local}")


def dangling_name(iris: IriScheme, paper_id: str, iri: NamedNode) -> tuple[int, str] | None:
    """(passage, name) of a dangling endpoint IRI made by ``dangling_iri``, else None."""
    prefix = f"{iris.paper(paper_id).value}/dangling/p"
    if not iri.value.startswith(prefix):
        return None
    passage, _, local = iri.value[len(prefix):].partition("/")
    return (int(passage), urllib.parse.unquote(local)) if passage.isdigit() and local else None


def passage_numbered_text(passage: Passage) -> str:
    """The passage as the prompts show it: one ``[n] sentence`` per line."""
    return "\n".join(f"[{sentence.index}] {sentence.text}" for sentence in passage.sentences)


def extraction_triples(extraction: PaperExtraction, iris: IriScheme, profile: Profile,
                       structure: Iterable[Triple] | None = None) -> Iterator[Triple]:
    """The paper's document structure (``structure`` as stored, else built from the document) plus the extracted nodes and edges.

    Annotation IRIs derive from the paper graph IRI (IriScheme.statement), as
    the gate's measures expect, in the raw graph as well as in the paper graph.
    """
    document = extraction.document
    pid = document.paper_id
    graph = iris.paper(pid)
    yield from document_triples(document, iris) if structure is None else structure
    iri_of = {key: node_iri(iris, pid, node) for key, node in extraction.nodes.items()}
    for key, node in extraction.nodes.items():
        subject = iri_of[key]
        yield Triple(subject, RDF.type, CG[node.type])
        yield Triple(subject, CG.text, Literal(node.text))
        yield Triple(subject, CG.confidence, confidence_literal(node.confidence))
        passage = passage_iri(iris, pid, node.passage)
        yield Triple(subject, CG.inPassage, passage)
        if node.sentence is not None:
            sentence = sentence_iri(iris, pid, node.sentence)
            yield Triple(subject, CG.inSentence, sentence)
            yield Triple(subject, PROV.wasDerivedFrom, sentence)
            yield from source_tuple_triples(subject, (node.sentence, 0, 0))
        else:
            yield Triple(subject, PROV.wasDerivedFrom, passage)
            yield from source_tuple_triples(subject, (0, 0, 0))
        for label, slot in (("arg0", node.arg0), ("arg1", node.arg1)):
            factor = extraction.resolve(node.passage, slot) if slot else None
            target = iri_of[(factor.passage, factor.id)] if factor else (dangling_iri(iris, pid, node.passage, slot) if slot else None)
            if target is not None:
                yield from discourse_edge_triples(iris, graph, subject, CG[label], target, node.confidence, node.sentence, pid)
    for edge in extraction.edges:
        ends = []
        for name in (edge.source, edge.target):
            end = extraction.resolve(edge.passage, name)
            ends.append(iri_of[(end.passage, end.id)] if end else dangling_iri(iris, pid, edge.passage, name))
        yield from discourse_edge_triples(iris, graph, ends[0], edge_predicate(profile, edge.label), ends[1], edge.confidence, edge.sentence, pid)


def discourse_edge_triples(
    iris: IriScheme, graph: NamedNode, subject: NamedNode, predicate: NamedNode, obj: NamedNode,
    confidence: Decimal, sentence: int | None, paper_id: str,
) -> Iterator[Triple]:
    """A plain edge triple and its reification annotation (confidence, provenance)."""
    yield Triple(subject, predicate, obj)
    source = sentence_iri(iris, paper_id, sentence) if sentence is not None else None
    yield from edge_annotation_triples(iris, graph, subject, predicate, obj, confidence_literal(confidence), source)
