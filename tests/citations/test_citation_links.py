"""Paper-to-paper links: stored papers that cite each other by DOI, PubMed id or title key meet in the citations graph."""

from __future__ import annotations

from itertools import permutations

import pytest
from citation_support import Cited, Ingest, links

from claimgraph.citations.links import citation_link_counts, update_citation_links
from claimgraph.context import Context
from claimgraph.papers.audit_trail import audit_trail

# a cites b (DOI with a resolver prefix, in upper case), b cites c (doi: prefix), c cites a (PubMed id);
# a also cites a work that is not stored.
PAPERS = {
    "a": ({"doi": "10.1000/paper.a", "pmid": "111"}, [Cited(doi="https://doi.org/10.1000/PAPER.B"), Cited(doi="10.1000/elsewhere")]),
    "b": ({"doi": "10.1000/paper.b"}, [Cited(doi="doi:10.1000/paper.c")]),
    "c": ({"doi": "10.1000/paper.c"}, [Cited(pmid="111", title="A", year="2020")]),
}
TRIANGLE = {("a", "b"), ("b", "c"), ("c", "a")}


@pytest.mark.parametrize("order", list(permutations(PAPERS)), ids="".join)
def test_three_papers_citing_each_other_are_linked_whatever_the_order_of_ingest(ctx: Context, ingest: Ingest, order: tuple[str, ...]) -> None:
    for name in order:
        identity, cites = PAPERS[name]
        ingest(name, cites, **identity)
    assert links(ctx) == TRIANGLE
    assert citation_link_counts(ctx)["citation"] == 3


def test_the_link_is_written_when_the_cited_paper_arrives_later_and_audited_in_the_citing_paper(ctx: Context, ingest: Ingest) -> None:
    first = ingest("a", PAPERS["a"][1], **PAPERS["a"][0])
    assert first.added == frozenset() and links(ctx) == set()
    later = ingest("b", [], **PAPERS["b"][0])
    assert later.added == {(ctx.iris.paper("a").value, ctx.iris.paper("b").value)}
    activity = audit_trail(ctx.store, ctx.iris, "a")[-1]
    assert (activity["kind"], activity["counts"]) == ("citations", {"added": 1, "removed": 0})
    assert activity["notes"] == {"added": ctx.iris.paper("b").value}
    assert [entry["kind"] for entry in audit_trail(ctx.store, ctx.iris, "b")] == ["load"]


def test_reingesting_the_citing_paper_without_the_reference_removes_the_link(ctx: Context, ingest: Ingest) -> None:
    for name in "abc":
        ingest(name, PAPERS[name][1], **PAPERS[name][0])
    update = ingest("a", [Cited(doi="10.1000/elsewhere")], **PAPERS["a"][0])
    assert links(ctx) == TRIANGLE - {("a", "b")}
    assert update.removed == {(ctx.iris.paper("a").value, ctx.iris.paper("b").value)}
    activity = audit_trail(ctx.store, ctx.iris, "a")[-1]
    assert (activity["kind"], activity["counts"], activity["notes"]) == ("citations", {"added": 0, "removed": 1}, {"removed": ctx.iris.paper("b").value})


def test_reingesting_the_cited_paper_without_its_identifier_removes_the_links_to_it(ctx: Context, ingest: Ingest) -> None:
    for name in "abc":
        ingest(name, PAPERS[name][1], **PAPERS[name][0])
    ingest("a", PAPERS["a"][1])  # no DOI, no PubMed id: c's reference by PubMed id names nothing stored now
    assert links(ctx) == {("a", "b"), ("b", "c")}
    assert audit_trail(ctx.store, ctx.iris, "c")[-1]["notes"] == {"removed": ctx.iris.paper("a").value}


def test_a_paper_no_longer_stored_only_loses_its_links(ctx: Context, ingest: Ingest) -> None:
    for name in "abc":
        ingest(name, PAPERS[name][1], **PAPERS[name][0])
    ctx.store.drop_graphs([ctx.iris.paper("b"), ctx.iris.raw_graph("b"), ctx.iris.audit_graph("b")])
    update = update_citation_links(ctx, ["b"])
    assert links(ctx) == {("c", "a")}
    assert len(update.removed) == 2 and not ctx.store.has_graph(ctx.iris.audit_graph("b"))


def test_an_update_that_changes_nothing_writes_nothing(ctx: Context, ingest: Ingest) -> None:
    for name in "ab":
        ingest(name, PAPERS[name][1], **PAPERS[name][0])
    trail = audit_trail(ctx.store, ctx.iris, "a")
    update = update_citation_links(ctx, ["a", "b"])
    assert not update.changed and update.kept == {(ctx.iris.paper("a").value, ctx.iris.paper("b").value)}
    assert audit_trail(ctx.store, ctx.iris, "a") == trail


def test_the_same_title_year_and_first_author_link_without_identifiers(ctx: Context, ingest: Ingest) -> None:
    ingest("cited", [], year="2019", surname="Müller")
    ingest("citing", [Cited(title="CITED", year="2019", surname="Muller")])
    assert links(ctx) == {("citing", "cited")}


@pytest.mark.parametrize(
    "reference",
    [
        Cited(title="Cited", year="2018", surname="Müller"),  # same title and author, another year
        Cited(title="Cited", year="2019", surname="Miller"),  # same title and year, another first author
        Cited(doi="10.1000/paper.e"),  # the DOI of the stored paper but one character
        Cited(doi="10.1000/paper.dd"),  # the DOI with one character more
        Cited(pmid="2222"),  # the PubMed id of the stored paper but one digit
    ],
    ids=["other-year", "other-author", "doi-one-character", "doi-one-more", "pmid-one-digit"],
)
def test_a_near_miss_does_not_link(ctx: Context, ingest: Ingest, reference: Cited) -> None:
    ingest("cited", [], doi="10.1000/paper.d", pmid="222", year="2019", surname="Müller")
    ingest("citing", [reference])
    assert links(ctx) == set()
    assert citation_link_counts(ctx)["citation"] == 0


def test_papers_sharing_a_cited_work_are_counted_as_coupled(ctx: Context, ingest: Ingest) -> None:
    ingest("one", [Cited(doi="10.1000/shared"), Cited(doi="10.1000/only.one")])
    ingest("two", [Cited(doi="10.1000/SHARED")])
    ingest("three", [Cited(doi="10.1000/only.three")])
    assert citation_link_counts(ctx) == {"citation": 0, "shared-work": 2, "hub": 0}


def test_papers_whose_nodes_share_a_canon_hub_are_counted(ctx: Context, ingest: Ingest) -> None:
    from pyoxigraph import Literal, Triple

    from claimgraph.rdf.vocab import CG, RDF, SKOS

    for name in ("one", "two", "three"):
        ingest(name, [])
    hub, alone = ctx.iris.canonical_node("Claim", "shared"), ctx.iris.canonical_node("Claim", "alone")
    members = {name: ctx.iris.node(name, "node", "c1") for name in ("one", "two", "three")}
    for name, member in members.items():
        ctx.store.insert({ctx.iris.paper(name): [Triple(member, RDF.type, CG.Claim), Triple(member, CG.text, Literal(f"claim of {name}"))]})
    ctx.store.insert({ctx.iris.canonical_graph(): [
        Triple(hub, RDF.type, CG.CanonicalNode), Triple(alone, RDF.type, CG.CanonicalNode),
        Triple(members["one"], CG.mentions, hub), Triple(members["three"], CG.mentions, alone)]})
    ctx.store.insert({ctx.iris.paper("two"): [Triple(members["two"], SKOS.exactMatch, hub)]})  # a merge, stated in the paper graph
    assert citation_link_counts(ctx) == {"citation": 0, "shared-work": 0, "hub": 2}


def test_a_doi_with_characters_an_iri_must_escape_still_links(ctx: Context, ingest: Ingest) -> None:
    doi = "10.1002/(SICI)1097-4636(199603)31:3&lt;A-B&gt;3.0.CO;2-#"  # an old SICI DOI, escaped for XML
    ingest("cited", [], doi=doi)
    ingest("citing", [Cited(doi=doi.lower())])
    assert links(ctx) == {("citing", "cited")}
    assert ctx.iris.cited_work("doi:10.1002/(sici)1097-4636(199603)31:3<a-b>3.0.co;2-#").value.endswith("31:3%3Ca-b%3E3.0.co%3B2-%23")
