"""The reasoning profile's extraction: one reasoning-graph reply per paper, read into content the workflow repairs.

The LLM call is ``claimgraph.extract.reasoning``'s; the reply is materialized
here (``peirce.reasoning_content``) and handed back held in memory, so that the
workflow repairs, gates and stores it exactly as it does every profile's
extraction. A paper whose call gave no usable reply keeps its structure and
gets the residual ``extraction_failed``; the workflow repairs and gates it with
the batch.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyoxigraph import Literal, Triple

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.extract.reasoning import REASONING_STEP, ReasoningReply, run_reasoning_extractions
from claimgraph.extract.runner import EXTRACTION_FAILED, ExtractionReport, measure_with_shapes
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.config import LLMConfig
from claimgraph.loaders.document import Document
from claimgraph.papers.audit_append import record
from claimgraph.papers.stored_document import stored_document
from claimgraph.plugins import ExtractorPlugin
from claimgraph.quality.repair import HeldContent
from claimgraph.rdf.vocab import CG
from claimgraph.reasoning.materialize import no_graph_reason
from claimgraph.reasoning.peirce import reasoning_content

Reports = dict[str, "ExtractionReport | ClaimgraphError"]


def extract_reasoning(ctx: Context, documents: Sequence[Document], llm: LLMConfig, accounting: Accounting) -> Reports:
    """Ask for each paper's reasoning graph and read each reply into held content (nothing repaired here)."""
    reports: Reports = {}
    for paper_id, reply in run_reasoning_extractions(ctx, documents, llm, accounting, no_graph_reason).items():
        try:
            reports[paper_id] = _read_reply(ctx, reply, f"{REASONING_STEP} reply of {llm.model}")
        except ClaimgraphError as error:
            reports[paper_id] = error
    return reports


def rerun_reasoning(ctx: Context, paper_ids: Sequence[str], steps: Sequence[str], llm: LLMConfig, accounting: Accounting) -> Reports:
    """Ask again for the reasoning graph of stored papers (the profile has the one step ``reasoning``)."""
    if list(steps) != [REASONING_STEP]:
        raise ClaimgraphError(f"profile {ctx.profile.name} has one extraction step, {REASONING_STEP!r}; not {', '.join(steps)}")
    reports: Reports = {}
    documents = []
    for paper_id in paper_ids:
        try:
            documents.append(stored_document(ctx.store, ctx.iris, paper_id))
        except ClaimgraphError as error:
            reports[paper_id] = error
    return {**reports, **extract_reasoning(ctx, documents, llm, accounting)}


def _read_reply(ctx: Context, reply: ReasoningReply, source_name: str) -> ExtractionReport:
    """The call is recorded first (its agent, the nodes it stated); the reply's content is held for the workflow."""
    store, iris, paper_id = ctx.store, ctx.iris, reply.paper_id
    report = ExtractionReport(paper_id, steps=[reply.log])
    if reply.text is None:
        report.residual = EXTRACTION_FAILED
        report.activities.append(reply.activity)
        store.insert({iris.paper(paper_id): [Triple(iris.paper(paper_id), CG.residual, Literal(EXTRACTION_FAILED))]})
        report.measures.append((REASONING_STEP, measure_with_shapes(ctx, paper_id, iris.raw_graph(paper_id))))
        return report
    content = reasoning_content(ctx, paper_id, reply.text, source_name)
    reply.activity.generated = [iris.extracted_node(paper_id, node) for node in content.parsed.nodes]
    record(store, iris, paper_id, [reply.activity])
    report.activities.append(content.activity)

    def write_and_measure(repaired: list[Triple], residuals: list[Triple], audit: str) -> None:
        """Store the content, then measure the raw graph that now holds the reply as read."""
        content.held.write(repaired, residuals, audit)
        report.measures.append((REASONING_STEP, measure_with_shapes(ctx, paper_id, iris.raw_graph(paper_id))))

    report.held = HeldContent(content.held.content, write_and_measure)
    return report


REASONING = ExtractorPlugin("reasoning", (REASONING_STEP,), extract_reasoning, rerun_reasoning, reads_given_claims=True)
"""One reasoning graph per paper (the peirce profile), ARCHE input included; pyproject.toml registers it."""
