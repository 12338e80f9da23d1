"""What a parser branch recovers from a response: the nodes and edges it states, what it skipped, what it could not close."""

from __future__ import annotations

from dataclasses import dataclass, field

PARSE_FAILED = "none"
TRUNCATED = "truncated_response"
MALFORMED = "malformed_response"


class DotSyntaxError(ValueError):
    """The text is not strict DOT."""


@dataclass(frozen=True)
class ParseProblem:
    """Something about the response text itself: ``residual`` is the residual type it makes the paper
    (``truncated_response``, ``malformed_response``), or None for a note that blocks nothing."""

    residual: str | None
    reason: str


@dataclass
class ParsedNode:
    id: str
    attrs: dict[str, str] = field(default_factory=dict)
    order: int = 0  # position of its first declaration among the response's statements


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
    """The nodes and edges a response states, in order, and how they were recovered.

    ``skipped`` counts statements that were neither a node nor an edge;
    ``skipped_material`` those of them that hold graph material (quotes,
    arrows, brackets, tuples), which means something stated was lost.
    ``cut_statements`` counts the statement the text ends inside (not
    admitted). ``problems`` says what the text left open or broken;
    ``extra_graphs`` counts graphs stated after the first one read.
    """

    branch: str
    nodes: dict[str, ParsedNode] = field(default_factory=dict)
    edges: list[ParsedEdge] = field(default_factory=list)
    skipped: int = 0
    skipped_material: int = 0
    skipped_examples: list[str] = field(default_factory=list)
    cut_statements: int = 0
    duplicate_edges: int = 0
    problems: list[ParseProblem] = field(default_factory=list)
    nodes_after_edges: bool = False
    recognized: bool = False  # the branch found its format's frame (a DOT header, a JSON nodes/edges list)
    extra_graphs: int = 0  # graphs stated after the first (identical copies and different graphs)
    lost_graph_statements: int = 0  # node and edge statements of later graphs that differ from the first
    region_end: int = -1  # where another graph starts after the one read, -1 when none does
    _statements: int = 0

    @property
    def empty(self) -> bool:
        return not self.nodes and not self.edges

    @property
    def residuals(self) -> list[str]:
        """The residual types the text's problems make the paper (each once, in order)."""
        return list(dict.fromkeys(problem.residual for problem in self.problems if problem.residual))

    def problem(self, residual: str | None, reason: str) -> None:
        self.problems.append(ParseProblem(residual, reason))

    def add_node(self, node_id: str, attrs: dict[str, str]) -> None:
        """Declare a node; a later declaration adds or overrides attributes, as in DOT."""
        self._statements += 1
        if node_id not in self.nodes:
            self.nodes[node_id] = ParsedNode(node_id, order=self._statements)
            self.nodes_after_edges = self.nodes_after_edges or bool(self.edges)
        self.nodes[node_id].attrs.update(attrs)

    def add_edge(self, source: str, target: str, attrs: dict[str, str]) -> None:
        self._statements += 1
        label = next((attrs.pop(key) for key in EDGE_LABEL_KEYS if key in attrs), None)
        edge = ParsedEdge(source, target, label, tuple(sorted(attrs.items())))
        if any((e.source, e.target, e.label) == (source, target, label) for e in self.edges):
            self.duplicate_edges += 1
            return
        self.edges.append(edge)

    def skip(self, statement: str, material: bool) -> None:
        """Count a statement that is neither a node nor an edge; ``material``: it holds graph material."""
        self.skipped += 1
        if material:
            self.skipped_material += 1
            if len(self.skipped_examples) < 3:
                self.skipped_examples.append(" ".join(statement.split())[:80])


EDGE_LABEL_KEYS = ("label", "type", "relation", "role", "xlabel")
ARROWS = ("->", "--", "→", "=>", "-->")
