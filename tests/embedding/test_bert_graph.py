"""The torch-free ONNX graph builder: what it refuses, how it reads weights, and that the default path never imports torch."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from claimgraph.embedding import onnx_export
from claimgraph.embedding.base import EmbeddingError, bundled_minilm_path
from claimgraph.embedding.bert_graph import build_bert_model
from claimgraph.embedding.embedders import SentenceTransformerEmbedder
from claimgraph.embedding.onnx_embedder import OnnxSentenceEmbedder
from claimgraph.embedding.safetensors_numpy import read_safetensors
from claimgraph.embedding.sentence_model import read_layout

MEAN = {"pooling_mode_mean_tokens": True}
HEAVY_MODULES = ("torch", "transformers", "sentence_transformers")
# Imports the ONNX embedder, then embeds with the default embedder into an empty model cache (so the
# graph is built in this process), and prints the heavy modules loaded after each step.
CHILD = """
import sys
heavy = {heavy!r}
import claimgraph.embedding.onnx_embedder
print(sorted(name for name in heavy if name in sys.modules))
from claimgraph.embedding.embedders import make_embedder
embedder = make_embedder()
vectors = embedder.embed(["soil carbon rose under no-till", "a longer text about warming and microbial biomass"])
print(type(embedder).__name__, vectors.shape, embedder.export.exported_seconds > 0)
print(sorted(name for name in heavy if name in sys.modules))
"""


def test_the_default_embedder_builds_and_embeds_without_importing_torch(tmp_path):
    environment = {**os.environ, "CLAIMGRAPH_MODEL_CACHE": str(tmp_path / "models"), "HF_HUB_OFFLINE": "1"}
    child = subprocess.run([sys.executable, "-c", CHILD.format(heavy=HEAVY_MODULES)], env=environment,
                           capture_output=True, text=True, timeout=600, check=False)
    assert child.returncode == 0, child.stderr
    after_import, embedded, after_embedding = child.stdout.splitlines()
    assert after_import == "[]"
    assert embedded == "OnnxSentenceEmbedder (2, 384) True"
    assert after_embedding == "[]"
    [folder] = [path for path in (tmp_path / "models").iterdir() if path.is_dir()]
    manifest = json.loads((folder / onnx_export.MANIFEST_FILE).read_text(encoding="utf-8"))
    assert folder.name.endswith(onnx_export.EXPORT_RECIPE) and manifest["recipe"] == onnx_export.EXPORT_RECIPE


@pytest.mark.parametrize(("override", "reason"), [
    ({"model_type": "roberta"}, "model_type is 'roberta'"),
    ({"hidden_act": "gelu_new"}, "hidden_act is 'gelu_new'"),
    ({"position_embedding_type": "relative_key"}, "position_embedding_type"),
    ({"num_attention_heads": 3}, "not a multiple"),
    ({"is_decoder": True}, "decoder"),
    ({"num_hidden_layers": None}, "num_hidden_layers"),
])
def test_configs_the_graph_cannot_reproduce_are_refused_with_the_reason(tmp_path, tiny_model_writer, override, reason):
    folder = tiny_model_writer(tmp_path / "model", MEAN, **override)
    with pytest.raises(EmbeddingError, match=reason):
        build_bert_model(folder)


def test_weights_that_do_not_match_the_config_name_the_tensor(tmp_path, tiny_model_writer):
    folder = tiny_model_writer(tmp_path / "model", MEAN, intermediate_size=48)
    with pytest.raises(EmbeddingError, match=r"encoder\.layer\.0\.intermediate\.dense\.weight is of shape \[64, 32\]"):
        build_bert_model(folder)


def test_a_model_the_graph_cannot_build_asks_for_the_torch_extra_when_torch_is_absent(tmp_path, tiny_model_writer, monkeypatch):
    folder = tiny_model_writer(tmp_path / "model", MEAN, hidden_act="relu")
    for name in ("torch", "transformers"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(EmbeddingError, match=r"hidden_act is 'relu'.*pip install 'claimgraph\[torch\]'"):
        onnx_export.ensure_exported(read_layout(folder), tmp_path / "cache")
    assert not (tmp_path / "cache").exists()


def test_a_model_the_graph_cannot_build_is_exported_by_torch(tmp_path, tiny_model_writer):
    for module in ("torch", "sentence_transformers"):
        pytest.importorskip(module, reason="the torch export needs the torch extra: pip install 'claimgraph[torch]'")
    folder = tiny_model_writer(tmp_path / "model", MEAN, hidden_act="relu")
    export = onnx_export.ensure_exported(read_layout(folder), tmp_path / "cache")
    assert export.folder.name.endswith(onnx_export.TORCH_EXPORT_RECIPE)
    texts = ["short", "a somewhat longer text that needs padding in its batch"]
    vectors = OnnxSentenceEmbedder(str(folder), cache_root=tmp_path / "cache").embed(texts)
    assert np.abs(vectors - SentenceTransformerEmbedder(str(folder)).embed(texts)).max() < 1e-4


def test_the_reader_gives_what_the_safetensors_package_gives_on_the_bundled_model():
    safetensors_numpy = pytest.importorskip("safetensors.numpy", reason="the safetensors package is not installed")
    path = Path(bundled_minilm_path()) / "model.safetensors"
    ours, theirs = read_safetensors(path), safetensors_numpy.load_file(str(path))
    assert ours.keys() == theirs.keys()
    for name, array in theirs.items():
        assert ours[name].dtype == array.dtype and np.array_equal(ours[name], array), name


def test_half_precision_weights_are_widened_to_float32(tmp_path, safetensors_writer):
    values = np.array([[1.5, -2.0], [0.15625, 3.0]], dtype=np.float32)
    bfloat16_bits = (values.view(np.uint32) >> 16).astype(np.uint16)
    safetensors_writer(tmp_path / "w.safetensors", {"half": values.astype(np.float16), "brain": bfloat16_bits})
    read = read_safetensors(tmp_path / "w.safetensors")
    for name in ("half", "brain"):
        assert read[name].dtype == np.float32 and np.array_equal(read[name], values), name


@pytest.mark.parametrize("damage", ["truncate", "header-length", "header-json", "offsets"])
def test_damaged_weight_files_are_refused_naming_the_file(tmp_path, safetensors_writer, damage):
    path = tmp_path / "w.safetensors"
    safetensors_writer(path, {"a": np.ones((4, 4), np.float32)})
    data = bytearray(path.read_bytes())
    if damage == "truncate":
        data = data[:-8]
    elif damage == "header-length":
        data[:8] = (10**9).to_bytes(8, "little")
    elif damage == "header-json":
        data[8] = ord("[")
    else:
        data = data.replace(b'"data_offsets": [0, 64]', b'"data_offsets": [0, 60]')
    path.write_bytes(bytes(data))
    with pytest.raises(EmbeddingError, match=rf"{path.name} is not a readable safetensors file.*reinstall"):
        read_safetensors(path)
