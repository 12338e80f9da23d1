"""One judge-feedback repair run on a stored paper (PEARL stage 2), and a batch of them.

1. Nothing to do when the paper's last run had the same settings and left the
   graph as it is now (no call, nothing recorded).
2. Claim root: when the profile's graphs are rooted (``build_root``) and the
   graph ends in several conclusions, the repairer is asked for the paper-level
   claim linking them; the storage scaffolding goes.
3. Round 0: every judge votes on every unit (votes on unchanged units reused).
4. Rounds 1..R: each unit with an incorrect majority and a grounded node is
   repaired locally by the LLM with the judges' matched feedback (the
   repairs of a round are asked concurrently and applied one after another);
   the repair scripts run; changed units are judged again, unchanged ones keep
   their votes. A round that makes the metrics worse is rolled back and ends
   the run (``metric_regression``). A rejected unit without a grounded node is
   not repaired (``no_reliable_anchor``).
5. The final strict gate (claimgraph.judge.evaluation), the run in the audit
   graph (claimgraph.judge.records), its residual labels on the paper (stage
   "judge" in ontology/residuals.ttl: the gate keeps them), and the profile's
   repair + gate once more when the graph changed, so the paper's stored gate
   outcome is current.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from pyoxigraph import NamedNode, Triple

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.judge.edits import EditContext, PlanError, apply_repair, apply_root
from claimgraph.judge.evaluation import critical_violations, final_gate, measure
from claimgraph.judge.prompts import ReplyError, parse_repair, parse_root, repair_messages, root_messages, unit_labels
from claimgraph.judge.records import RunRecord, last_run, stored_votes, write_paper_residuals, write_run
from claimgraph.judge.settings import JudgeSettings
from claimgraph.judge.units import Unit, read_units, terminals, unit_node
from claimgraph.judge.voting import INCORRECT, Panel, UnitOutcome, known_votes
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.client import CallTag, LLMCallFailed
from claimgraph.llm.config import LLMConfig
from claimgraph.papers.audit import Activity, now
from claimgraph.papers.input_rows import input_rows
from claimgraph.profile.ontology import edge_label_key, edge_labels
from claimgraph.quality.grounding import GroundingAudit, audit_paper
from claimgraph.quality.repair import repair_graph, repair_paper
from claimgraph.rdf.vocab import CG


class JudgeError(ClaimgraphError):
    """A judge run cannot start (paper missing)."""


@dataclass
class JudgeResult:
    paper_id: str
    verdict: str
    residuals: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    cg: float = 0.0
    rea: float = 0.0
    units: int = 0
    rounds: int = 0
    repairs_applied: int = 0
    repairs_failed: int = 0
    judge_failures: int = 0
    root_built: bool = False
    skipped: bool = False

    @property
    def accepted(self) -> bool:
        return self.verdict == "accepted"


@dataclass
class _State:
    """What a run carries between its steps."""

    audit: GroundingAudit
    units: list[Unit]
    outcomes: list[UnitOutcome] = field(default_factory=list)
    history: list[UnitOutcome] = field(default_factory=list)
    repairs: list[Activity] = field(default_factory=list)
    unanchored: set[str] = field(default_factory=set)
    changed: bool = False
    regressed: bool = False
    root_built: bool = False
    rounds: int = 0


def state_hash(units: Sequence[Unit], audit: GroundingAudit) -> str:
    parts = sorted(unit.key for unit in units) + sorted(f"{node.node.value}\x1e{node.text}\x1e{node.source}" for node in audit.nodes)
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:20]


def edit_context(ctx: Context, paper_id: str, settings: JudgeSettings) -> EditContext:
    allowed = unit_labels(ctx.profile)
    properties = edge_labels(ctx.profile)
    labels = {label: NamedNode(properties[label]) for label in allowed}
    labels.update({alias: labels[target] for alias, target in ctx.profile.aliases.items() if target in labels})
    return EditContext(ctx.iris, paper_id, {edge_label_key(key): value for key, value in labels.items()}, _StoredAnchors(ctx, paper_id),
                       CG[settings.node_class])


class _StoredAnchors(Mapping[tuple[int, int, int], NamedNode]):
    """Where each source tuple of the paper points, read on first use (most judge runs edit nothing) through
    ``input_rows``, which the materializer of the same paper has often filled already."""

    def __init__(self, ctx: Context, paper_id: str) -> None:
        self._ctx, self._paper_id = ctx, paper_id
        self._anchors: dict[tuple[int, int, int], NamedNode] | None = None

    def _read(self) -> dict[tuple[int, int, int], NamedNode]:
        if self._anchors is None:
            self._anchors = {}
            for row in input_rows(self._ctx.store, self._ctx.iris, self._paper_id, "source-anchors"):
                self._anchors.setdefault((int(row["x"].value), int(row["y"].value), int(row["z"].value)), cast(NamedNode, row["anchor"]))
        return self._anchors

    def __getitem__(self, key: tuple[int, int, int]) -> NamedNode:
        return self._read()[key]

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


def _reload(ctx: Context, paper_id: str, state: _State) -> None:
    state.audit = audit_paper(ctx, paper_id)
    state.units = read_units(ctx, paper_id, state.audit)


def _write(ctx: Context, paper_id: str, triples: list[Triple], state: _State) -> None:
    ctx.store.replace_graph(ctx.iris.paper(paper_id), triples)
    repair_graph(ctx, ctx.iris.paper(paper_id))
    state.changed = True
    _reload(ctx, paper_id, state)


def _activity(name: str, counts: dict[str, int], touched: Sequence[NamedNode], notes: dict[str, str]) -> Activity:
    return Activity("judge-repair", name, counts, list(touched), notes=notes, ended=now())


async def _build_root(ctx: Context, paper_id: str, panel: Panel, edit: EditContext, state: _State) -> None:
    nodes = [unit_node(node.node, node.text, state.audit) for node in state.audit.nodes]
    finals = terminals(state.units, nodes)
    if len(finals) < 2:
        return
    model = {"model": panel.llm.model}
    try:
        plan = parse_root(await panel.ask(root_messages(ctx.profile, paper_id, finals), CallTag(paper_id, "judge-root")))
        change = apply_root(ctx.store.triples(ctx.iris.paper(paper_id)), finals, plan, edit)
    except (LLMCallFailed, ReplyError, PlanError) as failure:
        state.repairs.append(_activity("claim root", {"applied": 0}, [], {**model, "outcome": "failed", "reason": str(failure)[:500]}))
        return
    _write(ctx, paper_id, change.triples, state)
    state.root_built = True
    state.repairs.append(_activity("claim root", {"applied": 1, **change.counts}, change.touched, {**model, "outcome": "applied", "note": plan.note}))


async def _repair_round(ctx: Context, paper_id: str, panel: Panel, edit: EditContext, round_number: int, state: _State) -> int:
    """Repair the round's rejected, anchored units; returns how many repairs were applied."""
    rejected = [outcome for outcome in state.outcomes if outcome.majority == INCORRECT]
    state.unanchored |= {outcome.unit.key for outcome in rejected if not outcome.unit.anchored}
    chosen = [outcome for outcome in rejected if outcome.unit.anchored]
    tag = CallTag(paper_id, "judge-repair")
    replies = await asyncio.gather(*(panel.ask(repair_messages(ctx.profile, paper_id, o.unit, o.feedback), tag) for o in chosen),
                                   return_exceptions=True)
    triples = ctx.store.triples(ctx.iris.paper(paper_id))
    predicates = {NamedNode(iri) for iri in edge_labels(ctx.profile).values()} | {CG.aggregatedInto}
    applied = 0
    for outcome, reply in zip(chosen, replies):
        notes = {"model": panel.llm.model, "round": str(round_number), "unit": outcome.unit.conclusion.local,
                 "feedback": " | ".join(outcome.feedback)[:2000] or "none"}
        try:
            if isinstance(reply, BaseException):
                raise reply
            plan = parse_repair(reply)
            change = apply_repair(triples, outcome.unit, plan, edit, predicates)
        except (LLMCallFailed, ReplyError, PlanError) as failure:
            state.repairs.append(_activity(f"repair unit {outcome.unit.conclusion.local}", {"applied": 0}, [outcome.unit.conclusion.iri],
                                           {**notes, "outcome": "failed", "reason": str(failure)[:500]}))
            continue
        triples = change.triples
        applied += 1
        state.repairs.append(_activity(f"repair unit {outcome.unit.conclusion.local}", {"applied": 1, **change.counts}, change.touched,
                                       {**notes, "outcome": "applied", "note": plan.note or "none"}))
    if applied:
        _write(ctx, paper_id, triples, state)
    return applied


async def judge_paper(ctx: Context, paper_id: str, settings: JudgeSettings, panel: Panel) -> JudgeResult:
    """One judge run on a stored paper (see the module docstring)."""
    paper = ctx.iris.paper(paper_id)
    if not ctx.store.ask("ASK WHERE { GRAPH ?graph { ?graph ?p ?o } }", {"graph": paper}):
        raise JudgeError(f"no paper {paper_id!r} in the store at {ctx.store.location}")
    audit = audit_paper(ctx, paper_id)
    state = _State(audit, read_units(ctx, paper_id, audit))
    fingerprint = settings.fingerprint(panel.llm)
    previous = last_run(ctx, paper_id)
    if previous and previous.settings_hash == fingerprint and previous.state_hash == state_hash(state.units, state.audit):
        return JudgeResult(paper_id, previous.verdict, list(previous.residuals), ["unchanged since the last judge run"], previous.cg,
                           previous.rea, len(state.units), previous.rounds, skipped=True)
    from_store = stored_votes(ctx, paper_id, panel.signatures)
    known = dict(from_store)
    edit = edit_context(ctx, paper_id, settings)
    if settings.build_root and settings.repair:
        await _build_root(ctx, paper_id, panel, edit, state)
    state.outcomes = await panel.judge_units(ctx.profile, paper_id, state.units, 0, known)
    state.history += state.outcomes
    known.update(known_votes(state.outcomes))
    critical = critical_violations(ctx, paper_id, state.audit)
    metrics = measure(state.outcomes, critical, state.audit)
    for round_number in range(1, settings.rounds + 1 if settings.repair else 1):
        if not any(outcome.majority == INCORRECT for outcome in state.outcomes):
            break  # nothing rejected: no repair, the graph and its rule rows stay as they are
        snapshot = ctx.store.triples(paper)
        if not await _repair_round(ctx, paper_id, panel, edit, round_number, state):
            break
        state.rounds = round_number
        outcomes = await panel.judge_units(ctx.profile, paper_id, state.units, round_number, known)
        state.history += outcomes
        known.update(known_votes(outcomes))
        after = measure(outcomes, critical_violations(ctx, paper_id, state.audit), state.audit)
        if after.worse_than(metrics):
            state.regressed = True
            _write(ctx, paper_id, snapshot, state)
            for activity in state.repairs:
                if activity.notes.get("round") == str(round_number) and activity.notes.get("outcome") == "applied":
                    activity.notes = {**activity.notes, "outcome": "rolled back (metric regression)"}
            state.outcomes = await panel.judge_units(ctx.profile, paper_id, state.units, round_number + 1, known)
            state.history += state.outcomes
            metrics = measure(state.outcomes, critical_violations(ctx, paper_id, state.audit), state.audit)
            break
        state.outcomes, metrics = outcomes, after
    if state.changed:
        critical = critical_violations(ctx, paper_id, state.audit)
    finals = len(terminals(state.units, [unit_node(n.node, n.text, state.audit) for n in state.audit.nodes])) if settings.build_root else 1
    gate = final_gate(metrics, state.outcomes, critical, state.audit, state.unanchored, state.regressed, finals)
    result = JudgeResult(
        paper_id, "accepted" if gate.accepted else "residual", gate.residuals, gate.reasons, metrics.cg, metrics.rea, metrics.units,
        state.rounds, sum(a.counts.get("applied", 0) for a in state.repairs if a.notes.get("outcome") == "applied"),
        sum(1 for a in state.repairs if a.notes.get("outcome") == "failed"), sum(len(o.failures) for o in state.history), state.root_built,
    )
    _record(ctx, paper_id, settings, panel, state, result, fingerprint, frozenset(from_store))
    write_paper_residuals(ctx, paper_id, result.residuals)
    if state.changed:
        repair_paper(ctx, paper_id)
    return result


def _record(ctx: Context, paper_id: str, settings: JudgeSettings, panel: Panel, state: _State, result: JudgeResult,
            fingerprint: str, from_store: frozenset[tuple[str, str]]) -> None:
    counts = {"units": result.units, "rounds": result.rounds, "repairs_applied": result.repairs_applied,
              "repairs_failed": result.repairs_failed, "judge_failures": result.judge_failures, "judges": len(settings.judges),
              "votes": sum(len(outcome.votes) for outcome in state.history), "root_built": int(result.root_built)}
    notes = {"verdict": result.verdict, "residuals": ", ".join(result.residuals) or "none", "cg": f"{result.cg:.3f}", "rea": f"{result.rea:.3f}",
             "repair_model": panel.llm.model, "judges": ", ".join(f"{judge.name}={judge.model}" for judge in settings.judges),
             "reasons": " | ".join(result.reasons)[:2000] or "none"}
    activity = Activity("judge", "judge-feedback repair", counts, notes=notes, ended=now())
    hosts = {judge: judge.host(panel.llm.base_url) for judge in settings.judges}
    record = RunRecord(activity, state.repairs, state.history, panel.signatures, hosts, from_store, result.cg, result.rea, result.verdict,
                       result.residuals, fingerprint, state_hash(state.units, state.audit))
    write_run(ctx, paper_id, record)


def judge_papers(ctx: Context, paper_ids: Sequence[str], settings: JudgeSettings, llm: LLMConfig, accounting: Accounting,
                 on_paper: Callable[[JudgeResult], None] | None = None) -> list[JudgeResult]:
    """Judge runs on several papers, one after another, through one panel of clients."""

    async def run_all() -> list[JudgeResult]:
        results = []
        async with Panel(settings, llm, accounting) as panel:
            for paper_id in paper_ids:
                result = await judge_paper(ctx, paper_id, settings, panel)
                results.append(result)
                if on_paper is not None:
                    on_paper(result)
        return results

    return asyncio.run(run_all())


def judge_calls(accounting: Accounting, paper_id: str, settings: JudgeSettings) -> dict[str, int]:
    """LLM requests answered by the backend for a paper's judge run, by kind (cache hits are not calls)."""
    phases = {"judges": [f"judge:{judge.name}" for judge in settings.judges], "repairs": ["judge-repair"], "root": ["judge-root"]}
    return {kind: sum(accounting.counters(CallTag(paper_id, phase)).calls for phase in names) for kind, names in phases.items()}
