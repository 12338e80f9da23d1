"""Label comparison and the matching rules: labels, synonyms, ambiguity, deprecated terms, guarded embeddings,
and precision/recall on the labelled link set."""

from __future__ import annotations

import pytest
from link_support import ONTOLOGIES, term
from pyoxigraph import NamedNode

from claimgraph.embedding.embedders import HashingEmbedder, make_embedder
from claimgraph.federation.labels import normalized_label
from claimgraph.federation.matching import CLOSE, EXACT, MatchSettings, Mention, match_mentions
from claimgraph.federation.rdf_input import rdf_format, read_quads
from claimgraph.federation.terms import OntologyTerm, TermLabel, ontology_terms
from claimgraph.store import EmbeddedStore


@pytest.fixture(scope="module")
def sample_terms() -> list[OntologyTerm]:
    store = EmbeddedStore()
    path = ONTOLOGIES / "sample-terms.ttl"
    graph = NamedNode("http://example.org/sample")
    store.replace_graph(graph, [quad.triple for quad in read_quads(path, rdf_format(path))])
    return ontology_terms(store, graph)


@pytest.mark.parametrize(("a", "b"), [
    ("TNF-α", "tnf alpha"), ("Randomised Controlled Trial", "randomized controlled trial"), ("case-control study", "case control study"),
    ("Student's t-test", "student t test"), ("χ2 test", "chi 2 test"), ("soil–temperature", "Soil Temperature"),
])
def test_labels_that_compare_equal(a: str, b: str) -> None:
    assert normalized_label(a) == normalized_label(b)


@pytest.mark.parametrize(("a", "b"), [("IL-6", "IL-10"), ("type 1 diabetes", "type 2 diabetes"), ("PM2.5", "PM10"), ("soil organic carbon", "soil inorganic carbon")])
def test_labels_that_stay_different(a: str, b: str) -> None:
    assert normalized_label(a) != normalized_label(b)


def test_deprecated_terms_and_foreign_language_labels_are_not_offered(sample_terms: list[OntologyTerm]) -> None:
    iris = {item.iri for item in sample_terms}
    assert term(33) not in iris  # owl:deprecated true
    assert term(1) in iris and len(sample_terms) == 67


def decide(terms: list[OntologyTerm], texts: list[str], embedder: object = None, threshold: float = 0.8) -> dict[str, tuple[str, str, str]]:
    mentions = [Mention(text, text) for text in texts]
    return {m.mention.text: (m.term, m.relation, m.method) for m in match_mentions(mentions, terms, embedder, MatchSettings(close_threshold=threshold))}  # type: ignore[arg-type]


def test_labels_and_synonyms_decide_the_relation(sample_terms: list[OntologyTerm]) -> None:
    decided = decide(sample_terms, ["Interleukin 6", "IL-6", "TNF-α", "exercise", "moss growth", "soil pH"])
    assert decided == {
        "Interleukin 6": (term(1), EXACT, "label"),  # the label "interleukin-6", compared without case and hyphen
        "IL-6": (term(1), EXACT, "synonym"),
        "TNF-α": (term(3), EXACT, "synonym"),
        "exercise": (term(14), CLOSE, "synonym"),  # a related synonym
    }  # "moss growth" is a synonym of a deprecated term only; "soil pH" names no term


def test_a_label_shared_by_two_terms_is_left_to_the_embedding_step() -> None:
    terms = [OntologyTerm("http://example.org/a", [TermLabel("cold", "label")]), OntologyTerm("http://example.org/b", [TermLabel("cold", "exact")]),
             OntologyTerm("http://example.org/c", [TermLabel("fever", "exact"), TermLabel("pyrexia", "exact")])]
    decided = decide(terms, ["cold", "FEVER"])
    assert decided == {"cold": ("http://example.org/a", EXACT, "label"), "FEVER": ("http://example.org/c", EXACT, "synonym")}
    tied = [OntologyTerm("http://example.org/a", [TermLabel("cold", "exact")]), OntologyTerm("http://example.org/b", [TermLabel("cold", "exact")])]
    assert decide(tied, ["cold"]) == {}
    assert set(decide(tied, ["cold"], HashingEmbedder(), threshold=0.9).values()) <= {("http://example.org/a", CLOSE, "embedding"), ("http://example.org/b", CLOSE, "embedding")}


def test_guards_refuse_near_misses_that_embeddings_put_close(sample_terms: list[OntologyTerm]) -> None:
    embedder = HashingEmbedder()  # bag of words: "interleukin 17" and "interleukin 10" share most of their words
    decided = decide(sample_terms, ["interleukin-17 level", "type 1 diabetes mellitus", "non-randomized controlled trial"], embedder, threshold=0.3)
    assert decided == {}
    unguarded = {m.mention.text for m in match_mentions([Mention("t", "type 1 diabetes mellitus")], sample_terms, embedder,
                                                             MatchSettings(close_threshold=0.3, guards=False))}
    assert unguarded == {"type 1 diabetes mellitus"}, "without the guards the near miss is linked"


def test_precision_and_recall_on_the_labelled_set(sample_terms: list[OntologyTerm], gold_rows: list[dict[str, str]]) -> None:
    """With the bundled model at the default threshold: every decision is checked against the hand labels."""
    mentions = [Mention(str(number), row["mention"], row["type"]) for number, row in enumerate(gold_rows)]
    decided = {m.mention.key: m.term for m in match_mentions(mentions, sample_terms, make_embedder("minilm"))}
    gold = {str(number): term(int(row["term"])) for number, row in enumerate(gold_rows) if row["term"] != "-"}
    correct = sum(1 for key, found in decided.items() if gold.get(key) == found)
    precision, recall = correct / len(decided), correct / len(gold)
    assert precision >= 0.95 and recall >= 0.85, (precision, recall)
    negatives = [str(number) for number, row in enumerate(gold_rows) if row["term"] == "-"]
    assert sum(key in decided for key in negatives) <= 2, "near misses in the labelled set were linked"
