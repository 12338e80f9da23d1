"""Reading a paper's audit trail back (``claimgraph audit``), apart from the code that writes it (claimgraph.papers.audit).

Reading needs no activity classes and no clock, so ``claimgraph audit`` starts
without them.
"""

from __future__ import annotations

from typing import TypedDict

from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_internal_query
from claimgraph.rdf.rows import integer_of, text_of
from claimgraph.store import Store


class AuditEntry(TypedDict):
    """One activity of a paper's audit trail."""

    sequence: int
    kind: str
    name: str
    counts: dict[str, int]
    notes: dict[str, str]
    touched: list[str]


def audit_trail(store: Store, iris: IriScheme, paper_id: str) -> list[AuditEntry]:
    """The paper's activities in order: sequence, kind, name, counts, notes and touched IRIs."""
    audit = iris.audit_graph(paper_id)
    trail: dict[str, AuditEntry] = {}
    for row in store.select(read_internal_query("audit-trail"), {"audit": audit}):
        entry = trail.setdefault(text_of(row, "activity"), AuditEntry(sequence=integer_of(row, "sequence"), kind=text_of(row, "kind"),
                                                                      name=text_of(row, "name"), counts={}, notes={}, touched=[]))
        if "countName" in row:
            entry["counts"][text_of(row, "countName")] = integer_of(row, "countValue")
        if "noteName" in row:
            entry["notes"][text_of(row, "noteName")] = text_of(row, "noteValue")
    for row in store.select(read_internal_query("audit-touched"), {"audit": audit}):
        trail[text_of(row, "activity")]["touched"].append(text_of(row, "touched"))
    return sorted(trail.values(), key=lambda entry: entry["sequence"])
