"""The corpus view of the viewer API (docs/viewer-api.md): papers as nodes and the links between them.

Four kinds of link join two papers, each counted by one file in ``sparql/graphs/``:
``citation`` (the citations graph says one cites the other), ``shared-citation``
(their references name the same cited work), ``hub`` (their nodes meet at a
CANON_ hub) and ``term`` (their nodes are linked to the same ontology term).
The whole payload is computed once per store state; a request then only
trims the links to the strongest ``limit``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping

from pyoxigraph import Literal, NamedNode

from claimgraph.context import Context
from claimgraph.publish.elements import Json, number, short_label, text
from claimgraph.rdf.iris import InvalidIdError
from claimgraph.rdf.queries import read_sparql
from claimgraph.rdf.rows import iri_of
from claimgraph.rdf.vocab import local_name
from claimgraph.serve.viewer.cache import StateCache
from claimgraph.serve.viewer.params import ApiError, one, positive_int

LINK_KINDS = ("citation", "shared-citation", "hub", "term")
LINK_QUERIES = {
    "citation": "corpus-citation-links.rq",
    "shared-citation": "corpus-shared-citation-links.rq",
    "hub": "corpus-hub-links.rq",
    "term": "corpus-term-links.rq",
}
DEFAULT_LINK_LIMIT = 1500
MAX_LINK_LIMIT = 1_000_000


def corpus_papers(ctx: Context, sizes: Mapping[str, tuple[int, int]]) -> list[Json]:
    """Every paper with its title, year, category and size (its node count in api/graph)."""
    papers = []
    for row in ctx.store.select(read_sparql("graphs", "corpus-papers.rq")):
        graph = row["paper"].value
        paper_id = ctx.iris.paper_id_of(iri_of(row, "paper"))
        if paper_id is None:
            continue
        year = text(row.get("year"))
        nodes, edges = sizes.get(graph, (0, 0))
        papers.append({"id": paper_id, "title": text(row.get("title")), "year": int(year) if year else None,
                       "category": text(row.get("category")), "size": nodes, "edges": edges})
    return sorted(papers, key=lambda paper: paper["id"])


def corpus_links(ctx: Context) -> list[Json]:
    """The links of every kind, strongest first (then by kind and ids, so the order is stable)."""
    bindings: dict[str, dict[str, NamedNode | Literal]] = {
        "citation": {"base": Literal(ctx.iris.base)},
        "shared-citation": {},
        "hub": {"canonical": ctx.iris.canonical_graph()},
        "term": {},
    }
    links = []
    for kind in LINK_KINDS:
        for row in ctx.store.select(read_sparql("graphs", LINK_QUERIES[kind]), bindings[kind]):
            source = ctx.iris.paper_id_of(iri_of(row, "source"))
            target = ctx.iris.paper_id_of(iri_of(row, "target"))
            if source and target:
                links.append({"source": source, "target": target, "kind": kind, "count": int(row["count"].value)})
    kind_order = {kind: position for position, kind in enumerate(LINK_KINDS)}
    return sorted(links, key=lambda link: (-link["count"], kind_order[link["kind"]], link["source"], link["target"]))


def corpus_data(ctx: Context, sizes: Mapping[str, tuple[int, int]]) -> Json:
    links = corpus_links(ctx)
    by_kind = {kind: [link for link in links if link["kind"] == kind] for kind in LINK_KINDS}
    return {"papers": corpus_papers(ctx, sizes), "by_kind": by_kind, "totals": {kind: len(by_kind[kind]) for kind in LINK_KINDS}}


def trimmed(data: Json, params: Mapping[str, list[str]]) -> Json:
    """The payload with the strongest ``limit`` links of each kind asked for (``kinds``, comma-separated)."""
    limit = positive_int(params, "limit", DEFAULT_LINK_LIMIT, MAX_LINK_LIMIT)
    asked = one(params, "kinds")
    kinds = LINK_KINDS if not asked else tuple(kind for kind in asked.split(",") if kind)
    unknown = [kind for kind in kinds if kind not in LINK_KINDS]
    if unknown:
        raise ApiError(400, f"unknown link kind {unknown[0]!r}; the kinds are {', '.join(LINK_KINDS)}")
    kind_order = {kind: position for position, kind in enumerate(LINK_KINDS)}
    kept = [link for kind in kinds for link in data["by_kind"][kind][:limit]]
    kept.sort(key=lambda link: (-link["count"], kind_order[link["kind"]], link["source"], link["target"]))
    return {"papers": data["papers"], "links": kept, "totals": data["totals"], "limit": limit}


def corpus_payload(ctx: Context, params: Mapping[str, list[str]], cache: StateCache, state: Hashable | None,
                   sizes: Callable[[], Mapping[str, tuple[int, int]]]) -> Json:
    """``api/corpus``; ``sizes()`` gives each paper graph's (nodes, edges) and is asked only when the store changed."""
    data = cache.remember("corpus", state, lambda: corpus_data(ctx, sizes()))
    return trimmed(data, params)


def paper_node(ctx: Context, paper_id: str) -> NamedNode:
    try:
        paper = ctx.iris.paper(paper_id)
    except InvalidIdError as error:
        raise ApiError(400, str(error)) from error
    if not ctx.store.has_graph(paper):
        raise ApiError(404, f"no paper {paper_id!r} in the store")
    return paper


def shared_payload(ctx: Context, params: Mapping[str, list[str]]) -> Json:
    """``api/shared?source=ID&target=ID``: the hubs, terms and cited works both papers meet at."""
    source_id, target_id = one(params, "source"), one(params, "target")
    if not source_id or not target_id:
        raise ApiError(400, "parameters 'source' and 'target' (two paper ids) are required")
    bindings = {"source": paper_node(ctx, source_id), "target": paper_node(ctx, target_id), "canonical": ctx.iris.canonical_graph()}
    shared: dict[str, list[Json]] = {"hub": [], "term": [], "shared-citation": []}
    for row in ctx.store.select(read_sparql("graphs", "pair-shared.rq"), bindings):
        at = row["at"].value
        shared[row["kind"].value].append({"iri": at, "label": text(row.get("label")) or local_name(at)})
    return {"source": source_id, "target": target_id, "shared": shared}


def term_payload(ctx: Context, params: Mapping[str, list[str]]) -> Json:
    """``api/term?iri=IRI``: one ontology term in graph form, the term and the paper nodes linked to it."""
    iri = one(params, "iri")
    if not iri or not re.fullmatch(r"[^\s<>\"{}|^`\\]+", iri):
        raise ApiError(400, "parameter 'iri' (an ontology term IRI) is required")
    term = NamedNode(iri)
    rows = ctx.store.select(read_sparql("graphs", "term-members.rq"), {"term": term})
    if not rows:
        raise ApiError(404, f"no node of any paper is linked to the term <{iri}>")
    label = next((row["label"].value for row in rows if "label" in row), local_name(iri))
    papers = sorted({ctx.iris.paper_id_of(iri_of(row, "paper")) or "" for row in rows})
    origin: Json = {"step": "link", "model": None, "repairs": []}
    nodes: dict[str, Json] = {iri: {"id": iri, "label": short_label(label), "type": "OntologyTerm", "role": None, "text": label,
                                    "confidence": None, "anchor": None, "sentence": None, "provenance": origin}}
    edges: list[Json] = []
    for row in rows:
        member, match = row["node"].value, local_name(row["match"].value)
        if member not in nodes:
            nodes[member] = {"id": member, "label": short_label(row["text"].value), "type": local_name(row["type"].value),
                             "role": None, "text": row["text"].value, "confidence": None, "anchor": None, "sentence": None,
                             "provenance": origin, "paper": ctx.iris.paper_id_of(iri_of(row, "paper"))}
        edge_id = f"{member}|{match}|{iri}"
        if all(edge["id"] != edge_id for edge in edges):
            edges.append({"id": edge_id, "source": member, "target": iri, "label": match,
                          "confidence": number(row.get("score")), "provenance": origin})
    summary = {"iri": iri, "label": label, "members": len(nodes) - 1, "papers": len(papers)}
    return {"term": summary, "nodes": list(nodes.values()), "edges": edges}
