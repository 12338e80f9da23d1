"""A parsed response as RDF for its paper: reasoning nodes, edges as stated, anchors, the paper's input residuals.

Node IRIs are ``<paper>/node/<id>`` (ids that are not IRI-safe are hashed), so
the same response always gives the same graph. A node keeps what its label
states (text, source tuple as read, and the tuple as written in
``cg:statedSource`` when it was read otherwise, stated role, root mark) and the order it was declared in (``cg:statedOrder``); its anchor
becomes ``prov:wasDerivedFrom``. Edges keep the label as stated (raw labels are
canonicalized by repair) or, unlabelled, their premise's stated role.
``context`` holds the paper structure each anchor is (type, tuple or index,
citation), for the working copy repair and the gate measures run on.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.papers.annotations import edge_annotation_triples
from claimgraph.papers.document_graph import integer, source_tuple_triples
from claimgraph.profile.manifest import Profile
from claimgraph.profile.vocabulary import edge_predicate
from claimgraph.quality.reports import RuleViolation
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, PROV, RDF, XSD
from claimgraph.reasoning.anchors import STANDARD, AnchorTable, Resolution, choose_reading, node_reading, reading_summary, resolve, status_counts
from claimgraph.reasoning.findings import response_findings
from claimgraph.reasoning.labels import IMPLICIT, NodeContent, node_content
from claimgraph.reasoning.parsed import ParsedEdge, ParsedGraph

_DECIMAL = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)$")


@dataclass
class Materialized:
    """The RDF of a response and what reading it counted."""

    triples: list[Triple] = field(default_factory=list)
    context: list[Triple] = field(default_factory=list)
    spans: list[Triple] = field(default_factory=list)
    nodes: int = 0
    edges: int = 0
    nodes_without_text: int = 0
    default_sources: int = 0
    conflicting_anchors: int = 0
    reread_tuples: int = 0
    off_profile_roles: Counter[str] = field(default_factory=Counter)
    anchors: Counter[str] = field(default_factory=Counter)
    reading: str = STANDARD
    findings: list[RuleViolation] = field(default_factory=list)

    @property
    def unresolved_sources(self) -> int:
        return self.anchors["unresolved"]


def stated_confidence(text: str) -> Literal:
    """A confidence as stated: xsd:decimal, xsd:double or (not a number) a string; clamp_confidence repairs it."""
    text = text.strip()
    if _DECIMAL.match(text):
        return Literal(text, datatype=XSD.decimal)
    try:
        float(text)
    except ValueError:
        return Literal(text)
    return Literal(text, datatype=XSD.double)


def node_iri(iris: IriScheme, paper_id: str, node_id: str) -> NamedNode:
    return iris.extracted_node(paper_id, node_id)


def reasoning_triples(parsed: ParsedGraph, profile: Profile, iris: IriScheme, paper_id: str, table: AnchorTable) -> Materialized:
    """The nodes and edges of a parsed response as RDF for the paper graph (labels not yet canonicalized)."""
    paper = iris.paper(paper_id)
    result = Materialized()
    contents = {node.id: node_content(profile, node) for node in parsed.nodes.values()}
    admitted = {node_id for node_id, content in contents.items() if content.text}
    result.nodes_without_text = len(contents) - len(admitted)
    majority = choose_reading(table, [source for node_id in admitted if (source := contents[node_id].source) is not None])
    resolutions, readings = [], []
    for node in parsed.nodes.values():
        if node.id in admitted:
            stated = contents[node.id].source or IMPLICIT
            readings.append((stated, node_reading(table, stated, majority)))
            resolution = resolve(table, stated, readings[-1][1])
            resolutions.append(resolution)
            result.triples.extend(node_triples(node_iri(iris, paper_id, node.id), node.order, contents[node.id], resolution, result))
    result.reading = reading_summary(readings)
    result.nodes = len(admitted)
    roles = {node_id: content.role for node_id, content in contents.items() if content.role}
    for edge in parsed.edges:
        result.triples.extend(reasoning_edge_triples(profile, iris, paper_id, edge, roles))
    result.edges = len(parsed.edges)
    result.anchors = status_counts(resolutions)
    result.context = list(anchor_context(table, resolutions))
    result.spans = list(span_triples(table, resolutions))
    result.findings = response_findings(parsed, admitted, paper) + _anchor_notes(result, paper)
    result.triples.append(Triple(paper, CG.parserBranch, Literal(parsed.branch)))
    for residual in dict.fromkeys(finding.residual for finding in result.findings if finding.residual):
        result.triples.append(Triple(paper, CG.residual, Literal(residual)))
    return result


def _anchor_notes(result: Materialized, paper: NamedNode) -> list[RuleViolation]:
    notes = []
    if result.conflicting_anchors:
        notes.append(RuleViolation(paper, "input", paper, f"{result.conflicting_anchors} node(s) state two different source tuples; "
                                                          "the explicit one (Source: or a source field) was kept", None, "warning"))
    if result.reading != STANDARD:
        notes.append(RuleViolation(paper, "input", paper, f"{result.reread_tuples} tuple(s) (x, k, 0) read as (x, 0, k), each naming an own "
                                                          f"viewpoint of its sentence (reading {result.reading}); the written tuple is kept "
                                                          "as cg:statedSource", None, "warning"))
    if result.off_profile_roles:
        named = ", ".join(f"{role!r} x{count}" for role, count in result.off_profile_roles.most_common(4))
        notes.append(RuleViolation(paper, "input", paper, f"{sum(result.off_profile_roles.values())} node(s) state a role or type the "
                                                          f"profile does not know, not kept as a role: {named}", None, "warning"))
    return notes


def node_triples(iri: NamedNode, order: int, content: NodeContent, resolution: Resolution, result: Materialized) -> Iterator[Triple]:
    yield Triple(iri, RDF.type, CG.ReasoningNode)
    yield Triple(iri, CG.text, Literal(content.text))
    yield Triple(iri, CG.statedOrder, Literal(str(order), datatype=XSD.integer))
    if content.source is None:
        result.default_sources += 1
    if content.conflicts:
        result.conflicting_anchors += 1
    yield from source_tuple_triples(iri, resolution.source)
    if content.source is not None and resolution.source != content.source:
        result.reread_tuples += 1
        yield Triple(iri, CG.statedSource, Literal(",".join(str(number) for number in content.source)))
    if content.off_profile_role:
        result.off_profile_roles[content.off_profile_role] += 1
    if resolution.anchor is not None:
        yield Triple(iri, PROV.wasDerivedFrom, resolution.anchor)
    if content.role:
        yield Triple(iri, CG.statedRole, Literal(content.role))
    if content.marked_root:
        yield Triple(iri, CG.markedRoot, Literal("true", datatype=XSD.boolean))


def reasoning_edge_triples(profile: Profile, iris: IriScheme, paper_id: str, edge: ParsedEdge, roles: Mapping[str, str]) -> Iterator[Triple]:
    """The edge, labelled as stated (or by its premise's stated role), with an annotation when it has a confidence."""
    source, target = node_iri(iris, paper_id, edge.source), node_iri(iris, paper_id, edge.target)
    label = edge.label or roles.get(edge.source) or ""
    predicate = edge_predicate(profile, label)
    yield Triple(source, predicate, target)
    confidence = edge.attr("confidence")
    if confidence is not None:
        yield from edge_annotation_triples(iris, iris.paper(paper_id), source, predicate, target, stated_confidence(confidence))


def span_triples(table: AnchorTable, resolutions: list[Resolution]) -> Iterator[Triple]:
    """Every sentence and each viewpoint a node resolved to, with its tuple and text: what the grounding audit
    compares the nodes with (sparql/internal/grounding-spans.rq reads exactly these)."""
    for x, sentence in table.sentences.items():
        if sentence in table.texts:
            yield from (Triple(sentence, RDF.type, CG.Sentence), Triple(sentence, CG.index, integer(x)),
                        Triple(sentence, CG.text, Literal(table.texts[sentence])))
    used = {resolution.anchor for resolution in resolutions if resolution.anchor is not None}
    for source, anchor in table.viewpoints.items():
        if anchor in used and anchor in table.texts:
            yield Triple(anchor, RDF.type, CG.Viewpoint)
            yield from source_tuple_triples(anchor, source)
            yield Triple(anchor, CG.text, Literal(table.texts[anchor]))


def anchor_context(table: AnchorTable, resolutions: list[Resolution]) -> Iterator[Triple]:
    """What the store says about the paper's sentences and each anchor used (type and tuple, index or citation),
    copied for the working copy."""
    kinds = {"viewpoint": CG.Viewpoint, "sentence": CG.Sentence, "reference": CG.Reference}
    for x, sentence in table.sentences.items():  # every sentence: the rules check tuples against the paper's sentences
        yield Triple(sentence, RDF.type, CG.Sentence)
        yield Triple(sentence, CG.index, integer(x))
    for resolution in resolutions:
        anchor = resolution.anchor
        if anchor is None:
            continue
        kind = table.kinds[anchor]
        yield Triple(anchor, RDF.type, kinds[kind])
        x, y, z = resolution.source
        if kind == "viewpoint":
            yield from source_tuple_triples(anchor, resolution.source)
        elif kind == "sentence":
            yield Triple(anchor, CG.index, integer(x))
        else:
            citing = table.sentences[x]
            yield Triple(anchor, CG.index, integer(y))
            yield Triple(citing, RDF.type, CG.Sentence)
            yield Triple(citing, CG.index, integer(x))
            yield Triple(citing, CG.cites, anchor)
