"""Validate paper graphs against a profile: ShEx shapes per node, then the profile's SPARQL gate rules.

Each named graph is read once from the store into an rdflib Graph. Every subject
typed with a class that has a shape is a focus node; the class -> shape map
follows the ``<Class>Shape`` naming convention of the schema (overridable in the
profile's ``[shapes]`` table). pyshex is called once per shape with all of that
shape's focus nodes, and its multi-line failure trace is reduced to one line.
"""

from __future__ import annotations

import multiprocessing
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pyoxigraph
import rdflib
from pyoxigraph import BlankNode, Literal, NamedNode, Quad, RdfFormat, Triple
from pyshex import ShExEvaluator
from ShExJSG import ShExJ

from claimgraph.errors import ProfileError
from claimgraph.profile.manifest import Profile, load_profile
from claimgraph.profile.ontology import ontology_classes
from claimgraph.profile.vocabulary import load_vocabulary
from claimgraph.profile.schema import load_schema, triple_constraints
from claimgraph.rdf.binding import Term
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_sparql_file
from claimgraph.rdf.vocab import CG, PREFIXES, RDF, XSD
from claimgraph.store import Store, ntriples

Cardinality = tuple[int, int]  # max -1: unbounded


@dataclass(frozen=True)
class ShapeResult:
    """One focus node checked against one shape; ``reason`` is empty when it passed."""

    graph: NamedNode
    focus: NamedNode | BlankNode
    shape: NamedNode | None
    passed: bool
    reason: str = ""


@dataclass(frozen=True)
class RuleViolation:
    """One row of a gate rule; ``residual`` is the typed residual label the rule maps to, if any."""

    graph: NamedNode
    rule: str
    focus: Term
    reason: str
    residual: str | None = None


@dataclass
class GraphReport:
    graph: NamedNode
    results: list[ShapeResult] = field(default_factory=list)
    violations: list[RuleViolation] = field(default_factory=list)

    @property
    def nodes_validated(self) -> int:
        return len({result.focus for result in self.results})

    @property
    def nodes_failed(self) -> int:
        return len({result.focus for result in self.results if not result.passed})

    @property
    def failures(self) -> list[ShapeResult]:
        return [result for result in self.results if not result.passed]

    @property
    def conforms(self) -> bool:
        return not self.violations and all(result.passed for result in self.results)


@dataclass
class ValidationReport:
    profile: str
    graphs: list[GraphReport] = field(default_factory=list)

    @property
    def results(self) -> list[ShapeResult]:
        return [result for graph in self.graphs for result in graph.results]

    @property
    def failures(self) -> list[ShapeResult]:
        return [result for graph in self.graphs for result in graph.failures]

    @property
    def violations(self) -> list[RuleViolation]:
        return [violation for graph in self.graphs for violation in graph.violations]

    @property
    def nodes_validated(self) -> int:
        return sum(graph.nodes_validated for graph in self.graphs)

    @property
    def nodes_failed(self) -> int:
        return sum(graph.nodes_failed for graph in self.graphs)

    @property
    def conforms(self) -> bool:
        return all(graph.conforms for graph in self.graphs)

    def lines(self) -> Iterator[str]:
        """One line per shape failure and rule violation."""
        for graph in self.graphs:
            for result in graph.failures:
                shape = _short(result.shape.value) if result.shape else "(no shape)"
                yield f"{graph.graph.value} {result.focus} {shape}: {result.reason}"
            for violation in graph.violations:
                yield f"{graph.graph.value} {violation.focus} rule {violation.rule}: {violation.reason}"


# ---------------------------------------------------------------- compiled profile


@dataclass(frozen=True)
class Rule:
    name: str
    text: str
    residual: str | None


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
        rules=tuple(_load_rule(path) for path in profile.rule_files),
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


def _load_rule(path: Path) -> Rule:
    text = read_sparql_file(path)
    match = re.search(r"^#\s*residual:\s*(\S+)", text, re.MULTILINE)
    residual = match.group(1) if match and match.group(1) != "none" else None
    return Rule(path.stem, text, residual)


# ---------------------------------------------------------------- validation


def validate_graph(store: Store, graph_iri: NamedNode, profile: Profile | str = "discourse", iris: IriScheme | None = None) -> ValidationReport:
    """Validate one named graph: shapes on every typed node, then the profile's gate rules."""
    return _validate_graphs(store, [graph_iri], _profile(profile), 1, iris or IriScheme())


def validate_store(
    store: Store,
    profile: Profile | str = "discourse",
    paper_ids: Iterable[str] | None = None,
    iris: IriScheme | None = None,
    workers: int | None = None,
) -> ValidationReport:
    """Validate the given papers' graphs, or every paper graph (not raw/audit) and the canonical graph.

    Shapes run in ``workers`` processes (default: one per CPU) since pyshex is
    pure Python; the store is only read in this process.
    """
    iris = iris or IriScheme()
    if paper_ids is not None:
        graphs = [iris.paper(paper_id) for paper_id in paper_ids]
    else:
        canonical = iris.canonical_graph()
        graphs = [graph for graph in store.graph_names() if graph == canonical or _is_paper_graph(graph, iris)]
    return _validate_graphs(store, graphs, _profile(profile), workers or os.cpu_count() or 1, iris)


def _profile(profile: Profile | str) -> Profile:
    return load_profile(profile) if isinstance(profile, str) else profile


def _is_paper_graph(graph: NamedNode, iris: IriScheme) -> bool:
    paper_id = iris.paper_id_of(graph)
    return paper_id is not None and graph == iris.paper(paper_id)


def _validate_graphs(store: Store, graphs: list[NamedNode], profile: Profile, workers: int, iris: IriScheme) -> ValidationReport:
    compiled = compile_profile(profile)
    vocabulary = load_vocabulary(store, iris, profile)
    report = ValidationReport(compiled.name)
    if workers > 1 and len(graphs) > 1 and "fork" in multiprocessing.get_all_start_methods():
        # fork: workers inherit the compiled profile; batches bound the memory held as N-Triples.
        with multiprocessing.get_context("fork").Pool(min(workers, len(graphs))) as pool:
            for start in range(0, len(graphs), 8 * workers):
                batch = graphs[start:start + 8 * workers]
                jobs = [(profile, graph.value, ntriples(store.triples(graph)).encode("utf-8")) for graph in batch]
                for graph, results in zip(batch, pool.imap(_shape_job, jobs)):
                    report.graphs.append(GraphReport(graph, [_result(graph, *row) for row in results]))
    else:
        for graph in graphs:
            rows = shape_results(store.triples(graph), compiled)
            report.graphs.append(GraphReport(graph, [_result(graph, *row) for row in rows]))
    for graph_report in report.graphs:
        graph_report.violations.extend(rule_violations(store, graph_report.graph, compiled, vocabulary))
    return report


ResultRow = tuple[str, bool, str | None, bool, str]  # focus, focus is blank, shape, passed, reason


def _result(graph: NamedNode, focus: str, blank: bool, shape: str | None, passed: bool, reason: str) -> ShapeResult:
    node = BlankNode(focus) if blank else NamedNode(focus)
    return ShapeResult(graph, node, NamedNode(shape) if shape else None, passed, reason)


def _shape_job(job: tuple[Profile, str, bytes]) -> list[ResultRow]:
    profile, _, body = job
    triples = [quad.triple if isinstance(quad, Quad) else quad for quad in pyoxigraph.parse(body, format=RdfFormat.N_TRIPLES)]
    return shape_results(triples, compile_profile(profile))


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
                reason = f"rdf:type {_short(triple.object.value)}: no shape for this class in profile {compiled.name}"
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


def rule_violations(store: Store, graph: NamedNode, compiled: CompiledProfile, vocabulary: NamedNode) -> list[RuleViolation]:
    """The rows of the profile's gate rules for one graph (``vocabulary``: the profile vocabulary graph)."""
    violations = []
    for rule in compiled.rules:
        for row in store.select(rule.text, {"graph": graph, "vocabulary": vocabulary}):
            residual = row.get("residual")
            violations.append(RuleViolation(
                graph, rule.name, row["focus"], _value(row.get("reason")) or rule.name,
                _value(residual) if residual is not None else rule.residual,
            ))
    return violations


def _value(term: Term | None) -> str:
    return "" if term is None else term.value if isinstance(term, (Literal, NamedNode)) else str(term)


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


# ---------------------------------------------------------------- readable reasons

_TESTING = re.compile(r"^\s*Testing (\S+) against shape (\S+)\s*$")
_TRIPLE = re.compile(r"^\s*(\S+) (\S+) (.+?) \.\s*$")


def _short(iri: str) -> str:
    """An IRI as a CURIE when a known prefix fits, else its shape-local name or <iri>."""
    iri = iri.strip("<>")
    for prefix, namespace in PREFIXES.items():
        if iri.startswith(namespace):
            return f"{prefix}:{iri[len(namespace):]}"
    if "/shapes/" in iri and "#" in iri:
        return iri.rsplit("#", 1)[1]
    return f"<{iri}>"


def _expand(curie: str) -> str:
    curie = curie.strip("<>")
    prefix, _, local = curie.partition(":")
    return PREFIXES[prefix] + local if prefix in PREFIXES and not local.startswith("//") else curie


def _expected(cardinality: Cardinality | None) -> str:
    if cardinality is None:
        return "a different number"
    low, high = cardinality
    if low == high:
        return f"exactly {low}"
    if high == -1:
        return f"at least {low}" if low else "any number"
    return f"at most {high}" if low == 0 else f"{low} to {high}"


def clean_reason(raw: str, graph: rdflib.Graph, compiled: CompiledProfile, shape: str) -> str:
    """pyshex's failure trace as one line, e.g. ``cg:arg1: expected exactly 1, found 0``.

    A failure inside a referenced node is reported from the focus node's side:
    ``cg:arg1 <iri>: not a valid FactorShape (rdf:type: expected exactly 1, found 0)``.
    """
    lines = [line for line in raw.splitlines() if line.strip()]
    tested = [match.groups() for match in map(_TESTING.match, lines) if match]
    detail = [line.strip() for line in lines if not _TESTING.match(line)]
    focus, _ = tested[0] if tested else ("", shape)
    nested = [(node, inner_shape) for node, inner_shape in tested if node != focus]
    if not nested:
        return _describe(detail, graph, compiled, shape, focus) or " ".join(detail)[:300]
    node, inner_shape = nested[-1]
    inner = _describe(detail, graph, compiled, inner_shape, node) or " ".join(detail)[:200]
    link = _link(graph, focus, node)
    return f"{link} {_node_text(node)}: not a valid {_short(inner_shape)} ({inner})"


def _node_text(n3: str) -> str:
    return n3 if n3.startswith(("<", '"', "_:")) else f"<{_expand(n3)}>"


def _link(graph: rdflib.Graph, focus: str, node: str) -> str:
    """The predicate that leads from the focus to a referenced node (as the reason's subject)."""
    subject = graph.namespace_manager.expand_curie(focus) if ":" in focus and not focus.startswith("<") else rdflib.URIRef(focus.strip("<>"))
    target = graph.namespace_manager.expand_curie(node) if ":" in node and not node.startswith("<") else rdflib.URIRef(node.strip("<>"))
    for predicate in graph.predicates(subject, target):
        return _short(str(predicate))
    return "reference"


def _describe(detail: list[str], graph: rdflib.Graph, compiled: CompiledProfile, shape: str, node: str) -> str:
    text = "\n".join(detail)
    shape_iri = _expand(shape)

    def expected(predicate: str) -> str:
        return _expected(compiled.cardinality.get((shape_iri, _expand(predicate))))

    if match := re.search(r"String length violation - minimum: (\d+) actual: (\d+)", text):
        predicate = _predicate_of(graph, node, lambda o: isinstance(o, rdflib.Literal) and len(str(o)) == int(match.group(2)))
        return f"{predicate}: text shorter than {match.group(1)} character{'s' if match.group(1) != '1' else ''}"
    if match := re.search(r"Numeric value volation - (minimum|maximum) (inclusive|exclusive): (\S+) actual: (\S+)", text):
        bound, _, limit, actual = match.groups()
        predicate = _predicate_of(graph, node, lambda o: isinstance(o, rdflib.Literal) and str(o) == actual)
        side = "below the minimum" if bound == "minimum" else "above the maximum"
        return f"{predicate}: {actual} is {side} {limit}"
    if match := re.search(r"Datatype mismatch - expected: (\S+) actual: (\S+)", text):
        expected_type, actual_type = match.groups()
        predicate = _predicate_of(graph, node, lambda o: isinstance(o, rdflib.Literal) and str(o.datatype or XSD.string.value) == actual_type.strip("<>"))
        return f"{predicate}: expected {_short(expected_type)}, found {_short(actual_type)}"
    if match := re.search(r"Datatype constraint \((\S+)\)", text):
        return f"value is not a valid {_short(match.group(1))}"
    if match := re.search(r"Node: (\S+) not in value set", text):
        value = match.group(1)
        predicate = _predicate_of(graph, node, lambda o: o.n3(graph.namespace_manager) == value or str(o) == value.strip('"<>'))
        shown = _short(_expand(value)) if not value.startswith('"') else value
        return f"{predicate}: {shown} is not one of the allowed values"
    if match := re.search(r"Node kind mismatch have: (\S+) expected: (\S+)", text):
        return f"value is a {match.group(1)}, expected {match.group(2).removeprefix('nodeKind.').lower()}"
    if match := re.search(r"No matching triples found for predicate (\S+)", text):
        predicate = _short(_expand(match.group(1)))
        return f"{predicate}: expected {expected(predicate)}, found 0"
    if match := re.search(r"(\d+) triples (?:exceeds max|less than) ", text):
        predicate = _first_triple_predicate(detail)
        return f"{predicate}: expected {expected(predicate)}, found {match.group(1)}"
    if "Unmatched triples in CLOSED shape" in text:
        predicates = sorted({_short(_expand(m.group(2))) for m in map(_TRIPLE.match, detail) if m})
        return f"{', '.join(predicates)}: not allowed on {_short(shape_iri).removesuffix('Shape')} (closed shape)"
    if match := re.search(r"(\d+) triples cannot be partitioned", text):
        return f"{_first_triple_predicate(detail)}: the values do not fit the shape's groups"
    return ""


def _first_triple_predicate(detail: list[str]) -> str:
    for line in detail:
        match = _TRIPLE.match(line)
        if match:
            return _short(_expand(match.group(2)))
    return "(property)"


def _predicate_of(graph: rdflib.Graph, node: str, test: object) -> str:
    """The predicate of the node's first value that passes ``test`` (pyshex does not name it)."""
    try:
        subject = graph.namespace_manager.expand_curie(node) if not node.startswith("<") else rdflib.URIRef(node.strip("<>"))
    except ValueError:
        return "(property)"
    for predicate, value in sorted(graph.predicate_objects(subject)):
        if test(value):  # type: ignore[operator]
            return _short(str(predicate))
    return "(property)"
