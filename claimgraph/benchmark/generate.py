"""Reasoning graphs written by LLMs for stored papers, one run per model, then the same loop as ``score``.

Each model's papers go through one LLM client (``run_reasoning_extractions``:
its concurrency bound, response cache, circuit breaker and per-paper budget).
A paper whose call failed (an HTTP error after retries, a timeout, an open
breaker, a reply with no graph) is recorded as a benchmark run with the
residual ``extraction_failed`` and the reason; the batch goes on. A (model,
paper) run already stored is skipped before any call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from pyoxigraph import Literal

from claimgraph.benchmark.scoring import JudgePlan, Scored, Source, ablation_name, record_run, score_response
from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.extract.reasoning import run_reasoning_extractions
from claimgraph.extract.runner import extraction_agent
from claimgraph.llm.accounting import Accounting, Counters
from claimgraph.llm.config import LLMConfig
from claimgraph.papers.audit import now
from claimgraph.papers.stored_document import stored_document
from claimgraph.rdf.binding import Term
from claimgraph.rdf.queries import read_sparql
from claimgraph.reasoning.materialize import no_graph_reason

EXTRACTION_FAILED = "extraction_failed"


def has_run(ctx: Context, paper_id: str, model: str, ablation: str) -> bool:
    """Whether any benchmark run of this model and ablation is stored for the paper (whatever its response)."""
    bindings: dict[str, Term] = {"audit": ctx.iris.audit_graph(paper_id), "run": Literal(model), "ablation": Literal(ablation)}
    return ctx.store.ask(read_sparql("benchmark", "stored-run.rq"), bindings)


def generate(ctx: Context, paper_ids: Sequence[str], models: Sequence[str], llm: LLMConfig, plan: JudgePlan | None,
             on_item: Callable[[str, str, Scored | None, str | None], None] | None = None) -> list[str]:
    """Ask each model for each paper's reasoning graph and score the replies; returns the problems (named)."""

    problems: list[str] = []
    for model in models:
        config = replace(llm, model=model)
        todo = [paper_id for paper_id in paper_ids if not has_run(ctx, paper_id, model, ablation_name(plan))]
        documents = []
        for paper_id in todo:
            try:
                documents.append(stored_document(ctx.store, ctx.iris, paper_id))
            except ClaimgraphError as error:
                problems.append(f"paper {paper_id}: {error}")
        accounting = Accounting()
        replies = run_reasoning_extractions(ctx, documents, config, accounting, no_graph_reason)
        agent = extraction_agent(ctx, config, "reasoning")
        for paper_id, reply in replies.items():
            source = Source(model, agent, f"{model} reply for {paper_id}", accounting.total(paper_id))
            try:
                if reply.text is None:
                    reason = "; ".join(reply.log.failed_calls + reply.log.skipped_calls) or "no usable reply"
                    record_failed(ctx, paper_id, source, ablation_name(plan), reason)
                    scored, problem = Scored(model, paper_id, accepted=False), f"paper {paper_id}, model {model}: {EXTRACTION_FAILED}: {reason}"
                else:
                    scored, problem = score_response(ctx, paper_id, reply.text, source, plan), None
            except ClaimgraphError as error:
                scored, problem = None, f"paper {paper_id}, model {model}: {error}"
            if problem:
                problems.append(problem)
            if on_item is not None:
                on_item(model, paper_id, scored, problem)
    return problems


def record_failed(ctx: Context, paper_id: str, source: Source, ablation: str, reason: str) -> None:
    """A run whose call gave nothing: stored as a benchmark run with the residual extraction_failed and why."""
    started: datetime = now()
    record_run(ctx, paper_id, source, ablation, "", Counters(), [], started,
               extra_notes={"residual": EXTRACTION_FAILED, "failure": reason[:2000]})
