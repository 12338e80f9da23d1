"""The RDF canonicalization writes, all in the canonical graph: member links with their
annotations, CANON_ hub nodes, and the papers each hub's members come from.

Paper graphs are never written: a cautious node's attachment is ``node cg:mentions hub``
and an aggressive merge is ``node skos:exactMatch hub``, both in the canonical graph,
each with an edge annotation whose confidence is the cosine similarity, whose
``prov:wasDerivedFrom`` names the member's paper graph (so a re-ingest or an unmerge
finds every link of a paper, and a hub's provenance is the union of its members' papers),
and whose ``cg:linkBasis`` says how the link was decided (``cg:judgedBy`` names the judge).
A judge's DIFFERENT while placing is ``node cg:judgedDifferentFrom other``, reified with the
judge's name and the node's paper (on recheck, ``sparql/merge/judge-hold-apart.ru`` names the judge
on the hold-apart mark the same way).
"""

from __future__ import annotations

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.canonical.links.state import HubRow
from claimgraph.canonical.plan import JudgedApart, Link
from claimgraph.papers.annotations import confidence_literal, edge_annotation_triples
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, PROV, RDF, Namespace

SKOS = Namespace("http://www.w3.org/2004/02/skos/core#")
LINK_PREDICATES = {"cautious": CG.mentions, "aggressive": SKOS.exactMatch}


def link_triples(iris: IriScheme, link: Link) -> list[Triple]:
    """``node cg:mentions|skos:exactMatch hub`` in the canonical graph, its annotation (with the link's basis
    and judge), and the hub's provenance."""
    canonical = iris.canonical_graph()
    confidence = confidence_literal(min(max(link.similarity, 0.0), 1.0))
    annotation = iris.statement(canonical, link.node, link.predicate, link.hub)
    return [
        Triple(link.node, link.predicate, link.hub),
        *edge_annotation_triples(iris, canonical, link.node, link.predicate, link.hub, confidence, derived_from=link.graph),
        Triple(annotation, CG.linkBasis, link.basis),
        *([Triple(annotation, CG.judgedBy, Literal(link.judge))] if link.judge else []),
        Triple(link.hub, PROV.wasDerivedFrom, link.graph),
    ]


def judged_apart_triples(iris: IriScheme, verdict: JudgedApart) -> list[Triple]:
    """``node cg:judgedDifferentFrom other`` in the canonical graph, and its statement naming the judge and the
    node's paper (a re-ingest or the removal of the CANON_ node takes both: ``sparql/merge/``)."""
    statement = iris.statement(iris.canonical_graph(), verdict.node, CG.judgedDifferentFrom, verdict.other)
    return [
        Triple(verdict.node, CG.judgedDifferentFrom, verdict.other),
        Triple(statement, RDF.type, RDF.Statement),
        Triple(statement, RDF.subject, verdict.node),
        Triple(statement, RDF.predicate, CG.judgedDifferentFrom),
        Triple(statement, RDF.object, verdict.other),
        Triple(statement, CG.judgedBy, Literal(verdict.judge)),
        Triple(statement, PROV.wasDerivedFrom, verdict.graph),
    ]


def hub_triples(hub: HubRow) -> list[Triple]:
    return [
        Triple(hub.hub, RDF.type, CG.CanonicalNode),
        Triple(hub.hub, CG.memberType, NamedNode(hub.type)),
        Triple(hub.hub, CG.representativeText, Literal(hub.text)),
        Triple(hub.hub, RDF.type, SKOS.Concept),
        Triple(hub.hub, SKOS.prefLabel, Literal(hub.text)),
    ]
