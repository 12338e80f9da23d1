"""Metrics of a judged graph and the final strict gate: structure + critical rules + grounding + judges.

CG (content grounding, as the ARCHE/PEARL protocol names it) is the share of
units whose judges' majority found them grounded in their cited sentences; REA
(reasoning edge accuracy) the share of units with a correct majority. A graph
without units scores 0 on both.

The strict gate holds when no critical structural rule (the profile's gate
rules) and no critical semantic rule fires, the graph is not another stored
paper's (``foreign_graph``), the response was read whole (no
residual of the input stage such as truncated_response or malformed_response), the grounding audit passes where
the profile makes grounding critical (in the peirce profile it is a reported
diagnostic, as in PEARL), a
rooted graph ends in one claim root (the storage scaffolding does not count),
and CG = REA = 1. Residuals, as PEARL names them:

- ``final_judge_failed``: some unit got no vote in the final round (every judge failed on it);
- ``no_reliable_anchor``: a unit still rejected had no grounded node to repair from, so it was never repaired;
- ``metric_regression``: a repair round made the metrics worse and was rolled back;
- ``final_gate_failed``: the strict gate did not hold for any other reason (units still rejected
  after the bounded rounds, structure, critical rules, grounding, no claim root).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from claimgraph.context import Context
from claimgraph.judge.voting import CORRECT, INCORRECT, UNJUDGED, UnitOutcome
from claimgraph.quality.gate import CRITICAL, GRAPH_STAGE, declared_residuals, stored_residuals
from claimgraph.quality.grounding import GroundingAudit, foreign_graph_violations
from claimgraph.quality.reports import RuleViolation
from claimgraph.quality.rules import profile_rules
from claimgraph.quality.semantic import rule_violations, semantic_rules

NO_RELIABLE_ANCHOR = "no_reliable_anchor"
FINAL_GATE_FAILED = "final_gate_failed"
METRIC_REGRESSION = "metric_regression"
FINAL_JUDGE_FAILED = "final_judge_failed"
JUDGE_STAGE = "judge"
RESIDUAL_ORDER = (FINAL_JUDGE_FAILED, NO_RELIABLE_ANCHOR, METRIC_REGRESSION, FINAL_GATE_FAILED)
EPSILON = 1e-9


@dataclass(frozen=True)
class Metrics:
    units: int
    cg: float
    rea: float
    critical: int
    grounded_share: float

    def worse_than(self, before: Metrics) -> bool:
        """A regression: lower CG or REA or grounded share, or more critical violations."""
        return (self.cg < before.cg - EPSILON or self.rea < before.rea - EPSILON
                or self.grounded_share < before.grounded_share - EPSILON or self.critical > before.critical)


def critical_violations(ctx: Context, paper_id: str, audit: GroundingAudit) -> list[RuleViolation]:
    """Critical rows of the profile's gate rules and of its semantic rules on the paper graph, the row naming the
    stored paper the graph is of when it is another's (``audit``: the paper's grounding audit), and one row per
    residual the step reading the input left on the paper (a cut or malformed response): judge repair works on
    what was read, so it cannot restore what the response lost, and such a graph is never accepted."""
    paper = ctx.iris.paper(paper_id)
    rules = [rule for rule in (*profile_rules(ctx.profile), *semantic_rules(ctx.profile)) if rule.severity == CRITICAL]
    found = [*rule_violations(ctx.store, paper, rules, ctx.vocabulary), *foreign_graph_violations(ctx.store, ctx.iris, audit, paper)]
    return found + [RuleViolation(paper, "input", paper, f"the response as read is {label}: judge repair cannot restore what it lost", label)
                    for label in input_residuals(ctx, paper_id)]


def input_residuals(ctx: Context, paper_id: str) -> list[str]:
    """The paper's stored residual labels of the input stage (neither recomputed by the gate nor set by judges)."""
    declared = declared_residuals(ctx.profile)
    return [label for label in stored_residuals(ctx.store, ctx.iris.paper(paper_id))
            if label not in declared or declared[label].stage not in (GRAPH_STAGE, JUDGE_STAGE)]


def measure(outcomes: Sequence[UnitOutcome], critical: Sequence[RuleViolation], audit: GroundingAudit) -> Metrics:
    units = len(outcomes)
    if not units:
        return Metrics(0, 0.0, 0.0, len(critical), audit.grounded_share)
    cg = sum(outcome.grounded for outcome in outcomes) / units
    rea = sum(outcome.majority == CORRECT for outcome in outcomes) / units
    return Metrics(units, cg, rea, len(critical), audit.grounded_share)


def blocks_on_grounding(audit: GroundingAudit) -> bool:
    """A failed grounding audit blocks the strict gate only where the profile makes it critical
    (``[grounding] severity``); otherwise it is reported beside the gate with its own verdict."""
    return audit.settings.severity == CRITICAL and audit.assessable and not audit.passed


@dataclass
class FinalGate:
    accepted: bool
    residuals: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)


def final_gate(metrics: Metrics, outcomes: Sequence[UnitOutcome], critical: Sequence[RuleViolation], audit: GroundingAudit,
               unanchored: set[str], regressed: bool, finals: int = 1) -> FinalGate:
    """The strict gate on the final graph and the typed residuals when it fails.

    ``finals`` is how many final conclusions the graph ends in (evaluation
    view) when the profile's graphs are rooted, else 1: a rooted graph needs
    exactly one, its claim root.
    """
    reasons = [f"{violation.rule}: {violation.reason}" for violation in critical[:5]]
    if finals != 1:
        reasons.append(f"the graph ends in {finals} conclusions, not in one claim root")
    if len(critical) > 5:
        reasons.append(f"... {len(critical) - 5} more critical rule violations")
    grounding_blocks = blocks_on_grounding(audit)
    if grounding_blocks:
        reasons.append(f"grounding: {audit.grounded_share:.0%} of anchored nodes grounded (needs {audit.settings.min_grounded_share:.0%}), "
                       f"{audit.implicit_share:.0%} implicit (at most {audit.settings.max_implicit_share:.0%})")
    if metrics.units == 0:
        reasons.append("no reasoning units to judge")
    rejected = [outcome for outcome in outcomes if outcome.majority == INCORRECT]
    unjudged = [outcome for outcome in outcomes if outcome.majority == UNJUDGED]
    reasons += [f"unit into {outcome.unit.conclusion.local}: {outcome.correct} correct, {outcome.incorrect} incorrect" for outcome in rejected[:5]]
    reasons += [f"unit into {outcome.unit.conclusion.local}: no judge voted ({len(outcome.failures)} failures)" for outcome in unjudged[:5]]
    accepted = (not critical and not grounding_blocks and finals == 1 and metrics.units > 0
                and metrics.cg >= 1.0 - EPSILON and metrics.rea >= 1.0 - EPSILON)
    if accepted:
        return FinalGate(True)
    residuals = []
    if unjudged:
        residuals.append(FINAL_JUDGE_FAILED)
    if any(outcome.unit.key in unanchored for outcome in rejected):
        residuals.append(NO_RELIABLE_ANCHOR)
    if regressed:
        residuals.append(METRIC_REGRESSION)
    if not residuals:
        residuals.append(FINAL_GATE_FAILED)
    if metrics.units and metrics.cg < 1.0 - EPSILON:
        reasons.append(f"CG {metrics.cg:.3f} < 1")
    return FinalGate(False, residuals, reasons)
