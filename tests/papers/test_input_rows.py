"""Reads of a paper's input structure are kept by the digest its load activity notes, and never outlive that structure."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from pyoxigraph import Literal

from claimgraph.loaders import Document, load_document
from claimgraph.papers.document_graph import document_triples
from claimgraph.papers.input_rows import input_digest, input_rows, stored_input_digest
from claimgraph.papers.storage import store_document
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_internal_query
from claimgraph.store import Store

ANCHORS = read_internal_query("source-anchors")


def counting(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The SELECTs the store answers from now on (the store still answers every one)."""
    sent: list[str] = []
    select: Callable[..., list] = store.select

    def counted(sparql: str, bindings: dict | None = None) -> list:
        sent.append(sparql)
        return select(sparql, bindings)

    monkeypatch.setattr(store, "select", counted)
    return sent


def sentence_texts(store: Store, iris: IriScheme, paper_id: str) -> set[str]:
    return {row["text"].value for row in input_rows(store, iris, paper_id, "source-anchors") if row["kind"].value == "sentence"}


@pytest.fixture
def paper_file(synthetic_arche_dir: Path, tmp_path: Path) -> Path:
    """A copy of one synthetic ARCHE paper, to be changed and stored again."""
    source = sorted(synthetic_arche_dir.glob("*.json"))[0]
    target = tmp_path / source.name
    target.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    return target


def test_a_stored_paper_notes_the_digest_of_the_structure_it_wrote(store: Store, iris: IriScheme, paper_file: Path) -> None:
    document = load_document(paper_file)
    store_document(store, iris, document)
    assert stored_input_digest(store, iris, document.paper_id) == input_digest(list(dict.fromkeys(document_triples(document, iris))))


def test_the_structure_is_read_once_while_its_digest_stands(store: Store, paper_file: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    iris = IriScheme(f"https://example.org/{tmp_path.name}/")  # rows kept by another test hold other IRIs
    document = load_document(paper_file)
    store_document(store, iris, document)
    sent = counting(store, monkeypatch)
    first = input_rows(store, iris, document.paper_id, "source-anchors")
    again = input_rows(store, iris, document.paper_id, "source-anchors")
    assert again == first and len(first) > len(document.viewpoints)
    assert sent.count(ANCHORS) == 1


def test_a_paper_stored_again_with_another_text_is_read_afresh(store: Store, iris: IriScheme, paper_file: Path) -> None:
    document = load_document(paper_file)
    store_document(store, iris, document)
    before = sentence_texts(store, iris, document.paper_id)
    data = json.loads(paper_file.read_text(encoding="utf-8"))
    data["introduction"]["sentences"][0]["sentence"] = "A sentence rewritten after the first ingest."
    paper_file.write_text(json.dumps(data), encoding="utf-8")
    changed: Document = load_document(paper_file)
    store_document(store, iris, changed)
    after = sentence_texts(store, iris, document.paper_id)
    assert "A sentence rewritten after the first ingest." in after - before


def test_a_paper_stored_without_a_digest_is_read_every_time(store: Store, iris: IriScheme, paper_file: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    document = load_document(paper_file)
    store_document(store, iris, document)
    store.update("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> "
                 "DELETE { GRAPH ?audit { ?note ?p ?o } } WHERE { GRAPH ?audit { ?note cg:noteName ?name ; ?p ?o } }",
                 {"audit": iris.audit_graph(document.paper_id), "name": Literal("input_sha256")})
    assert stored_input_digest(store, iris, document.paper_id) is None
    sent = counting(store, monkeypatch)
    input_rows(store, iris, document.paper_id, "source-anchors")
    input_rows(store, iris, document.paper_id, "source-anchors")
    assert sent.count(ANCHORS) == 2
