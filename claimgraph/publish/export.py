"""Export papers' named graphs as Turtle, N-Triples, TriG, N-Quads, JSON-LD, or their reasoning graphs as DOT.

Line and Turtle-family syntaxes are written by pyoxigraph straight from the
store's quads. JSON-LD is written by rdflib so that it is compacted with the
published context (ontology/context.jsonld); it always keeps one ``@graph``
per named graph, so a JSON-LD export reads back as the same dataset. DOT
(claimgraph.publish.dot) holds only the reasoning nodes and edges, one
``digraph`` per paper, optionally as the evaluation view (scaffolding left out).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any

from pyoxigraph import BlankNode, Literal, NamedNode, Quad

from claimgraph.assets import read_asset
from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.papers.document_graph import stored_paper_ids
from claimgraph.publish.dot import reasoning_dot
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import PREFIXES, XSD
from claimgraph.store import EXPORT_FORMATS, Store

if TYPE_CHECKING:
    import rdflib

    RdflibTerm = rdflib.URIRef | rdflib.BNode | rdflib.Literal

EXPORT_FORMAT_NAMES = (*EXPORT_FORMATS, "jsonld")
ALL_FORMAT_NAMES = (*EXPORT_FORMAT_NAMES, "dot")
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
) -> bytes:
    """The chosen papers' graphs in ``fmt`` (one of ALL_FORMAT_NAMES).

    ``paper_ids=None`` means every paper in the store. Each paper contributes
    the graphs of ``kinds`` (by default its paper graph only); ``everything``
    exports every named graph instead (canonical hubs included). Turtle and N-Triples
    get the union of the triples; the other formats keep the graph names.
    ``dot`` writes each chosen paper's reasoning graph (the context's profile
    names its edge labels); ``evaluation_view`` leaves the scaffolding root out.
    """
    store, iris = ctx.store, ctx.iris
    if fmt not in ALL_FORMAT_NAMES:
        raise ExportError(f"unknown export format {fmt!r}; choose one of {', '.join(ALL_FORMAT_NAMES)}")
    if fmt == "dot":
        chosen = stored_paper_ids(store, iris) if paper_ids is None else list(paper_ids)
        selected_graphs(store, chosen, iris, ("paper",))
        return "".join(reasoning_dot(ctx, paper_id, evaluation_view) for paper_id in chosen).encode("utf-8")
    if everything:
        graphs = None
    else:
        chosen = stored_paper_ids(store, iris) if paper_ids is None else list(paper_ids)
        graphs = selected_graphs(store, chosen, iris, kinds)
    if fmt == "jsonld":
        return to_jsonld(store, graphs)
    return store.serialize(EXPORT_FORMATS[fmt], graphs, prefixes=PREFIXES)


def selected_graphs(store: Store, paper_ids: list[str], iris: IriScheme, kinds: Collection[str]) -> list[NamedNode]:
    """The named graphs of ``kinds`` for each paper; every paper must be in the store."""
    unknown_kinds = sorted(set(kinds) - set(GRAPH_KINDS))
    if unknown_kinds:
        raise ExportError(f"unknown graph kind(s) {', '.join(unknown_kinds)}; choose from {', '.join(GRAPH_KINDS)}")
    present = set(store.graph_names())
    missing = [paper_id for paper_id in paper_ids if iris.paper(paper_id) not in present]
    if missing:
        raise ExportError(f"no paper {', '.join(map(repr, missing))} in the store at {store.location}")
    builders = {"paper": iris.paper, "raw": iris.raw_graph, "audit": iris.audit_graph}
    return [builders[kind](paper_id) for paper_id in paper_ids for kind in GRAPH_KINDS if kind in kinds]


def jsonld_context() -> dict[str, Any]:
    """The published JSON-LD context (the object under ``@context``)."""
    context: dict[str, Any] = json.loads(read_asset("ontology", "context.jsonld"))["@context"]
    return context


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
        graph = contexts.get(quad.graph_name)
        if graph is None:
            graph = contexts[quad.graph_name] = dataset.graph(rdflib.URIRef(quad.graph_name.value))
        yield term(quad.subject), term(quad.predicate), term(quad.object), graph
