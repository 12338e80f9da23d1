"""ShEx validation of one graph: the class -> shape map of a profile and one pyshex call per shape.

Every subject typed with a class that has a shape is a focus node; the map
follows the ``<Class>Shape`` naming convention of the schema (overridable in the
profile's ``[shapes]`` table). Failure traces are reduced to one line by
``claimgraph.quality.reasons``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import rdflib
from pyoxigraph import BlankNode, Literal, NamedNode, Triple
from pyshex import ShExEvaluator
from ShExJSG import ShExJ

from claimgraph.errors import ProfileError
from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import ontology_classes
from claimgraph.profile.schema import Cardinality, load_schema, triple_constraints
from claimgraph.quality.reasons import clean_reason
from claimgraph.quality.rules import Rule, load_rule
from claimgraph.rdf.vocab import CG, PREFIXES, RDF, XSD, short_iri

ResultRow = tuple[str, bool, str | None, bool, str]  # focus, focus is blank, shape, passed, reason


@dataclass(frozen=True)
class CompiledProfile:
    """What validation needs from a profile, parsed once."""

    name: str
    schema: ShExJ.Schema
    shape_of_class: dict[str, str]
    cardinality: dict[tuple[str, str], Cardinality]
    rules: tuple[Rule, ...]


@cache
def compile_profile(profile: Profile) -> CompiledProfile:
    schema = load_schema(profile.shex_files)
    return CompiledProfile(
        name=profile.name,
        schema=schema,
        shape_of_class=_shape_map(profile, schema),
        cardinality=_cardinalities(schema),
        rules=tuple(load_rule(path) for path in profile.rule_files),
    )


def _shape_map(profile: Profile, schema: ShExJ.Schema) -> dict[str, str]:
    """Class IRI -> shape IRI: cg:<X> for each shape named <X>Shape, then the manifest's [shapes] table."""
    classes = ontology_classes(profile)
    shape_ids = {str(shape.id) for shape in schema.shapes}
    mapping: dict[str, str] = {}
    for shape_id in shape_ids:
        local = re.split(r"[#/]", shape_id)[-1]
        if not local.endswith("Shape"):
            continue
        cls = CG[local.removesuffix("Shape")].value
        if cls not in classes:
            raise ProfileError(f"shape {shape_id} names class {cls}, which the ontology of profile {profile.name} does not define")
        mapping[cls] = shape_id
    for cls, shape_id in profile.shape_overrides.items():
        if shape_id not in shape_ids:
            raise ProfileError(f"{profile.manifest}: [shapes] maps {cls} to {shape_id}, which no ShEx file defines")
        mapping[cls] = shape_id
    return mapping


def _cardinalities(schema: ShExJ.Schema) -> dict[tuple[str, str], Cardinality]:
    """(shape IRI, predicate IRI) -> the triple constraint's cardinality, for readable reasons."""
    return {(c.shape, c.predicate): (c.min, c.max) for c in triple_constraints(schema)}




def shape_results(triples: list[Triple], compiled: CompiledProfile) -> list[ResultRow]:
    """Every typed subject checked against the shape of its class (one pyshex call per shape)."""
    rows: list[ResultRow] = []
    foci: dict[str, list[str]] = defaultdict(list)
    for triple in triples:
        if triple.predicate != RDF.type or not isinstance(triple.object, NamedNode):
            continue
        shape = compiled.shape_of_class.get(triple.object.value)
        subject = triple.subject
        if shape is None:
            if triple.object.value.startswith(CG.iri):
                reason = f"rdf:type {short_iri(triple.object.value)}: no shape for this class in profile {compiled.name}"
                rows.append((subject.value, isinstance(subject, BlankNode), None, False, reason))
        elif isinstance(subject, BlankNode):
            rows.append((subject.value, True, shape, False, "blank node: claimgraph nodes need IRIs"))
        else:
            foci[shape].append(subject.value)
    if not foci:
        return rows
    graph = to_rdflib(triples)
    for shape, nodes in foci.items():
        evaluator = ShExEvaluator(rdf=graph, schema=compiled.schema, focus=nodes, start=shape)
        for result in evaluator.evaluate():
            reason = "" if result.result else clean_reason(result.reason or "", graph, compiled, shape)
            rows.append((str(result.focus), False, shape, bool(result.result), reason))
    return rows




def to_rdflib(triples: Iterable[Triple]) -> rdflib.Graph:
    """pyoxigraph triples as an rdflib Graph (IRI terms are interned: papers repeat them a lot)."""
    graph = rdflib.Graph(bind_namespaces="none")
    for prefix, namespace in PREFIXES.items():
        graph.bind(prefix, namespace)
    iris: dict[str, rdflib.URIRef] = {}

    def convert(term: object) -> rdflib.term.Node:
        if isinstance(term, NamedNode):
            node = iris.get(term.value)
            if node is None:
                node = iris[term.value] = rdflib.URIRef(term.value)
            return node
        if isinstance(term, BlankNode):
            return rdflib.BNode(term.value)
        if isinstance(term, Literal):
            if term.language:
                return rdflib.Literal(term.value, lang=term.language)
            if term.datatype == XSD.string:
                return rdflib.Literal(term.value)
            return rdflib.Literal(term.value, datatype=convert(term.datatype))
        raise TypeError(f"unsupported RDF term {term!r}")

    for triple in triples:
        graph.add((convert(triple.subject), convert(triple.predicate), convert(triple.object)))
    return graph
