"""Tables of what a workflow step did: extraction per step, repair scripts, gate, canonicalization, validation.

Every figure comes from the result objects, whose per-paper measures were
computed in the store; this module only lays them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from claimgraph.cli.render import err, format_table, out, print_table

if TYPE_CHECKING:
    from claimgraph.extract.runner import ExtractionReport
    from claimgraph.llm.accounting import Accounting
    from claimgraph.quality.gate import GateReport
    from claimgraph.quality.grounding import GroundingAudit
    from claimgraph.quality.repair import PaperRepair
    from claimgraph.quality.reports import ValidationReport
    from claimgraph.rdf.iris import IriScheme
    from claimgraph.workflow import CanonicalizeOutcome, IngestResult


def print_extraction(reports: Sequence[ExtractionReport], accounting: Accounting) -> None:
    """Per paper: each gate measure after each LLM step and after repair; then LLM calls per paper and step."""
    from claimgraph.extract.steps import STEPS

    for report in reports:
        steps = [step for step, _ in report.measures]
        names = list(report.measures[0][1]) if report.measures else []
        rows = [[name, *(measures.get(name, "") for _, measures in report.measures)] for name in names]
        print_table(["measure", *steps], rows, f"extraction gate: {report.paper_id} (computed in the store after each step)")
        for failure in report.failed_calls:
            err(f"skipped: {report.paper_id} {failure}")
        share = report.colocation
        out(f"{report.paper_id}: co-location connectivity {share.linked}/{share.pairs} co-located pairs linked "
            f"({share.pair_ratio:.0%}), mean share of a node's co-locators {share.node_share:.0%}"
            + (f"; residual {report.residual}" if report.residual else ""))
    if reports:
        columns, cells = accounting.table(STEPS)
        print_table(columns, cells, "LLM calls")


def print_gate(repairs: Sequence[PaperRepair]) -> None:
    """Per script: scope triples before/after and what changed (summed over papers); the gate measures;
    then per paper what was stated and stored, skipped, merged and anchored, the verdict and its reasons."""
    from claimgraph.quality.gate import gate_rows, residual_counts

    scripts: dict[str, list[int]] = {}
    for repair in repairs:
        for script in repair.runs:
            row = scripts.setdefault(script.name, [0, 0, 0, 0, 0])
            for index, value in enumerate((script.triples_before, script.triples_after, script.added, script.removed, int(script.changed))):
                row[index] += value
    title = f"repair scripts ({len(repairs)} paper{'s' if len(repairs) != 1 else ''})"
    print_table(["script", "scope before", "scope after", "added", "removed", "papers changed"], [[name, *row] for name, row in scripts.items()], title)
    reports = [repair.gate for repair in repairs if repair.gate]
    print_table(["measure", "raw", "repaired"], gate_rows(reports), "gate measures (SPARQL, summed over papers; raw: as read, repaired: after the scripts)")
    print_paper_verdicts(repairs)
    accepted = sum(1 for report in reports if report.accepted)
    rows: list[list[object]] = [["accepted", accepted], *([f"residual {label}", count] for label, count in residual_counts(reports).items())]
    print_table(["verdict", "papers"], rows, "gate verdicts")


PAPER_COLUMNS = ["paper", "nodes stated", "stored", "given", "edges stated", "stored", "skipped", "merges",
                 "anchors resolved", "fallen back", "unresolved", "implicit", "grounded", "verdict"]


def print_paper_verdicts(repairs: Sequence[PaperRepair]) -> None:
    """One row per paper: nodes and edges stated vs stored (given: nodes a structured input such as ARCHE
    gives, not extracted), statements skipped, merges, source anchors, anchored nodes reaching the grounding
    threshold, the verdict; then each reason."""
    rows: list[list[object]] = []
    reasons: list[str] = []
    for repair in repairs:
        gate = repair.gate
        if gate is None:
            continue
        stated, repaired = gate.stated, gate.repaired
        rows.append([
            gate.paper_id, stated.get("nodes", gate.raw.get("nodes", 0)), repaired.get("nodes", 0), gate.given_nodes,
            stated.get("edges", gate.raw.get("edges", 0)), repaired.get("edges", 0), stated.get("statements_skipped", "-"),
            len(repair.merges), repaired.get("anchors_resolved", 0), repaired.get("anchors_fallen_back", 0),
            repaired.get("anchors_unresolved", 0), repaired.get("anchors_implicit", 0), grounded_cell(gate),
            "accepted" if gate.accepted else "residual: " + ", ".join(gate.residuals or ["rule violation"]),
        ])
        reasons += [f"{gate.paper_id}: {reason}" for reason in gate.reasons()]
    print_table(PAPER_COLUMNS, rows, "gate per paper (stated: what the input states; stored: the repaired graph)")
    for line in reasons:
        out(line)


def grounded_cell(gate: GateReport) -> str:
    """Anchored nodes at or above the grounding threshold, of all anchored nodes ("-" when none is anchored)."""
    audit = gate.grounding
    if audit is None or not audit.anchored:
        return "-"
    return f"{len(audit.anchored) - len(audit.below)}/{len(audit.anchored)}"


def print_canonicalization(outcome: CanonicalizeOutcome) -> None:
    """What canonicalizing did, then how the batch changed the convergence figures."""
    from claimgraph.canonical.convergence import convergence_delta

    print_table(["measure", "value"], outcome.summary.rows(), title="canonicalize")
    if outcome.recheck is not None:
        print_table(["measure", "value"], outcome.recheck.rows(), title="recheck of the links made by similarity alone")
    delta = convergence_delta(outcome.before, outcome.after)
    print_table(["measure", "before", "after", "change"], delta, title="convergence (computed in the store)")


def print_validation(report: ValidationReport, iris: IriScheme, per_paper: bool = True) -> None:
    """One line per failure; a table per graph unless ``per_paper`` is false; a summary line."""
    for line in report.lines():
        out(line)
    if per_paper:
        rows = [
            [iris.paper_id_of(graph.graph) or graph.graph.value, graph.nodes_validated, graph.nodes_failed, len(graph.violations),
             "pass" if graph.conforms else "FAIL"]
            for graph in report.graphs
        ]
        print_table(["paper", "nodes", "failed", "rule violations", "result"], rows, title=f"validation ({report.profile})")
    out(f"{len(report.graphs)} graphs, {report.nodes_validated} nodes validated, {report.nodes_failed} failed, "
        f"{len(report.violations)} rule violations")


def print_grounding(audits: Sequence[GroundingAudit], show: int = 20) -> None:
    """Per paper: nodes scored against their cited span, grounded, below the threshold, implicit; then the weakest nodes."""
    rows = []
    for audit in audits:
        figures = audit.measures()
        rows.append([audit.paper_id, figures["grounding_nodes"], figures["grounding_scored"], len(audit.anchored) - len(audit.below),
                     figures["grounding_below_threshold"], figures["grounding_implicit"], figures["grounding_unresolved"],
                     f"{figures['grounding_mean_permille'] / 1000:.3f}", audit.verdict])
    threshold = audits[0].settings.threshold if audits else 0.0
    out(format_table(["paper", "nodes", "scored", "grounded", "below", "implicit", "unresolved", "mean score", "grounding"], rows,
                     f"source grounding (threshold {threshold:g}; score = max(token F1, containment))"))
    below = [(audit.paper_id, node) for audit in audits for node in sorted(audit.below, key=lambda node: node.score)]
    if below and show > 0:
        out()
        cells = [[paper_id, node.node.value.rsplit("/", 1)[-1], node.status, str(node.source), f"{node.score:.3f}", node.text[:70]]
                 for paper_id, node in below[:show]]
        out(format_table(["paper", "node", "status", "tuple", "score", "text"], cells, f"nodes below the threshold ({len(below)})"))


def print_ingest(result: IngestResult, iris: IriScheme) -> None:
    """Everything an ingest did, in the order it ran, and its summary."""
    for notice in result.notices:
        err(notice)
    print_extraction(result.extractions, result.accounting)
    if result.repairs:
        print_gate(result.repairs)
    if any(audit.nodes for audit in result.grounding):
        print_grounding([audit for audit in result.grounding if audit.nodes], show=10)
        out()
    if result.canonicalization:
        print_canonicalization(result.canonicalization)
    if result.validation:
        print_validation(result.validation, iris, per_paper=False)
    summary: list[list[object]] = [
        ["files", result.files],
        ["papers ingested", len(result.papers)],
        ["files failed", len(result.failures)],
        ["triples in ingested papers (from the store)", result.triples],
    ]
    if result.validation:
        summary.append(["shape violations and rule violations", result.validation.nodes_failed + len(result.validation.violations)])
    print_table(["measure", "value"], summary, title="ingest summary")


def print_first_run(result: IngestResult, stats: Sequence[tuple[str, int]], store: str) -> None:
    """A short account of an ingest for a first run: what is in the store, what was repaired and refused, what to try next.

    The counts come from the store (``stats``) and from the gate reports; the full tables are ``--verbose``.
    """
    totals = dict(stats)
    accepted = [repair for repair in result.repairs if repair.gate and repair.gate.accepted]
    changes = sum(run.added + run.removed for repair in result.repairs for run in repair.runs)
    scripts = sorted({run.name for repair in result.repairs for run in repair.runs if run.changed})
    lines = [f"{len(result.papers)} papers stored in {store} ({totals.get('paper graph triples', result.triples):,} triples in their paper graphs)"]
    structure = {"cg:Paper", "cg:Passage", "cg:Sentence", "cg:Reference", "cg:EdgeAnnotation", "rdf:Statement"}
    nodes = [(name, value) for name, value in stats if name.startswith("cg:") and name not in structure and value]
    if nodes:
        lines.append(f"{sum(value for _, value in nodes)} nodes extracted or given, by type: "
                     + ", ".join(f"{name.removeprefix('cg:')} {value}" for name, value in nodes))
    outcome = result.canonicalization
    if outcome is not None:
        after = dict(outcome.after.rows())
        lines.append(f"links across papers: {after.get('hubs', 0)} CANON_ hubs with {after.get('attached to a hub', 0)} nodes attached, "
                     f"{after.get('merged', 0)} nodes merged; {after.get('papers linked to no other', 0)} papers linked to no other")
    lines.append(f"repaired: {changes} triples changed by {len(scripts)} repair scripts" + (f" ({', '.join(scripts)})" if scripts else ""))
    lines.append(f"accepted by the gate: {len(accepted)} of {len(result.repairs)} papers")
    for repair in result.repairs:
        if repair.gate and not repair.gate.accepted:
            reason = next((violation.reason for violation in repair.gate.violations if violation.critical), "")
            lines.append(f"  refused {repair.paper_id}: {', '.join(repair.gate.residuals) or 'violations'}" + (f" ({reason})" if reason else ""))
    for failure in result.failures:
        lines.append(f"  failed {failure.message}")
    out("\n".join(lines))
    out()
    out("next:")
    for command, why in ((f"claimgraph --store {store} stats", "what the store holds"),
                         (f"claimgraph --store {store} query --list", "the shipped cross-paper queries"),
                         (f"claimgraph --store {store} serve", "browse the graph at http://127.0.0.1:7879/viewer/")):
        out(f"  {command:<44}  # {why}")
    out("(every table of this run: claimgraph demo --verbose)")
