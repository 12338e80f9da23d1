"""The JSON-LD context (ontology/context.jsonld) and the terms it must define: one per term the ontology declares.

Every class, individual and property the ontology files declare in the
claimgraph namespace gets a term named by its local name: a class or an
individual maps to its IRI; a property whose values are IRIs is ``@id``-typed
(``@vocab``-typed when its values are themselves terms: classes, families,
merge policies, properties), a property with an XSD range other than
xsd:string carries that datatype, so that compacted data reads as plain names
(``{"confidence": 0.8}``, ``{"memberType": "Factor"}``). The standard terms
we write (RDF, RDFS, DCTERMS, PROV, SKOS, CiTO, BIBO, nanopub) are written in
the file by hand. ``python -m claimgraph.publish.jsonld_context`` adds the
terms the ontology declares and the file lacks, leaving the rest as it is.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyoxigraph
from pyoxigraph import NamedNode, RdfFormat

from claimgraph.assets import asset_path, read_asset
from claimgraph.rdf.vocab import CG, OWL, RDF, RDFS, XSD

Definition = str | dict[str, str]
_PROPERTY_KINDS = (OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty)
_TERM_VALUED = frozenset({OWL.Class.value, RDFS.Class.value, RDF.Property.value})


def jsonld_context() -> dict[str, Any]:
    """The published JSON-LD context (the object under ``@context``)."""
    context: dict[str, Any] = json.loads(read_asset("ontology", "context.jsonld"))["@context"]
    return context


def declared_graph(paths: Iterable[Path]) -> pyoxigraph.Store:
    store = pyoxigraph.Store()
    for path in paths:
        store.load(path=str(path), format=RdfFormat.TURTLE)
    return store


def _compact(iri: str) -> str:
    for prefix, namespace in (("cg", CG.iri), ("xsd", XSD.iri)):
        if iri.startswith(namespace):
            return f"{prefix}:{iri[len(namespace):]}"
    return iri


def _objects(store: pyoxigraph.Store, subject: NamedNode, predicate: NamedNode) -> set[str]:
    return {quad.object.value for quad in store.quads_for_pattern(subject, predicate, None) if isinstance(quad.object, NamedNode)}


def definition(store: pyoxigraph.Store, term: NamedNode, individual_classes: set[str]) -> Definition:
    """The context definition of one declared term."""
    kinds = _objects(store, term, RDF.type)
    compact = _compact(term.value)
    if not kinds & {kind.value for kind in _PROPERTY_KINDS}:
        return compact
    ranges = _objects(store, term, RDFS.range)
    datatypes = sorted(value for value in ranges if value.startswith(XSD.iri))
    if datatypes:
        return compact if datatypes[0] == XSD.string.value else {"@id": compact, "@type": _compact(datatypes[0])}
    if OWL.DatatypeProperty.value in kinds:
        return compact
    if ranges & (_TERM_VALUED | individual_classes) or term == CG.aliasOf:
        return {"@id": compact, "@type": "@vocab"}
    if OWL.AnnotationProperty.value in kinds and not ranges:
        return compact
    return {"@id": compact, "@type": "@id"}


def ontology_terms(paths: Iterable[Path] | None = None) -> dict[str, Definition]:
    """Term name -> definition for every class, individual and property the ontology declares in its namespace."""
    store = declared_graph(paths if paths is not None else sorted(asset_path("ontology").glob("*.ttl")))
    subjects = [quad.subject for quad in store.quads_for_pattern(None, RDF.type, None)]
    declared = {subject.value for subject in subjects if isinstance(subject, NamedNode) and subject.value.startswith(CG.iri)}
    individuals = {quad.subject.value for quad in store.quads_for_pattern(None, RDF.type, OWL.NamedIndividual) if isinstance(quad.subject, NamedNode)}
    individual_classes = {value for individual in individuals for value in _objects(store, NamedNode(individual), RDF.type)} - {OWL.NamedIndividual.value}
    return {iri[len(CG.iri):]: definition(store, NamedNode(iri), individual_classes) for iri in sorted(declared)}


def missing_terms(context: dict[str, Any], terms: dict[str, Definition]) -> dict[str, Definition]:
    """The declared terms the context does not define (by name)."""
    return {name: value for name, value in terms.items() if name not in context}


def add_missing_terms(path: Path) -> list[str]:
    """Add the missing declared terms to the context file at ``path``; returns their names."""
    document = json.loads(path.read_text(encoding="utf-8"))
    missing = missing_terms(document["@context"], ontology_terms())
    document["@context"].update(missing)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return sorted(missing)


if __name__ == "__main__":
    added = add_missing_terms(asset_path("ontology", "context.jsonld"))
    sys.stdout.write(f"added {len(added)} terms: {', '.join(added)}\n" if added else "the context already defines every declared term\n")
