from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from claimgraph.loaders import Document, find_inputs, load_document
from claimgraph.testing import corpora
from claimgraph.testing.synthetic.arche import main, write_corpus
from claimgraph.testing.synthetic.claims import (
    HARD_NEGATIVE_KINDS,
    SyntheticCorpusError,
)
from claimgraph.testing.synthetic.truth import TRUTH_FILE, read_truth


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    folder = tmp_path_factory.mktemp("synthetic-arche")
    return folder, write_corpus(folder)


@pytest.fixture(scope="module")
def papers(corpus: tuple[Path, list[Path]]) -> dict[str, dict[str, Any]]:
    """base_id -> the JSON object, read back from disk."""
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in corpus[1]}


@pytest.fixture(scope="module")
def documents(corpus: tuple[Path, list[Path]]) -> dict[str, Document]:
    return {path.stem: load_document(path) for path in corpus[1]}


@pytest.fixture(scope="module")
def truth(corpus: tuple[Path, list[Path]]) -> list[dict[str, Any]]:
    return read_truth(corpus[0])


def sentences(paper: dict[str, Any]) -> list[dict[str, Any]]:
    return paper["introduction"]["sentences"]


def text_at(document: Document, field: str, source: list[int]) -> str:
    """The text the loader gives for one truth place."""
    if field == "sentence":
        return document.sentence(source[0]).text
    matches = [vp.text for vp in document.viewpoints if list(vp.source) == source]
    assert len(matches) == 1, f"{document.paper_id} {source}: {len(matches)} viewpoints"
    return matches[0]


def folder_bytes(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def test_every_paper_loads_with_the_arche_loader_and_matches_its_json(papers, documents) -> None:
    assert list(papers) == [f"synth-{n:04d}" for n in range(1, 9)]
    for base_id, paper in papers.items():
        document = documents[base_id]
        items = sentences(paper)
        assert document.paper_id == base_id == paper["file_info"]["base_id"]
        assert document.metadata["assigned_category"] in {"Biological sciences", "Physical sciences"}
        assert [s.index for s in document.sentences] == [item["idx"] for item in items] == list(range(1, len(items) + 1))
        assert [s.text for s in document.sentences] == [item["sentence"] for item in items]
        assert paper["introduction"]["content"] == " ".join(item["sentence"] for item in items)
        own = sum(len(item["viewpoints"]) for item in items)
        cited = sum(len(v) for item in items for v in item["references"].values() if isinstance(v, dict))
        assert sum(1 for v in document.viewpoints if v.reference_index == 0) == own
        assert sum(1 for v in document.viewpoints if v.reference_index) == cited
        assert len(document.references) == len({key for item in items for key in item["references"]})


def test_papers_have_tens_of_sentences_of_one_to_four_viewpoints(papers) -> None:
    for paper in papers.values():
        items = sentences(paper)
        assert 20 <= len(items) <= 60
        assert all(1 <= len(item["viewpoints"]) <= 4 for item in items)
    sizes = Counter(len(item["viewpoints"]) for paper in papers.values() for item in sentences(paper))
    assert set(sizes) == {1, 2, 3, 4}


def test_references_are_numbered_by_first_citation_and_cited_as_markers(papers) -> None:
    for paper in papers.values():
        first_seen: list[int] = []
        for item in sentences(paper):
            numbers = [int(key) for key in item["references"]]
            assert numbers == sorted(numbers)
            first_seen.extend(n for n in numbers if n not in first_seen)
            if numbers:
                assert item["sentence"].endswith(f" [{','.join(map(str, numbers))}].")
        assert first_seen == list(range(1, len(first_seen) + 1))


def test_references_cited_by_several_sentences_repeat_the_same_viewpoints(papers, documents) -> None:
    for base_id, paper in papers.items():
        by_number: dict[str, list[Any]] = defaultdict(list)
        for item in sentences(paper):
            for key, value in item["references"].items():
                by_number[key].append(value)
        recited = {key: values for key, values in by_number.items() if len(values) > 1}
        assert len(recited) >= 2, base_id
        assert all(value == values[0] for values in recited.values() for value in values)
        assert any(values[0] for values in recited.values()), f"{base_id}: only empty references are cited again"
        for key, values in recited.items():
            assert len(documents[base_id].references[int(key)].cited_by) == len(values)


def test_every_paper_has_empty_list_references_that_load_without_viewpoints(papers, documents) -> None:
    for base_id, paper in papers.items():
        empty = {int(key) for item in sentences(paper) for key, value in item["references"].items() if value == []}
        assert empty, base_id
        document = documents[base_id]
        assert empty <= set(document.references)
        assert not [v for v in document.viewpoints if v.reference_index in empty]


def test_texts_shared_across_papers_are_exactly_those_the_truth_lists(papers, truth) -> None:
    found: dict[str, dict[str, set[str]]] = {"sentence_viewpoint": defaultdict(set), "reference_viewpoint": defaultdict(set)}
    for base_id, paper in papers.items():
        for item in sentences(paper):
            for text in item["viewpoints"]:
                found["sentence_viewpoint"][text].add(base_id)
            for value in item["references"].values():
                for text in (value.values() if isinstance(value, dict) else []):
                    found["reference_viewpoint"][text].add(base_id)
    for field, places in found.items():
        shared = {text: papers_ for text, papers_ in places.items() if len(papers_) > 1}
        listed = {r["text"]: set(r["papers"]) for r in truth if r["kind"] == "shared_text" and r["field"] == field}
        assert shared, f"no {field} text recurs across papers"
        assert shared == listed


def test_labelled_pairs_cover_every_hard_negative_kind_and_point_at_loaded_viewpoints(truth, documents) -> None:
    pairs = [r for r in truth if r["kind"] in {"hard_negative", "paraphrase"}]
    kinds = Counter(r.get("variant", "paraphrase") for r in pairs)
    assert set(kinds) == set(HARD_NEGATIVE_KINDS) | {"paraphrase"} and kinds["paraphrase"] >= 2
    for record in pairs:
        a, b = record["a"], record["b"]
        assert a["text"] != b["text"]
        assert a["field"] == b["field"] == "sentence_viewpoint"
        for place in (a, b):
            assert text_at(documents[place["paper"]], place["field"], place["source"]) == place["text"]
    assert any(r["a"]["paper"] != r["b"]["paper"] for r in pairs)


NUMBER = re.compile(r"\d+(?:\.\d+)?")


def test_each_hard_negative_changes_only_what_its_kind_says(truth) -> None:
    for record in (r for r in truth if r["kind"] == "hard_negative"):
        a, b, variant = record["a"]["text"], record["b"]["text"], record["variant"]
        if variant == "negation":
            assert re.search(r"\b(not|fails)\b", b) and not re.search(r"\b(not|fails)\b", a)
        elif variant == "direction":
            assert b in {a.replace("increases", "decreases"), a.replace("decreases", "increases")}
        elif variant == "quantity":
            assert NUMBER.sub("#", a) == NUMBER.sub("#", b) and NUMBER.findall(a) != NUMBER.findall(b)
        elif variant == "unit":
            assert NUMBER.findall(a) == NUMBER.findall(b) and NUMBER.sub("#", a) != NUMBER.sub("#", b)
        else:
            head_a, _, tail_a = a.partition(" in ")
            head_b, _, tail_b = b.partition(" in ")
            assert head_a == head_b and tail_a != tail_b and a.rsplit(" by ", 1)[1] == b.rsplit(" by ", 1)[1]


def test_hostile_fragments_round_trip_byte_exact_through_the_loader(corpus, truth, documents) -> None:
    hostile = [r for r in truth if r["kind"] == "hostile"]
    joined = "".join(r["fragment"] for r in hostile)
    for needed in ('"', "'", "\\", "{", "} ; DROP ALL ;", "?var", "<http://", "\n", "\t", "\u202e", "\u200d"):
        assert needed in joined, f"no hostile fragment holds {needed!r}"
    assert any(ord(char) > 0xFFFF for char in joined), "no emoji outside the BMP"
    for record in hostile:
        fields = {place["field"] for place in record["occurrences"]}
        assert fields == {"sentence", "sentence_viewpoint", "reference_viewpoint"}
        for place in record["occurrences"]:
            text = text_at(documents[place["paper"]], place["field"], place["source"])
            assert record["fragment"] in text
            assert text.encode("utf-8") == place["text"].encode("utf-8")
    raw = b"".join(path.read_bytes() for path in corpus[1])
    assert "\u202e".encode() in raw and b"\\n" in raw and b"\\\\" in raw


def test_the_folder_holds_papers_and_a_truth_file_that_find_inputs_leaves_out(corpus) -> None:
    folder, paths = corpus
    assert sorted(path.name for path in folder.iterdir()) == sorted([path.name for path in paths] + [TRUTH_FILE])
    assert list(find_inputs([folder])) == paths
    assert read_truth(folder)[0] == {"kind": "corpus", "generator": "claimgraph.testing.synthetic.arche", "papers": 8, "seed": 7}


def test_the_same_seed_gives_byte_identical_files_in_another_process(corpus, tmp_path: Path) -> None:
    out = tmp_path / "again"
    environment = {**os.environ, "PYTHONHASHSEED": "12345"}
    command = [sys.executable, "-m", "claimgraph.testing.synthetic.arche", str(out), "--papers", "8", "--seed", "7"]
    result = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "wrote 8 papers" in result.stdout
    assert folder_bytes(out) == folder_bytes(corpus[0])


def test_another_seed_gives_different_files(corpus, tmp_path: Path) -> None:
    write_corpus(tmp_path, seed=8)
    other, ours = folder_bytes(tmp_path), folder_bytes(corpus[0])
    assert set(other) == set(ours)
    assert all(other[name] != ours[name] for name in ours)


@pytest.mark.parametrize("count", [1, 3])
def test_small_corpora_still_hold_every_fragment_and_every_pair_kind(tmp_path: Path, count: int) -> None:
    paths = write_corpus(tmp_path, papers=count)
    assert len(paths) == count
    loaded = {path.stem: load_document(path) for path in paths}
    truth = read_truth(tmp_path)
    hostile = [r for r in truth if r["kind"] == "hostile"]
    assert len(hostile) == 8 and all(r["occurrences"] for r in hostile)
    pairs = [r for r in truth if r["kind"] in {"hard_negative", "paraphrase"}]
    assert {r.get("variant", "paraphrase") for r in pairs} == set(HARD_NEGATIVE_KINDS) | {"paraphrase"}
    for record in pairs:
        for place in (record["a"], record["b"]):
            assert text_at(loaded[place["paper"]], place["field"], place["source"]) == place["text"]


def test_write_corpus_refuses_a_folder_holding_other_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(SyntheticCorpusError, match=r"already holds notes\.txt"):
        write_corpus(tmp_path, papers=2)
    assert main([str(tmp_path), "--papers", "2"]) == 2
    assert "notes.txt" in capsys.readouterr().err
    assert main([str(tmp_path / "none"), "--papers", "0"]) == 2
    assert "at least 1 paper" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()


def test_a_corpus_can_be_written_again_over_itself(tmp_path: Path) -> None:
    first = write_corpus(tmp_path, papers=2)
    before = folder_bytes(tmp_path)
    assert write_corpus(tmp_path, papers=2) == first
    assert folder_bytes(tmp_path) == before


def test_real_arche_dir_follows_the_environment_variable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    default = tmp_path / "shared" / "data" / "arche"
    monkeypatch.setattr(corpora, "DEFAULT_ARCHE_DIR", default)
    named = tmp_path / "mine"
    named.mkdir()
    monkeypatch.setenv(corpora.ARCHE_ENV, str(named))
    assert corpora.real_arche_dir() == named
    monkeypatch.setenv(corpora.ARCHE_ENV, str(tmp_path / "missing"))
    default.mkdir(parents=True)
    assert corpora.real_arche_dir() is None
    monkeypatch.delenv(corpora.ARCHE_ENV)
    assert corpora.real_arche_dir() == default
    default.rmdir()
    assert corpora.real_arche_dir() is None


def test_the_default_real_corpus_folder_is_next_to_the_checkout() -> None:
    assert Path(corpora.__file__).resolve().parents[3] / "shared" / "data" / "arche" == corpora.DEFAULT_ARCHE_DIR
    assert (corpora.REPOSITORY_ROOT / "claimgraph").is_dir()
    assert corpora.ARCHE_ENV in corpora.ARCHE_SKIP_REASON and "\n" not in corpora.ARCHE_SKIP_REASON
