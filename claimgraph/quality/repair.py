"""Deterministic repair: the profile's sparql/repair/*.ru scripts run on a paper graph, each one audited.

Every script is a SPARQL UPDATE with ``?graph`` (the paper graph) and
``?vocabulary`` (the profile vocabulary graph) bound as RDF terms. The part of
the paper graph a script can change (sparql/internal/repair-scope.rq) is read
from the store before and after each script; the difference gives the counts
and the IRIs the script touched (an UPDATE reports nothing).
The unrepaired extraction stays in the paper's raw graph.

Edge labels the materializer cannot match to a canonical label are stored as
raw-label predicates (``RAW_LABEL[normalized label]``) so that they are
representable before ``canonicalize_edge_labels`` runs; see docs/repair.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pyoxigraph import NamedNode, Triple

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.papers.audit import Activity, now, record
from claimgraph.profile.manifest import Profile
from claimgraph.quality.gate import GateReport, gate_activity, gate_paper
from claimgraph.rdf.queries import read_internal_query, read_sparql_file
from claimgraph.store import Store


class RepairError(ClaimgraphError):
    """A repair could not run (missing script, paper not in the store)."""


# ---------------------------------------------------------------- running scripts


@dataclass(frozen=True)
class ScriptRun:
    """One script applied to one graph: triple counts before and after, and what changed."""

    name: str
    triples_before: int
    triples_after: int
    added: int
    removed: int
    touched: tuple[NamedNode, ...]

    @property
    def changed(self) -> bool:
        return bool(self.added or self.removed)

    def activity(self) -> Activity:
        counts = {"scope_before": self.triples_before, "scope_after": self.triples_after, "added": self.added, "removed": self.removed}
        return Activity("repair", self.name, counts, self.touched, notes={"script": f"sparql/repair/{self.name}.ru"}, ended=now())


@dataclass
class PaperRepair:
    """The repair of one paper: every script run, then the gate on the raw and the repaired graph."""

    paper_id: str
    runs: list[ScriptRun] = field(default_factory=list)
    gate: GateReport | None = None


@cache
def _script_text(path: Path) -> str:
    return read_sparql_file(path)


def script_paths(profile: Profile) -> list[Path]:
    """The profile's repair scripts in manifest order; a name without a file is an error."""
    if profile.missing_repairs:
        raise RepairError(f"{profile.manifest}: repairs {profile.missing_repairs} have no file in sparql/repair/")
    return profile.repair_files


def repair_scope(store: Store, graph: NamedNode, vocabulary: NamedNode) -> set[Triple]:
    """The triples of ``graph`` that a repair script can add, remove or rewrite."""
    rows = store.select(read_internal_query("repair-scope"), {"graph": graph, "vocabulary": vocabulary})
    return {Triple(row["s"], row["p"], row["o"]) for row in rows}  # type: ignore[arg-type]


def run_script(store: Store, graph: NamedNode, vocabulary: NamedNode, path: Path, before: set[Triple] | None = None) -> tuple[ScriptRun, set[Triple]]:
    """Apply one repair script to ``graph``; returns what it changed and the graph's triples after it.

    ``before`` (the scope as the previous script left it) saves a read. The
    triple counts are of the repair scope, not of the whole graph.
    """
    before = repair_scope(store, graph, vocabulary) if before is None else before
    store.update(_script_text(path), {"graph": graph, "vocabulary": vocabulary})
    after = repair_scope(store, graph, vocabulary)
    added, removed = after - before, before - after
    prefix = graph.value + "/"
    touched = {
        term
        for triple in added | removed
        for term in (triple.subject, triple.object)
        if isinstance(term, NamedNode) and (term == graph or term.value.startswith(prefix))
    }
    run = ScriptRun(path.stem, len(before), len(after), len(added), len(removed), tuple(sorted(touched, key=str)))
    return run, after


def repair_graph(ctx: Context, graph: NamedNode) -> list[ScriptRun]:
    """Run every repair script of the profile on one graph, in order (nothing recorded)."""
    runs = []
    triples: set[Triple] | None = None
    for path in script_paths(ctx.profile):
        run, triples = run_script(ctx.store, graph, ctx.vocabulary, path, triples)
        runs.append(run)
    return runs


def repair_paper(ctx: Context, paper_id: str, extra: Sequence[Activity] = ()) -> PaperRepair:
    """Repair a stored paper's graph, gate it, and append ``extra`` + one activity per script + the gate to its audit trail."""
    graph = ctx.iris.paper(paper_id)
    if not ctx.store.ask("ASK WHERE { GRAPH ?graph { ?graph ?p ?o } }", {"graph": graph}):
        raise RepairError(f"no paper {paper_id!r} in the store at {ctx.store.location}")
    result = PaperRepair(paper_id, repair_graph(ctx, graph))
    result.gate = gate_paper(ctx, paper_id)
    record(ctx.store, ctx.iris, paper_id, [*extra, *(run.activity() for run in result.runs), gate_activity(result.gate)])
    return result
