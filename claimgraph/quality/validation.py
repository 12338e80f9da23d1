"""Validate paper graphs against a profile: ShEx shapes per node, then the profile's SPARQL gate rules.

Each named graph is read once from the store. Every subject typed with a class
that has a shape is a focus node (``claimgraph.quality.shapes``: rudof sorts
them, pyshex words each failure in one line); in paper graphs, nodes no shape
would check (untyped, or typed only with foreign classes) fail too. A whole
store's validation also reports papers a stopped run left unfinished (loaded,
never gated).
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
from claimgraph.quality.reports import GraphReport, RuleViolation, ShapeResult, ValidationReport
from claimgraph.quality.semantic import rule_violations
from claimgraph.quality.shapes import GraphInput, ResultRow, compile_profile, shape_results_batch
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_internal_query
from claimgraph.rdf.rows import iri_of, text_of
from claimgraph.store import Store

GRAPHS_PER_JOB = 4
"""Graphs validated together in one job (one rudof session when they share no node)."""


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
    report = _validate_graphs(ctx, graphs, workers or os.cpu_count() or 1)
    report.unfinished = unfinished_papers(ctx.store, iris, paper_ids)
    return report


def unfinished_papers(store: Store, iris: IriScheme, paper_ids: Iterable[str] | None = None) -> list[str]:
    """Ids of the papers (all, or those given) that were loaded but never gated: a run stopped between the two."""
    wanted = set(paper_ids) if paper_ids is not None else None
    rows = store.select(read_internal_query("unfinished-papers"))
    found = {iris.paper_id_of(paper) for row in rows if isinstance(paper := row.get("paper"), NamedNode)}
    return sorted(paper_id for paper_id in found if paper_id is not None and (wanted is None or paper_id in wanted))


def _is_paper_graph(graph: NamedNode, iris: IriScheme) -> bool:
    paper_id = iris.paper_id_of(graph)
    return paper_id is not None and graph == iris.paper(paper_id)


def _validate_graphs(ctx: Context, graphs: list[NamedNode], workers: int) -> ValidationReport:
    store, profile = ctx.store, ctx.profile
    compiled = compile_profile(profile)
    report = ValidationReport(compiled.name)
    canonical = ctx.iris.canonical_graph()
    groups = [graphs[start:start + GRAPHS_PER_JOB] for start in range(0, len(graphs), GRAPHS_PER_JOB)]

    def collect(group: list[NamedNode], results: list[list[ResultRow]]) -> None:
        """Shape rows as a report per graph, with its rule violations (run here while the workers check the next jobs)."""
        for graph, rows in zip(group, results):
            graph_report = GraphReport(graph, [_result(graph, *row) for row in rows])
            graph_report.violations.extend(rule_violations(store, graph, compiled.rules, ctx.vocabulary))
            if graph == canonical:
                graph_report.violations.extend(split_hub_violations(store, canonical))
            report.graphs.append(graph_report)

    if workers > 1 and len(groups) > 1 and "fork" in multiprocessing.get_all_start_methods():
        # fork: workers inherit the compiled profile; batches bound the memory held as N-Triples.
        with multiprocessing.get_context("fork").Pool(min(workers, len(groups))) as pool:
            for start in range(0, len(groups), 4 * workers):
                batch = groups[start:start + 4 * workers]
                jobs = [(profile, [(graph != canonical, store.graph_ntriples(graph)) for graph in group]) for group in batch]
                # largest jobs first, so that no worker is left with a big one when the others are done
                order = sorted(range(len(jobs)), key=lambda index: -sum(len(body) for _, body in jobs[index][1]))
                for index, results in zip(order, pool.imap(_shape_job, [jobs[index] for index in order])):
                    collect(batch[index], results)
    else:
        for group in groups:
            collect(group, _shape_job((profile, [(graph != canonical, store.graph_ntriples(graph)) for graph in group])))
    position = {graph: index for index, graph in enumerate(graphs)}
    report.graphs.sort(key=lambda graph_report: position[graph_report.graph])
    return report


def split_hub_violations(store: Store, canonical: NamedNode) -> list[RuleViolation]:
    """CANON_ nodes that share their type and text with another: a split that writers without the canonical graph's
    lease leave behind (sparql/internal/split-hubs.rq); ``claimgraph reindex`` folds each group into one hub."""
    rows = store.select(read_internal_query("split-hubs"), {"canonical": canonical})
    return [RuleViolation(canonical, "split_hub", iri_of(row, "hub"),
                          f"CANON_ node shares its member type and text {text_of(row, 'text')!r} with another CANON_ node; "
                          "`claimgraph reindex` folds them into one") for row in rows]


def _result(graph: NamedNode, focus: str, blank: bool, shape: str | None, passed: bool, reason: str) -> ShapeResult:
    node = BlankNode(focus) if blank else NamedNode(focus)
    return ShapeResult(graph, node, NamedNode(shape) if shape else None, passed, reason)


def _shape_job(job: tuple[Profile, list[tuple[bool, bytes]]]) -> list[list[ResultRow]]:
    """Shape rows of a group of graphs (each: whether it is a paper graph, its N-Triples)."""
    profile, bodies = job
    inputs = [GraphInput([quad.triple if isinstance(quad, Quad) else quad for quad in pyoxigraph.parse(body, format=RdfFormat.N_TRIPLES)],
                         paper_graph, body.decode("utf-8")) for paper_graph, body in bodies]
    return shape_results_batch(inputs, compile_profile(profile))
