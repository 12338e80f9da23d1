"""Several processes on one store: a second embedded writer is refused by name, readers see whole states,
and concurrent writers of a remote store end where serial ones do (audit numbering included)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from claimgraph.cli.main import main
from claimgraph.store import EmbeddedStore, RemoteStore
from claimgraph.testing.crash import clean_prefixes, copy_store, event, pipe, start_forked, state_digest
from claimgraph.testing.synthetic.arche import write_corpus

HOLD = """
import sys
from claimgraph.store import EmbeddedStore
store = EmbeddedStore(sys.argv[1])
print("holding", flush=True)
sys.stdin.readline()
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("concurrency-corpus")
    write_corpus(folder, papers=8)
    (folder / "truth.jsonl").unlink()
    return folder


def test_a_second_writer_command_is_told_which_process_holds_the_store(tmp_path: Path, corpus: Path, capsys) -> None:
    store = tmp_path / "store"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(store)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        code = main(["--store", str(store), "ingest", "--no-canonicalize", str(corpus)])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1
        assert f"pid {holder.pid}" in err and "being written by another process" in err
        assert main(["--store", str(store), "stats"]) == 0  # a reader is not refused
    finally:
        holder.kill()
        holder.wait()


def test_readers_during_a_write_see_exactly_the_states_between_writes(tmp_path: Path, corpus: Path) -> None:
    """The writer pauses after each store write until a reader has opened the store read-only and checked it.

    Every state a reader sees must be a state a clean run passes through after
    that many writes: a write is never seen half applied.
    """
    start = tmp_path / "start" / "store"
    EmbeddedStore(start).close()
    argv = ["ingest", "--no-canonicalize", "--no-validate", *map(str, sorted(corpus.glob("synth-000[1-3].json")))]
    clean = tmp_path / "clean" / "store"
    copy_store(start, clean)
    prefixes = clean_prefixes(clean, ["--store", str(clean), *argv])
    live = tmp_path / "live" / "store"
    copy_store(start, live)
    reader_end, writer_end = pipe()
    writer = start_forked(["--store", str(live), *argv], pause=writer_end)
    seen = []
    count = 0
    try:
        while (count := reader_end.recv()) != -1:
            with EmbeddedStore(live, read_only=True) as reader:
                seen.append(state_digest(reader) == prefixes[count])
            reader_end.send(True)
    finally:  # a failed check must not leave the writer waiting for an answer after the test run ends
        if writer.is_alive() and count != -1:
            writer.kill()
    writer.join()
    assert writer.exitcode == 0
    assert len(seen) == len(prefixes) - 1 >= 6 and all(seen)


def run_together(argvs: list[list[str]]) -> list[int]:
    """Start one claimgraph child per argv, released at once; their exit codes."""
    gate = event()
    processes = [start_forked(argv, gate=gate) for argv in argvs]
    gate.set()
    for process in processes:
        process.join()
    return [process.exitcode for process in processes]


def remote_digest(url: str) -> dict[str, str]:
    store = RemoteStore.from_base_url(url)
    try:
        return state_digest(store)
    finally:
        store.close()


@pytest.mark.slow
def test_four_concurrent_ingests_and_repairs_on_a_server_equal_serial_ones(oxigraph_server: str, corpus: Path) -> None:
    files = sorted(map(str, corpus.glob("synth-*.json")))
    quarters = [files[n::4] for n in range(4)]
    ingest = [["--store", oxigraph_server, "ingest", "--no-canonicalize", *quarter] for quarter in quarters]
    repair = [["--store", oxigraph_server, "repair"] for _ in range(4)]
    server = RemoteStore.from_base_url(oxigraph_server)
    server.update("DROP ALL")
    for argv in ingest:
        assert run_together([argv]) == [0]
    serial_ingest = remote_digest(oxigraph_server)
    for argv in repair:
        assert run_together([argv]) == [0]
    serial_repair = remote_digest(oxigraph_server)
    server.update("DROP ALL")
    assert run_together(ingest) == [0, 0, 0, 0]
    assert remote_digest(oxigraph_server) == serial_ingest
    assert run_together(repair) == [0, 0, 0, 0]
    assert remote_digest(oxigraph_server) == serial_repair
    assert "urn:claimgraph:locks" not in serial_repair
    server.close()
