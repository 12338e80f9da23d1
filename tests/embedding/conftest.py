"""A tiny randomly initialised BERT, written as a sentence-transformers folder with numpy only (no torch)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from claimgraph.embedding.base import bundled_minilm_path

TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json")
TinyModelWriter = Callable[..., Path]


def write_safetensors(path: Path, tensors: dict[str, np.ndarray]) -> None:
    """The safetensors layout: 8-byte little-endian header length, JSON header, raw little-endian bytes."""
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    chunks, offset = [], 0
    for name, array in tensors.items():
        data = np.ascontiguousarray(array).tobytes()
        # uint16 arrays hold bfloat16 bit patterns (numpy has no bfloat16 type).
        dtype = {"float32": "F32", "int64": "I64", "float16": "F16", "uint16": "BF16"}[str(array.dtype)]
        header[name] = {"dtype": dtype, "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    encoded = json.dumps(header).encode("utf-8")
    encoded += b" " * (-len(encoded) % 8)
    path.write_bytes(len(encoded).to_bytes(8, "little") + encoded + b"".join(chunks))


def bert_tensors(config: dict[str, int], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Every tensor ``BertModel`` saves, random normal (std 0.2) weights, LayerNorm gains near 1."""
    hidden, inner = config["hidden_size"], config["intermediate_size"]

    def normal(*shape: int) -> np.ndarray:
        return rng.normal(0.0, 0.2, shape).astype(np.float32)

    def layer_norm(name: str) -> dict[str, np.ndarray]:
        return {f"{name}.weight": 1.0 + normal(hidden) / 4, f"{name}.bias": normal(hidden) / 4}

    tensors = {
        "embeddings.word_embeddings.weight": normal(config["vocab_size"], hidden),
        "embeddings.position_embeddings.weight": normal(config["max_position_embeddings"], hidden),
        "embeddings.token_type_embeddings.weight": normal(config["type_vocab_size"], hidden),
        "embeddings.position_ids": np.arange(config["max_position_embeddings"], dtype=np.int64)[None],
        **layer_norm("embeddings.LayerNorm"),
    }
    shapes = {"attention.self.query": (hidden, hidden), "attention.self.key": (hidden, hidden),
              "attention.self.value": (hidden, hidden), "attention.output.dense": (hidden, hidden),
              "intermediate.dense": (inner, hidden), "output.dense": (hidden, inner)}
    for index in range(config["num_hidden_layers"]):
        prefix = f"encoder.layer.{index}"
        for name, (rows, columns) in shapes.items():
            tensors[f"{prefix}.{name}.weight"] = normal(rows, columns)
            tensors[f"{prefix}.{name}.bias"] = normal(rows)
        tensors.update(layer_norm(f"{prefix}.attention.output.LayerNorm"))
        tensors.update(layer_norm(f"{prefix}.output.LayerNorm"))
    tensors.update({"pooler.dense.weight": normal(hidden, hidden), "pooler.dense.bias": normal(hidden)})
    return tensors


def write_tiny_model(folder: Path, pooling: dict[str, object], max_seq_length: int = 24, seed: int = 0,
                     **overrides: object) -> Path:
    """A 2-layer, 32-wide BERT with MiniLM's tokenizer; ``overrides`` change config.json entries."""
    folder.mkdir(parents=True, exist_ok=True)
    config: dict[str, object] = {
        "architectures": ["BertModel"], "model_type": "bert", "hidden_act": "gelu", "hidden_size": 32,
        "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 64, "vocab_size": 30522,
        "max_position_embeddings": 512, "type_vocab_size": 2, "layer_norm_eps": 1e-12, "pad_token_id": 0,
        "position_embedding_type": "absolute",
    }
    write_safetensors(folder / "model.safetensors", bert_tensors(config, np.random.default_rng(seed)))  # type: ignore[arg-type]
    (folder / "config.json").write_text(json.dumps({**config, **overrides}), encoding="utf-8")
    source = Path(bundled_minilm_path())
    for name in TOKENIZER_FILES:
        shutil.copy(source / name, folder / name)
    modules = [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
    ]
    (folder / "modules.json").write_text(json.dumps(modules), encoding="utf-8")
    (folder / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": max_seq_length, "do_lower_case": False}), encoding="utf-8")
    (folder / "1_Pooling").mkdir(exist_ok=True)
    (folder / "1_Pooling" / "config.json").write_text(json.dumps({"word_embedding_dimension": 32, **pooling}), encoding="utf-8")
    return folder


MEAN = {"pooling_mode_mean_tokens": True}


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_model(tmp_path_factory.mktemp("tiny-mean") / "model", MEAN)


@pytest.fixture(scope="session")
def tiny_model_writer() -> TinyModelWriter:
    """``write_tiny_model(folder, pooling, max_seq_length=24, seed=0, **config_overrides)``."""
    return write_tiny_model


@pytest.fixture(scope="session")
def safetensors_writer() -> Callable[[Path, dict[str, np.ndarray]], None]:
    return write_safetensors
