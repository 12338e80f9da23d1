"""Concurrent ingests on one server canonicalize as serial ones do: one CANON_ node per shared text, never a split.

Each ingest is a real ``claimgraph`` process. A child pauses right after it has
read the CANON_ nodes until the other child has read them too or is waiting
for the canonical graph's lease, so without the single-writer section both
would place their nodes on the same (empty) view of the hubs every time.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from claimgraph.canonical.links.splits import split_hubs
from claimgraph.context import Context
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_named_query
from claimgraph.store import RemoteStore
from claimgraph.testing.synthetic.arche import write_corpus

CHILD = r"""
import os, sys, time
from pathlib import Path

import claimgraph.canonical.canonicalizer as canonicalizer
import claimgraph.store.lease as lease
from claimgraph.cli.main import main

meeting, me, other = Path(os.environ["MEETING"]), os.environ["ME"], os.environ["OTHER"]
read_store_state, acquire = canonicalizer.read_store_state, lease._acquire


def arrived(name):
    return any((meeting / f"{step}-{name}").exists() for step in ("read", "waiting", "done"))


def read_then_meet(*args, **kwargs):
    state = read_store_state(*args, **kwargs)
    (meeting / f"read-{me}").touch()
    give_up = time.monotonic() + 600  # a deadlock guard, not a timing assumption
    while not arrived(other):
        if time.monotonic() > give_up:
            sys.exit(f"{other} never reached canonicalization")
        time.sleep(0.01)
    return state


def announce_waiting(store, key, wait):
    if key.value.endswith("graph/canonical"):
        (meeting / f"waiting-{me}").touch()
    return acquire(store, key, wait)


canonicalizer.read_store_state, lease._acquire = read_then_meet, announce_waiting
code = main(sys.argv[1:])
(meeting / f"done-{me}").touch()
sys.exit(code)
"""


@pytest.fixture(scope="module")
def halves(tmp_path_factory: pytest.TempPathFactory) -> list[list[str]]:
    folder = tmp_path_factory.mktemp("canonical-concurrency-corpus")
    write_corpus(folder, papers=6)
    files = sorted(map(str, folder.glob("synth-*.json")))
    return [files[0::2], files[1::2]]


def ingest(url: str, names_and_files: list[tuple[str, list[str]]], meeting: Path) -> list[int]:
    """One ``claimgraph ingest`` process per entry, all started at once; their exit codes."""
    meeting.mkdir(parents=True)
    children = []
    for name, files in names_and_files:
        other = next((n for n, _ in names_and_files if n != name), "nobody")
        env = {**os.environ, "MEETING": str(meeting), "ME": name, "OTHER": other, "CLAIMGRAPH_EMBEDDER": "hashing"}
        if other == "nobody":
            (meeting / "done-nobody").touch()
        children.append(subprocess.Popen([sys.executable, "-c", CHILD, "--store", url, "ingest", "--no-validate", *files],
                                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
    codes = []
    for child in children:
        _, err = child.communicate()
        assert child.returncode == 0, err[-2000:]
        codes.append(child.returncode)
    return codes


def hubs(url: str) -> dict[tuple[str, frozenset[str]], int]:
    """Each CANON_ node as (type, members), counted: IRIs aside, two stores with equal maps hold the same hubs."""
    store = RemoteStore.from_base_url(url)
    try:
        members: dict[str, set[str]] = defaultdict(set)
        types: dict[str, str] = {}
        for row in store.select(read_named_query("hub-members"), {"canonical": IriScheme().canonical_graph()}):
            members[row["hub"].value].add(row["member"].value)
            types[row["hub"].value] = row["type"].value
        found: dict[tuple[str, frozenset[str]], int] = defaultdict(int)
        for hub, nodes in members.items():
            found[(types[hub], frozenset(nodes))] += 1
        return dict(found)
    finally:
        store.close()


def fresh(url: str, cache: Path) -> None:
    store = RemoteStore.from_base_url(url)
    store.update("DROP ALL")
    store.close()
    os.environ["XDG_CACHE_HOME"] = str(cache)


@pytest.mark.slow
def test_concurrent_ingests_on_a_server_found_the_hubs_of_a_serial_run(oxigraph_server: str, halves: list[list[str]],
                                                                       tmp_path: Path) -> None:
    files = {"a": halves[0], "b": halves[1]}
    serial = []  # either process may take the canonical graph first: both orders are serial results
    for order in ("ab", "ba"):
        fresh(oxigraph_server, tmp_path / f"cache-serial-{order}")
        for name in order:
            ingest(oxigraph_server, [(name, files[name])], tmp_path / f"serial-{order}-{name}")
        serial.append(hubs(oxigraph_server))
    assert sum(serial[0].values()) == sum(serial[1].values()) > 0
    for attempt in range(2):  # each attempt is the racy interleaving: the children meet after reading the hubs
        fresh(oxigraph_server, tmp_path / f"cache-{attempt}")
        ingest(oxigraph_server, [("a", files["a"]), ("b", files["b"])], tmp_path / f"together-{attempt}")
        together = hubs(oxigraph_server)
        assert sum(together.values()) == sum(serial[0].values())
        assert together in serial
        store = RemoteStore.from_base_url(oxigraph_server)
        assert split_hubs(Context(store)) == []
        store.close()
