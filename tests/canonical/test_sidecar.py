"""The sidecar: rebuildable from the store, atomic files, corruption and staleness detected; embedders; CLI."""

from __future__ import annotations

import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from claimgraph.canonical.canonicalizer import Canonicalizer, canonicalize_papers, reindex
from claimgraph.canonical.embeddings import EmbeddingError, HashingEmbedder, OpenAIEmbedder, make_embedder
from claimgraph.canonical.sidecar import IDMAP_FILE, INDEX_FILE, EmbeddingCache, Sidecar, default_sidecar_dir
from claimgraph.cli.main import main
from claimgraph.rdf.vocab import CG
from claimgraph.papers.storage import store_document
from claimgraph.context import Context


def snapshot(sidecar: Sidecar) -> dict[str, dict[str, tuple[np.ndarray, float, tuple[str, ...]]]]:
    return {name: {iri: (vector, weight, graphs) for iri, vector, weight, graphs in partition.live_items()}
            for name, partition in sidecar.partitions.items() if len(partition)}


def assert_same(left: Sidecar, right: Sidecar) -> None:
    a, b = snapshot(left), snapshot(right)
    assert {name: sorted(rows) for name, rows in a.items()} == {name: sorted(rows) for name, rows in b.items()}
    for name, rows in a.items():
        for iri, (vector, weight, graphs) in rows.items():
            np.testing.assert_allclose(vector, b[name][iri][0], atol=1e-5)
            assert weight == pytest.approx(b[name][iri][1]) and graphs == b[name][iri][2]


@pytest.fixture
def canonicalized_store(store, iris, canon_documents, discourse_paper, tmp_path: Path):
    """Two ARCHE papers plus two crafted papers with a factor merge, canonicalized with the hashing embedder."""
    for document in canon_documents:
        store_document(store, iris, document)
    store.replace_graph(iris.paper("a"), discourse_paper(iris, "a", {"s": ("tobacco smoking", 0.9)}))
    store.replace_graph(iris.paper("b"), discourse_paper(iris, "b", {"s": ("tobacco smoking", 0.4)}))
    papers = [document.paper_id for document in canon_documents] + ["a", "b"]
    canonicalize_papers(Context(store, iris), papers, sidecar_dir=tmp_path / "side", embedder=HashingEmbedder())
    return store


def open_again(store, iris, tmp_path: Path) -> Canonicalizer:
    return Canonicalizer(Context(store, iris), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder())


def test_a_saved_sidecar_matching_the_store_is_used_as_is(canonicalized_store, iris, tmp_path: Path) -> None:
    reopened = open_again(canonicalized_store, iris, tmp_path)
    assert reopened.summary.rebuilt is None
    assert len(reopened.sidecar.covered) == 4


def test_reindex_after_deleting_the_sidecar_gives_identical_results(canonicalized_store, iris, tmp_path: Path) -> None:
    before = open_again(canonicalized_store, iris, tmp_path).sidecar
    shutil.rmtree(tmp_path / "side")
    summary = reindex(Context(canonicalized_store, iris), sidecar_dir=tmp_path / "side", embedder=HashingEmbedder())
    assert summary.covered == 4 and summary.partitions[f"merge {CG.Factor.value}"] == 1
    after = open_again(canonicalized_store, iris, tmp_path)
    assert after.summary.rebuilt is None
    assert_same(before, after.sidecar)
    query = HashingEmbedder().embed(["tobacco smoking"])
    assert before.search("merge", CG.Factor.value, query, 3) == after.sidecar.search("merge", CG.Factor.value, query, 3)


@pytest.mark.parametrize("damage", ["index", "idmap", "truncate"])
def test_a_corrupted_sidecar_is_detected_and_rebuilt(canonicalized_store, iris, tmp_path: Path, damage: str) -> None:
    before = open_again(canonicalized_store, iris, tmp_path).sidecar
    side = tmp_path / "side"
    if damage == "index":
        data = bytearray((side / INDEX_FILE).read_bytes())
        data[len(data) // 2] ^= 0xFF
        (side / INDEX_FILE).write_bytes(bytes(data))
    elif damage == "idmap":
        (side / IDMAP_FILE).write_text("{not json", encoding="utf-8")
    else:
        (side / INDEX_FILE).write_bytes((side / INDEX_FILE).read_bytes()[:100])
    reopened = open_again(canonicalized_store, iris, tmp_path)
    assert reopened.summary.rebuilt and ("does not match" in reopened.summary.rebuilt or "unreadable" in reopened.summary.rebuilt)
    assert_same(before, reopened.sidecar)


def test_a_stale_sidecar_is_rebuilt_and_never_returns_a_node_the_store_lacks(canonicalized_store, iris, canon_documents, tmp_path: Path) -> None:
    dropped = canon_documents[1].paper_id
    canonicalized_store.drop_graphs([iris.paper(dropped), iris.audit_graph(dropped)])
    reopened = open_again(canonicalized_store, iris, tmp_path)
    assert reopened.summary.rebuilt.startswith("stale")
    prefix = iris.paper(dropped).value + "/"
    for partition in reopened.sidecar.partitions.values():
        assert not [iri for iri, *_ in partition.live_items() if iri.startswith(prefix)]
        assert not [graph for *_, graphs in partition.live_items() for graph in graphs if graph == iris.paper(dropped).value]


def test_a_retired_row_is_never_returned_and_compaction_keeps_search_exact() -> None:
    from claimgraph.canonical.sidecar import Partition

    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(1500, 16)).astype(np.float32)
    partition = Partition("merge test", 16)
    partition.add_many([f"n{i}" for i in range(1500)], vectors, [1.0] * 1500, [["g"]] * 1500)
    for i in range(1500):
        if i % 3:
            partition.retire(f"n{i}")
    hits = partition.search(vectors[1], 10)
    assert len(hits) == 10 and all(int(hit.iri[1:]) % 3 == 0 for hit in hits)
    assert [hit.iri for hit in hits] == [hit.iri for hit in partition.exact_search(vectors[1], 10)]
    partition.add("n1", vectors[1])  # 1501 rows, 501 alive: dead rows outnumber live ones twice, compacted
    assert partition.rows == len(partition) == 501
    assert partition.search(vectors[1], 1)[0].iri == "n1"


def test_embedding_cache_embeds_each_text_once_and_survives_a_reopen(tmp_path: Path) -> None:
    cache = EmbeddingCache(HashingEmbedder(), tmp_path)
    first = cache.embed(["a b", "c d", "a b"])
    assert cache.computed == 2
    cache.save()
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
    assert (values["merged"], values["hubs"], values["attached to a hub"], values["cross-paper components"]) == ("1", "1", "2", "1")
