"""The one place that orders the steps: load -> link citations -> extract -> repair and gate -> ground -> canonicalize -> validate.

``Workflow(ctx).ingest(paths, options)`` runs them all on a batch of files and
returns one ``IngestResult``; each step is also a method of its own, so the
command line, the demo, the benchmarks and a Python caller share one order of
work and only render what comes back. A file that fails is reported by name
and the rest of the batch goes on; nothing stored for a failed file is touched.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from claimgraph.canonical.canonicalizer import canonicalize_papers
from claimgraph.canonical.convergence import convergence
from claimgraph.canonical.index.embedding_cache import EmbeddingCache
from claimgraph.canonical.links.recheck import recheck_links
from claimgraph.canonical.links.section import single_writer
from claimgraph.canonical.settings import CanonicalizeError, load_settings
from claimgraph.canonical.sidecar import default_sidecar_dir
from claimgraph.citations.links import CitationUpdate, update_citation_links
from claimgraph.consensus.graph import build_consensus
from claimgraph.consensus.runs import import_run, snapshot_run, snapshot_update
from claimgraph.context import Context
from claimgraph.embedding.embedders import make_embedder
from claimgraph.errors import ClaimgraphError
from claimgraph.extract.citation_intent import IntentRun, classify_citations
from claimgraph.extract.runner import EXTRACTION_NOT_RUN, ExtractionReport, measure_with_shapes
from claimgraph.judge.pairs.select import open_judge
from claimgraph.judge.runner import judge_papers
from claimgraph.llm.accounting import Accounting
from claimgraph.loaders import Document, find_inputs, load_document
from claimgraph.papers.document_graph import stored_paper_ids
from claimgraph.papers.storage import store_document
from claimgraph.plugins import ExtractorPlugin, PluginError, find, names, registered
from claimgraph.progress import SILENT, Progress
from claimgraph.quality.grounding import audit_paper, grounding_settings, record_grounding
from claimgraph.quality.repair import PaperRepair, repair_and_gate, repair_paper
from claimgraph.quality.reports import ValidationReport
from claimgraph.quality.semantic import semantic_violations
from claimgraph.quality.validation import validate_store
from claimgraph.rdf.vocab import CG
from claimgraph.reasoning.peirce import ReasoningResult, reasoning_content

if TYPE_CHECKING:
    from claimgraph.canonical.convergence import Convergence
    from claimgraph.canonical.links.recheck import RecheckSummary
    from claimgraph.canonical.plan import CanonicalizeSummary
    from claimgraph.consensus.graph import ConsensusResult
    from claimgraph.extract.runner import ExtractionReport
    from claimgraph.judge.pairs.adjudicate import LLMAdjudicator
    from claimgraph.judge.pairs.pair_model import PairModelJudge
    from claimgraph.judge.runner import JudgeResult
    from claimgraph.judge.settings import JudgeSettings
    from claimgraph.llm.config import LLMConfig
    from claimgraph.profile.manifest import Profile
    from claimgraph.quality.grounding import GroundingAudit
    from claimgraph.quality.reports import RuleViolation
    from claimgraph.reasoning.peirce import ReasoningResult

NO_ENDPOINT = ("no LLM endpoint configured: inputs to extract are stored as structure only "
               "(set OPENAI_API_KEY / OPENAI_BASE_URL, or --base-url, or --replay DIR, to extract; --no-extract to mean it)")


@dataclass(frozen=True)
class IngestOptions:
    """What an ingest does beyond loading.

    ``llm`` None stores prose inputs as structure only: each gets the residual ``extraction_not_run`` (the run
    exits 1), unless ``extract`` is False, which asks for structure only on purpose.
    """

    llm: LLMConfig | None = None
    extract: bool = True
    canonicalize: bool = True
    validate: bool = True
    replace: bool = False
    follow_symlinks: bool = False
    sidecar_dir: Path | None = None
    embedder: str | None = None


@dataclass(frozen=True)
class IngestFailure:
    path: Path
    message: str


@dataclass
class CanonicalizeOutcome:
    """What canonicalizing a batch did, and the convergence figures before and after (from the store)."""

    summary: CanonicalizeSummary
    before: Convergence
    after: Convergence
    recheck: RecheckSummary | None = None


@dataclass
class IngestResult:
    """Everything an ingest did, for rendering: per-paper measures come from the store."""

    files: int = 0
    papers: list[str] = field(default_factory=list)
    failures: list[IngestFailure] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    extractions: list[ExtractionReport] = field(default_factory=list)
    accounting: Accounting = field(default_factory=Accounting)
    repairs: list[PaperRepair] = field(default_factory=list)
    grounding: list[GroundingAudit] = field(default_factory=list)
    citations: CitationUpdate | None = None
    canonicalization: CanonicalizeOutcome | None = None
    validation: ValidationReport | None = None
    triples: int = 0

    @property
    def problems(self) -> int:
        """Failed files, papers whose extraction left calls unanswered, shape and rule violations: nonzero means exit 1."""
        violations = self.validation.nodes_failed + len(self.validation.violations) if self.validation else 0
        return len(self.failures) + sum(1 for report in self.extractions if report.residual) + violations


def naming(path: Path, failure: ClaimgraphError) -> str:
    """The failure's message, led by the file it happened to (a store error does not know the file)."""
    message = str(failure)
    return message if message.startswith(str(path)) else f"{path}: {message}"


def extractor_of(profile: Profile) -> ExtractorPlugin:
    """The extraction the profile names (an extractor plugin), or an error listing the known ones."""
    plugin = find(ExtractorPlugin, profile.extraction)
    if plugin is None:
        raise PluginError(f"profile {profile.name}: no extraction named {profile.extraction!r}; known: {names(registered(ExtractorPlugin))}")
    return plugin


def needs_extraction(document: Document, extractor: ExtractorPlugin) -> bool:
    """Prose inputs go through the LLM; inputs that give their claims (ARCHE) only when the extraction reads them."""
    return extractor.reads_given_claims or not document.viewpoints


class Workflow:
    """Runs the steps on one context, reporting progress."""

    def __init__(self, ctx: Context, progress: Progress = SILENT) -> None:
        self.ctx = ctx
        self.progress = progress

    # ------------------------------------------------------------ the whole batch

    def ingest(self, paths: Iterable[Path], options: IngestOptions = IngestOptions()) -> IngestResult:
        """Load, extract, repair and gate, audit grounding, canonicalize and validate the files under ``paths``."""
        files = list(find_inputs(paths, options.follow_symlinks))
        result = IngestResult(files=len(files))
        stored = self.load(files, result, options.replace, options.follow_symlinks)
        if result.papers:
            result.citations = update_citation_links(self.ctx, result.papers)
        extractor = extractor_of(self.ctx.profile)
        prose = [document for _, document in stored if needs_extraction(document, extractor)]
        reports: dict[str, ExtractionReport | ClaimgraphError] = {}
        if prose and options.llm is None and options.extract:
            result.notices.append(NO_ENDPOINT)
            reports = {document.paper_id: self._not_extracted(document.paper_id) for document in prose}
        elif prose and options.llm is not None:
            reports = self.extract(prose, options.llm, result.accounting)
        self._repair_batch(stored, reports, result)
        if result.papers:
            result.grounding = self.ground(result.papers)
        if result.papers and options.canonicalize:
            result.canonicalization = self.canonicalize(result.papers, options.sidecar_dir, options.embedder)
        if result.papers and options.validate:
            result.validation = self.validate(result.papers)
        result.triples = sum(self.ctx.store.count_triples(self.ctx.iris.paper(paper_id)) for paper_id in result.papers)
        return result

    # ------------------------------------------------------------ steps

    def load(self, files: Sequence[Path], result: IngestResult, replace: bool = False, follow_symlinks: bool = False) -> list[tuple[Path, Document]]:
        """Load each file and store its structure; a file that fails is reported and left out."""
        stored: list[tuple[Path, Document]] = []
        seen: dict[str, Path] = {}
        self.progress.start("load", len(files))
        for path in files:
            try:
                document = load_document(path, follow_symlinks)
                if document.paper_id in seen:
                    raise ClaimgraphError(f"{path}: paper id {document.paper_id!r} already ingested from {seen[document.paper_id]} in this batch")
                store_document(self.ctx.store, self.ctx.iris, document, replace)
            except ClaimgraphError as failure:
                message = naming(path, failure)
                result.failures.append(IngestFailure(path, message))
                self.progress.advance("load", item=path.name, error=message)
                continue
            seen[document.paper_id] = path
            result.papers.append(document.paper_id)
            stored.append((path, document))
            self.progress.advance("load", item=path.name)
        self.progress.finish("load")
        return stored

    def extract(self, documents: Sequence[Document], llm: LLMConfig, accounting: Accounting) -> dict[str, ExtractionReport | ClaimgraphError]:
        """The profile's LLM extraction on prose documents (already stored), all papers at once through one client.

        What is extracted is the profile's (its manifest's ``extraction``); nothing is repaired here: the
        batch is repaired and gated after, the same way for every profile.
        """
        self.progress.start("extract", len(documents))
        reports = extractor_of(self.ctx.profile).extract(self.ctx, documents, llm, accounting)
        self.progress.advance("extract", len(documents))
        self.progress.finish("extract")
        return reports

    def citation_intent(self, paper_ids: Sequence[str], llm: LLMConfig) -> IntentRun:
        """Ask the LLM why each citing sentence of the papers cites each of its references (the profile's label set)."""
        self.progress.start("citation intent", len(paper_ids))
        run = classify_citations(self.ctx, paper_ids, llm)
        self.progress.advance("citation intent", len(paper_ids))
        self.progress.finish("citation intent")
        return run

    def rerun_extraction(self, paper_ids: Sequence[str], steps: Sequence[str] | None, llm: LLMConfig) -> IngestResult:
        """Run LLM extraction steps again on stored papers alone (default: every step of the profile), then repair and gate them."""
        extractor = extractor_of(self.ctx.profile)
        result = IngestResult(papers=list(paper_ids))
        self.progress.start("extract", len(paper_ids))
        reports = extractor.rerun(self.ctx, paper_ids, list(steps or extractor.steps), llm, result.accounting)
        self.progress.finish("extract")
        for paper_id in paper_ids:
            report = reports.get(paper_id)
            if isinstance(report, ClaimgraphError) or report is None:
                result.failures.append(IngestFailure(Path(paper_id), str(report or f"paper {paper_id}: not extracted")))
                continue
            result.extractions.append(report)
            result.repairs.append(self._repair_extracted(paper_id, report))
        return result

    def repair(self, paper_ids: Sequence[str] | None = None) -> list[PaperRepair]:
        """Run the repair scripts and the gate on stored papers (default: every paper)."""
        ids = list(paper_ids) if paper_ids is not None else stored_paper_ids(self.ctx.store, self.ctx.iris)
        self.progress.start("repair", len(ids))
        repairs = []
        for paper_id in ids:
            repairs.append(repair_paper(self.ctx, paper_id))
            self.progress.advance("repair", item=paper_id)
        self.progress.finish("repair")
        return repairs

    def canonicalize(self, paper_ids: Sequence[str] | None = None, sidecar_dir: Path | None = None,
                     embedder: str | None = None, force: bool = False, adjudicate: LLMConfig | None = None,
                     pair_model: Path | None = None, recheck: bool = False) -> CanonicalizeOutcome:
        """Link the papers' nodes across the store in the canonical graph; convergence is measured before and after.

        ``adjudicate`` (an LLM endpoint) or ``pair_model`` (a cross-encoder's folder) is the judge of the
        borderline band the profile sets per type; at most one of them. ``recheck`` then puts every link
        decided by similarity alone to that judge (``links/recheck.py``).
        """

        judge = open_judge(self.ctx.profile, adjudicate, pair_model)
        if recheck and judge is None:
            raise CanonicalizeError("--recheck puts the links made by similarity alone to a judge: add --adjudicate (an LLM) "
                                    "or --pair-model DIR")
        before = convergence(self.ctx)
        ids = list(paper_ids) if paper_ids is not None else stored_paper_ids(self.ctx.store, self.ctx.iris)
        self.progress.start("canonicalize", len(ids))
        try:
            summary = canonicalize_papers(
                self.ctx, ids, sidecar_dir=sidecar_dir, embedder=make_embedder(embedder) if embedder else None, force=force,
                on_paper=lambda paper_id, _plan: self.progress.advance("canonicalize", item=paper_id),
                progress=self.progress, adjudicate=judge,
            )
            rechecked = self._recheck(judge) if recheck and judge is not None else None
        finally:
            self.progress.finish("canonicalize")
            if judge is not None:
                judge.close()
        return CanonicalizeOutcome(summary, before, convergence(self.ctx), rechecked)

    def _recheck(self, judge: LLMAdjudicator | PairModelJudge) -> RecheckSummary:
        """Put the similarity links to the judge, as the one writer of the canonical graph (links/section.py)."""

        with single_writer(self.ctx):
            return recheck_links(self.ctx, judge.verdict, judge.name, load_settings(self.ctx.profile))

    def validate(self, paper_ids: Sequence[str] | None = None) -> ValidationReport:
        """ShEx shapes and the profile's rules on the papers (default: every paper and the canonical graph)."""

        self.progress.start("validate", len(paper_ids) if paper_ids is not None else 0)
        report = validate_store(self.ctx, paper_ids)
        self.progress.advance("validate", len(report.graphs))
        self.progress.finish("validate")
        return report

    def store_reasoning(self, paper_id: str, response: str, source_name: str, run: str | None = None) -> ReasoningResult:
        """Read an LLM reasoning-graph response for a stored paper, then repair, gate and store it.

        ``run`` also keeps the repaired graph as that run of the paper (for ``consensus`` across models or runs),
        written in the same request as the graph.
        """

        snapshot = snapshot_update(self.ctx, paper_id, run) if run is not None else ""
        content = reasoning_content(self.ctx, paper_id, response, source_name, after=snapshot)
        return ReasoningResult(paper_id, content.parsed, content.materialized,
                               repair_and_gate(self.ctx, paper_id, [content.activity], content.held))

    # ------------------------------------------------------------ internals

    def _not_extracted(self, paper_id: str) -> ExtractionReport:
        """A prose paper stored as structure only (no LLM endpoint): the residual extraction_not_run, so the run exits 1."""
        from pyoxigraph import Literal, Triple


        paper = self.ctx.iris.paper(paper_id)
        self.ctx.store.insert({paper: [Triple(paper, CG.residual, Literal(EXTRACTION_NOT_RUN))]})
        return ExtractionReport(paper_id, residual=EXTRACTION_NOT_RUN)

    def _repair_extracted(self, paper_id: str, report: ExtractionReport | None) -> PaperRepair:
        """Repair and gate one paper after its extraction (whose activities join the audit trail), then measure it."""

        repaired = repair_and_gate(self.ctx, paper_id, report.activities if report else (), report.held if report else None)
        if report is not None:
            report.measures.append(("repaired", measure_with_shapes(self.ctx, paper_id, self.ctx.iris.paper(paper_id))))
        return repaired

    def _repair_batch(self, stored: Sequence[tuple[Path, Document]], reports: dict[str, ExtractionReport | ClaimgraphError],
                      result: IngestResult) -> None:
        """Repair and gate each stored paper, after its extraction (whose activities join the audit trail)."""
        self.progress.start("repair", len(stored))
        for path, document in stored:
            error: str | None = None
            try:
                report = reports.get(document.paper_id)
                if isinstance(report, ClaimgraphError):
                    raise report
                if report is not None:
                    result.extractions.append(report)
                result.repairs.append(self._repair_extracted(document.paper_id, report))
            except ClaimgraphError as failure:
                error = naming(path, failure)
                result.failures.append(IngestFailure(path, error))
            self.progress.advance("repair", item=document.paper_id, error=error)
        self.progress.finish("repair")

    # ------------------------------------------------------------ grounding, semantic rules, judges

    def ground(self, paper_ids: Sequence[str] | None = None, threshold: float | None = None, record: bool = True) -> list[GroundingAudit]:
        """The source grounding audit of stored papers (default: every paper), recorded in each audit graph."""
        from dataclasses import replace


        ids = list(paper_ids) if paper_ids is not None else stored_paper_ids(self.ctx.store, self.ctx.iris)
        settings = grounding_settings(self.ctx.profile)
        if threshold is not None:
            settings = replace(settings, threshold=threshold)
        audits = []
        self.progress.start("ground", len(ids))
        for paper_id in ids:
            audit = audit_paper(self.ctx, paper_id, settings)
            if record:
                record_grounding(self.ctx, audit)
            audits.append(audit)
            self.progress.advance("ground", item=paper_id)
        self.progress.finish("ground")
        return audits

    def semantic_rules(self, paper_ids: Sequence[str] | None = None) -> dict[str, list[RuleViolation]]:
        """The profile's semantic rules on stored papers: paper id -> violations (critical and warning)."""

        ids = list(paper_ids) if paper_ids is not None else stored_paper_ids(self.ctx.store, self.ctx.iris)
        return {paper_id: semantic_violations(self.ctx, paper_id) for paper_id in ids}

    def judge(self, settings: JudgeSettings, llm: LLMConfig, paper_ids: Sequence[str] | None = None,
              accounting: Accounting | None = None) -> list[JudgeResult]:
        """Judge-feedback repair of stored papers (default: every paper): votes, local repairs, the final strict gate."""

        ids = list(paper_ids) if paper_ids is not None else stored_paper_ids(self.ctx.store, self.ctx.iris)
        self.progress.start("judge", len(ids))
        results = judge_papers(self.ctx, ids, settings, llm, accounting or Accounting(),
                               on_paper=lambda result: self.progress.advance("judge", item=result.paper_id))
        self.progress.finish("judge")
        return results

    def consensus(self, paper_id: str, *, snapshot: str | None = None, imports: Sequence[tuple[str, Path]] = (),
                  min_runs: int = 2, similarity: float = 0.85, embedder: str | None = None) -> ConsensusResult:
        """Keep run graphs of a paper (a snapshot of its graph now, or RDF files), then align every run graph
        of the paper and write its consensus graph (how many runs support each node and edge)."""

        if snapshot:
            snapshot_run(self.ctx, paper_id, snapshot)
        for name, path in imports:
            import_run(self.ctx, paper_id, name, path)
        model = make_embedder(embedder or load_settings(self.ctx.profile).embedder)
        cache = EmbeddingCache(model, default_sidecar_dir(self.ctx.store.location))
        result = build_consensus(self.ctx, paper_id, model, min_runs=min_runs, similarity=similarity, cache=cache)
        cache.flush()
        return result
