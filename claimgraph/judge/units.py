"""Reasoning units as judges see them: a conclusion and its premises by role, each with the sentences it cites.

A unit is one conclusion node with all its incoming reasoning edges (Peircean
edges in the peirce profile, supports / opposes in the discourse profile;
sparql/internal/judge-units.rq). Node texts, source tuples and cited spans
come from the grounding audit, so a judge reads exactly the span the audit
scored. A unit's ``key`` hashes what a judge sees of it (texts, roles, the
premises' identities): votes are reused only for an unchanged key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from pyoxigraph import Literal, NamedNode

from claimgraph.context import Context
from claimgraph.quality.grounding import IMPLICIT, GroundingAudit, NodeGrounding
from claimgraph.rdf.queries import read_internal_query
from claimgraph.rdf.rows import iri_of, text_of

Source = tuple[int, int, int]


@dataclass(frozen=True)
class UnitNode:
    iri: NamedNode
    text: str
    source: Source | None = None
    span: str = ""
    score: float = 0.0
    grounded: bool = False

    @property
    def local(self) -> str:
        """The id a prompt shows: the IRI's last path segment."""
        return self.iri.value.rsplit("/", 1)[-1]

    def describe(self) -> str:
        """The node as a prompt shows it: id, text, source tuple and the span it cites."""
        if self.source is None or self.source[0] == 0:
            return f"[{self.local}] {self.text}\n    cites: nothing (implicit)"
        cited = self.span or "(the cited sentence is not in the paper)"
        return f"[{self.local}] {self.text}\n    cites {self.source}: {cited}"


@dataclass(frozen=True)
class Premise:
    node: UnitNode
    role: str
    edge: NamedNode


@dataclass(frozen=True)
class Unit:
    conclusion: UnitNode
    premises: tuple[Premise, ...]

    @property
    def key(self) -> str:
        parts = [self.conclusion.iri.value, self.conclusion.text, *sorted(f"{p.role}\x1e{p.node.iri.value}\x1e{p.node.text}" for p in self.premises)]
        return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:20]

    @property
    def nodes(self) -> list[UnitNode]:
        return [self.conclusion, *(premise.node for premise in self.premises)]

    @property
    def anchored(self) -> bool:
        """Whether some node of the unit is grounded in its cited span: something to repair from."""
        return any(node.grounded for node in self.nodes)

    def describe(self) -> str:
        lines = ["Conclusion:", "  " + self.conclusion.describe(), "Premises:"]
        lines += [f"  - {premise.role}: {premise.node.describe()}" for premise in self.premises]
        return "\n".join(lines)


def unit_node(iri: NamedNode, text: str, audit: GroundingAudit) -> UnitNode:
    scored: NodeGrounding | None = audit.node(iri)
    if scored is None:
        return UnitNode(iri, text)
    grounded = scored.status != IMPLICIT and scored.score >= audit.settings.threshold
    return UnitNode(iri, scored.text, scored.source, scored.span_text, scored.score, grounded)


def read_units(ctx: Context, paper_id: str, audit: GroundingAudit) -> list[Unit]:
    """The paper's reasoning units in conclusion order, premises by role then IRI."""
    rows = ctx.store.select(read_internal_query("judge-units"), {"graph": ctx.iris.paper(paper_id), "vocabulary": ctx.vocabulary})
    conclusions: dict[NamedNode, UnitNode] = {}
    premises: dict[NamedNode, list[Premise]] = {}
    for row in rows:
        conclusion, premise = row["conclusion"], row["premise"]
        if not isinstance(conclusion, NamedNode) or not isinstance(premise, NamedNode) or not isinstance(row["label"], Literal):
            continue
        conclusions.setdefault(conclusion, unit_node(conclusion, row["conclusionText"].value, audit))
        premise_node = unit_node(premise, text_of(row, "premiseText"), audit)
        premises.setdefault(conclusion, []).append(Premise(premise_node, text_of(row, "label"), iri_of(row, "edge")))
    return [Unit(conclusions[c], tuple(sorted(premises[c], key=lambda p: (p.role, p.node.iri.value)))) for c in conclusions]


def terminals(units: Iterable[Unit], nodes: Iterable[UnitNode]) -> list[UnitNode]:
    """Nodes that are no unit's premise: the graph's final conclusions (evaluation view: scaffolding is not a node here)."""
    premises = {premise.node.iri for unit in units for premise in unit.premises}
    return [node for node in nodes if node.iri not in premises]
