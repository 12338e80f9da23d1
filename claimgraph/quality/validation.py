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

from claimgraph.profile.manifest import Profile, load_profile
from claimgraph.profile.vocabulary import load_vocabulary
from claimgraph.quality.reports import GraphReport, ShapeResult, ValidationReport
from claimgraph.quality.rules import rule_violations
from claimgraph.quality.shapes import ResultRow, compile_profile, shape_results
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import Store, ntriples


def validate_graph(store: Store, graph_iri: NamedNode, profile: Profile | str = "discourse", iris: IriScheme | None = None) -> ValidationReport:
    """Validate one named graph: shapes on every typed node, then the profile's gate rules."""
    return _validate_graphs(store, [graph_iri], _profile(profile), 1, iris or IriScheme())


def validate_store(
    store: Store,
    profile: Profile | str = "discourse",
    paper_ids: Iterable[str] | None = None,
    iris: IriScheme | None = None,
    workers: int | None = None,
) -> ValidationReport:
    """Validate the given papers' graphs, or every paper graph (not raw/audit) and the canonical graph.

    Shapes run in ``workers`` processes (default: one per CPU) since pyshex is
    pure Python; the store is only read in this process.
    """
    iris = iris or IriScheme()
    if paper_ids is not None:
        graphs = [iris.paper(paper_id) for paper_id in paper_ids]
    else:
        canonical = iris.canonical_graph()
        graphs = [graph for graph in store.graph_names() if graph == canonical or _is_paper_graph(graph, iris)]
    return _validate_graphs(store, graphs, _profile(profile), workers or os.cpu_count() or 1, iris)


def _profile(profile: Profile | str) -> Profile:
    return load_profile(profile) if isinstance(profile, str) else profile


def _is_paper_graph(graph: NamedNode, iris: IriScheme) -> bool:
    paper_id = iris.paper_id_of(graph)
    return paper_id is not None and graph == iris.paper(paper_id)


def _validate_graphs(store: Store, graphs: list[NamedNode], profile: Profile, workers: int, iris: IriScheme) -> ValidationReport:
    compiled = compile_profile(profile)
    vocabulary = load_vocabulary(store, iris, profile)
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
        graph_report.violations.extend(rule_violations(store, graph_report.graph, compiled.rules, vocabulary))
    return report


def _result(graph: NamedNode, focus: str, blank: bool, shape: str | None, passed: bool, reason: str) -> ShapeResult:
    node = BlankNode(focus) if blank else NamedNode(focus)
    return ShapeResult(graph, node, NamedNode(shape) if shape else None, passed, reason)


def _shape_job(job: tuple[Profile, str, bytes]) -> list[ResultRow]:
    profile, _, body = job
    triples = [quad.triple if isinstance(quad, Quad) else quad for quad in pyoxigraph.parse(body, format=RdfFormat.N_TRIPLES)]
    return shape_results(triples, compile_profile(profile))
