"""Every file of the hostile corpus through ``load_document``: a LoaderError naming the file, or exact strings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from claimgraph.errors import LoaderError
from claimgraph.loaders import Document, find_inputs, load_document
from claimgraph.loaders.paper_ids import PAPER_ID_PATTERN
from claimgraph.testing.hostile_inputs import HostileCase, write_hostile_corpus, write_large_text

SUFFIXES = {".json", ".txt", ".md", ".xml", ".pdf"}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[HostileCase]:
    return write_hostile_corpus(tmp_path_factory.mktemp("hostile"))


def document_strings(document: Document) -> set[bytes]:
    """Every text a Document holds, as UTF-8 bytes (a lone surrogate would fail here, not in a store)."""
    texts = [document.title, *document.metadata.values()]
    texts += [passage.heading for passage in document.passages]
    texts += [sentence.text for sentence in document.sentences]
    texts += [viewpoint.text for viewpoint in document.viewpoints]
    texts += [reference.label for reference in document.references.values()]
    return {text.encode("utf-8") for text in texts}


def test_the_corpus_is_large_and_covers_every_format(corpus: list[HostileCase]) -> None:
    assert len(corpus) >= 40
    assert {case.path.suffix for case in corpus if case.path.suffix} >= SUFFIXES
    for suffix in SUFFIXES:
        outcomes = {case.outcome for case in corpus if case.path.suffix == suffix}
        assert outcomes == {"refused", "accepted"}, suffix
    assert len({case.path for case in corpus}) == len(corpus)
    assert all(case.description and (case.fragment if case.outcome == "refused" else case.strings) for case in corpus)


def test_refused_cases_raise_a_loader_error_naming_the_file_and_the_problem(corpus: list[HostileCase]) -> None:
    problems = []
    for case in (case for case in corpus if case.outcome == "refused"):
        try:
            load_document(case.path)
        except LoaderError as error:
            message = str(error)
            if not message.startswith(f"{case.path}: ") or case.fragment not in message or "\n" in message:
                problems.append(f"{case.path.name}: {message[:300]!r} lacks {case.fragment!r}")
        except Exception as error:  # noqa: BLE001 - the point of the test: any other type is a failure, reported by name
            problems.append(f"{case.path.name}: {type(error).__name__}: {str(error)[:200]}")
        else:
            problems.append(f"{case.path.name}: accepted, expected a refusal with {case.fragment!r}")
    assert not problems, "\n".join(problems)


def test_accepted_cases_keep_every_string_byte_exact(corpus: list[HostileCase]) -> None:
    problems = []
    for case in (case for case in corpus if case.outcome == "accepted"):
        try:
            held = document_strings(load_document(case.path))
        except Exception as error:  # noqa: BLE001 - reported by name, so one bad case does not hide the others
            problems.append(f"{case.path.name}: {type(error).__name__}: {error}")
            continue
        problems += [f"{case.path.name}: missing {text!r}" for text in case.strings if text.encode("utf-8") not in held]
    assert not problems, "\n".join(problems)


def test_accepted_papers_get_distinct_valid_ids_even_without_ascii_names(corpus: list[HostileCase]) -> None:
    documents = [load_document(case.path) for case in corpus if case.outcome == "accepted"]
    ids = [document.paper_id for document in documents]
    assert all(PAPER_ID_PATTERN.match(paper_id) for paper_id in ids), ids
    assert len(set(ids)) == len(ids), sorted(ids)
    assert not {"paper", ""} & set(ids)


def test_find_inputs_passes_missing_and_empty_folders_on_for_load_document_to_name(tmp_path: Path) -> None:
    empty, missing = tmp_path / "empty", tmp_path / "missing-folder"
    empty.mkdir()
    (empty / "notes.docx").write_bytes(b"x")
    assert list(find_inputs([missing, empty])) == [missing, empty]
    with pytest.raises(LoaderError, match=r"missing-folder: does not exist"):
        load_document(missing)
    with pytest.raises(LoaderError, match=r"empty: is a folder with no supported input file in it"):
        load_document(empty)


def test_find_inputs_yields_broken_entries_of_a_folder_so_each_is_reported(tmp_path: Path) -> None:
    (tmp_path / "good.txt").write_text("A good paper.\n", encoding="utf-8")
    (tmp_path / "loop.md").symlink_to("loop.md")
    (tmp_path / "sub.json").mkdir()
    (tmp_path / "README.md").write_text("# Readme\n", encoding="utf-8")
    assert [path.name for path in find_inputs([tmp_path])] == ["good.txt", "loop.md"]
    with pytest.raises(LoaderError, match="is a symbolic link; links are not followed"):
        load_document(tmp_path / "loop.md")
    with pytest.raises(LoaderError, match="symbolic link loop"):
        load_document(tmp_path / "loop.md", follow_symlinks=True)


PEAK_SCRIPT = """
import json, resource, sys
from pathlib import Path
from claimgraph.errors import LoaderError
from claimgraph.loaders import load_document
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    load_document(Path(sys.argv[1]))
    outcome = "accepted"
except LoaderError as error:
    outcome = str(error)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"before_kib": before, "after_kib": after, "outcome": outcome}))
"""


@pytest.mark.slow
def test_a_50_mb_text_file_is_refused_within_a_bounded_peak_memory(tmp_path: Path) -> None:
    """Bound: the raw bytes (1x) and the decoded text (4x: one emoji makes it 4 bytes a character) coexist
    while decoding; 6x leaves one file size of working memory. The loader before the limits grew 8.1x.

    Measured in a fresh interpreter (ru_maxrss is a high-water mark): peak
    growth while loading, over the interpreter with claimgraph imported.
    """
    case = write_large_text(tmp_path)
    size = case.path.stat().st_size
    run = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, str(case.path)], capture_output=True, text=True, check=True)
    figures = json.loads(run.stdout)
    assert case.fragment in figures["outcome"] and str(case.path) in figures["outcome"]
    growth = (figures["after_kib"] - figures["before_kib"]) * 1024
    assert growth < 6 * size, f"peak grew by {growth / size:.1f}x the file size"
