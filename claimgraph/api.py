"""The Python API: ``claimgraph.open(...)`` gives a ``ClaimGraph`` whose methods are the commands.

Every command of the command line that changes or reads the store is a method
here, with the same steps, audit trail and errors; the command line only parses
its arguments, calls one of these methods and renders what comes back::

    import claimgraph

    with claimgraph.open("my-store") as graph:
        result = graph.ingest(["papers/"])
        print(graph.stats())

The settings (store location and remote endpoints, timeouts, retries, allowed
SERVICE endpoints, base IRI, profile) are fixed when the store is opened: from
``claimgraph.toml`` and the environment (``claimgraph.settings``), overridden
by the arguments of ``open``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from claimgraph import inspection
from claimgraph.canonical.canonicalizer import reindex
from claimgraph.canonical.convergence import convergence
from claimgraph.canonical.links.release import release
from claimgraph.canonical.links.unmerge import unmerge
from claimgraph.context import Context
from claimgraph.embedding.embedders import make_embedder
from claimgraph.federation.linker import LINKED_TYPES, link_ontology
from claimgraph.federation.matching import MatchSettings
from claimgraph.federation.rdf_input import load_rdf
from claimgraph.judge.settings import judge_settings
from claimgraph.papers.document_graph import stored_paper_ids
from claimgraph.progress import SILENT, Progress
from claimgraph.publish.export import export
from claimgraph.settings import Settings, load_settings, with_store
from claimgraph.workflow import CanonicalizeOutcome, IngestOptions, IngestResult, Workflow

if TYPE_CHECKING:
    from pyoxigraph import NamedNode

    from claimgraph.canonical.canonicalizer import ReindexSummary
    from claimgraph.canonical.links.release import Released
    from claimgraph.canonical.links.unmerge import Unlinked
    from claimgraph.consensus.graph import ConsensusResult
    from claimgraph.extract.citation_intent import IntentRun
    from claimgraph.federation.linker import LinkReport, OntologySource
    from claimgraph.federation.matching import MatchSettings
    from claimgraph.federation.rdf_input import LoadResult
    from claimgraph.judge.runner import JudgeResult
    from claimgraph.judge.settings import JudgeSettings
    from claimgraph.llm.accounting import Accounting
    from claimgraph.llm.config import LLMConfig
    from claimgraph.papers.audit_trail import AuditEntry
    from claimgraph.quality.grounding import GroundingAudit
    from claimgraph.quality.repair import PaperRepair
    from claimgraph.quality.reports import RuleViolation, ValidationReport
    from claimgraph.rdf.binding import Term
    from claimgraph.reasoning.peirce import ReasoningResult
    from claimgraph.store import QueryResult, Row


def open(location: str | Path | None = None, *, profile: str | None = None, base: str | None = None,
         settings: Settings | None = None, read_only: bool = False, progress: Progress = SILENT) -> ClaimGraph:
    """Open the store at ``location`` (a folder, or a SPARQL server's base URL) for reading and writing.

    ``settings`` default to ``claimgraph.toml`` and the environment; ``location``, ``profile`` and ``base``
    override them. ``read_only`` opens an embedded store without taking its write lock (queries, exports).
    """
    chosen = settings if settings is not None else load_settings()
    overrides = {key: value for key, value in (("location", location), ("profile", profile), ("base", base)) if value is not None}
    if overrides:
        chosen = with_store(chosen, **{key: str(value) for key, value in overrides.items()})
    return ClaimGraph(Context.from_settings(chosen.store, read_only=read_only), chosen, progress)


class ClaimGraph:
    """A store opened with its settings; a context manager. Each method is one command."""

    def __init__(self, ctx: Context, settings: Settings, progress: Progress = SILENT) -> None:
        self.ctx = ctx
        self.settings = settings
        self.workflow = Workflow(ctx, progress)

    def __enter__(self) -> ClaimGraph:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self.ctx.close()

    @property
    def location(self) -> str:
        return self.ctx.store.location

    # ------------------------------------------------------------ writing

    def ingest(self, paths: Iterable[str | Path], *, llm: LLMConfig | None = None, extract: bool = True, canonicalize: bool = True,
               validate: bool = True, replace_papers: bool = False, follow_symlinks: bool = False, embedder: str | None = None) -> IngestResult:
        """Load files or folders, extract prose with ``llm``, repair, gate, audit grounding, canonicalize and validate.

        Without ``llm`` a prose paper is stored as structure only with the residual ``extraction_not_run``
        (``extract=False`` asks for that on purpose and records no residual). Symbolic links are refused by
        name unless ``follow_symlinks``; ``replace_papers`` lets a file replace a paper read from another file.
        """
        options = IngestOptions(llm=llm if extract else None, extract=extract, canonicalize=canonicalize, validate=validate,
                                replace=replace_papers, follow_symlinks=follow_symlinks, sidecar_dir=self.settings.canonicalize.sidecar,
                                embedder=embedder or self.settings.canonicalize.embedder)
        return self.workflow.ingest([Path(path) for path in paths], options)

    def extract(self, paper_ids: Sequence[str], llm: LLMConfig, steps: Sequence[str] | None = None) -> IngestResult:
        """Run the profile's LLM extraction steps again on stored papers (default: every step), then repair and gate them."""
        return self.workflow.rerun_extraction(paper_ids, steps, llm)

    def citation_intent(self, paper_ids: Sequence[str], llm: LLMConfig) -> IntentRun:
        """Classify why each citing sentence of the papers cites each reference (CiTO properties; docs/citations.md)."""
        return self.workflow.citation_intent(paper_ids, llm)

    def reasoning(self, paper_id: str, response: str, *, source_name: str = "response", run: str | None = None) -> ReasoningResult:
        """Read an LLM reasoning-graph response (DOT, XML, plist or JSON) for a stored paper; repair, gate and store it."""
        return self.workflow.store_reasoning(paper_id, response, source_name, run=run)

    def repair(self, paper_ids: Sequence[str] | None = None) -> list[PaperRepair]:
        return self.workflow.repair(paper_ids)

    def validate(self, paper_ids: Sequence[str] | None = None) -> ValidationReport:
        return self.workflow.validate(paper_ids)

    def canonicalize(self, paper_ids: Sequence[str] | None = None, *, force: bool = False, adjudicate: LLMConfig | None = None,
                     pair_model: Path | None = None, recheck: bool = False, embedder: str | None = None) -> CanonicalizeOutcome:
        """Link nodes across papers in the canonical graph (merges and CANON_ hubs); see ``Workflow.canonicalize``."""
        return self.workflow.canonicalize(paper_ids, self.settings.canonicalize.sidecar, embedder or self.settings.canonicalize.embedder,
                                          force=force, adjudicate=adjudicate, pair_model=pair_model, recheck=recheck)

    def reindex(self, embedder: str | None = None) -> ReindexSummary:
        """Repair hub counts in the canonical graph and rebuild the sidecar from the store."""

        chosen = embedder or self.settings.canonicalize.embedder
        return reindex(self.ctx, sidecar_dir=self.settings.canonicalize.sidecar, embedder=make_embedder(chosen) if chosen else None,
                       progress=self.workflow.progress)

    def unmerge(self, *, member: NamedNode | None = None, hub: NamedNode | None = None, reason: str = "") -> list[Unlinked]:
        """Take ``member`` out of its CANON_ node, or dissolve ``hub`` (the canonical graph only; audited)."""

        return unmerge(self.ctx, member=member, hub=hub, reason=reason)

    def release(self, node: NamedNode, other: NamedNode | None = None, reason: str = "") -> Released:
        """Lift the verdicts that keep ``node`` apart (only those naming ``other`` when given); audited."""

        return release(self.ctx, node, other, reason=reason)

    def consensus(self, paper_id: str, *, snapshot: str | None = None, imports: Sequence[tuple[str, Path]] = (), min_runs: int = 2,
                  similarity: float = 0.85, embedder: str | None = None) -> ConsensusResult:
        return self.workflow.consensus(paper_id, snapshot=snapshot, imports=imports, min_runs=min_runs, similarity=similarity,
                                       embedder=embedder)

    def link(self, source: OntologySource, *, embedder: str | None = None, settings: MatchSettings | None = None,
             types: Sequence[str] | None = None) -> LinkReport:
        """Link nodes to an ontology's terms (a file or a SPARQL endpoint) with SKOS matches."""

        return link_ontology(self.ctx, source, embedder, settings or MatchSettings(), tuple(types or LINKED_TYPES))

    def load(self, path: Path, graph: NamedNode | None = None, syntax: str | None = None) -> LoadResult:
        """Load an external RDF file into a named graph (replacing that graph)."""

        return load_rdf(self.ctx, path, graph, syntax)

    def ground(self, paper_ids: Sequence[str] | None = None, threshold: float | None = None, record: bool = True) -> list[GroundingAudit]:
        """The source grounding audit of stored papers (default: every paper), recorded in their audit graphs unless ``record`` is False."""
        return self.workflow.ground(paper_ids, threshold, record=record)

    def rules(self, paper_ids: Sequence[str] | None = None) -> dict[str, list[RuleViolation]]:
        """The profile's semantic rules on stored papers: paper id -> violations (critical and warnings)."""
        return self.workflow.semantic_rules(paper_ids)

    def judge_settings(self, llm: LLMConfig, count: int | None = None, models: Sequence[str] = (), rounds: int | None = None,
                       repair: bool = True) -> JudgeSettings:
        """The judge panel of the profile, with the given overrides."""

        return judge_settings(self.ctx.profile, llm, count, models, rounds, repair=repair)

    def judge(self, settings: JudgeSettings, llm: LLMConfig, paper_ids: Sequence[str] | None = None,
              accounting: Accounting | None = None) -> list[JudgeResult]:
        """Judge-feedback repair: k LLM judges vote per reasoning unit, rejected units are repaired locally, then the strict gate."""
        return self.workflow.judge(settings, llm, paper_ids, accounting)

    # ------------------------------------------------------------ reading

    def query(self, sparql: str, bindings: Mapping[str, Term] | None = None) -> QueryResult:
        """Run a SPARQL query (not an update); SERVICE may call only the endpoints the settings allow."""
        given = dict(bindings or {})
        inspection.check_query(sparql, given, self.settings.store.allowed_services)
        return self.ctx.store.query(sparql, given)

    def select(self, sparql: str, bindings: Mapping[str, Term] | None = None) -> list[Row]:
        """A SELECT query's rows (variable -> term; read them typed with ``claimgraph.rdf.rows``)."""
        given = dict(bindings or {})
        inspection.check_query(sparql, given, self.settings.store.allowed_services)
        return self.ctx.store.select(sparql, given)

    def stats(self) -> list[tuple[str, int]]:
        """Papers, graphs, triples and nodes per type, counted in the store."""
        return inspection.store_stats(self.ctx)

    def convergence(self) -> list[tuple[str, int]]:
        """Cross-paper figures: nodes per type, CANON_ hubs, attached nodes, merges, components."""

        return [(name, int(value)) for name, value in convergence(self.ctx).rows()]

    def audit(self, paper_id: str) -> list[AuditEntry]:
        """The paper's audit trail, oldest first."""
        return inspection.audit(self.ctx, paper_id)

    def diff(self, paper_id: str) -> inspection.GraphDiff:
        """What repair changed in a paper: its raw graph against its repaired paper graph."""
        return inspection.diff(self.ctx, paper_id)

    def export(self, syntax: str = "trig", paper_ids: Sequence[str] | None = None, kinds: Sequence[str] = ("paper",), *,
               everything: bool = False, evaluation_view: bool = False, nanopub_unit: str = "claim", merge_graphs: bool = False) -> bytes:
        """The papers' graphs (or every named graph) in ``syntax``: trig, ttl, nq, nt, jsonld, dot, graphml or nanopub.

        ttl and nt have no graph names: several graphs are refused unless ``merge_graphs``; dot takes one paper.
        """

        return export(self.ctx, syntax, list(paper_ids) if paper_ids else None, list(kinds), everything=everything,
                      evaluation_view=evaluation_view, nanopub_unit=nanopub_unit, merge_graphs=merge_graphs)

    def papers(self) -> list[str]:
        """The ids of the papers in the store."""

        return stored_paper_ids(self.ctx.store, self.ctx.iris)

