"""A clean reasoning graph as a response model, and the graph-level mutations a test corpus applies to it.

``build_model`` turns a ``CleanGraph`` into ordered declarations (``NodeEntry``
/ ``EdgeEntry``: what is written and what it means) for one surface: format,
DOT style, layout (nodes first, edges first, or unit by unit), how node labels
carry their source tuple and role, how the root is marked. Each mutation below
edits the model and keeps the meaning of every declaration true to what is now
written (an unknown label has ``label=None``, a renamed node is declared under
its new id while edges keep the old one, a bogus tuple has ``resolves=False``),
so ``Model.verdict`` follows from what the generator did. A mutation that
cannot apply to this graph raises ``NotApplicable``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, cast

from claimgraph.loaders.document import Document
from claimgraph.testing.reasoning_cases.graphs import FAMILIES, LABEL_FAMILY, CleanGraph, Source
from claimgraph.testing.reasoning_cases.responses import (
    Draft,
    EdgeEntry,
    Entry,
    NodeEntry,
    SurfaceData,
    dot_draft,
    json_draft,
    plist_draft,
    xml_draft,
)
from claimgraph.testing.reasoning_cases.verdicts import EdgeDecl, NodeDecl, Verdict, graph_verdict


class NotApplicable(Exception):
    """This mutation has nothing to act on in this graph (no eligible node or unit)."""


@dataclass(frozen=True)
class Surface:
    fmt: str = "dot"  # dot, xml, plist, json
    style: str = "strict"  # dot: strict, loose, colon; xml: attrs, children; json: plain, from_to
    layout: str = "nodes_first"  # nodes_first, edges_first, units (dot and xml only)
    tuples: str = "prefix"  # prefix, role, source_line, trailing
    root_mark: str = "none"  # none, attr, prefix
    header: str = "digraph G {"
    arrows: tuple[str, ...] = ("->",)


@dataclass(frozen=True)
class LabelParts:
    """What a node label is made of; ``form`` says how they are put together."""

    text: str
    tuple_text: str
    form: str  # prefix, role, source_line, trailing, conflict_inline, conflict_line
    role: str | None = None

    def render(self) -> str:
        role = f"{self.role}: " if self.role else ""
        if self.form.startswith("conflict"):
            joint = " " if self.form == "conflict_inline" else "\n"
            return f"(0,0,0) {role}{self.text}{joint}Source: {self.tuple_text}"
        if self.form == "source_line":
            return f"{role}{self.text}\nSource: {self.tuple_text}"
        if self.form == "trailing" and not role:
            return f"{self.text} {self.tuple_text}"
        return f"{self.tuple_text} {role}{self.text}"


def tuple_text(source: Source, rng: random.Random) -> str:
    x, y, z = source
    return rng.choice((f"({x},{y},{z})", f"({x}, {y}, {z})", f"[{x},{y},{z}]"))


def role_word(label: str) -> str:
    """A canonical label as a label prefix: ``Deduction-rule``."""
    return label[0].upper() + label[1:]


@dataclass
class Model:
    graph: CleanGraph
    surface: Surface
    entries: list[Entry]
    parts: dict[str, LabelParts] = field(default_factory=dict)

    def nodes(self) -> list[NodeDecl]:
        return [entry.decl for entry in self.entries if isinstance(entry, NodeEntry)]

    def edges(self) -> list[EdgeDecl]:
        return [entry.decl for entry in self.entries if isinstance(entry, EdgeEntry)]

    def verdict(self) -> Verdict:
        return graph_verdict(self.nodes(), self.edges())

    def node_index(self, node_id: str) -> int:
        return next(index for index, entry in enumerate(self.entries) if isinstance(entry, NodeEntry) and entry.decl.id == node_id)

    def edge_indexes(self, node_id: str) -> list[int]:
        return [index for index, entry in enumerate(self.entries)
                if isinstance(entry, EdgeEntry) and node_id in (entry.decl.source, entry.decl.target)]

    def relabel(self, node_id: str, **changes: Any) -> None:
        """Change a node's label parts (text, tuple_text, form, role) and write its label again."""
        parts = replace(self.parts[node_id], **changes)
        self.parts[node_id] = parts
        index = self.node_index(node_id)
        self.entries[index] = replace(self.entries[index], label=parts.render())

    def set_node(self, node_id: str, **changes: Any) -> None:
        index = self.node_index(node_id)
        entry = self.entries[index]
        assert isinstance(entry, NodeEntry)
        self.entries[index] = replace(entry, decl=replace(entry.decl, **changes))

    def add_node(self, rng: random.Random, node_id: str, text: str, source: Source) -> None:
        """A new node written like the others, placed among the node declarations."""
        parts = LabelParts(text, tuple_text(source, rng), "prefix" if self.surface.tuples == "role" else self.surface.tuples)
        self.parts[node_id] = parts
        positions = [index for index, entry in enumerate(self.entries) if isinstance(entry, NodeEntry)]
        self.entries.insert(rng.choice(positions) + 1, NodeEntry(NodeDecl(node_id, text, source), parts.render()))

    def add_edge(self, rng: random.Random, source: str, label: str, target: str) -> None:
        positions = [index for index, entry in enumerate(self.entries) if isinstance(entry, EdgeEntry)]
        self.entries.insert(rng.choice(positions) + 1, EdgeEntry(EdgeDecl(source, target, label), label))

    def free_id(self) -> str:
        taken = {entry.decl.id for entry in self.entries if isinstance(entry, NodeEntry)}
        return next(f"n{number:03d}" for number in range(len(taken), 10000) if f"n{number:03d}" not in taken)

    def draft(self) -> Draft:
        nodes = [entry for entry in self.entries if isinstance(entry, NodeEntry)]
        edges = [entry for entry in self.entries if isinstance(entry, EdgeEntry)]
        surface = self.surface
        if surface.fmt == "dot":
            return dot_draft(self.entries, surface.style, surface.header, surface.arrows)
        if surface.fmt == "xml":
            return xml_draft(self.entries, surface.style == "children")
        if surface.fmt == "plist":
            return plist_draft(nodes, edges)
        return json_draft(nodes, edges, surface.style == "from_to")


def _ordered(graph: CleanGraph, nodes: dict[str, NodeEntry], edges: list[EdgeEntry], layout: str) -> list[Entry]:
    if layout == "nodes_first":
        return [*nodes.values(), *edges]
    if layout == "edges_first":
        return [*edges, *nodes.values()]
    ordered: list[Entry] = [nodes[graph.root]]
    for unit in graph.units().values():
        ordered += [nodes[edge.source] for edge in unit]
        ordered += [entry for entry in edges if entry.decl.target == unit[0].target]
    return ordered


def build_model(graph: CleanGraph, surface: Surface, rng: random.Random, role_name: dict[str, str] | None = None) -> Model:
    """The clean graph as written on this surface; ``role_name`` spells role prefixes (default ``Deduction-rule``)."""
    if surface.fmt in ("plist", "json") and surface.layout != "nodes_first":
        raise NotApplicable(f"{surface.fmt} lists nodes before edges")
    parts: dict[str, LabelParts] = {}
    nodes: dict[str, NodeEntry] = {}
    for node in graph.nodes:
        outgoing = graph.outgoing(node.id)
        is_root = node.id == graph.root
        role = None
        if surface.tuples == "role" and outgoing is not None:
            role = (role_name or {}).get(outgoing.label) or role_word(outgoing.label)
        if is_root and surface.root_mark == "prefix":
            role = rng.choice(("Conclusion", "Root"))
        parts[node.id] = LabelParts(node.text, tuple_text(node.source, rng), surface.tuples, role)
        marked = is_root and surface.root_mark != "none"
        decl = NodeDecl(node.id, node.text, node.source, marked_root=marked)
        nodes[node.id] = NodeEntry(decl, parts[node.id].render(), root_attr=is_root and surface.root_mark == "attr")
    edges = [EdgeEntry(EdgeDecl(edge.source, edge.target, edge.label), edge.label) for edge in graph.edges]
    return Model(graph, surface, _ordered(graph, nodes, edges, surface.layout), parts)


# ---------------------------------------------------------------- label and anchor mutations


def alias_labels(model: Model, rng: random.Random, data: SurfaceData) -> None:
    """Every edge label written as one of its alias spellings (the meaning stays canonical)."""
    for index, entry in enumerate(model.entries):
        if isinstance(entry, EdgeEntry) and entry.decl.label:
            model.entries[index] = replace(entry, label=rng.choice(data.aliases[entry.decl.label]))


def wrong_labels(model: Model, rng: random.Random, labels: tuple[str, ...], every: bool) -> None:
    """Edge labels outside the vocabulary: on every edge, or on one edge chosen so that the units stay whole
    when that edge is not counted (an induction case of a unit with two or more cases) where one exists."""
    edge_indexes = [index for index, entry in enumerate(model.entries) if isinstance(entry, EdgeEntry)]
    if not every:
        units = model.graph.units()
        spare = [index for index in edge_indexes if _spare_case(model, units, model.entries[index])]
        edge_indexes = [rng.choice(spare or edge_indexes)]
    for index in edge_indexes:
        entry = model.entries[index]
        assert isinstance(entry, EdgeEntry)
        model.entries[index] = EdgeEntry(replace(entry.decl, label=None), rng.choice(labels))


def _spare_case(model: Model, units: dict[str, list], entry: Entry) -> bool:
    if not isinstance(entry, EdgeEntry) or entry.decl.label != "induction-case":
        return False
    internal = entry.decl.source in units
    return internal and sum(edge.label == "induction-case" for edge in units[entry.decl.target]) >= 2


def conflicting_anchors(model: Model, rng: random.Random, form: str) -> None:
    """A third of the nodes (at least one) lead with the implicit (0,0,0) and give their real tuple
    after the text (``conflict_inline``/``conflict_line``) or in a JSON ``source`` field (``field``).
    A premise's label names its role (``(0,0,0) Abduction-phenomenon: ...``); the root keeps its own prefix."""
    chosen = rng.sample(list(model.parts), max(1, len(model.parts) // 3))
    for node_id in chosen:
        outgoing = model.graph.outgoing(node_id)
        role = role_word(outgoing.label) if outgoing else model.parts[node_id].role
        if form == "field":
            model.relabel(node_id, form="prefix", tuple_text="(0,0,0)", role=role)
            index = model.node_index(node_id)
            model.entries[index] = replace(cast(NodeEntry, model.entries[index]), source_field=model.graph.node(node_id).source)
        else:
            model.relabel(node_id, form=form, role=role)


def second_slot_tuples(model: Model, rng: random.Random, document: Document) -> None:
    """Nodes anchored at a sentence's own viewpoint (x, 0, k) written as (x, k, 0), where sentence x cites
    no reference k, so that reading has one meaning."""
    eligible = []
    for node in model.graph.nodes:
        x, y, z = node.source
        reference = document.references.get(z)
        if y == 0 and z > 0 and not (reference and x in reference.cited_by):
            eligible.append(node)
    if not eligible:
        raise NotApplicable("no node anchored at a sentence viewpoint whose number is not also a cited reference")
    for node in rng.sample(eligible, max(1, min(len(eligible), 3))):
        x, _, z = node.source
        model.relabel(node.id, tuple_text=f"({x},{z},0)")


def unresolved_anchors(model: Model, rng: random.Random, document: Document, kind: str) -> None:
    """One or two nodes cite a sentence past the paper's last one (``sentence``) or a viewpoint number
    their sentence does not have (``viewpoint``)."""
    last = max(sentence.index for sentence in document.sentences)
    for node in rng.sample(list(model.graph.nodes), min(2, len(model.graph.nodes))):
        x = node.source[0]
        if kind == "sentence":
            bogus = (last + rng.randint(5, 40), 0, 1)
        else:
            own = [viewpoint.viewpoint_index for viewpoint in document.viewpoints if viewpoint.source[:2] == (x, 0)]
            bogus = (x, 0, max(own, default=0) + rng.randint(3, 9))
        model.relabel(node.id, tuple_text=f"({bogus[0]},{bogus[1]},{bogus[2]})")
        model.set_node(node.id, source=bogus, resolves=False)


# ---------------------------------------------------------------- node mutations


def duplicate_node(model: Model, rng: random.Random) -> None:
    """A node declared twice under two ids with the same text (up to case and spacing); the copy carries one
    of the original's edges, so only the recorded merge makes the graph whole again."""
    node = rng.choice(list(model.graph.nodes))
    copy_id = model.free_id()
    text = rng.choice((node.text, node.text.lower(), node.text.replace(" ", "  ", 1)))
    index = model.node_index(node.id)
    original = model.entries[index]
    assert isinstance(original, NodeEntry)
    model.parts[copy_id] = replace(model.parts[node.id], text=text)
    marked = original.decl.marked_root and model.surface.root_mark == "prefix"  # the copied label carries the prefix
    copy = NodeEntry(NodeDecl(copy_id, text, node.source, marked_root=marked), model.parts[copy_id].render())
    model.entries.insert(index + 1, copy)
    edge_index = rng.choice(model.edge_indexes(node.id))
    edge = model.entries[edge_index]
    assert isinstance(edge, EdgeEntry)
    source = copy_id if edge.decl.source == node.id else edge.decl.source
    target = copy_id if edge.decl.target == node.id else edge.decl.target
    model.entries[edge_index] = replace(edge, decl=replace(edge.decl, source=source, target=target))


def renamed_node(model: Model, rng: random.Random) -> None:
    """A node declared under a new id while every edge still names the old one."""
    node = rng.choice(list(model.graph.nodes))
    number = int(node.id[1:])
    taken = {entry.decl.id for entry in model.entries if isinstance(entry, NodeEntry)}
    new_id = next(name for name in rng.sample([f"n{number}", f"N{number:03d}", f"node{number}", f"n{number:03d}_1"], 4) if name not in taken)
    model.set_node(node.id, id=new_id)
    model.parts[new_id] = model.parts.pop(node.id)


def isolated_node(model: Model, rng: random.Random, spare: list[tuple[str, Source]]) -> None:
    text, source = spare[0]
    model.add_node(rng, model.free_id(), text, source)


def nodes_only(model: Model) -> None:
    model.entries = [entry for entry in model.entries if isinstance(entry, NodeEntry)]


def reversed_root(model: Model, rng: random.Random, how: str) -> None:
    """A premise the response marks as root (root=true, or a Conclusion/Root label prefix); its edge still leaves it."""
    leaf = rng.choice(model.graph.leaves())
    if how == "attr":
        index = model.node_index(leaf)
        model.entries[index] = replace(cast(NodeEntry, model.entries[index]), root_attr=True)
    else:
        model.relabel(leaf, role=rng.choice(("Conclusion", "Root")), form="prefix")
    model.set_node(leaf, marked_root=True)


# ---------------------------------------------------------------- edge and unit mutations


def cycle_edge(model: Model, rng: random.Random, through_root: bool = False) -> None:
    """An edge from a conclusion back to a target below it, closing a cycle. Preferred: an induction target
    (the edge is one more induction-case, so its unit stays whole) and, unless ``through_root``, a conclusion
    that is not the root (the root stays terminal); ``through_root`` starts the edge at the root, which then
    leaves no terminal at all."""
    graph = model.graph
    units = graph.units()
    pairs = [(ancestor, target) for target in units for ancestor in graph.ancestors(target)
             if (ancestor == graph.root) == through_root]
    if not pairs:
        raise NotApplicable("no conclusion above a unit target to close a cycle from")
    induction = [(a, t) for a, t in pairs if units[t][0].label == "induction-common"]
    ancestor, target = rng.choice(induction or pairs)
    label = "induction-case" if units[target][0].label == "induction-common" else units[target][0].label
    model.add_edge(rng, ancestor, label, target)


def mixed_family(model: Model, rng: random.Random, spare: list[tuple[str, Source]]) -> None:
    """A new premise joins a unit with an edge of another family."""
    target, unit = rng.choice(list(model.graph.units().items()))
    family = LABEL_FAMILY[unit[0].label]
    other = rng.choice([name for name in FAMILIES if name != family])
    premise = model.free_id()
    text, source = spare[1]
    model.add_node(rng, premise, text, source)
    model.add_edge(rng, premise, FAMILIES[other][1], target)


def _relabel_edge(model: Model, edge_source: str, label: str) -> None:
    index = next(i for i, entry in enumerate(model.entries) if isinstance(entry, EdgeEntry) and entry.decl.source == edge_source)
    entry = model.entries[index]
    assert isinstance(entry, EdgeEntry)
    model.entries[index] = EdgeEntry(replace(entry.decl, label=label), label)


def broken_cardinality(model: Model, rng: random.Random) -> None:
    """A unit with a role twice and another missing: two rules (or phenomena), or induction cases without a common."""
    unit = rng.choice(list(model.graph.units().values()))
    first, second = unit[0], unit[1]
    if first.label == "induction-common":
        _relabel_edge(model, first.source, "induction-case")
    else:
        _relabel_edge(model, second.source, first.label)


def drop_unit_edge(model: Model, rng: random.Random) -> None:
    """One edge of a two-edge unit left out; preferably one whose premise is itself a conclusion (so no node is left bare)."""
    units = model.graph.units()
    pairs = [edge for unit in units.values() if len(unit) == 2 for edge in unit]
    inner = [edge for edge in pairs if edge.source in units]
    if not pairs:
        raise NotApplicable("no unit of exactly two edges")
    edge = rng.choice(inner or pairs)
    model.entries = [entry for entry in model.entries
                     if not (isinstance(entry, EdgeEntry) and (entry.decl.source, entry.decl.target) == (edge.source, edge.target))]
