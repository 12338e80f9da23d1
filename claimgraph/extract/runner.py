"""Extract one paper with the LLM: run the steps, store the raw graph after each, measure it.

After every step the paper's raw named graph is replaced with the current
extraction and the gate measures it by SPARQL in the store (plus the number of
nodes failing their shape and the co-location pairs of seed 002), so the table
of before/after figures comes from the store, not from counters kept here. At
the end the paper graph gets the same content; repairs and the final gate
follow in claimgraph.quality.repair.

Each step is an audit activity associated with the software agent that ran it
(model, endpoint host, parameters, prompt template hash, version), and every
node points to the step that generated it. A paper some of whose calls gave no
usable reply is a typed residual written on the paper graph:
``extraction_failed`` when nothing was extracted, ``extraction_incomplete``
otherwise; each failed or skipped passage is named in the report and the audit
trail, and a later run asks only for what is missing (the rest is cached).

``rerun_steps`` runs chosen steps again on papers already in the store (their
raw graph read back by claimgraph.extract.stored).

Store writes and measures run in a worker thread, one at a time (``StoreTurns``),
so that the event loop keeps serving the other papers' calls meanwhile: a
deadline then measures the endpoint, not the time the loop spent validating.
"""

from __future__ import annotations

import asyncio
import urllib.parse
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph import __version__
from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.extract.items import StepLog
from claimgraph.extract.model import PaperExtraction, extraction_triples, node_iri
from claimgraph.extract.prompts import template_hash
from claimgraph.extract.steps import STEPS, Extractor, StoreTurns
from claimgraph.extract.stored import StoredExtraction, stored_extraction
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.client import LLMClient, open_client
from claimgraph.llm.config import LLMConfig
from claimgraph.loaders.document import Document
from claimgraph.papers.audit import Activity, SoftwareAgent, now
from claimgraph.papers.storage import leaving_canonical_graph
from claimgraph.plugins import ExtractorPlugin
from claimgraph.profile.ontology import extracted_class_names
from claimgraph.quality.gate import measure_graph
from claimgraph.quality.repair import HeldContent
from claimgraph.quality.validation import validate_graph
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG
from claimgraph.store.lease import LONG_WAIT_SECONDS, lease

SHAPE_VIOLATIONS = "shape_violations"
COLOCATED_PAIRS = "colocated_pairs"
COLOCATED_LINKED = "colocated_pairs_linked"
EXTRACTION_FAILED = "extraction_failed"
EXTRACTION_NOT_RUN = "extraction_not_run"
EXTRACTION_INCOMPLETE = "extraction_incomplete"
REPROMPTING_STEPS = ("entities", "relations")


@dataclass(frozen=True)
class Colocation:
    """Seed 002's co-location connectivity of a graph, computed in the store."""

    nodes: int = 0
    pairs: int = 0
    linked: int = 0
    pair_ratio: float = 0.0
    node_share: float = 0.0


@dataclass
class ExtractionReport:
    paper_id: str
    steps: list[StepLog] = field(default_factory=list)
    measures: list[tuple[str, dict[str, int]]] = field(default_factory=list)  # (after step, measures of the raw graph)
    activities: list[Activity] = field(default_factory=list)
    residual: str | None = None
    colocation: Colocation = field(default_factory=Colocation)
    held: HeldContent | None = None  # content the extraction holds in memory, repaired and stored by the workflow (reasoning replies)

    @property
    def failed_calls(self) -> list[str]:
        """Calls that gave no usable reply, failed or skipped, each as '<step> passage <n>: <reason>'."""
        return [f"{log.step} {failure}" for log in self.steps for failure in [*log.failed_calls, *log.skipped_calls]]

    @property
    def skipped_calls(self) -> list[str]:
        return [f"{log.step} {skipped}" for log in self.steps for skipped in log.skipped_calls]


def colocation(ctx: Context, graph: NamedNode) -> Colocation:
    rows = ctx.store.select(read_named_query("colocation-connectivity"), {"graph": graph})
    if not rows:
        return Colocation()
    row = rows[0]
    return Colocation(int(row["nodes"].value), int(float(row["pairs"].value)), int(float(row["linked"].value)),
                      float(row["pair_ratio"].value), float(row["node_share"].value))


def measure_with_shapes(ctx: Context, paper_id: str, graph: NamedNode) -> dict[str, int]:
    """The gate measures of one of the paper's graphs, plus how many of its nodes fail their shape and its co-location pairs."""
    measures = measure_graph(ctx, graph, ctx.iris.paper(paper_id))
    measures[SHAPE_VIOLATIONS] = validate_graph(ctx, graph).nodes_failed
    linked = colocation(ctx, graph)
    measures[COLOCATED_PAIRS], measures[COLOCATED_LINKED] = linked.pairs, linked.linked
    return measures


def endpoint_host(config: LLMConfig) -> str:
    """Host and port of the endpoint (no scheme, user, password, path or query), or where replies were replayed from."""
    if config.replay_dir is not None:
        return f"replay:{config.replay_dir.name}"
    if config.base_url is None:
        return "api.openai.com"
    parts = urllib.parse.urlsplit(config.base_url)
    host = parts.hostname or "unknown"
    return f"{host}:{parts.port}" if parts.port else host


def extraction_agent(ctx: Context, config: LLMConfig, step: str) -> SoftwareAgent:
    return SoftwareAgent(config.model, endpoint_host(config), template_hash(ctx.profile, step, step in REPROMPTING_STEPS),
                         __version__, config.temperature, config.max_tokens, config.structured_output)


def extraction_residual(extraction: PaperExtraction, logs: Iterable[StepLog]) -> str | None:
    """extraction_failed (calls failed and nothing was extracted), extraction_incomplete (some failed), else None."""
    if not any(log.failed_calls or log.skipped_calls for log in logs):
        return None
    return EXTRACTION_INCOMPLETE if extraction.nodes else EXTRACTION_FAILED


async def extract_paper(ctx: Context, document: Document, client: LLMClient, max_reprompts: int = 2,
                        steps: Sequence[str] = STEPS, stored: StoredExtraction | None = None,
                        turns: StoreTurns | None = None) -> ExtractionReport:
    """Run ``steps`` on the document (already stored) or on a stored extraction; leave the result in the raw and paper graphs."""
    iris, profile = ctx.iris, ctx.profile
    turns = turns or StoreTurns()
    pid = document.paper_id
    report = ExtractionReport(pid)
    extraction = stored.extraction if stored else PaperExtraction(document)
    structure = stored.structure if stored else None
    raw, paper = iris.raw_graph(pid), iris.paper(pid)
    extractor = Extractor(client, profile, iris, extracted_class_names(profile), max_reprompts, client.config.paper_budget, turns)
    extractor.start_budget()
    for step in steps:
        started = now()
        before = {node_iri(iris, pid, node) for node in extraction.nodes.values()}
        log: StepLog = await getattr(extractor, step)(extraction)
        if log.asked or not report.measures:
            measures = await turns.run(_store_and_measure, ctx, pid, raw, list(extraction_triples(extraction, iris, profile, structure)))
        else:  # the step had nothing to ask: the raw graph and its measures are those of the step before
            measures = dict(report.measures[-1][1])
        report.steps.append(log)
        report.measures.append((step, measures))
        after = {node_iri(iris, pid, node) for node in extraction.nodes.values()}
        notes = {f"note {n:03d}": text for n, text in enumerate(log.notes + log.failed_calls + log.skipped_calls, start=1)}
        counts = {**log.counts(), **client.accounting.as_activity_counts(pid, step)}
        report.activities.append(Activity("extract", step, counts, sorted(after ^ before, key=str), notes, started, now(),
                                          agent=extraction_agent(ctx, client.config, step)))
        report.activities.append(Activity("gate", f"after {step}", measures, ended=now()))
    for activity in report.activities:
        if activity.kind == "extract":
            activity.generated = sorted((node_iri(iris, pid, n) for n in extraction.nodes.values() if n.step == activity.name), key=str)
    report.residual = extraction_residual(extraction, report.steps)
    outcome = [Triple(paper, CG.residual, Literal(report.residual))] if report.residual else []
    graphs = {paper: [*extraction_triples(extraction, iris, profile, structure), *outcome]}
    await turns.run(_replace_paper_graph, ctx, paper, graphs, stored is not None)
    report.colocation = await turns.run(colocation, ctx, paper)
    return report


def _replace_paper_graph(ctx: Context, paper: NamedNode, graphs: dict[NamedNode, list[Triple]], was_stored: bool) -> None:
    """Write the extracted paper graph; a paper extracted again leaves the canonical graph in the same update, under the
    canonical graph's lease, so no concurrent canonicalization places a node against links being removed."""
    if not was_stored:
        ctx.store.replace_graphs(graphs)
        return
    with lease(ctx.store, ctx.iris.canonical_graph(), wait=LONG_WAIT_SECONDS, keep_alive=True):
        ctx.store.replace_graphs(graphs, leaving_canonical_graph(ctx.iris, paper))


def _store_and_measure(ctx: Context, paper_id: str, raw: NamedNode, triples: list[Triple]) -> dict[str, int]:
    ctx.store.replace_graph(raw, triples)
    return measure_with_shapes(ctx, paper_id, raw)


async def _extract_all(ctx: Context, work: Sequence[tuple[Document, StoredExtraction | None]], config: LLMConfig,
                       accounting: Accounting, steps: Sequence[str]) -> dict[str, ExtractionReport | ClaimgraphError]:
    turns = StoreTurns()
    async with open_client(config, accounting) as client:

        async def one(document: Document, stored: StoredExtraction | None) -> tuple[str, ExtractionReport | ClaimgraphError]:
            try:
                return document.paper_id, await extract_paper(ctx, document, client, steps=steps, stored=stored, turns=turns)
            except ClaimgraphError as error:
                return document.paper_id, error

        return dict(await asyncio.gather(*(one(document, stored) for document, stored in work)))


def run_extractions(ctx: Context, documents: Sequence[Document], config: LLMConfig, accounting: Accounting) -> dict[str, ExtractionReport | ClaimgraphError]:
    """Extract several papers at once, sharing one client (and its concurrency bound); a paper's error is its own."""
    if not documents:
        return {}
    return asyncio.run(_extract_all(ctx, [(document, None) for document in documents], config, accounting, STEPS))


def rerun_steps(ctx: Context, paper_ids: Sequence[str], steps: Sequence[str], config: LLMConfig,
                accounting: Accounting) -> dict[str, ExtractionReport | ClaimgraphError]:
    """Run ``steps`` again on stored papers, each continuing from its raw graph; a paper that cannot be read is its own error."""
    unknown = [step for step in steps if step not in STEPS]
    if unknown:
        raise ClaimgraphError(f"unknown extraction step {', '.join(unknown)}; the steps are {', '.join(STEPS)}")
    work: list[tuple[Document, StoredExtraction | None]] = []
    failed: dict[str, ExtractionReport | ClaimgraphError] = {}
    for paper_id in paper_ids:
        try:
            stored = stored_extraction(ctx, paper_id)
        except ClaimgraphError as error:
            failed[paper_id] = error
            continue
        work.append((stored.extraction.document, stored))
    done = asyncio.run(_extract_all(ctx, work, config, accounting, steps)) if work else {}
    return {**failed, **done}


DISCOURSE = ExtractorPlugin("discourse", STEPS, run_extractions, rerun_steps)
"""The discourse steps (entities, relations, orphans, gaps, dangling), each writing the raw graph; pyproject.toml registers it."""
