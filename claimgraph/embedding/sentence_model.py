"""What a sentence-transformers model folder says about its pipeline, read from its own files.

An exported copy of a model must tokenize, truncate, pool and normalize exactly
as sentence-transformers would, so nothing here is assumed: ``modules.json``
names the modules, ``sentence_bert_config.json`` the maximum sequence length and
lower-casing, the pooling folder's ``config.json`` the pooling modes. Folders
with modules we cannot reproduce (Dense layers, custom code) are refused.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from claimgraph.embedding.base import EmbeddingError

SUPPORTED_POOLING = ("cls", "max", "mean", "mean_sqrt_len_tokens")
# The order sentence-transformers concatenates legacy boolean pooling modes in.
LEGACY_POOLING_KEYS = {
    "pooling_mode_cls_token": "cls",
    "pooling_mode_max_tokens": "max",
    "pooling_mode_mean_tokens": "mean",
    "pooling_mode_mean_sqrt_len_tokens": "mean_sqrt_len_tokens",
    "pooling_mode_weightedmean_tokens": "weightedmean",
    "pooling_mode_lasttoken": "lasttoken",
}
_HASH_CHUNK = 1 << 20
PROBE_TEXTS = ("a short probe", "a longer probe sentence, so that the batch needs padding on the first row")


@dataclass(frozen=True)
class SentenceModelLayout:
    """The parts of a sentence-transformers folder an exported model needs."""

    folder: Path
    transformer_dir: Path
    max_seq_length: int
    do_lower_case: bool
    pooling_modes: tuple[str, ...]
    normalize: bool

    @property
    def tokenizer_file(self) -> Path:
        return self.transformer_dir / "tokenizer.json"


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise EmbeddingError(f"{path} is missing; the model folder {path.parent} is incomplete (reinstall the model package)") from error
    except (OSError, ValueError) as error:
        raise EmbeddingError(f"{path} cannot be read as JSON: {error}; reinstall the model package") from error


def _module_kind(entry: dict[str, Any]) -> str:
    """``Transformer``, ``Pooling``, ``Normalize``... from a modules.json ``type`` in any ST version."""
    return str(entry.get("type", "")).rsplit(".", 1)[-1]


def pooling_modes(config: dict[str, Any], path: Path) -> tuple[str, ...]:
    """The pooling modes a pooling config enables, in the order sentence-transformers concatenates them."""
    if "pooling_mode" in config:
        declared = config["pooling_mode"]
        modes = (declared,) if isinstance(declared, str) else tuple(declared)
    else:
        modes = tuple(mode for key, mode in LEGACY_POOLING_KEYS.items() if config.get(key)) or ("mean",)
    unsupported = [mode for mode in modes if mode not in SUPPORTED_POOLING]
    if unsupported or not modes:
        raise EmbeddingError(f"{path}: pooling {list(modes)} is not supported by the ONNX embedder "
                             f"(supported: {', '.join(SUPPORTED_POOLING)}); use the sentence-transformers embedder (st:PATH)")
    return modes


def _max_seq_length(transformer_dir: Path) -> int:
    """sentence_bert_config's max_seq_length, else the smaller of the tokenizer's and the model's limit."""
    settings_path = transformer_dir / "sentence_bert_config.json"
    if settings_path.is_file():
        settings = _read_json(settings_path)
        if settings.get("max_seq_length"):
            return int(settings["max_seq_length"])
    limits = [int(_read_json(transformer_dir / "config.json").get("max_position_embeddings", 512))]
    tokenizer_config = transformer_dir / "tokenizer_config.json"
    if tokenizer_config.is_file():
        limit = _read_json(tokenizer_config).get("model_max_length")
        if isinstance(limit, int) and limit < 10**6:
            limits.append(limit)
    return min(limits)


def read_layout(folder: Path) -> SentenceModelLayout:
    """The layout of the sentence-transformers model in ``folder``; EmbeddingError when we cannot reproduce it."""
    modules_path = folder / "modules.json"
    modules = _read_json(modules_path)
    kinds = [_module_kind(entry) for entry in modules]
    extra = [kind for kind in kinds if kind not in ("Transformer", "Pooling", "Normalize")]
    if kinds[:2] != ["Transformer", "Pooling"] or extra:
        raise EmbeddingError(f"{modules_path}: modules {kinds} are not Transformer, Pooling[, Normalize]; "
                             "the ONNX embedder cannot reproduce them, use the sentence-transformers embedder (st:PATH)")
    transformer_dir = folder / str(modules[0].get("path", ""))
    pooling_path = folder / str(modules[1].get("path", "")) / "config.json"
    settings_path = transformer_dir / "sentence_bert_config.json"
    settings = _read_json(settings_path) if settings_path.is_file() else {}
    layout = SentenceModelLayout(
        folder=folder,
        transformer_dir=transformer_dir,
        max_seq_length=_max_seq_length(transformer_dir),
        do_lower_case=bool(settings.get("do_lower_case", False)),
        pooling_modes=pooling_modes(_read_json(pooling_path), pooling_path),
        normalize="Normalize" in kinds,
    )
    if not layout.tokenizer_file.is_file():
        raise EmbeddingError(f"{layout.tokenizer_file} is missing: the ONNX embedder needs a fast tokenizer file; "
                             "use the sentence-transformers embedder (st:PATH) for this model")
    return layout


def source_files(folder: Path) -> list[Path]:
    """Every file of the model folder that can change its output (documentation excluded), sorted."""
    return sorted(path for path in folder.rglob("*")
                  if path.is_file() and path.name not in ("README.md", ".gitattributes"))


def source_fingerprint(folder: Path) -> str:
    """SHA-256 over the names and contents of the folder's model files: changes whenever the model does."""
    digest = hashlib.sha256()
    for path in source_files(folder):
        digest.update(f"{path.relative_to(folder).as_posix()}\0{path.stat().st_size}\0".encode())
        with path.open("rb") as stream:
            for chunk in iter(lambda: stream.read(_HASH_CHUNK), b""):
                digest.update(chunk)
    return digest.hexdigest()


def probe_batch(layout: SentenceModelLayout, names: list[str]) -> dict[str, np.ndarray]:
    """Two tokenized texts of different lengths, right-padded: checks an exported graph on real tokens."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(layout.tokenizer_file))
    tokenizer.enable_padding()
    encodings = tokenizer.encode_batch(list(PROBE_TEXTS))
    arrays = {
        "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
        "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
        "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
    }
    return {name: arrays[name] for name in names}
