"""The hostile corpus through ``claimgraph ingest``: one line per bad file, exit 1, the rest stored byte-exact.

Also the paper-id rules end to end: a stored paper is never replaced by another
file silently, ids never collapse into a shared placeholder, and the same file
again is a re-ingest.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from pyoxigraph import Literal

from claimgraph.cli.main import main
from claimgraph.loaders import load_document
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG
from claimgraph.store import EmbeddedStore
from claimgraph.testing.hostile_inputs import HostileCase, write_hostile_corpus

PROGRESS_LINE = re.compile(r"^[a-z-]+: \d+(/\d+)?(  .*| done in .*)?$")
"""A plain progress line of any step: ``ground: 0/19``, ``ground: 3/19  2.1/s  ETA 0:07  paper-4``, ``ground: 19/19 done in 0:09, 2.1/s``."""
NOTICES = ("no LLM endpoint configured",)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[HostileCase]:
    """The hostile cases, less a folder that holds a readable file: given to ``ingest``, a folder means the files in it."""
    cases = write_hostile_corpus(tmp_path_factory.mktemp("hostile"))
    return [case for case in cases if not (case.path.is_dir() and any(case.path.iterdir()))]


@pytest.fixture(scope="module")
def ingested(corpus: list[HostileCase], tmp_path_factory: pytest.TempPathFactory) -> tuple[int, list[str], Path]:
    """Every case path given to one ``ingest`` (no canonicalization): exit code, stderr lines, store folder."""
    store = tmp_path_factory.mktemp("hostile-store") / "store"
    capture = tmp_path_factory.mktemp("hostile-err") / "stderr.txt"
    import contextlib
    import io

    stream = io.StringIO()
    with contextlib.redirect_stderr(stream), contextlib.redirect_stdout(io.StringIO()):
        code = main(["--store", str(store), "ingest", "--no-canonicalize", *(str(case.path) for case in corpus)])
    capture.write_text(stream.getvalue(), encoding="utf-8")
    return code, stream.getvalue().splitlines(), store


def test_every_refused_file_gets_exactly_one_line_naming_it(corpus: list[HostileCase], ingested) -> None:
    code, lines, _ = ingested
    assert code == 1
    assert not any("Traceback" in line or line.startswith("error:") for line in lines)
    for case in corpus:
        naming = [line for line in lines if line.startswith(f"failed: {case.path}: ")]
        if case.outcome == "refused":
            assert len(naming) == 1 and case.fragment in naming[0], (case.path.name, naming)
        else:
            assert naming == [], case.path.name
    stray = [line for line in lines if not (line.startswith(("failed: ", *NOTICES)) or PROGRESS_LINE.match(line))]
    assert stray == []


def test_nothing_is_stored_for_refused_files_and_every_accepted_one_is(corpus: list[HostileCase], ingested) -> None:
    _, _, folder = ingested
    iris = IriScheme()
    accepted = [load_document(case.path).paper_id for case in corpus if case.outcome == "accepted"]
    assert len(set(accepted)) == len(accepted)  # no two files collapse into one id
    with EmbeddedStore(folder, read_only=True) as store:
        papers = {iris.paper_id_of(graph) for graph in store.graph_names() if iris.paper_id_of(graph)}
        assert papers == set(accepted)
        for paper_id in accepted:
            assert store.has_graph(iris.raw_graph(paper_id)) and store.has_graph(iris.audit_graph(paper_id))


def test_hostile_strings_round_trip_byte_exact(corpus: list[HostileCase], ingested) -> None:
    _, _, folder = ingested
    iris = IriScheme()
    with EmbeddedStore(folder, read_only=True) as store:
        for case in (case for case in corpus if case.outcome == "accepted"):
            graph = iris.paper(load_document(case.path).paper_id)
            held = {triple.object.value.encode("utf-8") for triple in store.triples(graph) if isinstance(triple.object, Literal)}
            missing = [text for text in case.strings if text.encode("utf-8") not in held]
            assert missing == [], case.path.name


def arche_file(folder: Path, name: str, base_id: str, sentence: str) -> Path:
    document = {"file_info": {"base_id": base_id, "title": f"Paper {name}"},
                "introduction": {"sentences": [{"idx": 1, "sentence": sentence, "viewpoints": [], "references": {}}]}}
    path = folder / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_stored_paper_is_never_replaced_silently(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store, iris = str(tmp_path / "store"), IriScheme()
    first = arche_file(tmp_path, "first.json", "paper-x", "The first file holds this sentence.")
    assert main(["--store", store, "ingest", "--no-canonicalize", "--no-extract", str(first)]) == 0
    capsys.readouterr()
    later = tmp_path / "later"
    later.mkdir()
    other = arche_file(later, "other.json", "paper-x", "Another file with the same id.")
    assert main(["--store", store, "ingest", "--no-canonicalize", str(other)]) == 1
    err = capsys.readouterr().err
    (line,) = [line for line in err.splitlines() if "already in the store" in line]
    assert str(other) in line and "read from first.json" in line and "--replace" in line

    def sentences() -> set[str]:
        with EmbeddedStore(store, read_only=True) as opened:
            return {t.object.value for t in opened.triples(iris.paper("paper-x")) if t.predicate == CG.text}

    assert sentences() == {"The first file holds this sentence."}
    assert main(["--store", store, "ingest", "--no-canonicalize", "--no-extract", str(first)]) == 0  # the same file: a re-ingest
    assert main(["--store", store, "ingest", "--no-canonicalize", "--no-extract", "--replace", str(other)]) == 0
    assert sentences() == {"Another file with the same id."}


def test_two_files_with_one_id_in_a_batch_keep_the_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "batch"
    batch.mkdir()
    arche_file(batch, "a.json", "same", "Sentence of file a.")
    shutil.copy(batch / "a.json", tmp_path / "copy.json")
    arche_file(batch, "b.json", "same", "Sentence of file b.")
    assert main(["--store", str(tmp_path / "store"), "ingest", "--no-canonicalize", str(batch)]) == 1
    err = capsys.readouterr().err
    assert any("b.json" in line and "already ingested from" in line for line in err.splitlines())


def test_a_failing_server_is_quoted_on_one_line_per_file_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from claimgraph.testing.sparql_doubles import Answer, scripted_sparql_server

    files = [arche_file(tmp_path, f"{name}.json", name, f"Sentence of {name}.") for name in ("first", "second")]
    with scripted_sparql_server([Answer(status=500, body=b"storage exploded: disk full", content_type="text/plain")]) as server:
        code = main(["--query-url", f"{server.url}/sparql", "--store-retries", "0", "ingest", "--no-canonicalize", *map(str, files)])
    err = capsys.readouterr().err
    assert code == 1
    failed = [line for line in err.splitlines() if line.startswith("failed: ")]
    assert [line.split(": ", 2)[1] for line in failed] == [str(path) for path in files]
    assert all("HTTP 500: storage exploded: disk full" in line for line in failed)


def test_a_file_of_the_same_name_in_another_folder_does_not_replace_a_stored_paper(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store, iris = str(tmp_path / "store"), IriScheme()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = arche_file(tmp_path / "a", "paper.json", "paper-y", "The sentence of folder a.")
    other = arche_file(tmp_path / "b", "paper.json", "paper-y", "The sentence of folder b.")
    assert main(["--store", store, "ingest", "--no-canonicalize", "--no-extract", str(first)]) == 0
    capsys.readouterr()
    assert main(["--store", store, "ingest", "--no-canonicalize", "--no-extract", str(other)]) == 1
    (line,) = [line for line in capsys.readouterr().err.splitlines() if "already in the store" in line]
    assert str(other) in line and "read from paper.json in another folder" in line and "--replace" in line

    def sentences() -> set[str]:
        with EmbeddedStore(store, read_only=True) as opened:
            return {t.object.value for t in opened.triples(iris.paper("paper-y")) if t.predicate == CG.text}

    assert sentences() == {"The sentence of folder a."}
    link = tmp_path / "b" / ".." / "a" / "paper.json"
    assert main(["--store", store, "ingest", "--no-canonicalize", "--no-extract", str(link)]) == 0  # the same file by another path
    assert main(["--store", store, "ingest", "--no-canonicalize", "--no-extract", "--replace", str(other)]) == 0
    assert sentences() == {"The sentence of folder b."}
