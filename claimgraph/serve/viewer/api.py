"""The viewer's JSON API (docs/viewer-api.md): papers, hubs, one paper's graph, one hub's graph.

Every payload is computed from the store by the SPARQL files in
``sparql/graphs/`` at request time; an error is an ``ApiError`` whose status
and message the server sends as ``{"error": message}``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from pyoxigraph import Literal, NamedNode

from claimgraph.context import Context
from claimgraph.errors import StoreError
from claimgraph.publish.elements import Json, graph_elements, number, provenance, provenance_index, short_label, text
from claimgraph.rdf.queries import read_sparql
from claimgraph.rdf.rows import iri_of
from claimgraph.rdf.vocab import local_name
from claimgraph.serve.viewer import corpus, structure
from claimgraph.serve.viewer.cache import StateCache
from claimgraph.serve.viewer.params import ApiError, one, positive_int
from claimgraph.serve.viewer.queries import queries_payload

__all__ = ["ApiError", "CountCache", "answer", "one"]

DEFAULT_HUB_LIMIT = 50
MAX_HUB_LIMIT = 500
VIEWS = ("paper", "raw")


def vocabulary_prefix(ctx: Context) -> str:
    return f"{ctx.iris.base}graph/vocabulary/"


class CountCache(StateCache):
    """The viewer's answers kept per store state: node and edge counts per paper graph, hubs, the corpus."""

    def counts(self, ctx: Context, graphs: list[NamedNode], state: Hashable | None) -> dict[str, tuple[int, int]]:
        key = "counts:" + "\x1f".join(sorted(graph.value for graph in graphs))
        counts: dict[str, tuple[int, int]] = self.remember(key, state, lambda: {graph.value: graph_counts(ctx, graph) for graph in graphs})
        return counts


def graph_counts(ctx: Context, graph: NamedNode) -> tuple[int, int]:
    """(nodes, edges) of one paper graph, with the same patterns as its node and edge lists."""
    nodes = ctx.store.scalar(read_sparql("graphs", "node-counts.rq"), {"graph": graph})
    edges = ctx.store.scalar(read_sparql("graphs", "edge-counts.rq"), {"graph": graph, "vocabularyPrefix": Literal(vocabulary_prefix(ctx))})
    return nodes, edges


def paper_sizes(ctx: Context, cache: CountCache, state: Hashable | None) -> dict[str, tuple[int, int]]:
    """(nodes, edges) of every paper graph, by graph IRI."""
    graphs = [row["paper"] for row in ctx.store.select(read_sparql("graphs", "papers.rq"))]
    return cache.counts(ctx, [graph for graph in graphs if isinstance(graph, NamedNode)], state)


def papers_payload(ctx: Context, cache: CountCache | None = None, state: Hashable | None = None) -> Json:
    iris = ctx.iris
    papers: dict[str, Json] = {}
    for row in ctx.store.select(read_sparql("graphs", "papers.rq")):
        paper_id = iris.paper_id_of(iri_of(row, "paper"))
        if paper_id is not None and paper_id not in papers:
            papers[paper_id] = {"id": paper_id, "title": text(row.get("title")), "graph": row["paper"].value}
    graphs = [NamedNode(paper["graph"]) for paper in papers.values()]
    counts = (cache or CountCache()).counts(ctx, graphs, state)
    for paper in papers.values():
        paper["nodes"], paper["edges"] = counts[paper["graph"]]
    return {"papers": sorted(papers.values(), key=lambda paper: paper["id"])}


def hub_summaries(ctx: Context, cache: CountCache | None = None, state: Hashable | None = None) -> list[Json]:
    """Every CANON_ hub with its counts, most members first; kept per store state, as a search reads them all."""
    hubs: list[Json] = (cache or CountCache()).remember("hubs", state, lambda: all_hubs(ctx))
    return hubs


def all_hubs(ctx: Context) -> list[Json]:
    rows = ctx.store.select(read_sparql("graphs", "hubs.rq"), {"canonical": ctx.iris.canonical_graph()})
    hubs = [{"iri": row["hub"].value, "type": local_name(row["type"].value), "text": row["text"].value,
             "members": int(row["members"].value), "papers": int(row["papers"].value)} for row in rows]
    return sorted(hubs, key=lambda hub: (-hub["members"], hub["text"], hub["iri"]))


def hubs_payload(ctx: Context, params: Mapping[str, list[str]], cache: CountCache, state: Hashable | None) -> Json:
    query = (one(params, "q", "") or "").casefold()
    limit = positive_int(params, "limit", DEFAULT_HUB_LIMIT, MAX_HUB_LIMIT)
    hubs = [hub for hub in hub_summaries(ctx, cache, state) if query in hub["text"].casefold()]
    return {"hubs": hubs[:limit]}


def graph_payload(ctx: Context, params: Mapping[str, list[str]]) -> Json:
    paper_id = one(params, "paper")
    view = one(params, "view", "paper")
    if not paper_id:
        raise ApiError(400, "parameter 'paper' (a paper id) is required")
    if view not in VIEWS:
        raise ApiError(400, f"view must be 'paper' or 'raw', not {view!r}")
    paper = corpus.paper_node(ctx, paper_id)
    graph = paper if view == "paper" else ctx.iris.raw_graph(paper_id)
    if view == "raw" and not ctx.store.has_graph(graph):
        raise ApiError(404, f"paper {paper_id!r} has no raw graph in the store")
    nodes, edges = graph_elements(ctx.store, graph, paper, ctx.iris.audit_graph(paper_id), vocabulary_prefix(ctx), view)
    terms = structure.node_terms(ctx.store, paper)
    for node in nodes:
        node["terms"] = terms.get(node["id"], [])
    shown = {node["id"] for node in nodes}
    return {"paper": paper_id, "view": view, "nodes": nodes, "edges": edges, "structure": structure.structure(ctx.store, paper, shown)}


def hub_payload(ctx: Context, params: Mapping[str, list[str]], cache: CountCache, state: Hashable | None) -> Json:
    iri = one(params, "iri")
    if not iri:
        raise ApiError(400, "parameter 'iri' (a hub IRI) is required")
    try:
        hub = NamedNode(iri)
    except ValueError as error:
        raise ApiError(400, f"iri {iri!r} is not an IRI: {error}") from error
    summary = next((item for item in hub_summaries(ctx, cache, state) if item["iri"] == iri), None)
    if summary is None:
        raise ApiError(404, f"no CANON_ hub <{iri}> in the store")
    store = ctx.store
    origin = store.select(read_sparql("graphs", "hub-provenance.rq"), {"hub": hub})
    model = text(origin[0].get("model")) if origin else None
    hub_provenance: Json = {"step": "canonicalize", "model": model, "repairs": []}
    nodes: dict[str, Json] = {iri: {
        "id": iri, "label": short_label(summary["text"]), "type": summary["type"], "role": None, "text": summary["text"],
        "confidence": None, "anchor": None, "sentence": None, "provenance": hub_provenance}}
    edges: list[Json] = []
    touches: dict[str, Any] = {}
    for row in store.select(read_sparql("graphs", "hub-members.rq"), {"hub": hub}):
        member = row["node"].value
        if member in nodes:
            continue
        paper_id = ctx.iris.paper_id_of(iri_of(row, "paper")) or ""
        if paper_id not in touches:
            touches[paper_id] = provenance_index(store, ctx.iris.audit_graph(paper_id)) if paper_id else {}
        body = row["text"].value
        anchor = f"({row['x'].value},{row['y'].value},{row['z'].value})" if "x" in row else None
        nodes[member] = {
            "id": member, "label": short_label(body), "type": local_name(row["type"].value), "role": None, "text": body,
            "confidence": number(row.get("confidence")), "anchor": anchor, "sentence": text(row.get("sentence")),
            "provenance": provenance(touches[paper_id].get(member, []), "paper"), "paper": paper_id,
        }
        relation = local_name(row["relation"].value)  # mentions, or exactMatch for a merged node
        basis = local_name(row["basis"].value) if "basis" in row else None  # exactText, similarity or judged
        edges.append({"id": f"{member}|{relation}|{iri}", "source": member, "target": iri,
                      "label": f"{relation} ({basis})" if basis else relation, "basis": basis,
                      "confidence": number(row.get("mention")), "provenance": hub_provenance})
    return {"hub": summary, "nodes": list(nodes.values()), "edges": edges}


Handler = Callable[[Context, Mapping[str, list[str]], CountCache, Hashable | None], Json]
ROUTES: dict[str, Handler] = {
    "papers": lambda ctx, params, cache, state: papers_payload(ctx, cache, state),
    "hubs": hubs_payload,
    "graph": lambda ctx, params, cache, state: graph_payload(ctx, params),
    "hub": hub_payload,
    "corpus": lambda ctx, params, cache, state: corpus.corpus_payload(ctx, params, cache, state, lambda: paper_sizes(ctx, cache, state)),
    "shared": lambda ctx, params, cache, state: corpus.shared_payload(ctx, params),
    "term": lambda ctx, params, cache, state: corpus.term_payload(ctx, params),
    "queries": lambda ctx, params, cache, state: queries_payload(),
}


def answer(ctx: Context, route: str, params: Mapping[str, list[str]], cache: CountCache | None = None, state: Hashable | None = None) -> tuple[int, Json]:
    """The status and JSON body of ``GET api/<route>?<params>``; ``cache`` keeps answers per store ``state``."""
    handler = ROUTES.get(route)
    if handler is None:
        return 404, {"error": f"no API route {route!r}; the viewer API has {', '.join(ROUTES)}"}
    try:
        return 200, handler(ctx, params, cache or CountCache(), state)
    except ApiError as error:
        return error.status, {"error": str(error)}
    except StoreError as error:
        return 503, {"error": f"the store cannot be read: {error}"}
