"""Expected verdicts of reasoning responses, computed from what the generator wrote (never by running claimgraph).

The generator describes each response as declarations: ``NodeDecl`` (an id it
declares, the text and source tuple it means, whether that tuple names
something in the paper, whether the response marks it as root) and
``EdgeDecl`` (the ends as written, the canonical label or None for a label
outside the vocabulary and its aliases). ``graph_verdict`` applies the
documented repairs to them and the structural rules to the result; the rules
and the residual names are documented in ``claimgraph.testing.reasoning_cases.cases``.

A ``Verdict`` holds the residuals a response must produce and those it may
produce in addition (``tolerated``): a pipeline's residual set R matches when
``residuals <= R <= residuals | tolerated``. Accept is an empty ``residuals``
with nothing tolerated; a case never ends ``ambiguous`` (nothing required, something tolerated).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from claimgraph.testing.reasoning_cases.graphs import FAMILIES, LABEL_FAMILY, CleanEdge, CleanGraph, CleanNode, ReasoningCorpusError, Source

RESIDUALS = (
    "parse_failed",
    "truncated_response",
    "malformed_response",
    "no_edges",
    "isolated_nodes",
    "unknown_label",
    "mixed_family_unit",
    "unit_cardinality",
    "single_edge_unit",
    "cycle",
    "no_root",
    "root_orientation",
    "unresolved_source",
    "dangling_edge",
)
SURFACE = frozenset({"parse_failed", "truncated_response", "malformed_response"})
ANY_GRAPH_RESIDUAL = frozenset(RESIDUALS) - SURFACE


@dataclass(frozen=True)
class NodeDecl:
    id: str
    text: str
    source: Source
    resolves: bool = True
    marked_root: bool = False


@dataclass(frozen=True)
class EdgeDecl:
    source: str
    target: str
    label: str | None


@dataclass(frozen=True)
class Verdict:
    residuals: frozenset[str] = frozenset()
    tolerated: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        unknown = (self.residuals | self.tolerated) - set(RESIDUALS)
        if unknown:
            raise ReasoningCorpusError(f"verdict names residuals outside the documented list: {sorted(unknown)}")
        object.__setattr__(self, "tolerated", self.tolerated - self.residuals)

    @property
    def accept(self) -> bool:
        return not self.residuals

    @property
    def ambiguous(self) -> bool:
        """Nothing required but something tolerated: neither accept nor a residual; no case may end so."""
        return not self.residuals and bool(self.tolerated)

    def admits(self, produced: Iterable[str]) -> bool:
        """Whether a pipeline that produced these residuals (empty: accepted) gave this verdict."""
        found = set(produced)
        return self.residuals <= found <= self.residuals | self.tolerated

    def adding(self, required: Iterable[str] = (), tolerated: Iterable[str] = ()) -> Verdict:
        required = frozenset(required)
        return Verdict(self.residuals | required, (self.tolerated | frozenset(tolerated)) - required)

    def relaxing(self, names: Iterable[str]) -> Verdict:
        """The same verdict with ``names`` moved from required to tolerated."""
        names = frozenset(names)
        return Verdict(self.residuals - names, self.tolerated | (self.residuals & names))

    def to_json(self) -> dict[str, object]:
        return {"verdict": "accept" if self.accept else "residual", "residuals": sorted(self.residuals), "tolerated": sorted(self.tolerated)}


ACCEPT = Verdict()


def either(readings: Sequence[Verdict]) -> Verdict:
    """Two or more equally valid readings of a response: what all require is required, the rest tolerated."""
    required = frozenset.intersection(*(reading.residuals for reading in readings))
    everything = frozenset.union(*(reading.residuals | reading.tolerated for reading in readings))
    return Verdict(required, everything - required)


def fold(text: str) -> str:
    """Text as merge_duplicate_nodes compares it: lower case, white space collapsed."""
    return " ".join(text.lower().split())


@dataclass(frozen=True)
class Repaired:
    """The graph the documented repairs leave: merged nodes and the edges between them."""

    nodes: tuple[NodeDecl, ...]
    edges: tuple[EdgeDecl, ...]
    stated: frozenset[str]  # residuals about what the response stated (dangling ids, labels, anchors)
    marked: frozenset[str]

    def to_graph(self) -> CleanGraph:
        """As a CleanGraph (only meaningful when every label is canonical and there is one terminal)."""
        sources = {edge.source for edge in self.edges}
        roots = [node.id for node in self.nodes if node.id not in sources]
        nodes = tuple(CleanNode(node.id, node.text, node.source) for node in self.nodes)
        edges = tuple(CleanEdge(edge.source, edge.label or "", edge.target) for edge in self.edges)
        return CleanGraph(nodes, edges, roots[0] if len(roots) == 1 else "")


def repair(nodes: Sequence[NodeDecl], edges: Sequence[EdgeDecl]) -> Repaired:
    """Drop dangling edges and self-loops, merge nodes of equal folded text into the smallest id, collapse copies."""
    declared: dict[str, NodeDecl] = {}
    for node in nodes:
        declared[node.id] = node
    stated = set()
    if any(not node.resolves for node in declared.values()):
        stated.add("unresolved_source")
    if any(edge.source not in declared or edge.target not in declared for edge in edges):
        stated.add("dangling_edge")
    if any(edge.label is None for edge in edges):
        stated.add("unknown_label")
    survivor: dict[str, str] = {}
    first: dict[str, str] = {}
    for node_id in sorted(declared):
        survivor[node_id] = first.setdefault(fold(declared[node_id].text), node_id)
    kept: dict[tuple[str, str, str | None], EdgeDecl] = {}
    for edge in edges:
        if edge.source in declared and edge.target in declared:
            source, target = survivor[edge.source], survivor[edge.target]
            if source != target:
                kept.setdefault((source, target, edge.label), EdgeDecl(source, target, edge.label))
    merged = tuple(node for node in declared.values() if survivor[node.id] == node.id)
    marked = frozenset(survivor[node.id] for node in declared.values() if node.marked_root)
    return Repaired(merged, tuple(kept.values()), frozenset(stated), marked)


def _has_cycle(node_ids: Iterable[str], edges: Sequence[EdgeDecl]) -> bool:
    following: dict[str, list[str]] = {}
    for edge in edges:
        following.setdefault(edge.source, []).append(edge.target)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in node_ids:
        stack = [(start, iter(following.get(start, [])))]
        if state.get(start):
            continue
        state[start] = 1
        while stack:
            node, successors = stack[-1]
            step = next(successors, None)
            if step is None:
                state[node] = 2
                stack.pop()
            elif state.get(step) == 1:
                return True
            elif not state.get(step):
                state[step] = 1
                stack.append((step, iter(following.get(step, []))))
    return False


def _unit_residuals(edges: Sequence[EdgeDecl], count_unknown: bool) -> set[str]:
    """mixed_family_unit, single_edge_unit, unit_cardinality per target; with ``count_unknown`` an
    unknown-label edge is an incoming edge of no role (its unit is incomplete), else it is not there."""
    units: dict[str, list[str | None]] = {}
    for edge in edges:
        if edge.label is not None or count_unknown:
            units.setdefault(edge.target, []).append(edge.label)
    found = set()
    for labels in units.values():
        families = {LABEL_FAMILY[label] for label in labels if label is not None}
        if len(families) > 1:
            found.add("mixed_family_unit")
            continue
        first, second = FAMILIES[families.pop()] if families else ("", "")
        at_least = second == "induction-case"
        complete = None not in labels and labels.count(first) == 1 and (labels.count(second) >= 1 if at_least else labels.count(second) == 1)
        if not complete:
            found.add("single_edge_unit" if len(labels) == 1 else "unit_cardinality")
    return found


def _shape(graph: Repaired, count_unknown: bool) -> Verdict:
    """The structural rules on the repaired graph; unknown-label edges count as plain edges or not at all."""
    node_ids = [node.id for node in graph.nodes]
    linked = [edge for edge in graph.edges if edge.label is not None or count_unknown]
    canonical = [edge for edge in graph.edges if edge.label is not None]
    if not linked:
        return Verdict(frozenset({"no_edges"}), frozenset({"isolated_nodes"}))
    found = _unit_residuals(linked, count_unknown)
    touched = {end for edge in linked for end in (edge.source, edge.target)}
    if set(node_ids) - touched:
        found.add("isolated_nodes")
    if _has_cycle(node_ids, canonical):
        found.add("cycle")
    sources = {edge.source for edge in linked}
    if not set(node_ids) - sources:
        found.add("no_root")
    if graph.marked & sources:
        found.add("root_orientation")
    return Verdict(frozenset(found))


def graph_verdict(nodes: Sequence[NodeDecl], edges: Sequence[EdgeDecl]) -> Verdict:
    """The verdict of a complete, well-formed response stating these declarations (see the module docstring)."""
    graph = repair(nodes, edges)
    if not graph.nodes and not edges:
        return Verdict(frozenset({"parse_failed"}))
    if not graph.nodes:
        return Verdict(frozenset({"dangling_edge"}), frozenset({"no_edges", "parse_failed"}))
    readings = [_shape(graph, count_unknown) for count_unknown in ((False, True) if "unknown_label" in graph.stated else (False,))]
    return either(readings).adding(graph.stated)
