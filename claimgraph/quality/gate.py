"""The gate: named SPARQL measures of a paper's raw and repaired graphs, the profile's rules, typed residuals.

A measure is a file ``sparql/queries/gate/<name>.rq`` returning one count; its
comment header describes it. Every file in that folder is a measure, so adding
one (passage gaps, say) is adding a file. Measures get ``?graph`` (the graph
measured), ``?paper`` (the paper graph, whose IRI edge annotations derive from)
and ``?vocabulary`` (the profile vocabulary graph) bound.

The profile's gate rules (sparql/rules) run on the repaired graph; each
violation that maps to a residual label makes the paper a typed residual,
recorded on the paper as ``cg:residual``. Residuals the gate does not own
(``parse_failed``, set by the materializer) are kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.assets import asset_path
from claimgraph.context import Context
from claimgraph.papers.audit import Activity, now
from claimgraph.quality.reports import RuleViolation
from claimgraph.quality.rules import rule_violations
from claimgraph.quality.shapes import compile_profile
from claimgraph.rdf.binding import bind
from claimgraph.rdf.queries import query_description, read_internal_query, read_sparql, read_sparql_file
from claimgraph.rdf.vocab import CG
from claimgraph.store import Store

MATERIALIZER_RESIDUALS = frozenset({"parse_failed"})


@dataclass(frozen=True)
class Measure:
    name: str
    description: str
    text: str


@cache
def measures() -> tuple[Measure, ...]:
    """The gate measures, in file-name order."""
    folder = asset_path("sparql", "queries", "gate")
    return tuple(Measure(path.stem, query_description(path), read_sparql_file(path)) for path in sorted(folder.glob("*.rq")))


def measure_graph(ctx: Context, graph: NamedNode, paper: NamedNode) -> dict[str, int]:
    """Every measure of one graph (``paper``: the paper graph its annotation IRIs derive from), computed in the store."""
    bindings = {"graph": graph, "paper": paper, "vocabulary": ctx.vocabulary}
    return {measure.name: ctx.store.scalar(measure.text, bindings) for measure in measures()}


@dataclass
class GateReport:
    """Measures of the raw and repaired graph, the rule violations after repair and the paper's residual labels."""

    paper_id: str
    raw: dict[str, int]
    repaired: dict[str, int]
    violations: list[RuleViolation] = field(default_factory=list)
    residuals: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return not self.violations and not self.residuals


def gate_paper(ctx: Context, paper_id: str) -> GateReport:
    """Measure the raw and repaired graphs, run the rules, and record the residuals on the paper."""
    paper = ctx.iris.paper(paper_id)
    raw = measure_graph(ctx, ctx.iris.raw_graph(paper_id), paper)
    repaired = measure_graph(ctx, paper, paper)
    violations = rule_violations(ctx.store, paper, compile_profile(ctx.profile).rules, ctx.vocabulary)
    kept = {label for label in stored_residuals(ctx.store, paper) if label in MATERIALIZER_RESIDUALS}
    residuals = sorted(kept | {violation.residual for violation in violations if violation.residual})
    write_residuals(ctx.store, paper, residuals)
    return GateReport(paper_id, raw, repaired, violations, residuals)


def stored_residuals(store: Store, paper: NamedNode) -> list[str]:
    return [row["residual"].value for row in store.select(read_internal_query("paper-residuals"), {"graph": paper})]


def write_residuals(store: Store, paper: NamedNode, residuals: Iterable[str]) -> None:
    """Replace the paper's cg:residual labels, in one update."""
    triples = [Triple(paper, CG.residual, Literal(label)) for label in residuals]
    store.insert({paper: triples}, before=bind(read_sparql("internal", "clear-residuals.ru"), {"graph": paper}))


def gate_activity(report: GateReport) -> Activity:
    """The gate as an audit activity: each measure before (raw) and after (repaired) repair, residuals as a note."""
    counts: dict[str, int] = {}
    for name, value in report.raw.items():
        counts[f"{name}_raw"] = value
    for name, value in report.repaired.items():
        counts[f"{name}_repaired"] = value
    counts["rule_violations"] = len(report.violations)
    notes = {"verdict": "accepted" if report.accepted else "residual", "residuals": ", ".join(report.residuals) or "none"}
    return Activity("gate", "gate", counts, notes=notes, ended=now())


def gate_rows(reports: Iterable[GateReport]) -> list[list[object]]:
    """Table rows (measure, raw, repaired) summed over the reports."""
    totals: dict[str, list[int]] = {}
    for report in reports:
        for name in report.raw:
            pair = totals.setdefault(name, [0, 0])
            pair[0] += report.raw[name]
            pair[1] += report.repaired.get(name, 0)
    return [[name, raw, repaired] for name, (raw, repaired) in totals.items()]


def residual_counts(reports: Iterable[GateReport]) -> Mapping[str, int]:
    """How many papers carry each residual label."""
    counts: dict[str, int] = {}
    for report in reports:
        for label in report.residuals:
            counts[label] = counts.get(label, 0) + 1
    return dict(sorted(counts.items()))

