"""A sentence-transformers model run by ONNX Runtime: same weights, same vectors, less time on CPU.

The ONNX model is built locally from the folder's weights on first use and
cached (``onnx_export``; no PyTorch for BERT encoders such as the default);
texts are tokenized with the folder's own fast tokenizer (truncated at its
``max_seq_length``), sorted by token count so each batch is padded only to its
own longest text, run, pooled as the folder's pooling config says, and put back
in input order. Batches run in parallel, one per core, each on a single
ONNX Runtime thread: for texts of a few dozen tokens the matrices are small,
and splitting each operator across cores (ONNX Runtime's own intra-op threads)
spends more time synchronising than data parallelism does.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from claimgraph.embedding.base import EmbeddingError, bundled_minilm_path, normalize_rows
from claimgraph.embedding.onnx_export import ExportedModel, ensure_exported
from claimgraph.embedding.sentence_model import SentenceModelLayout, read_layout


def available_cores() -> int:
    """CPU cores this process may run on (respects taskset and cgroup affinity where the OS reports it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def pool_tokens(hidden: np.ndarray, mask: np.ndarray, modes: Sequence[str]) -> np.ndarray:
    """Pool (batch, tokens, dim) states over the unmasked tokens, concatenating ``modes`` in order."""
    weights = mask.astype(np.float32)
    parts = []
    for mode in modes:
        if mode == "cls":
            parts.append(hidden[np.arange(len(hidden)), mask.argmax(axis=1)])
        elif mode == "max":
            parts.append(np.where(weights[..., None] > 0, hidden, -np.inf).max(axis=1))
        elif mode in ("mean", "mean_sqrt_len_tokens"):
            sums = np.einsum("btd,bt->bd", hidden, weights)
            counts = np.clip(weights.sum(axis=1, keepdims=True), 1e-9, None)
            parts.append(sums / (counts if mode == "mean" else np.sqrt(counts)))
        else:
            raise EmbeddingError(f"pooling mode {mode!r} is not supported by the ONNX embedder")
    return np.concatenate(parts, axis=1).astype(np.float32)


@dataclass
class _Runtime:
    layout: SentenceModelLayout
    export: ExportedModel
    session: Any
    tokenizer: Any
    inputs: list[str]
    dimension: int


def _open_session(export: ExportedModel, intra_op_threads: int) -> Any:
    """One session, shared by the batch threads when there are several (``run`` is thread-safe
    and releases the GIL)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = intra_op_threads
    # Idle intra-op workers sleep instead of spinning, which on a small shared machine
    # only steals the cores that other processes need.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    try:
        return onnxruntime.InferenceSession(str(export.model_file), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own untyped errors for bad files
        raise EmbeddingError(f"ONNX Runtime cannot load {export.model_file}: {error}; delete the folder "
                             f"{export.folder} so the model is exported again") from error


def _open_tokenizer(layout: SentenceModelLayout) -> Any:
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(str(layout.tokenizer_file))
    except Exception as error:  # tokenizers raises a bare Exception on malformed files
        raise EmbeddingError(f"cannot read the tokenizer {layout.tokenizer_file}: {error}; reinstall the model package") from error
    # The file's own padding/truncation settings are not what sentence-transformers uses:
    # it pads each batch to its longest text and truncates at max_seq_length.
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=layout.max_seq_length, strategy="longest_first")
    return tokenizer


def _hidden_size(layout: SentenceModelLayout) -> int:
    config = json.loads((layout.transformer_dir / "config.json").read_text(encoding="utf-8"))
    return int(config.get("hidden_size") or config.get("dim") or config["d_model"])


class OnnxSentenceEmbedder:
    """A local sentence-transformers folder (default: the bundled all-MiniLM-L6-v2) on ONNX Runtime.

    ``name`` is ``minilm`` for the bundled model: the vectors are those of the
    sentence-transformers embedder of that name up to float rounding (the
    differential test bounds the gap), so caches and sidecars built by either
    remain valid.
    """

    def __init__(self, model_path: str | None = None, batch_size: int = 32, threads: int | None = None,
                 cache_root: Path | None = None, parallel_batches: bool = True) -> None:
        """``threads`` defaults to the cores available; ``parallel_batches=False`` runs one batch
        at a time with ``threads`` intra-op threads instead (slower here; kept for the benchmark)."""
        self.model_path = model_path
        self.batch_size = batch_size
        self.threads = threads or available_cores()
        self.parallel_batches = parallel_batches
        self.cache_root = cache_root
        self.name = "minilm" if model_path is None else f"onnx:{model_path}"

    @cached_property
    def _runtime(self) -> _Runtime:
        try:
            import onnxruntime  # noqa: F401
        except ImportError as error:
            raise EmbeddingError("the ONNX embedder needs onnxruntime: pip install onnxruntime "
                                 "(or use --embedder minilm-st)") from error
        folder = Path(self.model_path or bundled_minilm_path())
        layout = read_layout(folder)
        export = ensure_exported(layout, self.cache_root)
        session = _open_session(export, 1 if self.parallel_batches else self.threads)
        inputs = [item.name for item in session.get_inputs()]
        dimension = _hidden_size(layout) * len(layout.pooling_modes)
        return _Runtime(layout, export, session, _open_tokenizer(layout), inputs, dimension)

    @property
    def export(self) -> ExportedModel:
        """The cached export in use (exporting it now if needed)."""
        return self._runtime.export

    @property
    def dimension(self) -> int:
        return self._runtime.dimension

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        runtime = self._runtime
        if not texts:
            return np.zeros((0, runtime.dimension), dtype=np.float32)
        prepared = [text.lower() for text in texts] if runtime.layout.do_lower_case else list(texts)
        encodings = runtime.tokenizer.encode_batch(prepared)
        order = np.argsort([len(encoding.ids) for encoding in encodings], kind="stable")
        workers = self.threads if self.parallel_batches else 1
        # Small inputs are split so that every worker gets a batch.
        size = max(1, min(self.batch_size, math.ceil(len(order) / workers)))
        batches = [order[start:start + size] for start in range(0, len(order), size)]
        vectors = np.empty((len(texts), runtime.dimension), dtype=np.float32)

        def embed_batch(rows: np.ndarray) -> None:
            arrays = _padded_batch([encodings[row] for row in rows])
            hidden = runtime.session.run(None, {name: arrays[name] for name in runtime.inputs})[0]
            vectors[rows] = pool_tokens(hidden, arrays["attention_mask"], runtime.layout.pooling_modes)

        if workers == 1 or len(batches) == 1:
            for rows in batches:
                embed_batch(rows)
        else:
            with ThreadPoolExecutor(max_workers=min(workers, len(batches))) as pool:
                list(pool.map(embed_batch, batches))
        return normalize_rows(vectors)


def _padded_batch(encodings: list[Any]) -> dict[str, np.ndarray]:
    """input_ids, attention_mask (and token_type_ids) of a batch, right-padded with zeros to its longest row."""
    width = max(len(encoding.ids) for encoding in encodings)
    arrays = {name: np.zeros((len(encodings), width), dtype=np.int64)
              for name in ("input_ids", "attention_mask", "token_type_ids")}
    for row, encoding in enumerate(encodings):
        length = len(encoding.ids)
        arrays["input_ids"][row, :length] = encoding.ids
        arrays["attention_mask"][row, :length] = encoding.attention_mask
        arrays["token_type_ids"][row, :length] = encoding.type_ids
    return arrays
