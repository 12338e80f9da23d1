"""Extract one paper with the LLM: run the steps, store the raw graph after each, measure it.

After every step the paper's raw named graph is replaced with the current
extraction and the gate measures it by SPARQL in the store (plus the number of
nodes failing their shape), so the table of before/after figures comes from
the store, not from counters kept here. At the end the paper graph gets the
same content; repairs and the final
gate follow in claimgraph.quality.repair.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from pyoxigraph import NamedNode

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.extract.model import PaperExtraction, extraction_triples, node_iri
from claimgraph.extract.steps import STEPS, Extractor, StepLog
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.client import LLMClient, open_client
from claimgraph.llm.config import LLMConfig
from claimgraph.loaders.document import Document
from claimgraph.papers.audit import Activity, now
from claimgraph.profile.ontology import extracted_class_names
from claimgraph.quality.gate import measure_graph
from claimgraph.quality.validation import validate_graph

SHAPE_VIOLATIONS = "shape_violations"


@dataclass
class ExtractionReport:
    paper_id: str
    steps: list[StepLog] = field(default_factory=list)
    measures: list[tuple[str, dict[str, int]]] = field(default_factory=list)  # (after step, measures of the raw graph)
    activities: list[Activity] = field(default_factory=list)

    @property
    def failed_calls(self) -> list[str]:
        return [f"{log.step} {failure}" for log in self.steps for failure in log.failed_calls]


def measure_with_shapes(ctx: Context, paper_id: str, graph: NamedNode) -> dict[str, int]:
    """The gate measures of one of the paper's graphs, plus how many of its nodes fail their shape."""
    measures = measure_graph(ctx, graph, ctx.iris.paper(paper_id))
    measures[SHAPE_VIOLATIONS] = validate_graph(ctx, graph).nodes_failed
    return measures


async def extract_paper(ctx: Context, document: Document, client: LLMClient, max_reprompts: int = 2) -> ExtractionReport:
    """Run every step on the document (already stored by ingest) and leave the result in its raw and paper graphs."""
    store, iris, profile = ctx.store, ctx.iris, ctx.profile
    pid = document.paper_id
    report = ExtractionReport(pid)
    extraction = PaperExtraction(document)
    raw, paper = iris.raw_graph(pid), iris.paper(pid)
    extractor = Extractor(client, profile, iris, extracted_class_names(profile), max_reprompts)
    for step in STEPS:
        started = now()
        before = {node_iri(iris, pid, node) for node in extraction.nodes.values()}
        log: StepLog = await getattr(extractor, step)(extraction)
        store.replace_graph(raw, extraction_triples(extraction, iris, profile))
        measures = measure_with_shapes(ctx, pid, raw)
        report.steps.append(log)
        report.measures.append((step, measures))
        after = {node_iri(iris, pid, node) for node in extraction.nodes.values()}
        notes = {f"note {n:03d}": text for n, text in enumerate(log.notes + log.failed_calls, start=1)}
        counts = {**log.counts(), **client.accounting.as_activity_counts(pid, step)}
        report.activities.append(Activity("extract", step, counts, sorted(after ^ before, key=str), notes, started, now()))
        report.activities.append(Activity("gate", f"after {step}", measures, ended=now()))
    store.replace_graph(paper, extraction_triples(extraction, iris, profile))
    return report


async def _extract_all(ctx: Context, documents: Sequence[Document], config: LLMConfig, accounting: Accounting) -> dict[str, ExtractionReport | ClaimgraphError]:
    async with open_client(config, accounting) as client:

        async def one(document: Document) -> tuple[str, ExtractionReport | ClaimgraphError]:
            try:
                return document.paper_id, await extract_paper(ctx, document, client)
            except ClaimgraphError as error:
                return document.paper_id, error

        return dict(await asyncio.gather(*(one(document) for document in documents)))


def run_extractions(ctx: Context, documents: Sequence[Document], config: LLMConfig, accounting: Accounting) -> dict[str, ExtractionReport | ClaimgraphError]:
    """Extract several papers at once, sharing one client (and its concurrency bound); a paper's error is its own."""
    if not documents:
        return {}
    return asyncio.run(_extract_all(ctx, documents, config, accounting))
