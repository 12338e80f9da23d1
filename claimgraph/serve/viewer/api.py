"""The viewer's JSON API (docs/viewer-api.md): papers, hubs, one paper's graph, one hub's graph.

Every payload is computed from the store by the SPARQL files in
``sparql/graphs/`` at request time; an error is an ``ApiError`` whose status
and message the server sends as ``{"error": message}``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from pyoxigraph import Literal, NamedNode

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError, StoreError
from claimgraph.publish.elements import Json, graph_elements, number, provenance, provenance_index, short_label, text
from claimgraph.rdf.iris import InvalidIdError
from claimgraph.rdf.queries import read_sparql
from claimgraph.rdf.vocab import local_name

DEFAULT_HUB_LIMIT = 50
MAX_HUB_LIMIT = 500
VIEWS = ("paper", "raw")


class ApiError(ClaimgraphError):
    """A viewer API request that cannot be answered: the HTTP status and the message for the viewer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def vocabulary_prefix(ctx: Context) -> str:
    return f"{ctx.iris.base}graph/vocabulary/"


def one(params: Mapping[str, list[str]], name: str, default: str | None = None) -> str | None:
    values = params.get(name)
    if not values:
        return default
    if len(values) > 1:
        raise ApiError(400, f"parameter {name!r} is given {len(values)} times; give it once")
    return values[0]


class CountCache:
    """Node and edge counts per paper graph, kept while the store's state is unchanged.

    Counting every paper of a large store takes seconds; the counts change only
    when the store does, so they are computed once per state (a state of None,
    as for a remote store, is never cached).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state: Hashable | None = None
        self._counts: dict[str, tuple[int, int]] = {}

    def counts(self, ctx: Context, graphs: list[NamedNode], state: Hashable | None) -> dict[str, tuple[int, int]]:
        with self._lock:
            if state is not None and state == self._state and all(graph.value in self._counts for graph in graphs):
                return self._counts
            counts = {graph.value: graph_counts(ctx, graph) for graph in graphs}
            if state is not None:
                self._state, self._counts = state, counts
            return counts


def graph_counts(ctx: Context, graph: NamedNode) -> tuple[int, int]:
    """(nodes, edges) of one paper graph, with the same patterns as its node and edge lists."""
    nodes = ctx.store.scalar(read_sparql("graphs", "node-counts.rq"), {"graph": graph})
    edges = ctx.store.scalar(read_sparql("graphs", "edge-counts.rq"), {"graph": graph, "vocabularyPrefix": Literal(vocabulary_prefix(ctx))})
    return nodes, edges


def papers_payload(ctx: Context, cache: CountCache | None = None, state: Hashable | None = None) -> Json:
    iris = ctx.iris
    papers: dict[str, Json] = {}
    for row in ctx.store.select(read_sparql("graphs", "papers.rq")):
        paper_id = iris.paper_id_of(row["paper"])  # type: ignore[arg-type]
        if paper_id is not None and paper_id not in papers:
            papers[paper_id] = {"id": paper_id, "title": text(row.get("title")), "graph": row["paper"].value}
    graphs = [NamedNode(paper["graph"]) for paper in papers.values()]
    counts = (cache or CountCache()).counts(ctx, graphs, state)
    for paper in papers.values():
        paper["nodes"], paper["edges"] = counts[paper["graph"]]
    return {"papers": sorted(papers.values(), key=lambda paper: paper["id"])}


def hub_summaries(ctx: Context) -> list[Json]:
    rows = ctx.store.select(read_sparql("graphs", "hubs.rq"), {"canonical": ctx.iris.canonical_graph()})
    hubs = [{"iri": row["hub"].value, "type": local_name(row["type"].value), "text": row["text"].value,
             "members": int(row["members"].value), "papers": int(row["papers"].value)} for row in rows]
    return sorted(hubs, key=lambda hub: (-hub["members"], hub["text"], hub["iri"]))


def hubs_payload(ctx: Context, params: Mapping[str, list[str]]) -> Json:
    query = (one(params, "q", "") or "").casefold()
    limit_text = one(params, "limit", str(DEFAULT_HUB_LIMIT)) or ""
    if not re.fullmatch(r"[0-9]{1,9}", limit_text) or int(limit_text) < 1:
        raise ApiError(400, f"limit must be a positive integer, not {limit_text!r}")
    limit = min(int(limit_text), MAX_HUB_LIMIT)
    hubs = [hub for hub in hub_summaries(ctx) if query in hub["text"].casefold()]
    return {"hubs": hubs[:limit]}


def graph_payload(ctx: Context, params: Mapping[str, list[str]]) -> Json:
    paper_id = one(params, "paper")
    view = one(params, "view", "paper")
    if not paper_id:
        raise ApiError(400, "parameter 'paper' (a paper id) is required")
    if view not in VIEWS:
        raise ApiError(400, f"view must be 'paper' or 'raw', not {view!r}")
    try:
        paper = ctx.iris.paper(paper_id)
    except InvalidIdError as error:
        raise ApiError(400, str(error)) from error
    if not ctx.store.has_graph(paper):
        raise ApiError(404, f"no paper {paper_id!r} in the store")
    graph = paper if view == "paper" else ctx.iris.raw_graph(paper_id)
    if view == "raw" and not ctx.store.has_graph(graph):
        raise ApiError(404, f"paper {paper_id!r} has no raw graph in the store")
    nodes, edges = graph_elements(ctx.store, graph, paper, ctx.iris.audit_graph(paper_id), vocabulary_prefix(ctx), view)
    return {"paper": paper_id, "view": view, "nodes": nodes, "edges": edges}


def hub_payload(ctx: Context, params: Mapping[str, list[str]]) -> Json:
    iri = one(params, "iri")
    if not iri:
        raise ApiError(400, "parameter 'iri' (a hub IRI) is required")
    try:
        hub = NamedNode(iri)
    except ValueError as error:
        raise ApiError(400, f"iri {iri!r} is not an IRI: {error}") from error
    summary = next((item for item in hub_summaries(ctx) if item["iri"] == iri), None)
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
        paper_id = ctx.iris.paper_id_of(row["paper"]) or ""  # type: ignore[arg-type]
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


ROUTES: dict[str, Callable[[Context, Mapping[str, list[str]]], Json]] = {
    "hubs": hubs_payload,
    "graph": graph_payload,
    "hub": hub_payload,
}


def answer(ctx: Context, route: str, params: Mapping[str, list[str]], cache: CountCache | None = None, state: Hashable | None = None) -> tuple[int, Json]:
    """The status and JSON body of ``GET api/<route>?<params>``; ``cache`` and ``state`` serve api/papers."""
    handler = ROUTES.get(route)
    if handler is None and route != "papers":
        return 404, {"error": f"no API route {route!r}; the viewer API has papers, {', '.join(ROUTES)}"}
    try:
        return 200, papers_payload(ctx, cache, state) if handler is None else handler(ctx, params)
    except ApiError as error:
        return error.status, {"error": str(error)}
    except StoreError as error:
        return 503, {"error": f"the store cannot be read: {error}"}
