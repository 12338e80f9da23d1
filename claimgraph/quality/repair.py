"""Deterministic repair: the profile's sparql/repair/*.ru scripts run on a paper graph, each one audited.

Every script is a SPARQL UPDATE with ``?graph`` (the paper graph) and
``?vocabulary`` (the profile vocabulary graph) bound as RDF terms. The part of
the paper graph a script can change (sparql/internal/repair-scope.rq) is read
from the store before and after each script; the difference gives the counts
and the IRIs the script touched (an UPDATE reports nothing). A script may have
an explain query next to it (``<name>.rq``, a SELECT of ``?duplicate
?survivor ?why``); its rows are read before the script runs and recorded with
the activity, so a merge says which node survived and why.
The unrepaired extraction stays in the paper's raw graph.

``repair_content`` runs the same scripts, gate measures and gate rules on a
working copy: an in-memory store holding only the content given (a reasoning
response's nodes and edges and the paper structure their anchors name), which
is all they read. The caller stores the result in one update; the scripts,
their order, the gate and the audit are the same as on the paper graph in the
store (a test checks that a later ``repair`` in the store finds nothing to do
and the same verdict).

Edge labels the materializer cannot match to a canonical label are stored as
raw-label predicates (``RAW_LABEL[normalized label]``) so that they are
representable before ``canonicalize_edge_labels`` runs; see docs/repair.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pyoxigraph import NamedNode, Triple

from claimgraph.context import Context, vocabulary_content
from claimgraph.errors import ClaimgraphError
from claimgraph.papers.audit import Activity, now
from claimgraph.papers.audit_append import append_update, record
from claimgraph.profile.manifest import Profile
from claimgraph.profile.vocabulary import RAW_LABEL
from claimgraph.quality.gate import GateReport, evaluate_gate, gate_activity, gate_paper, given_nodes, measure_graph, residual_triples
from claimgraph.quality.grounding import audit_paper
from claimgraph.quality.reports import RuleViolation
from claimgraph.rdf.queries import read_internal_query, read_sparql_file
from claimgraph.rdf.rows import iri_of, subject_of, text_of
from claimgraph.rdf.vocab import CG, RDF
from claimgraph.store import EmbeddedStore, Store
from claimgraph.store.lease import lease

_ACTS_ON = re.compile(r"^#\s*acts-on:\s*(.+?)\s*$", re.MULTILINE)


class RepairError(ClaimgraphError):
    """A repair could not run (missing script, paper not in the store)."""


# ---------------------------------------------------------------- running scripts


@dataclass(frozen=True)
class Merge:
    """One node folded into another by a repair script, and the step of the fixed rule that chose the survivor."""

    duplicate: NamedNode
    survivor: NamedNode
    why: str


@dataclass(frozen=True)
class ScriptRun:
    """One script applied to one graph: triple counts before and after, what changed, the merges it made."""

    name: str
    triples_before: int
    triples_after: int
    added: int
    removed: int
    touched: tuple[NamedNode, ...]
    merges: tuple[Merge, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.added or self.removed)

    def activity(self) -> Activity:
        counts = {"scope_before": self.triples_before, "scope_after": self.triples_after, "added": self.added, "removed": self.removed}
        notes = {"script": f"sparql/repair/{self.name}.ru"}
        if self.merges:
            counts["merges"] = len(self.merges)
            notes["merges"] = "; ".join(f"{merge.duplicate.value} -> {merge.survivor.value} ({merge.why})" for merge in self.merges)
        return Activity("repair", self.name, counts, self.touched, notes=notes, ended=now())


@dataclass
class PaperRepair:
    """The repair of one paper: every script run, then the gate on the raw and the repaired graph."""

    paper_id: str
    runs: list[ScriptRun] = field(default_factory=list)
    gate: GateReport | None = None

    @property
    def merges(self) -> list[Merge]:
        return [merge for run in self.runs for merge in run.merges]


@cache
def _script_text(path: Path) -> str:
    return read_sparql_file(path)


@cache
def _explain_text(path: Path) -> str | None:
    explain = path.with_suffix(".rq")
    return read_sparql_file(explain) if explain.is_file() else None


def script_paths(profile: Profile) -> list[Path]:
    """The profile's repair scripts in manifest order; a name without a file is an error."""
    if profile.missing_repairs:
        raise RepairError(f"{profile.manifest}: repairs {profile.missing_repairs} have no file in sparql/repair/")
    return profile.repair_files


def repair_scope(store: Store, graph: NamedNode, vocabulary: NamedNode) -> set[Triple]:
    """The triples of ``graph`` that a repair script can add, remove or rewrite."""
    rows = store.select(read_internal_query("repair-scope"), {"graph": graph, "vocabulary": vocabulary})
    return {Triple(subject_of(row, "s"), iri_of(row, "p"), row["o"]) for row in rows}


def explain(store: Store, graph: NamedNode, vocabulary: NamedNode, path: Path) -> tuple[Merge, ...]:
    """The rows of the script's explain query (``<name>.rq``), read before it runs; () when it has none."""
    text = _explain_text(path)
    if text is None:
        return ()
    rows = store.select(text, {"graph": graph, "vocabulary": vocabulary})
    return tuple(Merge(iri_of(row, "duplicate"), iri_of(row, "survivor"), text_of(row, "why")) for row in rows)


Scope = Callable[[Store, NamedNode, NamedNode], set[Triple]]


def whole_graph(store: Store, graph: NamedNode, vocabulary: NamedNode) -> set[Triple]:
    """Every triple of ``graph``: the scope on a working copy, which holds nothing but what repair may touch."""
    return set(store.triples(graph))


@cache
def acts_on(path: Path) -> frozenset[str]:
    """What a script's ``# acts-on:`` header says it needs in the graph to change anything: predicate or
    class IRIs (written as cg: CURIEs), ``raw-label`` (a raw-label predicate), ``self-loop`` (a triple from a
    node to itself); empty when the script has no such header (it always runs)."""
    header = _ACTS_ON.search(_script_text(path))
    tokens = header.group(1).split() if header else []
    return frozenset(CG[token[3:]].value if token.startswith("cg:") else token for token in tokens)


def may_act(triples: Iterable[Triple], needs: frozenset[str]) -> bool:
    """Whether the scope holds anything the script acts on (always, when it declares nothing)."""
    if not needs:
        return True
    rdf_type = RDF.type
    for triple in triples:
        predicate = triple.predicate.value
        if predicate in needs or (triple.predicate == rdf_type and getattr(triple.object, "value", None) in needs):
            return True
        if ("raw-label" in needs and predicate.startswith(RAW_LABEL.iri)) or ("self-loop" in needs and triple.subject == triple.object):
            return True
    return False


def run_script(store: Store, graph: NamedNode, vocabulary: NamedNode, path: Path, before: set[Triple] | None = None,
               scope: Scope = repair_scope) -> tuple[ScriptRun, set[Triple]]:
    """Apply one repair script to ``graph``; returns what it changed and the graph's triples after it.

    ``before`` (the scope as the previous script left it) saves a read. The
    triple counts are of the repair scope, not of the whole graph. A script
    whose ``# acts-on:`` header names nothing the scope holds is not sent to
    the store: it could not change anything.
    """
    before = scope(store, graph, vocabulary) if before is None else before
    if not may_act(before, acts_on(path)):
        return ScriptRun(path.stem, len(before), len(before), 0, 0, ()), before
    merges = explain(store, graph, vocabulary, path)
    store.update(_script_text(path), {"graph": graph, "vocabulary": vocabulary})
    after = scope(store, graph, vocabulary)
    added, removed = after - before, before - after
    prefix = graph.value + "/"
    touched = {
        term
        for triple in added | removed
        for term in (triple.subject, triple.object)
        if isinstance(term, NamedNode) and (term == graph or term.value.startswith(prefix))
    }
    run = ScriptRun(path.stem, len(before), len(after), len(added), len(removed), tuple(sorted(touched, key=str)), merges)
    return run, after


def repair_graph(ctx: Context, graph: NamedNode, scope: Scope = repair_scope) -> list[ScriptRun]:
    """Run every repair script of the profile on one graph, in order (nothing recorded)."""
    runs = []
    triples: set[Triple] | None = None
    for path in script_paths(ctx.profile):
        run, triples = run_script(ctx.store, graph, ctx.vocabulary, path, triples, scope)
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


# ---------------------------------------------------------------- a working copy


@dataclass(frozen=True)
class Content:
    """What a step read from its input, to be repaired and gated on a working copy before it is stored.

    ``triples``: the paper graph's new content (the raw graph takes it as is);
    ``context``: paper structure the scripts, measures and rules read but never
    change (the anchors the content derives from), in neither result;
    ``spans``: the paper's sentences and the viewpoints the content cites, with
    their text, for the grounding audit; they go to a graph of their own in the
    working copy, where no script, measure or rule sees them;
    ``findings``, ``stated``, ``notes``: for the gate (see ``evaluate_gate``).
    """

    triples: Sequence[Triple]
    context: Sequence[Triple] = ()
    spans: Sequence[Triple] = ()
    findings: Sequence[RuleViolation] = ()
    stated: Mapping[str, int] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict)


Writer = Callable[[list[Triple], list[Triple], str], None]


@dataclass(frozen=True)
class HeldContent:
    """Extracted content held in memory, and the writer that stores it once repaired (see ``repair_content``)."""

    content: Content
    write: Writer


def repair_and_gate(ctx: Context, paper_id: str, extra: Sequence[Activity] = (), held: HeldContent | None = None) -> PaperRepair:
    """The one repair and gate of a paper after its extraction, whatever the profile.

    An extraction that wrote its content into the store (the discourse steps do,
    step by step) is repaired in place; one that holds its content in memory (a
    reasoning-graph reply) is repaired on a working copy and stored once.
    """
    if held is None:
        return repair_paper(ctx, paper_id, extra)
    return repair_content(ctx, paper_id, held.content, held.write, extra)


def repair_content(ctx: Context, paper_id: str, content: Content, write: Writer, extra: Sequence[Activity] = ()) -> PaperRepair:
    """Repair and gate ``content`` on a working copy, then store it through ``write`` and record the audit trail.

    The working copy is an in-memory store holding only the content and its
    context as the paper graph and the raw graph; the profile's scripts, the
    gate measures and the gate rules run there, exactly as they would on the
    paper graph. ``write(repaired, residual_triples, audit)`` must store the
    repaired content and the paper's residual labels in ``ctx``'s store and run
    ``audit`` (the update appending the activities) in the same request, with
    whatever it replaces: a process killed at any point leaves the content and
    its audit trail both written or both not. It runs under the lease on the
    paper's audit graph that ``record`` takes.
    """
    copy = Context(EmbeddedStore(None), ctx.iris, ctx.profile)
    paper, raw = ctx.iris.paper(paper_id), ctx.iris.raw_graph(paper_id)
    triples, context = list(content.triples), list(content.context)
    vocabulary, terms, stamp = vocabulary_content(ctx.iris, ctx.profile)
    spans = NamedNode(f"{paper.value}#spans")  # in the working copy only
    copy.store.insert({paper: [*triples, *context], raw: [*triples, *context], vocabulary: [*terms, stamp], spans: list(content.spans)})
    result = PaperRepair(paper_id, repair_graph(copy, paper, whole_graph))
    measured = measure_graph(copy, raw, paper), measure_graph(copy, paper, paper)
    grounding = audit_paper(copy, paper_id, spans_graph=spans)
    report = evaluate_gate(copy, paper_id, measured, content.findings, content.stated, content.notes, grounding, ctx.store)
    kept = set(context)
    repaired = [triple for triple in copy.store.triples(paper) if triple not in kept and triple.predicate != CG.residual]
    copy.close()
    report.given_nodes = given_nodes(ctx.store, paper)
    result.gate = report
    activities = [*extra, *(run.activity() for run in result.runs), gate_activity(report)]
    with lease(ctx.store, ctx.iris.audit_graph(paper_id)):
        write(repaired, residual_triples(paper, report.residuals), append_update(ctx.iris, paper_id, activities))
    return result
