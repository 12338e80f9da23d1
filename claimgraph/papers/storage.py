"""Writing a loaded document into the store: its paper graph, raw graph and a fresh audit trail, atomically.

A paper id names one source. Storing a document whose id is already taken by
a paper read from another file would silently replace that paper, so it is
refused (``PaperIdTakenError``) unless the caller asks to replace it; storing
the same file again is a re-ingest and replaces the paper as a whole. "The
same file" means the same real path (links and ``..`` resolved): the load
activity notes a SHA-256 key of it (``source_key``), so a file of the same
name in another folder is another source, and no path is written in the store.
A paper stored without a key is compared by file name.
"""

from __future__ import annotations

import hashlib
import os
from contextlib import nullcontext
from pathlib import Path
from typing import cast

from pyoxigraph import NamedNode

from claimgraph.errors import ClaimgraphError
from claimgraph.loaders.document import Document
from claimgraph.papers.audit import Activity, activity_triples, now
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.papers.document_graph import document_triples
from claimgraph.papers.input_rows import INPUT_DIGEST_NOTE, input_digest
from claimgraph.rdf.binding import bind
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import join_updates, read_internal_query, read_sparql
from claimgraph.store import Store
from claimgraph.store.lease import LONG_WAIT_SECONDS, lease


class PaperIdTakenError(ClaimgraphError):
    """A document's paper id is already the id of a paper read from another source."""


def leaving_canonical_graph(iris: IriScheme, paper: NamedNode) -> str:
    """The update that takes a paper about to be replaced out of the canonical graph (its links, marks and
    verdicts), then removes the hubs it leaves empty; run in the request that replaces the paper's graphs."""
    canonical = iris.canonical_graph()
    return join_updates([bind(read_sparql("merge", "remove-hub-members.ru"), {"graph": paper, "canonical": canonical}),
                         bind(read_sparql("merge", "remove-empty-hubs.ru"), {"canonical": canonical})])


CURATION_KINDS = ("unmerge", "release")


def curation_kept(store: Store, iris: IriScheme, paper_id: str) -> list[Activity]:
    """The curation activities (unmerge, release) of the stored paper's audit trail, in order: a replaced paper keeps
    them after its ``load``, since the verdicts they record outlive a re-ingest of the same texts."""

    return [Activity(str(entry["kind"]), str(entry["name"]), cast(dict[str, int], entry["counts"]),
                     [NamedNode(touched) for touched in cast(list[str], entry["touched"])], cast(dict[str, str], entry["notes"]))
            for entry in audit_trail(store, iris, paper_id) if entry["kind"] in CURATION_KINDS]


def stored_source(store: Store, iris: IriScheme, paper_id: str) -> str | None:
    """The file name the stored paper was read from, or None when the store has no such paper."""
    rows = store.select(read_internal_query("paper-source"), {"graph": iris.paper(paper_id)})
    return rows[0]["source"].value if rows else None


def source_key(source: str) -> str:
    """The key of a source file: the SHA-256 of its real path (the same file by any path, never another)."""
    real = os.path.realpath(source)
    return hashlib.sha256(os.fsencode(real)).hexdigest()


def stored_source_key(store: Store, iris: IriScheme, paper_id: str) -> str | None:
    """The source key noted when the stored paper was loaded, or None (no such paper, or stored without one)."""
    rows = store.select(read_internal_query("paper-source-key"), {"audit": iris.audit_graph(paper_id)})
    return rows[0]["key"].value if rows else None


def same_source(store: Store, iris: IriScheme, document: Document, existing_name: str) -> bool:
    """Whether the stored paper was read from the document's file: by real path where a key was noted, else by name."""
    stored_key = stored_source_key(store, iris, document.paper_id)
    if stored_key is not None:
        return stored_key == source_key(document.source)
    return existing_name == Path(document.source).name


def store_document(store: Store, iris: IriScheme, document: Document, replace: bool = False) -> int:
    """Replace the paper's graph, raw graph and audit graph with this document, atomically; returns triples.

    Raises PaperIdTakenError when another source already holds the paper id and ``replace`` is false.
    """
    pid = document.paper_id
    name = Path(document.source).name
    existing = stored_source(store, iris, pid)
    if existing is not None and not replace and not same_source(store, iris, document, existing):
        raise PaperIdTakenError(
            f"{document.source}: paper id {pid!r} is already in the store, read from {existing}"
            f"{' in another folder' if existing == name else ''}; "
            "rename the file, or pass --replace to replace that paper"
        )
    triples = list(dict.fromkeys(document_triples(document, iris)))
    notes = {"file": name, "source_key": source_key(document.source), INPUT_DIGEST_NOTE: input_digest(triples)}
    load = Activity("load", f"load {document.format} input", {"triples": len(triples)}, notes=notes, ended=now())
    audit = list(activity_triples(iris, pid, 1, load))
    # replacing a stored paper takes its links out of the canonical graph: not while another process places nodes
    with lease(store, iris.canonical_graph(), wait=LONG_WAIT_SECONDS, keep_alive=True) if existing is not None else nullcontext():
        for sequence, kept in enumerate(curation_kept(store, iris, pid), start=2):
            audit.extend(activity_triples(iris, pid, sequence, kept))
        leaving = leaving_canonical_graph(iris, iris.paper(pid))
        store.replace_graphs({iris.paper(pid): triples, iris.raw_graph(pid): triples, iris.audit_graph(pid): audit}, before=leaving)
    return len(triples)
