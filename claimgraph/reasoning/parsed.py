"""What a parser branch recovers from a response: the nodes and edges it states, and what it skipped."""

from __future__ import annotations

from dataclasses import dataclass, field

PARSE_FAILED = "none"


class DotSyntaxError(ValueError):
    """The text is not strict DOT."""


@dataclass
class ParsedNode:
    id: str
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ParsedEdge:
    source: str
    target: str
    label: str | None
    attrs: tuple[tuple[str, str], ...] = ()

    def attr(self, name: str) -> str | None:
        return dict(self.attrs).get(name)


@dataclass
class ParsedGraph:
    """The nodes and edges a response states, in order, and how they were recovered."""

    branch: str
    nodes: dict[str, ParsedNode] = field(default_factory=dict)
    edges: list[ParsedEdge] = field(default_factory=list)
    skipped: int = 0
    duplicate_edges: int = 0

    @property
    def empty(self) -> bool:
        return not self.nodes and not self.edges

    def add_node(self, node_id: str, attrs: dict[str, str]) -> None:
        """Declare a node; a later declaration adds or overrides attributes, as in DOT."""
        self.nodes.setdefault(node_id, ParsedNode(node_id)).attrs.update(attrs)

    def add_edge(self, source: str, target: str, attrs: dict[str, str]) -> None:
        label = next((attrs.pop(key) for key in EDGE_LABEL_KEYS if key in attrs), None)
        edge = ParsedEdge(source, target, label, tuple(sorted(attrs.items())))
        if any((e.source, e.target, e.label) == (source, target, label) for e in self.edges):
            self.duplicate_edges += 1
            return
        self.edges.append(edge)


EDGE_LABEL_KEYS = ("label", "type", "relation", "role", "xlabel")
ARROWS = ("->", "--", "→", "=>", "-->")
