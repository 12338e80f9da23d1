"""Validate paper graphs against a profile: ShEx shapes per node, then the profile's SPARQL gate rules.

Each named graph is read once from the store into an rdflib Graph. Every subject
typed with a class that has a shape is a focus node; the class -> shape map
follows the ``<Class>Shape`` naming convention of the schema (overridable in the
profile's ``[shapes]`` table). pyshex is called once per shape with all of that
shape's focus nodes, and its multi-line failure trace is reduced to one line.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable

import pyoxigraph
from pyoxigraph import BlankNode, NamedNode, Quad, RdfFormat

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.profile.manifest import Profile
from claimgraph.quality.reports import GraphReport, ShapeResult, ValidationReport
from claimgraph.quality.rules import rule_violations
from claimgraph.quality.shapes import ResultRow, compile_profile, shape_results
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import ntriples


class UnknownPaperError(ClaimgraphError):
    """Validation was asked for papers the store does not hold."""


def validate_graph(ctx: Context, graph: NamedNode) -> ValidationReport:
    """Validate one named graph: shapes on every typed node, then the profile's gate rules."""
    return _validate_graphs(ctx, [graph], workers=1)


def validate_store(ctx: Context, paper_ids: Iterable[str] | None = None, workers: int | None = None) -> ValidationReport:
    """Validate the given papers' graphs, or every paper graph (not raw/audit) and the canonical graph.

    Shapes run in ``workers`` processes (default: one per CPU) since pyshex is
    pure Python; the store is only read in this process. An id the store does
    not hold is an error, not a pass.
    """
    iris = ctx.iris
    if paper_ids is not None:
        graphs = [iris.paper(paper_id) for paper_id in paper_ids]
        present = set(ctx.store.graph_names())
        missing = [iris.paper_id_of(graph) for graph in graphs if graph not in present]
        if missing:
            raise UnknownPaperError(f"no paper {', '.join(map(repr, missing))} in the store at {ctx.store.location} (claimgraph stats lists them)")
    else:
        canonical = iris.canonical_graph()
        graphs = [graph for graph in ctx.store.graph_names() if graph == canonical or _is_paper_graph(graph, iris)]
    return _validate_graphs(ctx, graphs, workers or os.cpu_count() or 1)


def _is_paper_graph(graph: NamedNode, iris: IriScheme) -> bool:
    paper_id = iris.paper_id_of(graph)
    return paper_id is not None and graph == iris.paper(paper_id)


def _validate_graphs(ctx: Context, graphs: list[NamedNode], workers: int) -> ValidationReport:
    store, profile = ctx.store, ctx.profile
    compiled = compile_profile(profile)
    report = ValidationReport(compiled.name)
    if workers > 1 and len(graphs) > 1 and "fork" in multiprocessing.get_all_start_methods():
        # fork: workers inherit the compiled profile; batches bound the memory held as N-Triples.
        with multiprocessing.get_context("fork").Pool(min(workers, len(graphs))) as pool:
            for start in range(0, len(graphs), 8 * workers):
                batch = graphs[start:start + 8 * workers]
                jobs = [(profile, graph.value, ntriples(store.triples(graph)).encode("utf-8")) for graph in batch]
                for graph, results in zip(batch, pool.imap(_shape_job, jobs)):
                    report.graphs.append(GraphReport(graph, [_result(graph, *row) for row in results]))
    else:
        for graph in graphs:
            rows = shape_results(store.triples(graph), compiled)
            report.graphs.append(GraphReport(graph, [_result(graph, *row) for row in rows]))
    for graph_report in report.graphs:
        graph_report.violations.extend(rule_violations(store, graph_report.graph, compiled.rules, ctx.vocabulary))
    return report


def _result(graph: NamedNode, focus: str, blank: bool, shape: str | None, passed: bool, reason: str) -> ShapeResult:
    node = BlankNode(focus) if blank else NamedNode(focus)
    return ShapeResult(graph, node, NamedNode(shape) if shape else None, passed, reason)


def _shape_job(job: tuple[Profile, str, bytes]) -> list[ResultRow]:
    profile, _, body = job
    triples = [quad.triple if isinstance(quad, Quad) else quad for quad in pyoxigraph.parse(body, format=RdfFormat.N_TRIPLES)]
    return shape_results(triples, compile_profile(profile))
