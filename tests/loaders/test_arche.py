from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimgraph.errors import LoaderError
from claimgraph.loaders import load_document
from claimgraph.papers.document_graph import document_triples
from claimgraph.rdf.iris import IriScheme
from claimgraph.store import EmbeddedStore

CG = "https://w3id.org/claimgraph/ontology/v1#"


def expected_counts(data: dict) -> dict[str, int]:
    """Counts read straight from the JSON, independently of the loader."""
    sentences = data["introduction"]["sentences"]
    reference_numbers = {key for s in sentences for key in s["references"]}
    return {
        "sentences": len(sentences),
        "sentence_viewpoints": sum(len(s["viewpoints"]) for s in sentences),
        "reference_viewpoints": sum(len(v) for s in sentences for v in s["references"].values() if isinstance(v, dict)),
        "references": len(reference_numbers),
        "citations": sum(len(s["references"]) for s in sentences),
    }


def test_arche_counts_match_the_json(arche_paper: tuple[Path, dict]) -> None:
    path, data = arche_paper
    document = load_document(path)
    expected = expected_counts(data)
    assert document.paper_id == data["file_info"]["base_id"]
    assert len(document.sentences) == expected["sentences"]
    assert [s.index for s in document.sentences] == [s["idx"] for s in data["introduction"]["sentences"]]
    assert sum(1 for v in document.viewpoints if v.reference_index == 0) == expected["sentence_viewpoints"]
    assert sum(1 for v in document.viewpoints if v.reference_index) == expected["reference_viewpoints"]
    assert len(document.references) == expected["references"]
    assert sum(len(r.cited_by) for r in document.references.values()) == expected["citations"]


def test_arche_graph_counts_match_the_json_by_sparql(arche_paper: tuple[Path, dict]) -> None:
    path, data = arche_paper
    expected = expected_counts(data)
    iris = IriScheme()
    document = load_document(path)
    store = EmbeddedStore()
    store.replace_graph(iris.paper(document.paper_id), document_triples(document, iris))
    graph = iris.paper(document.paper_id)

    def count(type_name: str) -> int:
        return store.scalar(f"SELECT (COUNT(?n) AS ?c) WHERE {{ GRAPH ?g {{ ?n a <{CG}{type_name}> }} }}", {"g": graph})

    assert count("Sentence") == expected["sentences"]
    assert count("Viewpoint") == expected["sentence_viewpoints"] + expected["reference_viewpoints"]
    assert count("Reference") == expected["references"]
    cites = store.scalar(f"SELECT (COUNT(*) AS ?c) WHERE {{ GRAPH ?g {{ ?s <{CG}cites> ?r }} }}", {"g": graph})
    assert cites == expected["citations"]


def test_arche_references_name_no_cited_work_as_the_json_gives_no_bibliographic_fields(arche_paper: tuple[Path, dict]) -> None:
    """A reference is a number with abstract viewpoints: no DOI, title or year to name the work by, so no cg:citedWork
    (and no work key for the paper, whose file_info names no DOI); the references stay cited by their sentences."""
    path, _ = arche_paper
    document = load_document(path)
    predicates = {triple.predicate.value for triple in document_triples(document, IriScheme())}
    assert CG + "cites" in predicates
    assert not {CG + "citedWork", CG + "workKey", "http://purl.org/ontology/bibo/doi"} & predicates


def test_viewpoint_source_tuples_point_at_their_sentence_and_reference(arche_dir: Path) -> None:
    path = arche_dir / "s41467-025-56034-2.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    document = load_document(path)
    first = data["introduction"]["sentences"][0]
    own = [v for v in document.viewpoints if v.sentence_index == first["idx"] and v.reference_index == 0]
    assert [v.text for v in own] == first["viewpoints"]
    assert [v.source for v in own] == [(first["idx"], 0, n) for n in range(1, len(own) + 1)]
    cited = [v for v in document.viewpoints if v.sentence_index == first["idx"] and v.reference_index == 1]
    assert [v.text for v in cited] == list(first["references"]["1"].values())
    assert cited[0].source == (first["idx"], 1, 1)


def test_reference_cited_by_two_sentences_is_one_node(arche_dir: Path) -> None:
    document = load_document(arche_dir / "s41467-025-56283-1.json")
    data = json.loads((arche_dir / "s41467-025-56283-1.json").read_text(encoding="utf-8"))
    citing = [s["idx"] for s in data["introduction"]["sentences"] if "10" in s["references"]]
    assert len(citing) > 1
    assert document.references[10].cited_by == citing
    iris = IriScheme()
    triples = list(document_triples(document, iris))
    reference = iris.node(document.paper_id, "reference", "10")
    assert sum(1 for t in triples if t.subject == reference and t.predicate.value.endswith("#type")) == 1


def broken(write, name: str, content: str | bytes) -> str:
    with pytest.raises(LoaderError) as info:
        load_document(write(name, content))
    return str(info.value)


def test_bad_json_names_file_and_position(write) -> None:
    message = broken(write, "bad.json", '{"file_info": {,}')
    assert "bad.json" in message and "not valid JSON (line 1, column 16" in message


def test_json_of_the_wrong_shape_is_refused(write) -> None:
    assert "not an ARCHE paper" in broken(write, "list.json", "[1, 2]")
    message = broken(write, "nosent.json", json.dumps({"file_info": {"base_id": "x"}, "introduction": {"sentences": []}}))
    assert "introduction.sentences must be a non-empty list" in message
    bad_idx = {"file_info": {"base_id": "x"}, "introduction": {"sentences": [{"idx": "one", "sentence": "A."}]}}
    assert "introduction.sentences[0].idx must be a positive integer" in broken(write, "idx.json", json.dumps(bad_idx))


def test_non_utf8_and_empty_files_are_refused_by_name(write) -> None:
    message = broken(write, "latin1.json", '{"a": "caf\xe9"}'.encode("latin-1"))
    assert "latin1.json" in message and "not UTF-8 (invalid byte 0xe9" in message
    assert "empty.json: file is empty" in broken(write, "empty.json", "  \n")


def test_unknown_extension_is_refused(write) -> None:
    assert "unsupported file type '.docx'" in broken(write, "paper.docx", "x")
