"""The shipped citation queries, on papers that cite each other (written JATS) and on the real eLife articles."""

from __future__ import annotations

from pathlib import Path

import pytest
from citation_support import Cited, Ingest, links
from lxml import etree
from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.citations.links import update_citation_links
from claimgraph.context import Context
from claimgraph.loaders import load_document
from claimgraph.papers.storage import store_document
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import CG, RDF

ELIFE = Path(__file__).resolve().parents[1] / "data" / "elife"
XLINK = "http://www.w3.org/1999/xlink"


def rows(ctx: Context, name: str, **bindings: NamedNode) -> list[dict[str, str]]:
    return [{key: term.value for key, term in row.items()} for row in ctx.store.select(read_named_query(name), bindings or None)]


def short(ctx: Context, iri: str) -> str:
    return ctx.iris.paper_id_of(NamedNode(iri)) or iri


@pytest.fixture
def library(ingest: Ingest) -> None:
    """review cites a and b; a cites b; a and b both cite two works that are not stored, b one more."""
    ingest("a", [Cited(doi="10.1000/b"), Cited(doi="10.1000/x"), Cited(doi="10.1000/y")], doi="10.1000/a")
    ingest("b", [Cited(doi="10.1000/X"), Cited(doi="10.1000/y"), Cited(doi="10.1000/z")], doi="10.1000/b")
    ingest("review", [Cited(doi="10.1000/a"), Cited(doi="10.1000/b")], doi="10.1000/review")


@pytest.mark.usefixtures("library")
def test_citing_papers_lists_the_papers_citing_the_bound_one(ctx: Context) -> None:
    found = rows(ctx, "citing-papers", cited=ctx.iris.paper("b"))
    assert sorted((short(ctx, row["citing"]), row["citingTitle"], row["references"]) for row in found) == [("a", "A", "1"), ("review", "Review", "1")]
    assert {(short(ctx, row["citing"]), short(ctx, row["cited"])) for row in rows(ctx, "citing-papers")} == links(ctx)


@pytest.mark.usefixtures("library")
def test_bibliographic_coupling_counts_the_shared_cited_works(ctx: Context) -> None:
    pairs = {(short(ctx, row["paper"]), short(ctx, row["other"])): int(row["sharedWorks"]) for row in rows(ctx, "bibliographic-coupling")}
    assert pairs == {("a", "b"): 2, ("b", "a"): 2, ("a", "review"): 1, ("review", "a"): 1}


@pytest.mark.usefixtures("library")
def test_co_citation_counts_the_papers_citing_both(ctx: Context) -> None:
    pairs = {(short(ctx, row["paper"]), short(ctx, row["other"])): int(row["citedTogether"]) for row in rows(ctx, "co-citation")}
    assert pairs == {("a", "b"): 1, ("b", "a"): 1}


@pytest.mark.usefixtures("library")
def test_citing_sentences_are_those_of_other_papers_citing_the_bound_one(ctx: Context) -> None:
    found = rows(ctx, "citing-sentences", cited=ctx.iris.paper("a"))
    assert [(short(ctx, row["citing"]), row["index"], row["text"]) for row in found] == [("review", "1", "Earlier work is cited here 1 2.")]


@pytest.mark.usefixtures("library")
def test_cited_claims_put_the_cited_papers_own_claims_next_to_the_citing_sentence(ctx: Context) -> None:
    graph, claim, reported = ctx.iris.paper("b"), ctx.iris.node("b", "node", "claim-1"), ctx.iris.node("b", "viewpoint", "1-1-1")
    ctx.store.insert({graph: [Triple(claim, RDF.type, CG.Claim), Triple(claim, CG.text, Literal("B holds.")),
                              Triple(reported, RDF.type, CG.Viewpoint), Triple(reported, CG.text, Literal("Z holds.")),
                              Triple(reported, CG.fromReference, ctx.iris.node("b", "reference", "3"))]})
    second = ctx.iris.node("b", "node", "claim-2")
    ctx.store.insert({graph: [Triple(second, RDF.type, CG.Claim), Triple(second, CG.text, Literal("B also holds."))]})
    found = rows(ctx, "cited-claims", cited=graph)
    assert sorted((short(ctx, row["citing"]), row["sentenceText"], row["claims"], sorted(row["claimTexts"].split(" | "))) for row in found) == [
        ("a", "Earlier work is cited here 1 2 3.", "2", ["B also holds.", "B holds."]),
        ("review", "Earlier work is cited here 1 2.", "2", ["B also holds.", "B holds."])]
    assert [row["citing"] for row in rows(ctx, "cited-claims", citing=ctx.iris.paper("a"))] == [ctx.iris.paper("a").value]


def elife_dois(path: Path) -> tuple[str, set[str]]:
    """The article's DOI and the DOIs its reference list names, read with XPath (lower case): a reference's
    pub-id of type doi, or a doi.org link of one that has none."""
    tree = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))
    own = tree.xpath("string(/article/front/article-meta/article-id[@pub-id-type='doi'])").strip().lower()
    cited = {doi.strip().lower() for doi in tree.xpath("/article/back/ref-list//ref//pub-id[@pub-id-type='doi']/text()")}
    links = tree.xpath("/article/back/ref-list//ref[not(.//pub-id[@pub-id-type='doi'])]//ext-link/@xl:href", namespaces={"xl": XLINK})
    return own, cited | {link.lower().split("doi.org/", 1)[1] for link in links if "doi.org/" in link}


def manifest_links() -> set[tuple[str, str]] | None:
    """The links tests/data/elife/MANIFEST.tsv lists: each article and the articles of the set it cites by a pub-id
    DOI (cites_in_set); None without a manifest."""
    manifest = ELIFE / "MANIFEST.tsv"
    if not manifest.is_file():
        return None
    lines = [line.split("\t") for line in manifest.read_text(encoding="utf-8").splitlines()]
    entries = [dict(zip(lines[0], line, strict=False)) for line in lines[1:]]
    paper_of_doi = {entry["doi"].lower(): Path(entry["file"]).stem for entry in entries}
    return {(Path(entry["file"]).stem, paper_of_doi[doi.lower()]) for entry in entries for doi in entry.get("cites_in_set", "").split()}


@pytest.mark.corpus
def test_real_elife_articles_citing_each_other_by_doi_are_linked_one_arrival_at_a_time(ctx: Context) -> None:
    """Each article is stored and linked on its own, newest first, so most links are made when the cited one arrives.
    The links are those the XML's DOIs give (read with XPath), and include those the manifest lists (it reads only
    pub-id DOIs, not a doi.org link)."""
    files = sorted(ELIFE.glob("*.xml"), reverse=True) if ELIFE.is_dir() else []
    if len(files) < 2:
        pytest.skip(f"fewer than two eLife JATS articles in {ELIFE}")
    for path in files:
        document = load_document(path)
        store_document(ctx.store, ctx.iris, document)
        update_citation_links(ctx, [document.paper_id])
    dois = {path.stem: elife_dois(path) for path in files}
    expected = {(citing, cited) for citing, (_, cites) in dois.items() for cited, (own, _) in dois.items() if own in cites and citing != cited}
    assert expected and links(ctx) == expected
    listed = manifest_links()
    assert listed is None or listed <= expected
