"""Reading a paper's audit trail back (``claimgraph audit``), apart from the code that writes it (claimgraph.papers.audit).

Reading needs no activity classes and no clock, so ``claimgraph audit`` starts
without them.
"""

from __future__ import annotations

from typing import cast

from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_internal_query
from claimgraph.store import Store


def audit_trail(store: Store, iris: IriScheme, paper_id: str) -> list[dict[str, object]]:
    """The paper's activities in order: sequence, kind, name, counts, notes and touched IRIs."""
    audit = iris.audit_graph(paper_id)
    trail: dict[str, dict[str, object]] = {}
    for row in store.select(read_internal_query("audit-trail"), {"audit": audit}):
        key = row["activity"].value
        entry = trail.setdefault(key, {"sequence": int(row["sequence"].value), "kind": row["kind"].value,
                                       "name": row["name"].value, "counts": {}, "notes": {}, "touched": []})
        if "countName" in row:
            entry["counts"][row["countName"].value] = int(row["countValue"].value)  # type: ignore[index]
        if "noteName" in row:
            entry["notes"][row["noteName"].value] = row["noteValue"].value  # type: ignore[index]
    for row in store.select(read_internal_query("audit-touched"), {"audit": audit}):
        cast(list[str], trail[row["activity"].value]["touched"]).append(row["touched"].value)
    return sorted(trail.values(), key=lambda entry: entry["sequence"])  # type: ignore[arg-type,return-value]
