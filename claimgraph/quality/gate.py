"""The gate: named SPARQL measures of a paper's raw and repaired graphs, the profile's rules, typed residuals.

A measure is a file ``sparql/queries/gate/<name>.rq`` returning one count
``?n``; its comment header describes it. A file whose header has a line
``# counts: NAME ...`` returns several counts from one pattern, each a measure
named by its variable (``anchors.rq``: resolved, fallen back, unresolved and
implicit anchors from one pass). Every file in that folder is read, so adding
a measure is adding a file. All measures of one graph run as one query (each
file a sub-select), with ``?graph`` (the graph measured), ``?paper`` (the paper
graph, whose IRI edge annotations derive from) and ``?vocabulary`` (the
profile vocabulary graph) bound.

The profile's gate rules (sparql/rules), its semantic rules and the source
grounding audit (claimgraph.quality.grounding) run on the repaired graph. A rule row
has a severity: ``critical`` (the default) makes the paper a typed residual
when the rule maps to one, and blocks acceptance; ``warning`` is reported and
blocks nothing. Residual labels are the residual types the profile's ontology
declares (ontology/residuals.ttl); those of stage ``graph`` are recomputed by
the rules each time, the others (decided by the step that reads the input, the
materializer or the extraction, or by the judge-feedback repair) are kept. A paper is accepted when it has
no residual and no critical rule row.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.assets import asset_path
from claimgraph.context import Context
from claimgraph.errors import ProfileError
from claimgraph.papers.audit import Activity, now
from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import ResidualType, residual_types
from claimgraph.quality.grounding import GroundingAudit, audit_paper, foreign_graph_violations, grounding_violations
from claimgraph.quality.reports import RuleViolation
from claimgraph.quality.rules import profile_rules
from claimgraph.quality.semantic import rule_violations, semantic_violations
from claimgraph.rdf.binding import bind
from claimgraph.rdf.queries import query_description, read_internal_query, read_sparql, read_sparql_file
from claimgraph.rdf.vocab import CG
from claimgraph.store import Store

GRAPH_STAGE = "graph"
CRITICAL = "critical"
_PREFIX = re.compile(r"^\s*PREFIX\s+([A-Za-z][\w.-]*)?:\s*<([^>]*)>\s*$", re.MULTILINE | re.IGNORECASE)


@dataclass(frozen=True)
class Measure:
    """A measure file: its name, description, text and the counts it returns (``(name,)`` for a ``?n`` file)."""

    name: str
    description: str
    text: str
    counts: tuple[str, ...]


@cache
def measures() -> tuple[Measure, ...]:
    """The gate measure files, in file-name order."""
    folder = asset_path("sparql", "queries", "gate")
    found = []
    for path in sorted(folder.glob("*.rq")):
        text = read_sparql_file(path)
        header = re.search(r"^#\s*counts:\s*(.+?)\s*$", text, re.MULTILINE)
        counts = tuple(header.group(1).split()) if header else (path.stem,)
        found.append(Measure(path.stem, query_description(path), text, counts))
    return tuple(found)


def measure_names() -> list[str]:
    """Every count the gate measures, in order."""
    return [name for measure in measures() for name in measure.counts]


@cache
def measure_query() -> str:
    """Every measure as one SELECT: each file's query a sub-select projecting its count as ``?<name>``."""
    prefixes: dict[str, str] = {}
    parts = []
    for measure in measures():
        for prefix, namespace in _PREFIX.findall(measure.text):
            if prefixes.setdefault(prefix, namespace) != namespace:
                raise ProfileError(f"gate measure {measure.name}: prefix {prefix}: is <{namespace}>, another measure says <{prefixes[prefix]}>")
        body = _PREFIX.sub("", measure.text).strip()
        if measure.counts == (measure.name,):
            parts.append(f"  {{ SELECT (?n AS ?{measure.name}) WHERE {{\n{body}\n  }} }}")
        else:
            parts.append(f"  {{\n{body}\n  }}")
    prologue = "".join(f"PREFIX {prefix}: <{namespace}>\n" for prefix, namespace in sorted(prefixes.items()))
    projection = " ".join(f"?{name}" for name in measure_names())
    return prologue + f"SELECT {projection} WHERE {{\n" + "\n".join(parts) + "\n}"


def measure_graph(ctx: Context, graph: NamedNode, paper: NamedNode) -> dict[str, int]:
    """Every measure of one graph (``paper``: the paper graph its annotation IRIs derive from), in one query."""
    rows = ctx.store.select(measure_query(), {"graph": graph, "paper": paper, "vocabulary": ctx.vocabulary})
    row = rows[0] if rows else {}
    return {name: int(row[name].value) if name in row else 0 for name in measure_names()}


@dataclass
class GateReport:
    """Measures of the raw and repaired graph, what the input stated, the rule rows and the paper's residual labels.

    ``stated`` holds what the input itself stated when the caller knows it
    (a reasoning response: nodes and edges declared, statements skipped);
    ``notes`` short facts about how it was read (parser branch, tuple reading);
    ``grounding`` the source grounding audit of the repaired graph.
    """

    paper_id: str
    raw: dict[str, int]
    repaired: dict[str, int]
    violations: list[RuleViolation] = field(default_factory=list)
    residuals: list[str] = field(default_factory=list)
    stated: dict[str, int] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    given_nodes: int = 0
    grounding: GroundingAudit | None = None

    @property
    def blocking(self) -> list[RuleViolation]:
        return [violation for violation in self.violations if violation.severity == CRITICAL]

    @property
    def warnings(self) -> list[RuleViolation]:
        return [violation for violation in self.violations if violation.severity != CRITICAL]

    @property
    def accepted(self) -> bool:
        return not self.residuals and not self.blocking

    def reasons(self, limit: int = 3) -> list[str]:
        """One line per residual (its first reason) and per other blocking rule, then the warnings."""
        lines = []
        for label in self.residuals:
            rows = [violation for violation in self.blocking if violation.residual == label]
            more = f" (+{len(rows) - 1} more)" if len(rows) > 1 else ""
            lines.append(f"{label}: {rows[0].reason}{more}" if rows else label)
        lines += [f"rule {violation.rule}: {violation.reason}" for violation in self.blocking if not violation.residual][:limit]
        lines += [f"warning {violation.rule}: {violation.reason}" for violation in self.warnings][:limit]
        return lines


def evaluate_gate(ctx: Context, paper_id: str, measured: tuple[dict[str, int], dict[str, int]] | None = None,
                  findings: Sequence[RuleViolation] = (), stated: Mapping[str, int] | None = None,
                  notes: Mapping[str, str] | None = None, grounding: GroundingAudit | None = None,
                  papers: Store | None = None) -> GateReport:
    """The gate of a paper in ``ctx``'s store, writing nothing: measures (unless ``measured`` gives them), rules, residuals.

    ``findings`` are what the step reading the input found (residuals of stage
    ``input``, already stored on the paper, and notes); they give the reasons
    of those residuals. Stored input-stage labels are kept. ``grounding`` is
    the paper's grounding audit when the caller made it (a working copy does
    not hold the sentences the spans come from); otherwise it is made here.
    ``papers``: the store holding the other papers, where a graph that is
    another paper's is recognised (``ctx``'s store unless given).
    """
    paper = ctx.iris.paper(paper_id)
    raw, repaired = measured or (measure_graph(ctx, ctx.iris.raw_graph(paper_id), paper), measure_graph(ctx, paper, paper))
    types = declared_residuals(ctx.profile)
    audit = grounding or audit_paper(ctx, paper_id)
    violations = [*findings, *rule_violations(ctx.store, paper, profile_rules(ctx.profile), ctx.vocabulary),
                  *semantic_violations(ctx, paper_id), *grounding_violations(audit, paper),
                  *foreign_graph_violations(papers or ctx.store, ctx.iris, audit, paper)]
    kept = [label for label in stored_residuals(ctx.store, paper) if label not in types or types[label].stage != GRAPH_STAGE]
    produced = {violation.residual for violation in violations if violation.residual and violation.severity == CRITICAL}
    undeclared = sorted(produced - set(types))
    if undeclared:
        rules = sorted({violation.rule for violation in violations if violation.residual in undeclared})
        raise ProfileError(f"rules {', '.join(rules)} of profile {ctx.profile.name} produce residuals {undeclared}, "
                           "which ontology/residuals.ttl does not declare")
    violations += [RuleViolation(paper, "input", paper, types[label].definition, label)
                   for label in kept if label in types and not any(violation.residual == label for violation in findings)]
    residuals = sorted(set(kept) | produced)
    return GateReport(paper_id, raw, repaired, violations, residuals, dict(stated or {}), dict(notes or {}), grounding=audit)


def gate_paper(ctx: Context, paper_id: str) -> GateReport:
    """The gate of a stored paper (``evaluate_gate``), its residual labels written on the paper."""
    report = evaluate_gate(ctx, paper_id)
    paper = ctx.iris.paper(paper_id)
    write_residuals(ctx.store, paper, report.residuals)
    report.given_nodes = given_nodes(ctx.store, paper)
    return report


def given_nodes(store: Store, paper: NamedNode) -> int:
    """How many nodes the paper's structured input gives (ARCHE viewpoints): shown next to the extracted ones."""
    return store.scalar(read_internal_query("given-nodes"), {"graph": paper})


def residual_triples(paper: NamedNode, residuals: Iterable[str]) -> list[Triple]:
    return [Triple(paper, CG.residual, Literal(label)) for label in residuals]


@cache
def _declared(profile: Profile) -> dict[str, ResidualType]:
    return residual_types(profile)


def declared_residuals(profile: Profile) -> dict[str, ResidualType]:
    """The residual types of the profile's ontology, by label."""
    return _declared(profile)


def stored_residuals(store: Store, paper: NamedNode) -> list[str]:
    return [row["residual"].value for row in store.select(read_internal_query("paper-residuals"), {"graph": paper})]


def write_residuals(store: Store, paper: NamedNode, residuals: Iterable[str]) -> None:
    """Replace the paper's cg:residual labels, in one update."""
    store.insert({paper: residual_triples(paper, residuals)}, before=bind(read_sparql("internal", "clear-residuals.ru"), {"graph": paper}))


def gate_activity(report: GateReport) -> Activity:
    """The gate as an audit activity: each measure before (raw) and after (repaired) repair, residuals and reasons as notes."""
    counts: dict[str, int] = {}
    for name, value in report.raw.items():
        counts[f"{name}_raw"] = value
    for name, value in report.repaired.items():
        counts[f"{name}_repaired"] = value
    counts["rule_violations"] = len(report.blocking)
    counts["rule_warnings"] = len(report.warnings)
    counts["given_nodes"] = report.given_nodes
    notes = {"verdict": "accepted" if report.accepted else "residual", "residuals": ", ".join(report.residuals) or "none"}
    if report.grounding is not None:
        counts.update(report.grounding.measures())
        notes["grounding"] = report.grounding.verdict  # its own verdict, beside the gate's
    reasons = report.reasons()
    if reasons:
        notes["reasons"] = " | ".join(reasons)
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
