"""Export papers' named graphs as Turtle, N-Triples, TriG, N-Quads, JSON-LD; their graphs as DOT or GraphML; nanopublications.

Line and Turtle-family syntaxes are written by pyoxigraph straight from the
store's quads. JSON-LD is written by rdflib so that it is compacted with the
published context (ontology/context.jsonld); it always keeps one ``@graph``
per named graph, so a JSON-LD export reads back as the same dataset. DOT
writes one ``digraph`` per paper: a paper with reasoning nodes as its
reasoning graph (claimgraph.publish.dot, optionally as the evaluation view,
scaffolding left out), any other as its discourse graph
(claimgraph.publish.discourse_dot). GraphML (claimgraph.publish.graphml) and
nanopublications (claimgraph.publish.nanopub, one per claim or per paper)
read the papers' nodes and edges as the viewer does. Each format's module is
imported when that format is asked for: a TriG export loads none of them.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Collection, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

from pyoxigraph import BlankNode, Literal, NamedNode, Quad

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.papers.document_graph import stored_paper_ids, unknown_paper
from claimgraph.publish.discourse_dot import discourse_dot
from claimgraph.publish.dot import reasoning_dot
from claimgraph.publish.graphml import to_graphml
from claimgraph.publish.jsonld_context import jsonld_context
from claimgraph.publish.nanopub import UNITS, nanopublications, to_trig
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, PREFIXES, XSD
from claimgraph.store import EXPORT_FORMATS, Store

if TYPE_CHECKING:
    import rdflib

    RdflibTerm = rdflib.URIRef | rdflib.BNode | rdflib.Literal

EXPORT_FORMAT_NAMES = (*EXPORT_FORMATS, "jsonld")
PAPER_VIEW_FORMATS = ("dot", "graphml", "nanopub")
ALL_FORMAT_NAMES = (*EXPORT_FORMAT_NAMES, *PAPER_VIEW_FORMATS)
GRAPH_KINDS = ("paper", "raw", "audit")


class ExportError(ClaimgraphError):
    """An export was asked for an unknown format, paper or graph kind."""


def export(
    ctx: Context,
    fmt: str,
    paper_ids: Iterable[str] | None = None,
    kinds: Collection[str] = ("paper",),
    everything: bool = False,
    evaluation_view: bool = False,
    nanopub_unit: str = "claim",
    created: datetime | None = None,
    merge_graphs: bool = False,
) -> bytes:
    """The chosen papers' graphs in ``fmt`` (one of ALL_FORMAT_NAMES).

    ``paper_ids=None`` means every paper in the store. Each paper contributes
    the graphs of ``kinds`` (by default its paper graph only); ``everything``
    exports every named graph instead (canonical hubs included). Turtle and N-Triples
    have no graph names: several graphs are refused (TriG and N-Quads keep the names)
    unless ``merge_graphs`` asks for their union on purpose.
    ``dot`` writes one paper's reasoning graph (the context's profile names its edge
    labels; DOT holds one graph, so several papers are refused: ``paper_dots`` gives
    one per paper); ``evaluation_view`` leaves the scaffolding root out.
    ``graphml`` and ``nanopub`` (one nanopublication per claim or per paper,
    ``nanopub_unit``, stamped ``created``) write the chosen papers' nodes and edges.
    """
    store, iris = ctx.store, ctx.iris
    if fmt not in ALL_FORMAT_NAMES:
        raise ExportError(f"unknown export format {fmt!r}; choose one of {', '.join(ALL_FORMAT_NAMES)}")
    if fmt in PAPER_VIEW_FORMATS:
        chosen = chosen_papers(ctx, paper_ids)
        selected_graphs(store, chosen, iris, ("paper",))
        if fmt == "graphml":

            return to_graphml(ctx, chosen)
        if fmt == "nanopub":

            if nanopub_unit not in UNITS:
                raise ExportError(f"unknown nanopublication unit {nanopub_unit!r}; choose {' or '.join(UNITS)}")
            return to_trig(nanopublications(ctx, chosen, nanopub_unit, created))
        if len(chosen) != 1:
            raise ExportError(f"DOT holds one graph per file and {len(chosen)} papers are chosen: give --paper ID, "
                              "or -o FOLDER for one .dot file per paper")
        return paper_dot(ctx, chosen[0], evaluation_view).encode("utf-8")
    if everything:
        graphs = None
    else:
        chosen = chosen_papers(ctx, paper_ids)
        graphs = selected_graphs(store, chosen, iris, kinds)
    if fmt in ("ttl", "nt") and not merge_graphs:
        count = len(graphs) if graphs is not None else len(store.graph_names())
        if count > 1:
            raise ExportError(f"{fmt} has no graph names, and {count} named graphs are chosen: their triples would be merged "
                              "into one graph; export trig or nq to keep the names, or add --merge-graphs to merge them on purpose")
    if fmt == "jsonld":
        return to_jsonld(store, graphs)
    return store.serialize(EXPORT_FORMATS[fmt], graphs, prefixes=PREFIXES)


def chosen_papers(ctx: Context, paper_ids: Iterable[str] | None) -> list[str]:
    """``paper_ids``, or every paper in the store when None."""
    if paper_ids is not None:
        return list(paper_ids)

    return stored_paper_ids(ctx.store, ctx.iris)


def selected_graphs(store: Store, paper_ids: list[str], iris: IriScheme, kinds: Collection[str]) -> list[NamedNode]:
    """The named graphs of ``kinds`` for each paper; every paper must be in the store."""
    unknown_kinds = sorted(set(kinds) - set(GRAPH_KINDS))
    if unknown_kinds:
        raise ExportError(f"unknown graph kind(s) {', '.join(unknown_kinds)}; choose from {', '.join(GRAPH_KINDS)}")
    present = set(store.graph_names())
    missing = [paper_id for paper_id in paper_ids if iris.paper(paper_id) not in present]
    if missing:
        raise ExportError("; ".join(unknown_paper(store, iris, paper_id) for paper_id in missing))
    builders = {"paper": iris.paper, "raw": iris.raw_graph, "audit": iris.audit_graph}
    return [builders[kind](paper_id) for paper_id in paper_ids for kind in GRAPH_KINDS if kind in kinds]


def has_reasoning_nodes(ctx: Context, paper_id: str) -> bool:
    return ctx.store.ask("ASK WHERE { GRAPH ?graph { ?node a ?type } }", {"graph": ctx.iris.paper(paper_id), "type": CG.ReasoningNode})


def paper_dots(ctx: Context, paper_ids: Iterable[str] | None = None, evaluation_view: bool = False) -> dict[str, str]:
    """Each chosen paper's DOT graph (every paper when None), by paper id: one file each."""
    chosen = chosen_papers(ctx, paper_ids)
    selected_graphs(ctx.store, chosen, ctx.iris, ("paper",))
    return {paper_id: paper_dot(ctx, paper_id, evaluation_view) for paper_id in chosen}


def paper_dot(ctx: Context, paper_id: str, evaluation_view: bool = False) -> str:
    """The paper as DOT: its reasoning graph when it has one (round-trips through the materializer), else its discourse graph."""

    return reasoning_dot(ctx, paper_id, evaluation_view) if has_reasoning_nodes(ctx, paper_id) else discourse_dot(ctx, paper_id)


def to_jsonld(store: Store, graphs: list[NamedNode] | None) -> bytes:
    """Named graphs as compacted JSON-LD with one ``@graph`` per graph."""
    quads: list[Quad] = []
    for graph in graphs if graphs is not None else [None]:
        quads.extend(store.quads(graph))
    import rdflib


    dataset = rdflib.Dataset()
    dataset.addN(to_rdflib_quads(dataset, quads))
    context = jsonld_context()
    with warnings.catch_warnings():  # rdflib's JSON-LD plugin calls its own deprecated Dataset API
        warnings.simplefilter("ignore", DeprecationWarning)
        document = json.loads(dataset.serialize(format="json-ld", context=context, auto_compact=True))
    if "@graph" not in document or "@id" in document:  # rdflib inlines a lone graph at the top level
        body = {key: value for key, value in document.items() if key != "@context"}
        document = {"@context": context, "@graph": [body] if body else []}
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")


_XSD_STRING = XSD.string


def to_rdflib_quads(dataset: rdflib.Dataset, quads: Iterable[Quad]) -> Iterable[tuple[RdflibTerm, RdflibTerm, RdflibTerm, rdflib.Graph]]:
    """pyoxigraph quads as rdflib quads; converting terms directly is twice as fast as parsing N-Quads."""
    import rdflib

    terms: dict[NamedNode | BlankNode | Literal, RdflibTerm] = {}
    contexts: dict[NamedNode, rdflib.Graph] = {}

    def term(node: Any) -> RdflibTerm:
        converted = terms.get(node)
        if converted is None:
            if isinstance(node, NamedNode):
                converted = rdflib.URIRef(node.value)
            elif isinstance(node, BlankNode):
                converted = rdflib.BNode(node.value)
            elif node.language:
                converted = rdflib.Literal(node.value, lang=node.language)
            elif node.datatype == _XSD_STRING:
                converted = rdflib.Literal(node.value)
            else:  # normalize=False keeps the lexical form ("01" stays "01")
                converted = rdflib.Literal(node.value, datatype=rdflib.URIRef(node.datatype.value), normalize=False)
            terms[node] = converted
        return converted

    for quad in quads:
        name = cast(NamedNode, quad.graph_name)  # the store's quads of named graphs
        graph = contexts.get(name)
        if graph is None:
            graph = contexts[name] = dataset.graph(rdflib.URIRef(name.value))
        yield term(quad.subject), term(quad.predicate), term(quad.object), graph
