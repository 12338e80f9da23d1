"""What validation finds: shape results per focus node, rule violations, per-graph and whole reports."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from pyoxigraph import BlankNode, NamedNode

from claimgraph.rdf.binding import Term
from claimgraph.rdf.vocab import short_iri


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
    """One row of a gate rule; ``residual`` is the typed residual label the rule maps to, if any.

    ``severity`` is "critical" (blocks acceptance) or "warning" (reported only).
    """

    graph: NamedNode
    rule: str
    focus: Term
    reason: str
    residual: str | None = None
    severity: str = "critical"

    @property
    def critical(self) -> bool:
        return self.severity == "critical"


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
    """Per-graph results; ``unfinished`` names papers a stopped run left loaded but never gated."""

    profile: str
    graphs: list[GraphReport] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)

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
        return all(graph.conforms for graph in self.graphs) and not self.unfinished

    def lines(self) -> Iterator[str]:
        """One line per unfinished paper, shape failure and rule violation."""
        for paper_id in self.unfinished:
            yield (f"paper {paper_id}: unfinished: loaded but never repaired and gated (a run was stopped?); "
                   f"ingest its file again, or run `claimgraph repair --paper {paper_id}`")
        for graph in self.graphs:
            for result in graph.failures:
                shape = short_iri(result.shape.value) if result.shape else "(no shape)"
                yield f"{graph.graph.value} {result.focus} {shape}: {result.reason}"
            for violation in graph.violations:
                yield f"{graph.graph.value} {violation.focus} rule {violation.rule}: {violation.reason}"
