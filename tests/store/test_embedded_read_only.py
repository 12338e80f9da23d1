"""Opening an embedded store read-only while a writer's compaction deletes a table file: opened again, or one clear error."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph
import pytest
from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.store import EmbeddedStore, StoreError
from claimgraph.store.embedded import open_read_only

GRAPH = NamedNode("https://claimgraph.example/paper/read-only")


@pytest.fixture
def stored(tmp_path: Path) -> Path:
    """A store whose data sits in a table (.sst) file that its file list names."""
    path = tmp_path / "store"
    store = EmbeddedStore(path)
    store.insert({GRAPH: [Triple(GRAPH, NamedNode("https://claimgraph.example/p"), Literal(str(n))) for n in range(50)]})
    store._open().optimize()
    store.close()
    assert list(path.glob("*.sst"))
    return path


def test_a_table_file_deleted_under_the_reader_is_retried_until_the_file_list_is_current(stored: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first open meets the real RocksDB error of a vanished table file; the table is back for the second."""
    tables = sorted(stored.glob("*.sst"))
    real_open = pyoxigraph.Store.read_only
    calls: list[str] = []

    def open_during_compaction(path: str) -> pyoxigraph.Store:
        calls.append(path)
        if len(calls) > 1:
            return real_open(path)
        for table in tables:
            table.rename(table.with_suffix(".moved"))
        try:
            return real_open(path)
        finally:
            for table in tables:
                table.with_suffix(".moved").rename(table)

    monkeypatch.setattr(pyoxigraph.Store, "read_only", open_during_compaction)
    reader = EmbeddedStore(stored, read_only=True)
    assert len(calls) == 2
    assert len(reader.triples(GRAPH)) == 50
    reader.close()


def test_a_table_file_that_stays_missing_is_one_error_naming_the_store(stored: Path) -> None:
    for table in stored.glob("*.sst"):
        table.unlink()
    with pytest.raises(StoreError, match=r"another process is writing it") as raised:
        open_read_only(stored, attempts=2)
    assert str(stored) in str(raised.value)
