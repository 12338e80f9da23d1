"""Linked-data terms in the data itself: DOI and PubMed id from JATS and TEI inputs as bibo:doi / bibo:pmid,
cito:cites from each paper to its references, and CANON_ hubs as skos:Concepts with a skos:prefLabel."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import Literal

from claimgraph.context import Context
from claimgraph.loaders import load_document
from claimgraph.loaders.formats.identifiers import identifier_metadata
from claimgraph.papers.document_graph import document_triples
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import BIBO, CG, CITO, RDF, SKOS
from claimgraph.store import EmbeddedStore
from claimgraph.workflow import IngestOptions, Workflow

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "papers"


@pytest.mark.parametrize(("pairs", "expected"), [
    ([("doi", "10.1234/abc.5"), ("pmid", "123456")], {"doi": "10.1234/abc.5", "pmid": "123456"}),
    ([("DOI", "https://doi.org/10.1000/XYZ"), ("PMID", "PMID: 42")], {"doi": "10.1000/XYZ", "pmid": "42"}),
    ([("doi", "doi:10.5555/x y"), ("pmid", "12a"), ("doi", "not a doi")], {}),
    ([("publisher-id", "10.1/x"), ("doi", "10.1234/first"), ("doi", "10.1234/second")], {"doi": "10.1234/first"}),
])
def test_identifiers_are_checked_and_normalized(pairs: list[tuple[str, str]], expected: dict[str, str]) -> None:
    assert identifier_metadata(pairs) == expected


@pytest.mark.parametrize(("name", "doi"), [("synthetic-moss-light.xml", "10.0000/synthetic.moss.0001"),
                                           ("synthetic-sleep-recall.tei.xml", "10.0000/synthetic.sleep.0002")])
def test_jats_and_tei_papers_carry_their_doi_and_cite_their_references(name: str, doi: str) -> None:
    document = load_document(EXAMPLES / name)
    iris = IriScheme()
    paper = iris.paper(document.paper_id)
    triples = set(document_triples(document, iris))
    assert (paper, BIBO.doi, Literal(doi)) in {(t.subject, t.predicate, t.object) for t in triples}
    cited = {t.object for t in triples if t.subject == paper and t.predicate == CITO.cites}
    references = {t.subject for t in triples if t.predicate == RDF.type and t.object == CG.Reference}
    assert cited == references and references


def test_stored_papers_with_doi_and_citations_still_validate(tmp_path: Path) -> None:
    with Context(EmbeddedStore(tmp_path / "store")) as ctx:
        result = Workflow(ctx).ingest([EXAMPLES / "synthetic-moss-light.xml", EXAMPLES / "synthetic-sleep-recall.tei.xml"],
                                      IngestOptions(canonicalize=False))
    assert result.failures == []
    assert result.validation is not None and result.validation.nodes_failed == 0


def test_canonical_hubs_are_skos_concepts_with_a_preferred_label(tmp_path: Path) -> None:
    from claimgraph.demo import demo_config, demo_papers

    with Context(EmbeddedStore(tmp_path / "store")) as ctx:
        Workflow(ctx).ingest(demo_papers()[2:], IngestOptions(llm=demo_config(), embedder="hashing", sidecar_dir=tmp_path / "sidecar"))
        rows = ctx.store.select("SELECT ?hub ?concept ?label ?text WHERE { GRAPH ?c { ?hub a ?hubType ; ?textProperty ?text "
                                "OPTIONAL { ?hub a ?concept FILTER(?concept = ?skosConcept) } OPTIONAL { ?hub ?prefLabel ?label } } }",
                                {"c": ctx.iris.canonical_graph(), "hubType": CG.CanonicalNode, "textProperty": CG.representativeText,
                                 "skosConcept": SKOS.Concept, "prefLabel": SKOS.prefLabel})
    assert rows, "the synthetic ARCHE paper makes CANON_ hubs"
    assert all(row.get("concept") == SKOS.Concept and row.get("label") == row["text"] for row in rows)
