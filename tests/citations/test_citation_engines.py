"""The citation links, their counts and the shipped citation queries give the same answers on Oxigraph and Virtuoso."""

from __future__ import annotations

from pathlib import Path

import pytest
from citation_support import Cited, jats_article
from pyoxigraph import Literal, Triple

from claimgraph.citations.links import citation_link_counts, update_citation_links
from claimgraph.context import Context
from claimgraph.loaders import load_document
from claimgraph.papers.storage import store_document
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG, RDF
from claimgraph.store import EmbeddedStore, Store
from claimgraph.store.remote import RemoteStore
from claimgraph.testing.virtuoso import SKIP_REASON, running_virtuoso, virtuoso_binary

pytestmark = pytest.mark.skipif(virtuoso_binary() is None, reason=SKIP_REASON)

QUERIES = ("citing-papers", "bibliographic-coupling", "co-citation", "citing-sentences", "cited-claims")
PAPERS = {
    "a": ("10.1000/a", [Cited(doi="10.1000/b"), Cited(doi="10.1000/shared"), Cited(title="Gone", year="2001", surname="Old")]),
    "b": ("10.1000/b", [Cited(doi="10.1000/SHARED"), Cited(doi="10.1000/c")]),
    "c": ("10.1000/c", [Cited(doi="10.1000/a"), Cited(doi="10.1000/b")]),
}


def session(store: Store, folder: Path) -> list[object]:
    ctx = Context(store)
    answers: list[object] = []
    for name, (doi, cites) in PAPERS.items():
        path = folder / f"{name}.xml"
        path.write_text(jats_article(name.upper(), cites, doi=doi), encoding="utf-8")
        store_document(store, ctx.iris, load_document(path), replace=True)
        answers.append(sorted(update_citation_links(ctx, [name]).added))
    path = folder / "a.xml"
    path.write_text(jats_article("A", PAPERS["a"][1][1:], doi="10.1000/a"), encoding="utf-8")
    store_document(store, ctx.iris, load_document(path), replace=True)
    answers += [sorted(update_citation_links(ctx, ["a"]).removed), citation_link_counts(ctx)]
    claim = ctx.iris.node("b", "node", "claim-1")
    store.insert({ctx.iris.paper("b"): [Triple(claim, RDF.type, CG.Claim), Triple(claim, CG.text, Literal("B holds."))]})
    for name in QUERIES:
        answers.append(sorted(tuple(sorted((key, term.value) for key, term in row.items())) for row in store.select(read_named_query(name))))
    return answers


def test_oxigraph_and_virtuoso_agree_on_citation_links_counts_and_queries(tmp_path: Path) -> None:
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    first = session(EmbeddedStore(), tmp_path / "first")
    with running_virtuoso(tmp_path / "virtuoso") as virtuoso:
        second = session(RemoteStore(virtuoso.query_url, virtuoso.query_url, virtuoso.gsp_url), tmp_path / "second")
    assert first[4] == {"citation": 3, "shared-work": 2, "hub": 0}
    assert all(first[5:])  # every query answers something here
    assert first == second
