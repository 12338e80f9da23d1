"""The PEARL loop on one response per model and paper, every figure kept in the store.

For each (model, paper): the response is materialized, repaired and gated
through ``Workflow.store_reasoning`` with ``run=<model>`` (the repaired graph
kept as run graph ``<paper>/run/<model>``); when judges are configured, the
judge-feedback repair runs in bounded rounds and the strict gate decides, and
the judged graph, when a repair or a claim root changed it, is kept as run
``<model>.<ablation>``. A ``benchmark``
activity in the paper's audit graph then records the run: associated with the
model as a ``prov:SoftwareAgent``, ``prov:wasInformedBy`` the gate activity and
the judge run it links, ``prov:generated`` the run graph, with the LLM calls
and tokens as counts. The table (``claimgraph.benchmark.table``) reads these
back with shipped queries; nothing here counts for it.

A run already stored (same model, ablation and response text) is skipped
before anything is read or called, so a re-run makes no LLM call.

The judge stage can be ablated (``claimgraph.benchmark.ablations``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph import __version__
from claimgraph.benchmark.ablations import ablated
from claimgraph.consensus.runs import run_graph, snapshot_run
from claimgraph.context import Context
from claimgraph.judge.settings import JudgeSettings
from claimgraph.llm.accounting import Accounting, Counters
from claimgraph.llm.config import LLMConfig
from claimgraph.papers.audit import Activity, SoftwareAgent, activity_iri, activity_triples, next_sequence, now
from claimgraph.rdf.binding import Term
from claimgraph.rdf.queries import read_sparql
from claimgraph.rdf.vocab import PROV
from claimgraph.workflow import Workflow

NOT_JUDGED = "none"
RECORDED = "recorded archive"


@dataclass(frozen=True)
class JudgePlan:
    """Who judges (``llm``: their endpoint or recordings) and how, under which ablation."""

    settings: JudgeSettings
    llm: LLMConfig
    ablation: str = "full"


@dataclass(frozen=True)
class Source:
    """Where a response came from: the model that wrote it, its agent, and what asking for it cost."""

    model: str
    agent: SoftwareAgent
    name: str
    generation: Counters = field(default_factory=Counters)


def recorded_source(model: str, path: Path) -> Source:
    """A response read from an archive: its agent is the model, at no endpoint, with no prompt of ours."""
    return Source(model, SoftwareAgent(model, RECORDED, "recorded", __version__), str(path))


@dataclass
class Scored:
    """What scoring one response did (for progress lines; the table reads the store)."""

    model: str
    paper_id: str
    skipped: bool = False
    accepted: bool | None = None
    judged: str | None = None


def response_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def ablation_name(plan: JudgePlan | None) -> str:
    return plan.ablation if plan is not None else NOT_JUDGED


def already_scored(ctx: Context, paper_id: str, model: str, ablation: str, digest: str) -> bool:
    bindings: dict[str, Term] = {"audit": ctx.iris.audit_graph(paper_id), "run": Literal(model), "ablation": Literal(ablation), "sha": Literal(digest)}
    return ctx.store.ask(read_sparql("benchmark", "stored-run.rq"), bindings)


def latest_activity(ctx: Context, paper_id: str, kind: str) -> NamedNode | None:
    rows = ctx.store.select(read_sparql("benchmark", "latest-activity.rq"), {"audit": ctx.iris.audit_graph(paper_id), "kind": Literal(kind)})
    return rows[0]["activity"] if rows else None  # type: ignore[return-value]


def score_response(ctx: Context, paper_id: str, text: str, source: Source, plan: JudgePlan | None) -> Scored:
    """The loop on one response (see the module docstring); skipped when this run is already stored."""
    ablation, digest = ablation_name(plan), response_hash(text)
    if already_scored(ctx, paper_id, source.model, ablation, digest):
        return Scored(source.model, paper_id, skipped=True)
    workflow = Workflow(ctx)
    started = now()
    result = workflow.store_reasoning(paper_id, text, source.name, run=source.model)
    informed = [latest_activity(ctx, paper_id, "gate")]
    judging = Counters()
    scored = Scored(source.model, paper_id, accepted=bool(result.repair.gate and result.repair.gate.accepted))
    if plan is not None:
        accounting = Accounting()
        [judged] = workflow.judge(ablated(plan.settings, plan.ablation), plan.llm, [paper_id], accounting)
        scored.judged = judged.verdict
        informed.append(latest_activity(ctx, paper_id, "judge"))
        judging = accounting.total(paper_id)
        if judged.repairs_applied or judged.root_built:  # otherwise the judged graph is the run graph already kept

            snapshot_run(ctx, paper_id, f"{source.model}.{ablation}")
    judges = "not run" if plan is None else ("replayed from " + str(plan.llm.replay_dir) if plan.llm.replay_dir else "run")
    record_run(ctx, paper_id, source, ablation, digest, judging, [iri for iri in informed if iri is not None], started, judges=judges)
    return scored


def record_run(ctx: Context, paper_id: str, source: Source, ablation: str, digest: str, judging: Counters,
               informed: Sequence[NamedNode], started: datetime, extra_notes: Mapping[str, str] | None = None,
               judges: str = "not run") -> NamedNode:
    """The ``benchmark`` activity of one run, with its links, in the paper's audit graph."""

    generation = source.generation
    counts = {"llm_calls": generation.calls, "llm_tokens": generation.prompt_tokens + generation.completion_tokens,
              "llm_failed_calls": generation.failures + generation.skipped,
              "judge_calls": judging.calls, "judge_tokens": judging.prompt_tokens + judging.completion_tokens}
    notes = {"run": source.model, "ablation": ablation, "response": Path(source.name).name, "response_sha256": digest,
             "judges": judges, **(extra_notes or {})}
    activity = Activity("benchmark", "benchmark run", counts, notes=notes, started=started, ended=now(), agent=source.agent)
    audit = ctx.iris.audit_graph(paper_id)
    sequence = next_sequence(ctx.store, ctx.iris, paper_id)
    iri = activity_iri(audit, sequence, activity)
    triples = list(activity_triples(ctx.iris, paper_id, sequence, activity))
    triples += [Triple(iri, PROV.wasInformedBy, informed_iri) for informed_iri in informed]
    if informed:  # a response was stored: its repaired graph is the run graph
        triples.append(Triple(iri, PROV.generated, run_graph(ctx, paper_id, source.model)))
    ctx.store.insert({audit: triples})
    return iri
