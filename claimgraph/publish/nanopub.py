"""Nanopublications: each claim (or each paper) as TriG with head, assertion, provenance and publication-info graphs.

A claim-level nanopublication asserts one statement node (Claim, Evidence,
Hypothesis, ResearchQuestion, Association, Viewpoint or reasoning node): its
type and text, and its outgoing edges with the type and text of each target,
so it reads on its own. Its provenance says where the assertion came from
(the sentence and the paper, the paper's DOI when known), how confident the
extraction was, and which activity of the audit trail produced it. The
publication info names the paper, the time of export and claimgraph. A
paper-level nanopublication asserts every node and edge of the paper at once.

The nanopublications are unsigned: ``<base>nanopub/<paper>/<hash>`` names
each, with ``#Head``, ``#assertion``, ``#provenance`` and ``#pubinfo``
graphs; signing (trusty URIs) is for the nanopub tools.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pyoxigraph
from pyoxigraph import Literal, NamedNode, Quad, RdfFormat, Triple

from claimgraph import __version__
from claimgraph.context import Context
from claimgraph.papers.document_graph import sentence_iri
from claimgraph.publish.elements import Json, graph_elements, producer, provenance_index
from claimgraph.rdf.iris import content_hash
from claimgraph.rdf.queries import read_sparql
from claimgraph.rdf.rows import iri_of, text_of
from claimgraph.rdf.vocab import CG, DCTERMS, PREFIXES, PROV, RDF, RDFS, XSD, Namespace

NP = Namespace("http://www.nanopub.org/nschema#")
SOFTWARE = NamedNode(f"https://w3id.org/claimgraph/software/{__version__}")
STATEMENT_TYPES = frozenset({"Claim", "Evidence", "Hypothesis", "ResearchQuestion", "Association", "Viewpoint", "ReasoningNode"})
UNITS = ("claim", "paper")
NANOPUB_PREFIXES = {**PREFIXES, "np": NP.iri}


@dataclass
class Nanopublication:
    """One nanopublication: its IRI and its quads in the four graphs."""

    uri: NamedNode
    quads: list[Quad]

    def graph(self, part: str) -> NamedNode:
        return NamedNode(f"{self.uri.value}#{part}")


def _decimal(value: float) -> Literal:
    return Literal(format(value, "g"), datatype=XSD.decimal)


def _node_triples(node: Json) -> list[Triple]:
    subject = NamedNode(node["id"])
    return [Triple(subject, RDF.type, CG[node["type"]]), Triple(subject, CG.text, Literal(node["text"]))]


def paper_facts(ctx: Context, paper_id: str) -> tuple[list[Json], dict[str, list[tuple[NamedNode, NamedNode]]], dict[str, str]]:
    """The paper's nodes, the outgoing edges of each (predicate, target) and its bibliographic facts."""
    paper = ctx.iris.paper(paper_id)
    prefix = f"{ctx.iris.base}graph/vocabulary/"
    nodes, _ = graph_elements(ctx.store, paper, paper, ctx.iris.audit_graph(paper_id), prefix, "paper")
    outgoing: dict[str, list[tuple[NamedNode, NamedNode]]] = {}
    for row in ctx.store.select(read_sparql("graphs", "edges.rq"), {"graph": paper, "vocabularyPrefix": Literal(prefix)}):
        pair = (iri_of(row, "predicate"), iri_of(row, "target"))
        if pair not in outgoing.setdefault(text_of(row, "source"), []):
            outgoing[text_of(row, "source")].append(pair)
    facts = {row["property"].value: row["value"].value for row in ctx.store.select(read_sparql("graphs", "paper-facts.rq"), {"paper": paper})}
    return nodes, outgoing, facts


def _head(publication: Nanopublication) -> list[Quad]:
    head, uri = publication.graph("Head"), publication.uri
    return [
        Quad(uri, RDF.type, NP.Nanopublication, head),
        Quad(uri, NP.hasAssertion, publication.graph("assertion"), head),
        Quad(uri, NP.hasProvenance, publication.graph("provenance"), head),
        Quad(uri, NP.hasPublicationInfo, publication.graph("pubinfo"), head),
    ]


def _pubinfo(publication: Nanopublication, paper: NamedNode, label: str, created: datetime) -> list[Quad]:
    pubinfo, uri = publication.graph("pubinfo"), publication.uri
    return [
        Quad(uri, DCTERMS.created, Literal(created.isoformat(), datatype=XSD.dateTime), pubinfo),
        Quad(uri, DCTERMS.source, paper, pubinfo),
        Quad(uri, PROV.wasGeneratedBy, SOFTWARE, pubinfo),
        Quad(uri, RDFS.label, Literal(label), pubinfo),
    ]


def _source_quads(assertion: NamedNode, paper: NamedNode, facts: dict[str, str], graph: NamedNode) -> list[Quad]:
    quads = [Quad(assertion, PROV.wasDerivedFrom, paper, graph)]
    quads += [Quad(paper, NamedNode(prop), Literal(value), graph) for prop, value in sorted(facts.items())]
    return quads


def claim_nanopub(ctx: Context, paper_id: str, node: Json, edges: list[tuple[NamedNode, NamedNode]], nodes: dict[str, Json],
                  facts: dict[str, str], activity: str | None, created: datetime) -> Nanopublication:
    """The nanopublication of one statement node."""
    paper = ctx.iris.paper(paper_id)
    publication = Nanopublication(NamedNode(f"{ctx.iris.base}nanopub/{paper_id}/{content_hash(node['id'])}"), [])
    assertion_graph, provenance_graph = publication.graph("assertion"), publication.graph("provenance")
    triples = _node_triples(node)
    for predicate, target in edges:
        if target.value in nodes:
            triples += [Triple(NamedNode(node["id"]), predicate, target), *_node_triples(nodes[target.value])]
    quads = _head(publication) + [Quad(t.subject, t.predicate, t.object, assertion_graph) for t in dict.fromkeys(triples)]
    quads += _source_quads(assertion_graph, paper, facts, provenance_graph)
    if node["anchor"] and node["anchor"] != "(0,0,0)" and node["sentence"] is not None:
        sentence = sentence_iri(ctx.iris, paper_id, int(node["anchor"][1:].split(",")[0]))
        quads += [Quad(assertion_graph, PROV.wasDerivedFrom, sentence, provenance_graph),
                  Quad(sentence, CG.text, Literal(node["sentence"]), provenance_graph)]
    if node["confidence"] is not None:
        quads.append(Quad(assertion_graph, CG.confidence, _decimal(node["confidence"]), provenance_graph))
    if activity:
        quads.append(Quad(assertion_graph, PROV.wasGeneratedBy, NamedNode(activity), provenance_graph))
    label = f"{node['type']} of paper {paper_id}: {node['label']}"
    publication.quads = quads + _pubinfo(publication, paper, label, created)
    return publication


def paper_nanopub(ctx: Context, paper_id: str, nodes: list[Json], outgoing: dict[str, list[tuple[NamedNode, NamedNode]]],
                  facts: dict[str, str], created: datetime) -> Nanopublication:
    """One nanopublication asserting every node and edge of the paper."""
    paper = ctx.iris.paper(paper_id)
    publication = Nanopublication(NamedNode(f"{ctx.iris.base}nanopub/{paper_id}/paper"), [])
    assertion_graph = publication.graph("assertion")
    known = {node["id"] for node in nodes}
    triples = [triple for node in nodes for triple in _node_triples(node)]
    triples += [Triple(NamedNode(source), predicate, target) for source, pairs in outgoing.items() if source in known
                for predicate, target in pairs if target.value in known]
    quads = _head(publication) + [Quad(t.subject, t.predicate, t.object, assertion_graph) for t in dict.fromkeys(triples)]
    quads += _source_quads(assertion_graph, paper, facts, publication.graph("provenance"))
    publication.quads = quads + _pubinfo(publication, paper, f"the discourse graph of paper {paper_id}", created)
    return publication


def nanopublications(ctx: Context, paper_ids: Iterable[str], unit: str = "claim", created: datetime | None = None) -> list[Nanopublication]:
    """The nanopublications of the papers: one per statement node (``claim``) or one per paper (``paper``)."""
    if unit not in UNITS:
        raise ValueError(f"nanopublication unit must be one of {', '.join(UNITS)}, not {unit!r}")
    moment = created or datetime.now(UTC)
    publications = []
    for paper_id in paper_ids:
        nodes, outgoing, facts = paper_facts(ctx, paper_id)
        if unit == "paper":
            if nodes:
                publications.append(paper_nanopub(ctx, paper_id, nodes, outgoing, facts, moment))
            continue
        by_id = {node["id"]: node for node in nodes}
        touches = provenance_index(ctx.store, ctx.iris.audit_graph(paper_id))
        for node in nodes:
            if node["type"] in STATEMENT_TYPES:
                made_by = producer(touches.get(node["id"], []))
                activity = made_by.activity if made_by else None
                publications.append(claim_nanopub(ctx, paper_id, node, outgoing.get(node["id"], []), by_id, facts, activity, moment))
    return publications


def to_trig(publications: Iterable[Nanopublication]) -> bytes:
    """Nanopublications as one TriG document."""
    quads = [quad for publication in publications for quad in publication.quads]
    return pyoxigraph.serialize(quads, format=RdfFormat.TRIG, prefixes=NANOPUB_PREFIXES) or b""


def write_folder(publications: Iterable[Nanopublication], folder: Path) -> list[Path]:
    """One TriG file per nanopublication in ``folder`` (named after the nanopublication's last path segments)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for publication in publications:
        paper_id, name = publication.uri.value.rsplit("/", 2)[-2:]
        path = folder / f"{paper_id}--{name}.trig"
        path.write_bytes(to_trig([publication]))
        written.append(path)
    return written
