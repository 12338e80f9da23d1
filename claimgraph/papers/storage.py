"""Writing a loaded document into the store: its paper graph, raw graph and a fresh audit trail, atomically.

A paper id names one source. Storing a document whose id is already taken by
a paper read from another file would silently replace that paper, so it is
refused (``PaperIdTakenError``) unless the caller asks to replace it; storing
the same file again is a re-ingest and replaces the paper as a whole.
"""

from __future__ import annotations

from pathlib import Path

from pyoxigraph import NamedNode

from claimgraph.errors import ClaimgraphError
from claimgraph.loaders.document import Document
from claimgraph.papers.audit import Activity, activity_triples, now
from claimgraph.papers.document_graph import document_triples
from claimgraph.rdf.binding import bind
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import join_updates, read_internal_query, read_sparql
from claimgraph.store import Store


class PaperIdTakenError(ClaimgraphError):
    """A document's paper id is already the id of a paper read from another source."""


def leaving_canonical_graph(iris: IriScheme, paper: NamedNode) -> str:
    """The update that takes a paper about to be replaced out of the canonical graph (its links, marks and
    verdicts), then removes the hubs it leaves empty; run in the request that replaces the paper's graphs."""
    canonical = iris.canonical_graph()
    return join_updates([bind(read_sparql("merge", "remove-hub-members.ru"), {"graph": paper, "canonical": canonical}),
                         bind(read_sparql("merge", "remove-empty-hubs.ru"), {"canonical": canonical})])


def stored_source(store: Store, iris: IriScheme, paper_id: str) -> str | None:
    """The file name the stored paper was read from, or None when the store has no such paper."""
    rows = store.select(read_internal_query("paper-source"), {"graph": iris.paper(paper_id)})
    return rows[0]["source"].value if rows else None


def store_document(store: Store, iris: IriScheme, document: Document, replace: bool = False) -> int:
    """Replace the paper's graph, raw graph and audit graph with this document, atomically; returns triples.

    Raises PaperIdTakenError when another source already holds the paper id and ``replace`` is false.
    """
    pid = document.paper_id
    name = Path(document.source).name
    existing = stored_source(store, iris, pid)
    if existing is not None and existing != name and not replace:
        raise PaperIdTakenError(
            f"{document.source}: paper id {pid!r} is already in the store, read from {existing}; "
            "rename the file, or pass --replace to replace that paper"
        )
    triples = list(dict.fromkeys(document_triples(document, iris)))
    load = Activity("load", f"load {document.format} input", {"triples": len(triples)}, notes={"file": name}, ended=now())
    audit = list(activity_triples(iris, pid, 1, load))
    leaving = leaving_canonical_graph(iris, iris.paper(pid))
    store.replace_graphs({iris.paper(pid): triples, iris.raw_graph(pid): triples, iris.audit_graph(pid): audit}, before=leaving)
    return len(triples)
