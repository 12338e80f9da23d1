"""Every shipped query, run on an ARCHE-format corpus (generated, and the 70 real papers when present), against answers computed from the JSON."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from pyoxigraph import NamedNode

from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import list_named_queries, query_description, read_named_query
from claimgraph.store import Store

CG = "https://w3id.org/claimgraph/ontology/v1#"


@pytest.fixture(scope="module")
def arche_json(arche_corpus: Path) -> dict[str, dict]:
    papers = {}
    for path in sorted(arche_corpus.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        papers[data["file_info"]["base_id"]] = data
    return papers


def sentences(data: dict) -> list[dict]:
    return data["introduction"]["sentences"]


def reference_viewpoints(sentence: dict) -> list[str]:
    return [text for cited in sentence["references"].values() if isinstance(cited, dict) for text in cited.values()]


def values(rows: list[dict], name: str) -> list[str]:
    return [row[name].value for row in rows]


def test_every_shipped_query_has_a_comment_header() -> None:
    queries = list_named_queries()
    assert len(queries) >= 5
    for name, path in queries.items():
        assert query_description(path), f"{name}.rq has no comment header"


def test_nodes_per_type_matches_the_arche_totals(arche_store: Store, arche_json: dict[str, dict]) -> None:
    rows = {row["type"].value: int(row["nodes"].value) for row in arche_store.select(read_named_query("nodes-per-type"))}
    assert rows[CG + "Paper"] == len(arche_json)
    assert rows[CG + "Sentence"] == sum(len(sentences(d)) for d in arche_json.values())
    viewpoints = sum(len(s["viewpoints"]) + len(reference_viewpoints(s)) for d in arche_json.values() for s in sentences(d))
    assert rows[CG + "Viewpoint"] == viewpoints


def test_the_real_corpus_has_the_counts_its_readme_states(arche_dir: Path) -> None:
    """2,164 sentences, 5,418 sentence viewpoints and 33,321 reference viewpoints in 70 papers (ARCHE README)."""
    data = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(arche_dir.glob("*.json"))]
    assert len(data) == 70
    assert sum(len(sentences(d)) for d in data) == 2164
    assert sum(len(s["viewpoints"]) for d in data for s in sentences(d)) == 5418
    assert sum(len(reference_viewpoints(s)) for d in data for s in sentences(d)) == 33321


def test_nodes_per_type_per_paper_counts_each_papers_sentences(arche_store: Store, arche_json: dict[str, dict]) -> None:
    rows = arche_store.select(read_named_query("nodes-per-type-per-paper"))
    iris = IriScheme()
    found = {iris.paper_id_of(row["paper"]): int(row["nodes"].value) for row in rows if row["type"].value == CG + "Sentence"}
    assert found == {paper_id: len(sentences(data)) for paper_id, data in arche_json.items()}


def test_papers_by_claims_is_sorted_and_counts_viewpoints(arche_store: Store, arche_json: dict[str, dict]) -> None:
    rows = arche_store.select(read_named_query("papers-by-claims"))
    claims = [int(value) for value in values(rows, "claims")]
    assert claims == sorted(claims, reverse=True)
    expected = {pid: sum(len(s["viewpoints"]) + len(reference_viewpoints(s)) for s in sentences(d)) for pid, d in arche_json.items()}
    assert {row["id"].value: int(row["claims"].value) for row in rows} == expected
    references = {pid: len({key for s in sentences(d) for key in s["references"]}) for pid, d in arche_json.items()}
    assert {row["id"].value: int(row["references"].value) for row in rows} == references


def test_shared_viewpoints_are_the_texts_found_in_several_papers(arche_store: Store, arche_json: dict[str, dict]) -> None:
    papers_of: dict[str, set[str]] = defaultdict(set)
    for paper_id, data in arche_json.items():
        for s in sentences(data):
            for text in s["viewpoints"] + reference_viewpoints(s):
                papers_of[text].add(paper_id)
    expected = {text: len(ids) for text, ids in papers_of.items() if len(ids) > 1}
    rows = arche_store.select(read_named_query("shared-viewpoints"))
    assert {row["text"].value: int(row["papers"].value) for row in rows} == expected
    assert expected, "the corpus shares texts across papers"
    assert len(expected) == 25 or not next(iter(arche_json)).startswith("s41467"), "the real corpus shares 25 texts (ARCHE README)"


def test_shared_references_pair_papers_citing_a_work_with_the_same_abstract_viewpoint(arche_store: Store, arche_json: dict[str, dict]) -> None:
    holders: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for paper_id, data in arche_json.items():
        for s in sentences(data):
            for number, cited in s["references"].items():
                if isinstance(cited, dict):
                    for text in cited.values():
                        holders[text].add((paper_id, number))
    expected: Counter[tuple[str, str, str, str]] = Counter()
    for refs in holders.values():
        for paper_a, ref_a in refs:
            for paper_b, ref_b in refs:
                if paper_a < paper_b:
                    expected[(paper_a, ref_a, paper_b, ref_b)] += 1
    rows = arche_store.select(read_named_query("shared-references"))
    found = {
        (row["paperA"].value.rsplit("/", 1)[1], row["referenceA"].value.rsplit("/", 1)[1],
         row["paperB"].value.rsplit("/", 1)[1], row["referenceB"].value.rsplit("/", 1)[1]): int(row["sharedViewpoints"].value)
        for row in rows
    }
    assert found == dict(expected) and found


def test_multiply_cited_references_match_the_citing_sentences(arche_store: Store, arche_json: dict[str, dict]) -> None:
    expected = {}
    for paper_id, data in arche_json.items():
        citing: Counter[str] = Counter(key for s in sentences(data) for key in s["references"])
        expected.update({(paper_id, key): n for key, n in citing.items() if n > 1})
    rows = arche_store.select(read_named_query("multiply-cited-references"))
    found = {(row["paper"].value.rsplit("/", 1)[1], row["reference"].value.rsplit("/", 1)[1]): int(row["citingSentences"].value) for row in rows}
    assert found == expected


def test_sentence_assertions_lists_own_and_cited_viewpoints_of_a_bound_sentence(arche_store: Store, arche_json: dict[str, dict]) -> None:
    paper_id = "s41467-025-56034-2" if "s41467-025-56034-2" in arche_json else next(iter(arche_json))
    sentence = next(s for s in sentences(arche_json[paper_id]) if any(isinstance(v, dict) and v for v in s["references"].values()))
    iri = NamedNode(f"{IriScheme().paper(paper_id).value}/sentence/{sentence['idx']}")
    rows = arche_store.select(read_named_query("sentence-assertions"), {"sentence": iri})
    assert values(rows, "text") == sentence["viewpoints"] + reference_viewpoints(sentence)
    assert {(int(r["x"].value), int(r["y"].value)) for r in rows} == {(sentence["idx"], 0)} | {(sentence["idx"], int(k)) for k in sentence["references"] if sentence["references"][k]}


def test_paper_overview_counts_the_triples_of_each_paper_graph(arche_store: Store, arche_json: dict[str, dict]) -> None:
    rows = arche_store.select(read_named_query("paper-overview"))
    assert len(rows) == len(arche_json)
    for row in rows[:5]:
        assert int(row["triples"].value) == arche_store.count_triples(row["paper"])
        assert row["format"].value == "arche"


def test_store_totals_and_paper_graphs_agree_with_the_store(arche_store: Store, arche_json: dict[str, dict]) -> None:
    totals = {row["measure"].value: int(row["value"].value) for row in arche_store.select(read_named_query("store-totals"))}
    assert totals["papers"] == len(arche_store.select(read_named_query("paper-graphs"))) == len(arche_json)
    assert totals["all triples"] == arche_store.count_triples()
