"""Peircean reasoning graphs (ARCHE/PEARL) from an LLM response: materialize, store raw, repair, gate.

A response for a paper already in the store (its ARCHE JSON ingested) is parsed
by claimgraph.reasoning.materialize; node labels give the text, the (x, y, z)
source tuple and an optional role prefix; source tuples resolve to the paper's
viewpoints (or sentences) and become ``prov:wasDerivedFrom`` links. The result
replaces the paper's previous reasoning content in both its raw graph and its
paper graph (one atomic update); then the profile's repairs and the gate run.
See docs/peirce.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.papers.annotations import edge_annotation_triples
from claimgraph.papers.audit import Activity, now
from claimgraph.papers.document_graph import source_tuple_triples
from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import canonical_edge_label, edge_label_key
from claimgraph.profile.vocabulary import edge_predicate
from claimgraph.quality.repair import PaperRepair, repair_paper
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_internal_query
from claimgraph.rdf.vocab import CG, PROV, RDF, XSD
from claimgraph.reasoning.materialize import (
    PARSE_FAILED,
    ParsedEdge,
    ParsedGraph,
    ParsedNode,
    materialize,
)
from claimgraph.store import Store

Source = tuple[int, int, int]
IMPLICIT: Source = (0, 0, 0)
ROLE_WORDS = ("root", "conclusion")
TRUE_WORDS = ("true", "1", "yes")

_TUPLE = r"[(\[]\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*(\d+)\s*)?[)\]]"
_SOURCE_LINE = re.compile(rf"^\s*(?:source(?:\s+tuple)?|src|anchor)\s*[:=]\s*{_TUPLE}\s*\.?\s*$", re.IGNORECASE)
_LEADING_TUPLE = re.compile(rf"^\s*{_TUPLE}\s*[:\-–]?\s*")
_TRAILING_TUPLE = re.compile(rf"\s*[-–,;]?\s*(?:\(?\s*source(?:\s+tuple)?\s*[:=]\s*)?{_TUPLE}\s*\)?\s*\.?\s*$", re.IGNORECASE)
_ROLE_PREFIX = re.compile(r"^\s*([A-Za-z][A-Za-z _-]{0,40}?)\s*:\s+")
_DECIMAL = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)$")


class ReasoningError(ClaimgraphError):
    """A reasoning response cannot be stored for a paper (paper missing, unreadable file)."""


@dataclass(frozen=True)
class NodeContent:
    """What a node label states: the text, the source tuple (None when not given) and a role prefix."""

    text: str
    source: Source | None = None
    role: str | None = None


def _tuple(match: re.Match[str]) -> Source:
    """(x, y, z); the legacy two-number form (x, z) is a sentence's own viewpoint: (x, 0, z)."""
    x, second, third = match.group(1), match.group(2), match.group(3)
    return (int(x), int(second), int(third)) if third is not None else (int(x), 0, int(second))


def stated_role(profile: Profile, prefix: str) -> str | None:
    """The role a label prefix names: a canonical edge label (aliases resolved) or root/conclusion."""
    word = edge_label_key(prefix)
    return canonical_edge_label(profile, prefix) or (word if word in ROLE_WORDS else None)


def parse_node_label(profile: Profile, label: str, source_field: str | None = None, role_field: str | None = None) -> NodeContent:
    """Split a node label such as ``(3,1,2) Deduction-rule: text`` or ``text\\nSource: (3,1,2)``."""
    source: Source | None = None
    lines = []
    for line in label.splitlines():
        match = _SOURCE_LINE.match(line)
        if match:
            source = source or _tuple(match)
        else:
            lines.append(line)
    text = " ".join(" ".join(lines).split())
    role = stated_role(profile, role_field) if role_field else None
    for _ in range(2):  # a tuple before or after the role prefix
        match = _LEADING_TUPLE.match(text)
        if match:
            source = source or _tuple(match)
            text = text[match.end():]
        prefix = _ROLE_PREFIX.match(text)
        if prefix and stated_role(profile, prefix.group(1)):
            role = role or stated_role(profile, prefix.group(1))
            text = text[prefix.end():]
    match = _TRAILING_TUPLE.search(text)
    if match and match.start() > 0:
        source = source or _tuple(match)
        text = text[:match.start()]
    if source_field:
        field_match = re.search(_TUPLE, source_field)
        source = (_tuple(field_match) if field_match else None) or source
    return NodeContent(text.strip(), source, role)


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


# ---------------------------------------------------------------- RDF


@dataclass
class Materialized:
    triples: list[Triple] = field(default_factory=list)
    nodes: int = 0
    edges: int = 0
    nodes_without_text: int = 0
    default_sources: int = 0
    unresolved_sources: int = 0


def source_anchors(store: Store, paper: NamedNode) -> dict[Source, NamedNode]:
    """Source tuple -> the paper's viewpoint (or, for (x, 0, 0), sentence) it names."""
    anchors: dict[Source, NamedNode] = {}
    for row in store.select(read_internal_query("source-anchors"), {"graph": paper}):
        key = (int(row["x"].value), int(row["y"].value), int(row["z"].value))
        anchors.setdefault(key, row["anchor"])  # type: ignore[arg-type]
    return anchors


def anchor_of(anchors: Mapping[Source, NamedNode], source: Source) -> NamedNode | None:
    """The viewpoint the tuple names, else its sentence; None for (0, 0, 0) or an unknown sentence."""
    if source == IMPLICIT:
        return None
    return anchors.get(source) or anchors.get((source[0], 0, 0))


def reasoning_triples(parsed: ParsedGraph, profile: Profile, iris: IriScheme, paper_id: str, anchors: Mapping[Source, NamedNode]) -> Materialized:
    """The nodes and edges of a parsed response as RDF for the paper graph (labels not yet canonicalized)."""
    paper = iris.paper(paper_id)
    result = Materialized()
    result.triples.append(Triple(paper, CG.parserBranch, Literal(parsed.branch)))
    if parsed.branch == PARSE_FAILED:
        result.triples.append(Triple(paper, CG.residual, Literal("parse_failed")))
    roles: dict[str, str] = {}
    for node in parsed.nodes.values():
        content = node_content(profile, node)
        if not content.text:
            result.nodes_without_text += 1
            continue
        if content.role:
            roles[node.id] = content.role
        result.triples.extend(node_triples(iris, paper_id, node, content, anchors, result))
        result.nodes += 1
    for edge in parsed.edges:
        result.triples.extend(reasoning_edge_triples(profile, iris, paper_id, edge, roles))
        result.edges += 1
    return result


def node_content(profile: Profile, node: ParsedNode) -> NodeContent:
    attrs = node.attrs
    label = attrs.get("label") or attrs.get("text") or ""
    return parse_node_label(profile, label, attrs.get("source") or attrs.get("tuple"), attrs.get("role") or attrs.get("type"))


def node_iri(iris: IriScheme, paper_id: str, node_id: str) -> NamedNode:
    return iris.extracted_node(paper_id, node_id)


def node_triples(iris: IriScheme, paper_id: str, node: ParsedNode, content: NodeContent, anchors: Mapping[Source, NamedNode], result: Materialized) -> Iterator[Triple]:
    iri = node_iri(iris, paper_id, node.id)
    yield Triple(iri, RDF.type, CG.ReasoningNode)
    yield Triple(iri, CG.text, Literal(content.text))
    if content.source is None:
        result.default_sources += 1
    source = content.source or IMPLICIT
    yield from source_tuple_triples(iri, source)
    anchor = anchor_of(anchors, source)
    if anchor is not None:
        yield Triple(iri, PROV.wasDerivedFrom, anchor)
    elif source != IMPLICIT:
        result.unresolved_sources += 1
    if content.role:
        yield Triple(iri, CG.statedRole, Literal(content.role))
    if node.attrs.get("root", "").lower() in TRUE_WORDS or content.role in ROLE_WORDS:
        yield Triple(iri, CG.isRoot, Literal("true", datatype=XSD.boolean))
    if "confidence" in node.attrs:
        yield Triple(iri, CG.confidence, stated_confidence(node.attrs["confidence"]))


def reasoning_edge_triples(profile: Profile, iris: IriScheme, paper_id: str, edge: ParsedEdge, roles: Mapping[str, str]) -> Iterator[Triple]:
    """The edge, labelled as stated (or by its premise's stated role), with an annotation when it has a confidence."""
    source, target = node_iri(iris, paper_id, edge.source), node_iri(iris, paper_id, edge.target)
    label = edge.label or roles.get(edge.source) or ""
    predicate = edge_predicate(profile, label)
    yield Triple(source, predicate, target)
    confidence = edge.attr("confidence")
    if confidence is not None:
        yield from edge_annotation_triples(iris, iris.paper(paper_id), source, predicate, target, stated_confidence(confidence))


# ---------------------------------------------------------------- storing a response


@dataclass
class ReasoningResult:
    paper_id: str
    parsed: ParsedGraph
    materialized: Materialized
    repair: PaperRepair


def structure_triples(store: Store, paper: NamedNode) -> list[Triple]:
    """The paper graph without reasoning content (reasoning nodes, edge annotations, parser branch, residuals)."""
    triples = store.triples(paper)
    reasoning = {t.subject for t in triples if t.predicate == RDF.type and t.object in (CG.ReasoningNode, CG.EdgeAnnotation)}
    dropped = (CG.parserBranch, CG.residual)
    return [t for t in triples if t.subject not in reasoning and not (t.subject == paper and t.predicate in dropped)]


def store_reasoning(ctx: Context, paper_id: str, response: str, source_name: str) -> ReasoningResult:
    """Materialize a response for a stored paper, store it raw and as the paper graph, then repair and gate it."""
    store, iris = ctx.store, ctx.iris
    paper = iris.paper(paper_id)
    structure = structure_triples(store, paper)
    if not any(t.subject == paper and t.predicate == RDF.type and t.object == CG.Paper for t in structure):
        raise ReasoningError(f"no paper {paper_id!r} in the store at {store.location}; ingest its ARCHE JSON first")
    started = now()
    parsed = materialize(response)
    materialized = reasoning_triples(parsed, ctx.profile, iris, paper_id, source_anchors(store, paper))
    triples = list(dict.fromkeys([*structure, *materialized.triples]))
    store.replace_graphs({paper: triples, iris.raw_graph(paper_id): triples})
    activity = materialize_activity(parsed, materialized, source_name, started)
    return ReasoningResult(paper_id, parsed, materialized, repair_paper(ctx, paper_id, extra=[activity]))


def materialize_activity(parsed: ParsedGraph, materialized: Materialized, source_name: str, started: datetime) -> Activity:
    counts = {
        "nodes_admitted": materialized.nodes,
        "edges_admitted": materialized.edges,
        "nodes_without_text": materialized.nodes_without_text,
        "statements_skipped": parsed.skipped,
        "duplicate_edges_collapsed": parsed.duplicate_edges,
        "default_source_nodes": materialized.default_sources,
        "unresolved_source_nodes": materialized.unresolved_sources,
    }
    notes = {"parser_branch": parsed.branch, "response": Path(source_name).name}
    return Activity("extract", "materialize reasoning response", counts, notes=notes, started=started, ended=now())

