"""Export a local sentence-transformers model to ONNX once, into an on-disk cache shared by processes.

The cache folder is ``<root>/<fingerprint>-<recipe>/`` where the fingerprint is the
SHA-256 of the source model files (see ``sentence_model.source_fingerprint``), so
a changed model package gets a fresh export, and the recipe names this export
code (bump ``EXPORT_RECIPE`` when it changes). ``<root>`` is
``$CLAIMGRAPH_MODEL_CACHE``, else ``$XDG_CACHE_HOME/claimgraph/models``, else
``~/.cache/claimgraph/models``.

Two processes using a model for the first time at once: a file lock
(``<folder>.lock``) lets one export while the other waits and then reuses the
result; the export itself is written to a temporary folder and renamed into
place, so a reader never sees half a model, and where locks are unavailable the
first complete rename wins and the loser discards its identical copy.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from claimgraph.canonical.embeddings import EmbeddingError
from claimgraph.canonical.sentence_model import SentenceModelLayout, source_fingerprint

EXPORT_RECIPE = "onnx-v1"
MODEL_FILE = "model.onnx"
MANIFEST_FILE = "export.json"
OPSET = 17
# Largest difference allowed between the exported graph and PyTorch on the probe batch.
PROBE_TOLERANCE = 1e-3
PROBE_TEXTS = ("a short probe", "a longer probe sentence, so that the batch needs padding on the first row")
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ExportedModel:
    """An ONNX model in the cache; ``exported_seconds`` is 0 when it was already there."""

    folder: Path
    fingerprint: str
    exported_seconds: float

    @property
    def model_file(self) -> Path:
        return self.folder / MODEL_FILE


def model_cache_root() -> Path:
    """Where exported models are cached (see the module docstring)."""
    override = os.environ.get("CLAIMGRAPH_MODEL_CACHE")
    if override:
        return Path(override)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "claimgraph" / "models"


def cache_folder(root: Path, fingerprint: str) -> Path:
    return root / f"{fingerprint[:32]}-{EXPORT_RECIPE}"


def is_complete(folder: Path, fingerprint: str) -> bool:
    """The folder holds a finished export of this source: manifest matches and the model file has its size."""
    try:
        manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
        size = (folder / MODEL_FILE).stat().st_size
    except (OSError, ValueError):
        return False
    return manifest.get("fingerprint") == fingerprint and manifest.get("model_bytes") == size


@contextmanager
def _export_lock(lock_path: Path) -> Iterator[bool]:
    """An exclusive lock between processes (yields True); without fcntl (Windows) it yields False
    and the rename race decides instead."""
    try:
        import fcntl
    except ImportError:
        yield False
        return
    with lock_path.open("a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield True
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _remove_stale_partials(folder: Path) -> None:
    """Staging folders of exports that died half-way (only called while holding the lock)."""
    for stale in folder.parent.glob(f".{folder.name}.*.partial"):
        shutil.rmtree(stale, ignore_errors=True)


def ensure_exported(layout: SentenceModelLayout, root: Path | None = None) -> ExportedModel:
    """The cached ONNX export of ``layout``'s model, exporting it first if no complete one exists."""
    root = root or model_cache_root()
    fingerprint = source_fingerprint(layout.folder)
    folder = cache_folder(root, fingerprint)
    if is_complete(folder, fingerprint):
        return ExportedModel(folder, fingerprint, 0.0)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise EmbeddingError(f"cannot create the model cache folder {root}: {error}; "
                             "set CLAIMGRAPH_MODEL_CACHE to a writable folder") from error
    with _export_lock(root / f"{folder.name}.lock") as exclusive:
        if is_complete(folder, fingerprint):
            return ExportedModel(folder, fingerprint, 0.0)
        if exclusive:
            _remove_stale_partials(folder)
        started = time.perf_counter()
        _export_into_place(layout, fingerprint, folder)
        return ExportedModel(folder, fingerprint, time.perf_counter() - started)


def _export_into_place(layout: SentenceModelLayout, fingerprint: str, folder: Path) -> None:
    """Export into a temporary sibling folder, then rename it to ``folder`` (a stale incomplete one is replaced)."""
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".partial", dir=folder.parent))
    try:
        staging.chmod(0o755)  # mkdtemp makes it private; a shared cache root must stay readable
        _log.info("exporting %s to ONNX into %s (once per model version)", layout.folder, folder)
        write_export(layout, fingerprint, staging)
        if folder.exists() and not is_complete(folder, fingerprint):
            shutil.rmtree(folder)
        try:
            os.rename(staging, folder)
        except OSError:
            if not is_complete(folder, fingerprint):
                raise
    except OSError as error:
        raise EmbeddingError(f"cannot write the ONNX export to {folder}: {error}; delete that folder "
                             "or set CLAIMGRAPH_MODEL_CACHE to a writable folder") from error
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _load_torch_model(layout: SentenceModelLayout) -> Any:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        import torch  # noqa: F401  (the export needs it; fail early with the package name)
        from transformers import AutoModel
    except ImportError as error:
        raise EmbeddingError(f"exporting the model to ONNX needs torch and transformers ({error}): "
                             "pip install torch transformers") from error
    try:
        model = AutoModel.from_pretrained(str(layout.transformer_dir), local_files_only=True, attn_implementation="eager")
    except Exception as error:  # safetensors, torch and transformers each raise their own types here
        raise EmbeddingError(f"cannot load the model in {layout.transformer_dir} for export: {error}; "
                             "reinstall the model package") from error
    return model.eval()


def _input_names(model: Any) -> list[str]:
    import inspect

    accepted = inspect.signature(model.forward).parameters
    return [name for name in ("input_ids", "attention_mask", "token_type_ids") if name in accepted]


def write_export(layout: SentenceModelLayout, fingerprint: str, folder: Path) -> None:
    """Export the transformer of ``layout`` to ``folder/model.onnx``, check it against PyTorch, write the manifest."""
    import torch

    model = _load_torch_model(layout)
    names = _input_names(model)

    class LastHiddenState(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            return self.model(**dict(zip(names, inputs))).last_hidden_state

    try:
        import onnx  # noqa: F401  (torch's exporter needs it)
    except ImportError as error:
        raise EmbeddingError("exporting the model to ONNX needs the onnx package: pip install onnx") from error
    # A fresh wrapper module is in training mode, and the exporter restores that mode
    # on the whole tree afterwards (dropout on): switch it to eval, compute the reference first.
    wrapper = LastHiddenState().eval()
    probe = _probe_inputs(layout, names)
    probe_tensors = tuple(torch.from_numpy(probe[name]) for name in names)
    axes = {name: {0: "batch", 1: "sequence"} for name in [*names, "last_hidden_state"]}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        expected = wrapper(*probe_tensors).numpy()
        try:
            torch.onnx.export(wrapper, probe_tensors,
                              str(folder / MODEL_FILE), dynamo=False, input_names=names,
                              output_names=["last_hidden_state"], dynamic_axes=axes, opset_version=OPSET)
        except Exception as error:  # the exporter raises many unrelated types
            raise EmbeddingError(f"exporting {layout.transformer_dir} to ONNX failed: {type(error).__name__}: {error}; "
                                 "use --embedder minilm-st (sentence-transformers) instead") from error
    _check_export(folder / MODEL_FILE, probe, expected)
    manifest = {
        "fingerprint": fingerprint,
        "recipe": EXPORT_RECIPE,
        "source": str(layout.folder),
        "inputs": names,
        "opset": OPSET,
        "torch": torch.__version__,
        "model_bytes": (folder / MODEL_FILE).stat().st_size,
    }
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def _probe_inputs(layout: SentenceModelLayout, names: list[str]) -> dict[str, np.ndarray]:
    """Two tokenized texts of different lengths, padded: traced shapes differ from the checked ones."""
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


def _check_export(model_file: Path, probe: dict[str, np.ndarray], expected: np.ndarray) -> None:
    """The exported graph must reproduce PyTorch on real tokens (padded rows included)."""
    import onnxruntime

    session = onnxruntime.InferenceSession(str(model_file), providers=["CPUExecutionProvider"])
    for rows in (slice(0, 2), slice(0, 1)):
        feed = {name: array[rows] for name, array in probe.items()}
        width = int(feed["attention_mask"].sum(axis=1).max())
        feed = {name: array[:, :width] for name, array in feed.items()}
        got = session.run(None, feed)[0]
        mask = feed["attention_mask"][..., None].astype(bool)
        difference = float(np.abs(np.where(mask, got - expected[rows, :width], 0.0)).max())
        if difference > PROBE_TOLERANCE:
            raise EmbeddingError(f"the ONNX export in {model_file.parent} differs from PyTorch by {difference:.2g}; "
                                 "use --embedder minilm-st (sentence-transformers) instead")
