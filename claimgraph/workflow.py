"""Ingest papers: load each file, build its graphs, replace them atomically in the store, repair them.

A file that fails to load is reported by name and skipped; the other files of
the batch go on, and nothing stored for the failed file is touched. A loaded
paper is written as its raw graph and its paper graph (identical for inputs
that need no extraction, such as ARCHE JSON) with a fresh audit graph, in one
update; then the profile's repair scripts run on the paper graph and the gate
measures it (claimgraph.quality.repair), all recorded in the audit graph.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from claimgraph.errors import ClaimgraphError
from claimgraph.extract.runner import (
    ExtractionReport,
    measure_with_shapes,
    run_extractions,
)
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.config import LLMConfig
from claimgraph.loaders import Document, find_inputs, load_document
from claimgraph.papers.audit import Activity, activity_triples, now
from claimgraph.papers.document_graph import document_triples
from claimgraph.profile.manifest import Profile, load_profile
from claimgraph.profile.vocabulary import load_vocabulary
from claimgraph.quality.repair import PaperRepair, repair_paper
from claimgraph.rdf.binding import bind
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_sparql
from claimgraph.store import Store


@dataclass(frozen=True)
class IngestFailure:
    path: Path
    message: str


@dataclass
class IngestResult:
    papers: list[str] = field(default_factory=list)
    failures: list[IngestFailure] = field(default_factory=list)
    repairs: list[PaperRepair] = field(default_factory=list)
    extractions: list[ExtractionReport] = field(default_factory=list)
    accounting: Accounting = field(default_factory=Accounting)


def needs_extraction(document: Document) -> bool:
    """Prose inputs go through the LLM; inputs that already hold atomic claims (ARCHE) do not."""
    return not document.viewpoints


def store_document(store: Store, document: Document, iris: IriScheme) -> int:
    """Replace the paper's graph, raw graph and audit graph with this document, atomically; returns triples."""
    pid = document.paper_id
    triples = list(dict.fromkeys(document_triples(document, iris)))
    load = Activity("load", f"load {document.format} input", {"triples": len(triples)}, notes={"file": Path(document.source).name}, ended=now())
    audit = list(activity_triples(iris, pid, 1, load))
    leaving = bind(read_sparql("merge", "remove-hub-members.ru"), {"graph": iris.paper(pid), "canonical": iris.canonical_graph()})
    store.replace_graphs({iris.paper(pid): triples, iris.raw_graph(pid): triples, iris.audit_graph(pid): audit}, before=leaving)
    return len(triples)


def ingest_paths(
    store: Store,
    paths: Iterable[Path],
    iris: IriScheme,
    on_file: Callable[[Path, str | None], None] | None = None,
    profile: Profile | str | None = "discourse",
    llm: LLMConfig | None = None,
) -> IngestResult:
    """Ingest every input file under ``paths``, repairing each paper with ``profile`` (None: no repair).

    With ``llm``, prose inputs are extracted by the LLM steps first (their
    activities join the paper's audit trail). ``on_file(path, error)`` reports progress.
    """
    result = IngestResult()
    loaded = load_profile(profile) if isinstance(profile, str) else profile
    vocabulary = load_vocabulary(store, iris, loaded) if loaded else None
    stored = _load_and_store(store, paths, iris, result, on_file)
    reports: dict[str, ExtractionReport | ClaimgraphError] = {}
    if llm is not None and loaded is not None and vocabulary is not None:
        prose = [document for _, document in stored if needs_extraction(document)]
        reports = run_extractions(store, iris, loaded, prose, llm, result.accounting, vocabulary)
    for path, document in stored:
        error: str | None = None
        try:
            report = reports.get(document.paper_id)
            if isinstance(report, ClaimgraphError):
                raise report
            if report is not None:
                result.extractions.append(report)
            if loaded is not None and vocabulary is not None:
                result.repairs.append(repair_paper(store, iris, loaded, document.paper_id, vocabulary, report.activities if report else ()))
                if report is not None:
                    report.measures.append(("repaired", measure_with_shapes(store, iris, loaded, document.paper_id, vocabulary, iris.paper(document.paper_id))))
        except ClaimgraphError as failure:
            error = str(failure)
            result.failures.append(IngestFailure(path, error))
        if on_file:
            on_file(path, error)
    return result


def _load_and_store(
    store: Store, paths: Iterable[Path], iris: IriScheme, result: IngestResult,
    on_file: Callable[[Path, str | None], None] | None,
) -> list[tuple[Path, Document]]:
    """Load each file and store its structure; a file that fails is reported (``on_file``) and left out."""
    stored: list[tuple[Path, Document]] = []
    seen: dict[str, Path] = {}
    for path in find_inputs(paths):
        try:
            document = load_document(path)
            if document.paper_id in seen and seen[document.paper_id] != path:
                raise ClaimgraphError(f"{path}: paper id {document.paper_id!r} already ingested from {seen[document.paper_id]} in this batch")
            store_document(store, document, iris)
        except ClaimgraphError as failure:
            result.failures.append(IngestFailure(path, str(failure)))
            if on_file:
                on_file(path, str(failure))
            continue
        seen[document.paper_id] = path
        result.papers.append(document.paper_id)
        stored.append((path, document))
    return stored
