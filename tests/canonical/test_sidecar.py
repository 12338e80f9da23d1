"""The sidecar: rebuildable from the store, saved incrementally, corruption and staleness detected,
a killed run resumed; embedders; CLI."""

from __future__ import annotations

import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from claimgraph.canonical.canonicalizer import Canonicalizer, canonicalize_papers, reindex
from claimgraph.canonical.index.embedding_cache import EmbeddingCache
from claimgraph.canonical.index.partition import Partition
from claimgraph.canonical.links.state import read_store_state
from claimgraph.canonical.sidecar import IDMAP_FILE, PARTITIONS_DIR, Sidecar, default_sidecar_dir
from claimgraph.cli.main import main
from claimgraph.context import Context
from claimgraph.embedding.base import EmbeddingError
from claimgraph.embedding.embedders import HashingEmbedder, OpenAIEmbedder, make_embedder
from claimgraph.papers.storage import store_document
from claimgraph.rdf.vocab import CG


def snapshot(sidecar: Sidecar) -> dict[str, dict[str, tuple[np.ndarray, tuple[str, ...]]]]:
    return {name: {iri: (vector, graphs) for iri, vector, graphs in partition.live_items()}
            for name, partition in sidecar.partitions.items() if len(partition)}


def assert_same(left: Sidecar, right: Sidecar) -> None:
    a, b = snapshot(left), snapshot(right)
    assert {name: sorted(rows) for name, rows in a.items()} == {name: sorted(rows) for name, rows in b.items()}
    for name, rows in a.items():
        for iri, (vector, graphs) in rows.items():
            np.testing.assert_allclose(vector, b[name][iri][0], atol=1e-5)
            assert graphs == b[name][iri][1]


@pytest.fixture
def canonicalized_store(store, iris, synthetic_documents, discourse_paper, tmp_path: Path):
    """Two synthetic ARCHE papers plus two crafted papers with a factor merge, canonicalized with the hashing embedder."""
    for document in synthetic_documents[:2]:
        store_document(store, iris, document)
    store.replace_graph(iris.paper("a"), discourse_paper(iris, "a", {"s": ("tobacco smoking", 0.9)}))
    store.replace_graph(iris.paper("b"), discourse_paper(iris, "b", {"s": ("tobacco smoking", 0.4)}))
    papers = [document.paper_id for document in synthetic_documents[:2]] + ["a", "b"]
    canonicalize_papers(Context(store, iris), papers, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder())
    return store


def open_again(store, iris, tmp_path: Path) -> Canonicalizer:
    return Canonicalizer(Context(store, iris), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder())


def test_a_saved_sidecar_matching_the_store_is_used_as_is(canonicalized_store, iris, tmp_path: Path) -> None:
    reopened = open_again(canonicalized_store, iris, tmp_path)
    assert reopened.summary.rebuilt is None
    assert len(reopened.sidecar.covered) == 4


def test_the_kept_up_fingerprint_equals_the_one_read_from_the_store(canonicalized_store, iris, tmp_path: Path) -> None:
    canonicalizer = open_again(canonicalized_store, iris, tmp_path)
    assert canonicalizer.fingerprint.hex() == read_store_state(canonicalized_store, iris, canonicalizer.policies).fingerprint


def test_reindex_after_deleting_the_sidecar_gives_identical_results(canonicalized_store, iris, tmp_path: Path) -> None:
    before = open_again(canonicalized_store, iris, tmp_path).sidecar
    shutil.rmtree(tmp_path / "side")
    summary = reindex(Context(canonicalized_store, iris), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder())
    assert summary.covered == 4 and summary.partitions[f"hub {CG.Factor.value}"] == 1
    after = open_again(canonicalized_store, iris, tmp_path)
    assert after.summary.rebuilt is None
    assert_same(before, after.sidecar)
    query = HashingEmbedder().embed(["tobacco smoking"])
    assert before.search("hub", CG.Factor.value, query, 3) == after.sidecar.search("hub", CG.Factor.value, query, 3)


@pytest.mark.parametrize("damage", ["segment", "idmap", "truncate", "missing"])
def test_a_corrupted_sidecar_is_detected_and_rebuilt(canonicalized_store, iris, tmp_path: Path, damage: str) -> None:
    before = open_again(canonicalized_store, iris, tmp_path).sidecar
    side = tmp_path / "side"
    segment = sorted((side / PARTITIONS_DIR).glob("*/*-rows-*.npz"))[0]
    if damage == "segment":
        data = bytearray(segment.read_bytes())
        data[len(data) // 2] ^= 0xFF
        segment.write_bytes(bytes(data))
    elif damage == "idmap":
        (side / IDMAP_FILE).write_text("{not json", encoding="utf-8")
    elif damage == "truncate":
        segment.write_bytes(segment.read_bytes()[:100])
    else:
        segment.unlink()
    reopened = open_again(canonicalized_store, iris, tmp_path)
    assert reopened.summary.rebuilt and ("does not match" in reopened.summary.rebuilt or "unreadable" in reopened.summary.rebuilt)
    assert_same(before, reopened.sidecar)


def test_a_stale_sidecar_is_rebuilt_and_never_returns_a_node_the_store_lacks(canonicalized_store, iris, synthetic_documents, tmp_path: Path) -> None:
    dropped = synthetic_documents[1].paper_id
    canonicalized_store.drop_graphs([iris.paper(dropped), iris.audit_graph(dropped)])
    reopened = open_again(canonicalized_store, iris, tmp_path)
    assert reopened.summary.rebuilt.startswith("stale")
    prefix = iris.paper(dropped).value + "/"
    for partition in reopened.sidecar.partitions.values():
        assert not [iri for iri, *_ in partition.live_items() if iri.startswith(prefix)]


def test_a_save_writes_only_the_rows_added_since_the_last_one(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    sidecar = Sidecar(tmp_path, "hashing:16", 16)
    partition = sidecar.partition("pending", CG.Claim.value)
    partition.add_many([f"n{i}" for i in range(100)], rng.normal(size=(100, 16)), [["g"]] * 100)
    sidecar.save("one")
    folder = next((tmp_path / PARTITIONS_DIR).iterdir())
    first = {path.name: path.stat().st_mtime_ns for path in folder.glob("*-rows-*")}
    partition.add_many([f"m{i}" for i in range(10)], rng.normal(size=(10, 16)), [["h"]] * 10)
    partition.retire("n3")
    sidecar.save("two")
    rows = sorted(folder.glob("*-rows-*"))
    assert len(rows) == 2 and {name: mtime for name, mtime in first.items()} == {rows[0].name: rows[0].stat().st_mtime_ns}
    with np.load(rows[1]) as data:
        assert list(data["iris"]) == [f"m{i}" for i in range(10)]
    loaded = Sidecar.load(tmp_path, "hashing:16", 16)
    assert loaded.fingerprint == "two" and len(loaded.partitions[partition.name]) == 109 and "n3" not in loaded.partitions[partition.name]


def test_a_snapshot_plus_the_rows_after_it_give_the_same_search(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    vectors = rng.normal(size=(2600, 16)).astype(np.float32)
    sidecar = Sidecar(tmp_path, "hashing:16", 16)
    partition = sidecar.partition("hub", CG.Claim.value)
    partition.add_many([f"n{i}" for i in range(2100)], vectors[:2100], [[]] * 2100)
    sidecar.save("a")  # 2,100 rows: past the minimum tail, so an HNSW snapshot is written
    partition.add_many([f"n{i}" for i in range(2100, 2600)], vectors[2100:], [[]] * 500)
    sidecar.save("b")  # 500 rows after the snapshot: a segment, no new snapshot
    folder = next((tmp_path / PARTITIONS_DIR).iterdir())
    assert [path.name.split("-hnsw-")[1] for path in folder.glob("*-hnsw-*")] == ["0000002100.faiss"]
    loaded = Sidecar.load(tmp_path, "hashing:16", 16).partitions[partition.name]
    for query in vectors[::97]:
        assert [hit.iri for hit in loaded.exact_search(query, 5)] == [hit.iri for hit in partition.exact_search(query, 5)]
        assert {hit.iri for hit in loaded.search(query, 5, 128)} & {hit.iri for hit in partition.exact_search(query, 5)}


def test_a_killed_run_resumes_where_it_stopped(store, iris, discourse_paper, tmp_path: Path) -> None:
    papers = ["p1", "p2", "p3", "p4"]
    for number, paper in enumerate(papers):
        store.replace_graph(iris.paper(paper), discourse_paper(iris, paper, {}, claims=[("1", f"claim number {number} about soil", None)]))

    class Killed(Exception):
        pass

    def kill_after_two(paper_id: str, _plan: object) -> None:
        if paper_id == "p2":
            raise Killed

    with pytest.raises(Killed):
        canonicalize_papers(Context(store, iris), papers, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder(),
                            on_paper=kill_after_two, checkpoint_seconds=0)
    again = canonicalize_papers(Context(store, iris), papers, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder())
    assert again.rebuilt is None and again.skipped == ["p1", "p2"] and again.papers == ["p3", "p4"]
    assert again.embedded == 0  # every text was embedded (and flushed) before the first paper was placed


def test_embedding_cache_flushes_chunks_so_an_interrupted_embedding_keeps_its_work(tmp_path: Path, monkeypatch) -> None:
    import claimgraph.canonical.index.embedding_cache as module

    monkeypatch.setattr(module, "CHUNK", 3)
    calls: list[int] = []

    class FailingSecondTime(HashingEmbedder):
        def embed(self, texts):
            calls.append(len(texts))
            if len(calls) == 3:
                raise RuntimeError("killed")
            return super().embed(texts)

    cache = EmbeddingCache(FailingSecondTime(), tmp_path)
    with pytest.raises(RuntimeError):
        cache.embed([f"text {i}" for i in range(9)])
    resumed = EmbeddingCache(HashingEmbedder(), tmp_path)
    assert len(resumed) == 6 and resumed.missing([f"text {i}" for i in range(9)]) == ["text 6", "text 7", "text 8"]


def test_a_retired_row_is_never_returned_and_compaction_keeps_search_exact() -> None:
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(1500, 16)).astype(np.float32)
    partition = Partition("pending test", 16)
    partition.add_many([f"n{i}" for i in range(1500)], vectors, [["g"]] * 1500)
    for i in range(1500):
        if i % 3:
            partition.retire(f"n{i}")
    hits = partition.search(vectors[1], 10)
    assert len(hits) == 10 and all(int(hit.iri[1:]) % 3 == 0 for hit in hits)
    assert [hit.iri for hit in hits] == [hit.iri for hit in partition.exact_search(vectors[1], 10)]
    partition.add("n1", vectors[1])  # 1501 rows, 501 alive: dead rows outnumber live ones twice, compacted
    assert partition.rows == len(partition) == 501 and partition.generation == 1
    assert partition.search(vectors[1], 1)[0].iri == "n1"


def test_embedding_cache_embeds_each_text_once_and_survives_a_reopen(tmp_path: Path) -> None:
    cache = EmbeddingCache(HashingEmbedder(), tmp_path)
    first = cache.embed(["a b", "c d", "a b"])
    assert cache.computed == 2
    cache.flush()
    again = EmbeddingCache(HashingEmbedder(), tmp_path)
    np.testing.assert_array_equal(again.embed(["c d", "a b"]), first[[1, 0]])
    assert again.computed == 0


def test_sidecar_lives_next_to_an_embedded_store_and_in_a_cache_folder_for_a_url(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("CLAIMGRAPH_SIDECAR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert default_sidecar_dir(str(tmp_path / "store")) == tmp_path / "store.sidecar"
    remote = default_sidecar_dir("http://127.0.0.1:7878")
    assert remote.parent == tmp_path / "cache" / "claimgraph" / "sidecar" and remote.name.startswith("127.0.0.1-7878-")
    assert default_sidecar_dir(":memory:") is None


def test_embedder_specs() -> None:
    assert make_embedder("hashing:64").dimension == 64
    assert make_embedder("openai:text-embedding-3-small").name == "openai:text-embedding-3-small"
    with pytest.raises(EmbeddingError, match="unknown embedder"):
        make_embedder("word2vec")


def test_openai_compatible_embeddings_endpoint() -> None:
    calls: list[list[str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            calls.append(body["input"])
            data = [{"object": "embedding", "index": i, "embedding": [float(len(text)), 1.0, 0.0]} for i, text in enumerate(body["input"])]
            payload = json.dumps({"object": "list", "data": data[::-1], "model": body["model"],
                                  "usage": {"prompt_tokens": 1, "total_tokens": 1}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        embedder = OpenAIEmbedder("fake", base_url=f"http://127.0.0.1:{server.server_port}/v1", api_key="k", batch_size=2)
        vectors = embedder.embed(["a", "bbb", "cc"])
    finally:
        server.shutdown()
    assert calls == [["a", "bbb"], ["cc"]] and embedder.dimension == 3
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-6)
    assert vectors[1, 0] > vectors[0, 0]  # rows come back in input order whatever the server's order


def test_cli_canonicalize_reindex_stats_and_merges(tmp_path: Path, iris, discourse_paper, capsys) -> None:
    from claimgraph.store import EmbeddedStore

    location = tmp_path / "store"
    with EmbeddedStore(location) as store:
        store.replace_graph(iris.paper("a"), discourse_paper(iris, "a", {"s": ("tobacco smoking", 0.9)}, claims=[("1", "smoking kills", None)]))
        store.replace_graph(iris.paper("b"), discourse_paper(iris, "b", {"s": ("tobacco smoking", 0.4)}, claims=[("1", "smoking kills", None)]))
    base = ["--store", str(location)]
    assert main([*base, "canonicalize", "--embedder", "hashing"]) == 0
    assert (tmp_path / "store.sidecar" / IDMAP_FILE).is_file()
    assert main([*base, "canonicalize", "--list-merges", "--embedder", "hashing", "--format", "csv"]) == 0
    merges = capsys.readouterr().out
    assert iris.node("b", "factor", "s").value in merges and iris.node("a", "factor", "s").value in merges
    assert main([*base, "stats", "--convergence", "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)["results"]["bindings"]
    assert main([*base, "reindex", "--embedder", "hashing"]) == 0
    values = {row["measure"]["value"]: row["value"]["value"] for row in stats}
    assert (values["merged"], values["hubs"], values["attached to a hub"], values["cross-paper components"]) == ("2", "2", "2", "1")


def test_embedding_cache_saves_every_chunk_of_128_texts_so_a_killed_run_loses_at_most_one(tmp_path: Path) -> None:
    from claimgraph.canonical.index.embedding_cache import CHUNK

    texts = [f"text number {i}" for i in range(300)]

    class KilledAfterTwoChunks(HashingEmbedder):
        done = 0

        def embed(self, batch):
            if self.done >= 2 * CHUNK:
                raise RuntimeError("killed")
            self.done += len(batch)
            return super().embed(batch)

    assert CHUNK <= 128
    with pytest.raises(RuntimeError):
        EmbeddingCache(KilledAfterTwoChunks(), tmp_path).embed(texts)
    resumed = EmbeddingCache(HashingEmbedder(), tmp_path)
    assert len(resumed) == 2 * CHUNK and resumed.missing(texts) == texts[2 * CHUNK:]
    assert not list((tmp_path).rglob(".shard-*")), "no temporary file is left behind"
