"""`claimgraph link` over a store: the ontology's own graph, a void:Linkset of SKOS matches with scores, one audit
activity per linked paper, the shipped queries, and the same links from OWL/Turtle, OBO-as-OWL RDF/XML and SKOS."""

from __future__ import annotations

from pathlib import Path

import pytest
from link_support import LEXICAL, ONTOLOGIES, links_in_store, term
from pyoxigraph import NamedNode

from claimgraph.cli.main import main
from claimgraph.context import Context
from claimgraph.federation.linker import LinkError, OntologySource, link_ontology
from claimgraph.federation.terms import ontology_graph
from claimgraph.papers.audit_trail import audit_trail
from claimgraph.rdf.queries import read_named_query
from claimgraph.rdf.vocab import SKOS
from claimgraph.store import EmbeddedStore


@pytest.mark.parametrize("file_name", ["sample-terms.ttl", "sample-terms.owl"])
def test_linking_writes_matches_with_scores_and_an_audit_activity(papers_store: Path, file_name: str) -> None:
    with Context(EmbeddedStore(papers_store)) as ctx:
        report = link_ontology(ctx, OntologySource("sample-terms", ONTOLOGIES / file_name), embedder="none")
        assert report.terms == 67 and report.candidates == 12  # the Claim is not a candidate
        assert links_in_store(ctx.store, "sample-terms") == LEXICAL
        scores = ctx.store.select("SELECT ?score ?method WHERE { GRAPH ?links { ?a <http://www.w3.org/1999/02/22-rdf-syntax-ns#subject> ?n ; "
                                  "<https://w3id.org/claimgraph/ontology/v1#confidence> ?score ; <https://w3id.org/claimgraph/ontology/v1#matchMethod> ?method } }",
                                  {"links": report.links})
        assert len(scores) == len(LEXICAL) and {row["method"].value for row in scores} == {"label", "synonym"}
        assert ctx.store.has_graph(ontology_graph(ctx.iris, "sample-terms"))
        trail = audit_trail(ctx.store, ctx.iris, "cohort-paper")
    link_entries = [entry for entry in trail if entry["kind"] == "link"]
    assert len(link_entries) == 1
    assert link_entries[0]["counts"] == {"candidates": 6, "exact": 3, "close": 1}
    assert link_entries[0]["notes"]["ontology"].endswith(file_name)
    assert len(link_entries[0]["touched"]) == 4


def test_linking_again_replaces_the_links(papers_store: Path) -> None:
    with Context(EmbeddedStore(papers_store)) as ctx:
        link_ontology(ctx, OntologySource("sample-terms", ONTOLOGIES / "sample-terms.ttl"), embedder="none")
        link_ontology(ctx, OntologySource("sample-terms", ONTOLOGIES / "sample-terms.ttl"), embedder="none", types=["StudyDesign"])
        assert set(links_in_store(ctx.store, "sample-terms")) == {"incubation experiment", "prospective cohort study"}


def test_embedding_similarity_adds_guarded_close_matches(papers_store: Path) -> None:
    with Context(EmbeddedStore(papers_store)) as ctx:
        report = link_ontology(ctx, OntologySource("sample-terms", ONTOLOGIES / "sample-terms.ttl"), embedder="minilm")
        links = links_in_store(ctx.store, "sample-terms")
    embedded = {match.mention.text for match in report.matches if match.method == "embedding"}
    assert links["weekly soil respiration"] == (term(24), "closeMatch") and "weekly soil respiration" in embedded
    assert links["next-day word recall"] == (term(16), "closeMatch")
    assert "interleukin-17" not in links and "soil pH" not in links


def test_a_skos_scheme_links_by_pref_alt_and_hidden_labels(papers_store: Path) -> None:
    with Context(EmbeddedStore(papers_store)) as ctx:
        link_ontology(ctx, OntologySource("study-designs", ONTOLOGIES / "study-designs.skos.ttl"), embedder="none", types=["StudyDesign"])
        links = links_in_store(ctx.store, "study-designs")
    scheme = "https://w3id.org/claimgraph/examples/study-designs/"
    assert links == {"incubation experiment": (f"{scheme}incubation", "exactMatch")}


def test_shipped_queries_list_papers_by_term_and_terms_across_papers(papers_store: Path) -> None:
    with Context(EmbeddedStore(papers_store)) as ctx:
        link_ontology(ctx, OntologySource("sample-terms", ONTOLOGIES / "sample-terms.ttl"), embedder="none")
        by_term = ctx.store.select(read_named_query("papers-by-ontology-term"), {"term": NamedNode(term(1))})
        across = ctx.store.select(read_named_query("ontology-terms-across-papers"))
    assert [(row["text"].value, row["match"], row["termLabel"].value) for row in by_term] == [("IL-6", SKOS.exactMatch, "interleukin-6")]
    assert {row["term"].value for row in across} == {t for t, _ in LEXICAL.values()}
    assert all(int(row["papers"].value) == 1 for row in across)


def test_an_ontology_without_terms_is_refused(papers_store: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.ttl"
    empty.write_text("<http://example.org/a> <http://example.org/b> <http://example.org/c> .\n", encoding="utf-8")
    with Context(EmbeddedStore(papers_store)) as ctx, pytest.raises(LinkError, match="no OWL class or SKOS concept"):
        link_ontology(ctx, OntologySource("empty", empty), embedder="none")


def test_the_command_line_links_and_lists(papers_store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--store", str(papers_store), "link", "--ontology", str(ONTOLOGIES / "sample-terms.ttl"), "--embedder", "none", "--list"])
    out = capsys.readouterr().out
    assert code == 0
    assert "skos:exactMatch    7" in out and "skos:closeMatch    1" in out
    assert "Cox regression" in out
