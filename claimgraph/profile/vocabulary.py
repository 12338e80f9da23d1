"""A profile's edge vocabulary as RDF: raw-label predicates, edge predicates, and the vocabulary graph.

The LLM writes edge labels as text. A label that is canonical up to case and
spacing becomes its edge property; any other label becomes a raw-label
predicate (``RAW_LABEL[normalized label]``) so that it is representable until
the audited ``canonicalize_edge_labels`` repair maps its alias, or the
``closed_edge_labels`` rule reports it. The SPARQL side of the raw-label
namespace is the ``is_raw_label`` fragment (a test checks they agree).

The vocabulary graph (``<base>graph/vocabulary/<profile>``) holds what the
repair scripts, gate measures and rules join against: edge properties with
their ``skos:notation``, raw label -> property (``cg:aliasOf``), the extracted
classes, each reasoning edge property's ``cg:family`` and ``cg:role``, and the
residual types a paper may carry (``cg:residualLabel``, not ``skos:notation``,
so that they never count as edge properties).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import edge_families, edge_label_key, edge_labels, extracted_classes, residual_types
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, RDF, SKOS, XSD, Namespace
from claimgraph.store import Store

RAW_LABEL = Namespace("https://w3id.org/claimgraph/raw-label/")
UNLABELED = "unlabeled"


def raw_label_iri(label: str) -> NamedNode:
    """The raw-label predicate of an edge label: its normalized form, percent-encoded like SPARQL ENCODE_FOR_URI."""
    normalized = edge_label_key(label) or UNLABELED
    return RAW_LABEL[urllib.parse.quote(normalized, safe="")]


def raw_label_of(predicate: NamedNode) -> str | None:
    """The label text a raw-label predicate stands for, else None."""
    if not predicate.value.startswith(RAW_LABEL.iri):
        return None
    return urllib.parse.unquote(predicate.value[len(RAW_LABEL.iri):])


def edge_predicate(profile: Profile, label: str) -> NamedNode:
    """The canonical edge property when the label is canonical up to case and spacing, else its raw-label predicate.

    Aliases are not resolved here: that is the audited canonicalize_edge_labels repair.
    """
    canonical = edge_labels(profile).get(edge_label_key(label))
    return NamedNode(canonical) if canonical else raw_label_iri(label)


def vocabulary_graph(iris: IriScheme, profile: Profile) -> NamedNode:
    """``<base>graph/vocabulary/<profile>``: what the scripts, measures and rules join against."""
    return NamedNode(f"{iris.base}graph/vocabulary/{profile.name}")


def vocabulary_triples(profile: Profile) -> Iterator[Triple]:
    """Edge properties, aliases, extracted classes and reasoning families of the profile."""
    labels = edge_labels(profile)
    for label, prop in sorted(labels.items()):
        yield Triple(NamedNode(prop), SKOS.notation, Literal(label))
        yield Triple(raw_label_iri(label), CG.aliasOf, NamedNode(prop))
    for alias, label in sorted(profile.aliases.items()):
        yield Triple(raw_label_iri(alias), CG.aliasOf, NamedNode(labels[label]))
    for cls in extracted_classes(profile):
        yield Triple(NamedNode(cls), CG.extractedClass, Literal("true", datatype=XSD.boolean))
    for prop, (family, role) in sorted(edge_families(profile).items()):
        yield Triple(NamedNode(prop), CG.family, NamedNode(family))
        yield Triple(NamedNode(prop), CG.role, Literal(role))
    for label, residual in residual_types(profile).items():
        yield Triple(NamedNode(residual.iri), RDF.type, CG.ResidualType)
        yield Triple(NamedNode(residual.iri), CG.residualLabel, Literal(label))
        yield Triple(NamedNode(residual.iri), CG.residualStage, Literal(residual.stage))


def load_vocabulary(store: Store, iris: IriScheme, profile: Profile) -> NamedNode:
    """Write the profile's vocabulary graph (replacing it) and return its IRI."""
    graph = vocabulary_graph(iris, profile)
    store.replace_graph(graph, vocabulary_triples(profile))
    return graph
