"""The RDF canonicalization writes: mention edges with their annotations and CANON_ hub nodes."""

from __future__ import annotations

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.canonical.plan import Link
from claimgraph.canonical.state import HubRow
from claimgraph.papers.annotations import confidence_literal, edge_annotation_triples
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, RDF


def mention_triples(iris: IriScheme, link: Link) -> list[Triple]:
    """``node cg:mentions hub`` and its edge annotation, whose confidence is the cosine similarity."""
    confidence = confidence_literal(min(max(link.similarity, 0.0), 1.0))
    return [Triple(link.node, CG.mentions, link.hub), *edge_annotation_triples(iris, link.graph, link.node, CG.mentions, link.hub, confidence)]


def hub_triples(hub: HubRow) -> list[Triple]:
    return [
        Triple(hub.hub, RDF.type, CG.CanonicalNode),
        Triple(hub.hub, CG.memberType, NamedNode(hub.type)),
        Triple(hub.hub, CG.representativeText, Literal(hub.text)),
    ]
