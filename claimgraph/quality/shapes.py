"""ShEx validation of one graph: the class -> shape map of a profile, rudof to sort the nodes, pyshex for the reasons.

Every subject typed with a class that has a shape is a focus node; the map
follows the ``<Class>Shape`` naming convention of the schema (overridable in the
profile's ``[shapes]`` table). rudof (``claimgraph.quality.shex_rudof``) says
which focus nodes conform; pyshex, the reference, re-checks the others and its
failure traces are reduced to one line by ``claimgraph.quality.reasons``.

No shape catches a node that has no shape to be checked against, so a paper
graph's subjects without any rdf:type, or typed only with classes from outside
the profile, are reported here as failures of their own.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, cast

from pyoxigraph import BlankNode, Literal, NamedNode, Triple

from claimgraph.errors import ProfileError
from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import ontology_classes
from claimgraph.profile.schema import Cardinality, load_schema, triple_constraints
from claimgraph.quality.reasons import clean_reason
from claimgraph.quality.rules import Rule, profile_rules
from claimgraph.quality.shex_rudof import conforming_pairs, rudof_available
from claimgraph.rdf.vocab import CG, PREFIXES, RDF, XSD, short_iri

if TYPE_CHECKING:
    import rdflib
    from ShExJSG import ShExJ

ResultRow = tuple[str, bool, str | None, bool, str]  # focus, focus is blank, shape, passed, reason


@dataclass(frozen=True)
class CompiledProfile:
    """What validation needs from a profile, parsed once."""

    name: str
    schema: ShExJ.Schema
    shape_of_class: dict[str, str]
    cardinality: dict[tuple[str, str], Cardinality]
    rules: tuple[Rule, ...]
    shex_texts: tuple[str, ...] = ()


@cache
def compile_profile(profile: Profile) -> CompiledProfile:
    schema = load_schema(profile.shex_files)
    return CompiledProfile(
        name=profile.name,
        schema=schema,
        shape_of_class=_shape_map(profile, schema),
        cardinality=_cardinalities(schema),
        rules=profile_rules(profile),
        shex_texts=tuple(path.read_text(encoding="utf-8") for path in profile.shex_files),
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




@dataclass
class GraphInput:
    """One graph to check: its triples, whether it is a paper graph, and its N-Triples text when at hand."""

    triples: list[Triple]
    paper_graph: bool = True
    text: str | None = None
    rows: list[ResultRow] = field(default_factory=list)
    foci: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))


def shape_results(triples: list[Triple], compiled: CompiledProfile, paper_graph: bool = True, engine: str = "auto",
                  text: str | None = None) -> list[ResultRow]:
    """Every typed subject checked against the shape of its class; in a paper graph, untyped and foreign-typed subjects too.

    ``engine`` "auto" lets rudof sort the nodes when it is installed (pyshex
    re-checks and words each rejected one); "pyshex" checks every node with
    pyshex alone. ``text``: the same triples as N-Triples, if at hand.
    """
    return shape_results_batch([GraphInput(triples, paper_graph, text)], compiled, engine)[0]


def shape_results_batch(graphs: list[GraphInput], compiled: CompiledProfile, engine: str = "auto") -> list[list[ResultRow]]:
    """``shape_results`` of several graphs; rudof checks graphs that share no node in one session (fewer, larger calls)."""
    for graph in graphs:
        _sort_subjects(graph, compiled)
    verdicts: dict[tuple[str, str], bool] = {}
    if engine != "pyshex" and compiled.shex_texts and any(graph.foci for graph in graphs) and rudof_available():
        for group in _independent_groups([graph for graph in graphs if graph.foci]):
            classes = {cls for graph in group for cls, shape in compiled.shape_of_class.items() if shape in graph.foci}
            triples = [triple for graph in group for triple in graph.triples]
            texts = [graph.text for graph in group]
            text = "".join(item for item in texts if item is not None) if None not in texts else None
            verdicts.update(conforming_pairs(triples, compiled.shex_texts, compiled.shape_of_class, classes, text))
    results = []
    for graph in graphs:
        rejected: dict[str, list[str]] = defaultdict(list)
        for shape, nodes in graph.foci.items():
            for node in dict.fromkeys(nodes):
                if verdicts.get((node, shape), False):
                    graph.rows.append((node, False, shape, True, ""))
                else:
                    rejected[shape].append(node)
        graph.rows.extend(_pyshex_rows(graph.triples, compiled, rejected))
        results.append(graph.rows)
    return results


def _sort_subjects(graph: GraphInput, compiled: CompiledProfile) -> None:
    """Fill the graph's focus nodes per shape, and its rows for subjects no shape can check."""
    types: dict[NamedNode | BlankNode, list[str]] = defaultdict(list)
    rdf_type = RDF.type
    for triple in graph.triples:
        if triple.predicate == rdf_type and isinstance(triple.object, NamedNode) and isinstance(triple.subject, (NamedNode, BlankNode)):
            types[triple.subject].append(triple.object.value)
    for subject, classes in types.items():
        for cls in classes:
            shape = compiled.shape_of_class.get(cls)
            if shape is None:
                if cls.startswith(CG.iri):
                    reason = f"rdf:type {short_iri(cls)}: no shape for this class in profile {compiled.name}"
                    graph.rows.append((subject.value, isinstance(subject, BlankNode), None, False, reason))
            elif isinstance(subject, BlankNode):
                graph.rows.append((subject.value, True, shape, False, "blank node: claimgraph nodes need IRIs"))
            else:
                graph.foci[shape].append(subject.value)
    if graph.paper_graph:
        graph.rows.extend(_unchecked_nodes(graph.triples, types, compiled))


def _independent_groups(graphs: list[GraphInput]) -> list[list[GraphInput]]:
    """The graphs that can share one rudof session (no blank node, no subject or referenced node of another graph), then the rest alone.

    Validated together, a node of one graph would see another graph's triples
    about a node both mention; paper-scoped IRIs make that rare, and such
    graphs are checked alone.
    """
    subjects = [{cast(NamedNode | BlankNode, triple.subject).value for triple in graph.triples} for graph in graphs]
    objects = [{triple.object.value for triple in graph.triples if isinstance(triple.object, NamedNode)} for graph in graphs]
    owners: dict[str, list[int]] = defaultdict(list)
    for index, names in enumerate(subjects):
        for name in names:
            owners[name].append(index)
    clash = {index for index, graph in enumerate(graphs)
             if any(isinstance(triple.subject, BlankNode) or isinstance(triple.object, BlankNode) for triple in graph.triples)}
    for index, names in enumerate(subjects):
        for name in names | objects[index]:
            others = owners.get(name, ())
            if any(other != index for other in others):
                clash.add(index)
                clash.update(others)
    together = [graph for index, graph in enumerate(graphs) if index not in clash]
    return ([together] if together else []) + [[graph] for index, graph in enumerate(graphs) if index in clash]


def _unchecked_nodes(triples: list[Triple], types: dict[NamedNode | BlankNode, list[str]], compiled: CompiledProfile) -> list[ResultRow]:
    """Subjects no shape looks at: no rdf:type at all, or only classes from outside the profile's namespace."""
    predicates: dict[NamedNode | BlankNode, set[str]] = defaultdict(set)
    for triple in triples:
        if triple.subject not in types and isinstance(triple.subject, (NamedNode, BlankNode)):
            predicates[triple.subject].add(short_iri(triple.predicate.value))
    rows: list[ResultRow] = []
    for subject, names in predicates.items():
        shown = ", ".join(sorted(names)[:4]) + (" ..." if len(names) > 4 else "")
        rows.append((subject.value, isinstance(subject, BlankNode), None, False, f"no rdf:type, so no shape checks it (it has {shown})"))
    for subject, classes in types.items():
        if not any(cls in compiled.shape_of_class or cls.startswith(CG.iri) for cls in classes):
            shown = ", ".join(sorted(short_iri(cls) for cls in classes))
            reason = f"rdf:type {shown}: only classes from outside profile {compiled.name}, so no shape checks it"
            rows.append((subject.value, isinstance(subject, BlankNode), None, False, reason))
    return rows


def _pyshex_rows(triples: list[Triple], compiled: CompiledProfile, foci: dict[str, list[str]]) -> list[ResultRow]:
    """pyshex's verdict, and its reason in one line, for each focus node given."""
    from pyshex import ShExEvaluator

    rows: list[ResultRow] = []
    if not any(foci.values()):
        return rows
    graph = to_rdflib(triples)
    for shape, nodes in foci.items():
        if not nodes:
            continue
        evaluator = ShExEvaluator(rdf=graph, schema=compiled.schema, focus=nodes, start=shape)
        for result in evaluator.evaluate():
            reason = "" if result.result else clean_reason(result.reason or "", graph, compiled, shape)
            rows.append((str(result.focus), False, shape, bool(result.result), reason))
    return rows


def to_rdflib(triples: Iterable[Triple]) -> rdflib.Graph:
    """pyoxigraph triples as an rdflib Graph (IRI terms are interned: papers repeat them a lot)."""
    import rdflib

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
            return rdflib.Literal(term.value, datatype=iris.get(term.datatype.value) or rdflib.URIRef(term.datatype.value))
        raise TypeError(f"unsupported RDF term {term!r}")

    # rdflib logs a warning with a traceback for each ill-typed literal ("high"^^xsd:decimal); the shapes report those.
    term_logger = logging.getLogger("rdflib.term")
    level = term_logger.level
    term_logger.setLevel(logging.ERROR)
    try:
        for triple in triples:
            graph.add((convert(triple.subject), convert(triple.predicate), convert(triple.object)))
    finally:
        term_logger.setLevel(level)
    return graph
