"""Ingest papers: load each file, build its graphs, replace them atomically in the store.

A file that fails to load is reported by name and skipped; the other files of
the batch go on, and nothing stored for the failed file is touched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from claimgraph.audit import Activity, activity_triples, now
from claimgraph.errors import ClaimgraphError
from claimgraph.iris import IriScheme
from claimgraph.loaders import Document, find_inputs, load_document
from claimgraph.paper_graph import document_triples
from claimgraph.store import Store


@dataclass(frozen=True)
class IngestFailure:
    path: Path
    message: str


@dataclass
class IngestResult:
    papers: list[str] = field(default_factory=list)
    failures: list[IngestFailure] = field(default_factory=list)


def store_document(store: Store, document: Document, iris: IriScheme) -> int:
    """Replace the paper's graph and audit graph with this document, atomically; returns triples."""
    triples = list(dict.fromkeys(document_triples(document, iris)))
    load = Activity("load", f"load {document.format} input", {"triples": len(triples)}, notes={"file": Path(document.source).name}, ended=now())
    audit = list(activity_triples(iris, document.paper_id, 1, load))
    store.replace_graphs({iris.paper(document.paper_id): triples, iris.audit_graph(document.paper_id): audit})
    return len(triples)


def ingest_paths(
    store: Store,
    paths: Iterable[Path],
    iris: IriScheme,
    on_file: Callable[[Path, str | None], None] | None = None,
) -> IngestResult:
    """Ingest every input file under ``paths``; ``on_file(path, error)`` reports progress."""
    result = IngestResult()
    seen: dict[str, Path] = {}
    for path in find_inputs(paths):
        error: str | None = None
        try:
            document = load_document(path)
            if document.paper_id in seen and seen[document.paper_id] != path:
                raise ClaimgraphError(f"{path}: paper id {document.paper_id!r} already ingested from {seen[document.paper_id]} in this batch")
            store_document(store, document, iris)
            seen[document.paper_id] = path
            result.papers.append(document.paper_id)
        except ClaimgraphError as failure:
            error = str(failure)
            result.failures.append(IngestFailure(path, error))
        if on_file:
            on_file(path, error)
    return result
