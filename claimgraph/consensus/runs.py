"""Run graphs: one snapshot per model or run of what a paper graph held after that run.

A run graph is ``<paper>/run/<name>``. It holds what the paper graph says less
the input's structure, which every run shares (passages, sentences, references,
viewpoints: ``snapshot_run``), or the triples of an RDF file (``import_run``),
and names itself: ``<run> cg:runOf <paper> ; rdfs:label "name" ;
prov:generatedAtTime ...``. Run graphs are not paper
graphs: validation, canonicalization and the shipped paper queries skip them.
"""

from __future__ import annotations

from pathlib import Path

import pyoxigraph
from pyoxigraph import Literal, NamedNode, Quad, RdfFormat, Triple

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.papers.audit import now
from claimgraph.rdf.binding import Term, bind
from claimgraph.rdf.queries import read_internal_query, read_sparql
from claimgraph.rdf.rows import iri_of, text_of
from claimgraph.rdf.vocab import CG, PROV, RDFS, XSD

FORMATS = {".ttl": RdfFormat.TURTLE, ".nt": RdfFormat.N_TRIPLES, ".rdf": RdfFormat.RDF_XML, ".xml": RdfFormat.RDF_XML,
           ".trig": RdfFormat.TRIG, ".nq": RdfFormat.N_QUADS}


class RunError(ClaimgraphError):
    """A run graph cannot be made: unknown paper, bad run name, unreadable file."""


def run_graph(ctx: Context, paper_id: str, name: str) -> NamedNode:
    try:
        return ctx.iris.node(paper_id, "run", name)
    except ClaimgraphError as error:
        raise RunError(f"run name {name!r}: use letters, digits, '.', '_', '~' or '-' ({error})") from error


def consensus_graph(ctx: Context, paper_id: str) -> NamedNode:
    return NamedNode(f"{ctx.iris.paper(paper_id).value}/consensus")


def _require_paper(ctx: Context, paper_id: str) -> NamedNode:
    paper = ctx.iris.paper(paper_id)
    if not ctx.store.ask("ASK WHERE { GRAPH ?g { ?g a ?paperClass } }", {"g": paper, "paperClass": CG.Paper}):
        raise RunError(f"no paper {paper_id!r} in the store at {ctx.store.location}; ingest it first")
    return paper


def _store_run(ctx: Context, paper: NamedNode, graph: NamedNode, name: str, triples: list[Triple]) -> int:
    label = [Triple(graph, CG.runOf, paper), Triple(graph, RDFS.label, Literal(name)),
             Triple(graph, PROV.generatedAtTime, Literal(now().isoformat(), datatype=XSD.dateTime))]
    content = [t for t in triples if not (t.subject == graph and t.predicate in (CG.runOf, RDFS.label, PROV.generatedAtTime))]
    ctx.store.replace_graphs({graph: [*content, *label]})
    return len(content)


def snapshot_run(ctx: Context, paper_id: str, name: str) -> None:
    """Keep the paper graph as it is now, less its structure, as run ``name`` (replacing a run of that name), in one update."""
    _require_paper(ctx, paper_id)
    ctx.store.update(snapshot_update(ctx, paper_id, name))


def snapshot_update(ctx: Context, paper_id: str, name: str) -> str:
    """The update ``snapshot_run`` sends, its terms bound: a step that writes the paper graph appends it to its own
    request, so that the graph and its run are written together."""
    at = Literal(now().isoformat(), datatype=XSD.dateTime)
    bindings: dict[str, Term] = {"paper": ctx.iris.paper(paper_id), "run": run_graph(ctx, paper_id, name), "name": Literal(name), "at": at}
    return bind(read_sparql("internal", "snapshot-run.ru"), bindings)


def import_run(ctx: Context, paper_id: str, name: str, path: Path) -> int:
    """Load run ``name`` from an RDF file (the default graph, or every graph of a quad file); returns the triples."""
    paper = _require_paper(ctx, paper_id)
    rdf_format = FORMATS.get(path.suffix.lower())
    if rdf_format is None:
        raise RunError(f"{path}: unknown RDF file type {path.suffix or '(none)'}; use one of {', '.join(sorted(FORMATS))}")
    try:
        parsed = list(pyoxigraph.parse(path=str(path), format=rdf_format))
    except (OSError, SyntaxError, ValueError) as error:
        raise RunError(f"{path}: cannot be read as {rdf_format.name}: {error}") from error
    triples = [item.triple if isinstance(item, Quad) else item for item in parsed]
    return _store_run(ctx, paper, run_graph(ctx, paper_id, name), name, triples)


def run_graphs(ctx: Context, paper_id: str) -> list[tuple[str, NamedNode]]:
    """(name, graph) of the paper's run graphs, by name."""
    rows = ctx.store.select(read_internal_query("run-graphs"), {"paper": ctx.iris.paper(paper_id)})
    return [(text_of(row, "name"), iri_of(row, "run")) for row in rows]
