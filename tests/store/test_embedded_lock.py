"""One writer per embedded store: a second writer gets one line naming the holder; a killed holder frees the store."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.store import EmbeddedStore, StoreError, StoreLockedError
from claimgraph.store.embedded import lock_path

HOLD = """
import sys
from claimgraph.store import EmbeddedStore
store = EmbeddedStore(sys.argv[1])
print("holding", flush=True)
sys.stdin.readline()
store.close()
"""

GRAPH = NamedNode("https://claimgraph.example/paper/lock")


def start_holder(path: Path) -> subprocess.Popen[str]:
    """A process that opens the store for writing and waits; returns once it says it holds the store."""
    process = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdout.readline().strip() == "holding"
    return process


def test_a_second_writer_gets_one_line_naming_the_other_process(tmp_path: Path) -> None:
    path = tmp_path / "store"
    holder = start_holder(path)
    try:
        with pytest.raises(StoreLockedError) as caught:
            EmbeddedStore(path)
        message = str(caught.value)
        assert f"pid {holder.pid}" in message and "-c" in message and "\n" not in message
        assert "being written by another process" in message
        reader = EmbeddedStore(path, read_only=True)  # readers take no lock
        assert reader.count_triples() == 0
        reader.close()
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait()
    with EmbeddedStore(path) as store:  # released on close
        store.replace_graph(GRAPH, [Triple(GRAPH, GRAPH, Literal("ok"))])


def test_a_holder_killed_by_sigkill_leaves_no_stale_lock(tmp_path: Path) -> None:
    path = tmp_path / "store"
    holder = start_holder(path)
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    assert lock_path(path).exists()
    with EmbeddedStore(path) as store:
        assert store.count_triples() == 0


def test_the_lock_file_sits_next_to_the_store(tmp_path: Path) -> None:
    with EmbeddedStore(tmp_path / "library"):
        assert lock_path(tmp_path / "library") == tmp_path / "library.lock"
        assert f"pid {os.getpid()}" in (tmp_path / "library.lock").read_text()
    assert (tmp_path / "library.lock").read_text() == ""


def test_a_file_where_the_store_should_be_is_named(tmp_path: Path) -> None:
    (tmp_path / "store").write_text("not a store")
    with pytest.raises(StoreError, match="is a file, not a store directory"):
        EmbeddedStore(tmp_path / "store")
    assert not lock_path(tmp_path / "store").exists() or lock_path(tmp_path / "store").read_text() == ""
