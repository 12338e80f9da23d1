"""Turn a local sentence-transformers model into ONNX once, into an on-disk cache shared by processes.

BERT encoders (the bundled all-MiniLM-L6-v2 among them) are built directly from
their weights by ``bert_graph``, with numpy and onnx only; other models are
exported with ``torch.onnx`` (``torch_export``), which needs the ``torch`` extra.

The cache folder is ``<root>/<fingerprint>-<recipe>/`` where the fingerprint is the
SHA-256 of the source model files (see ``sentence_model.source_fingerprint``), so
a changed model package gets a fresh export, and the recipe names the code that
wrote it (``EXPORT_RECIPE`` for the built graph, ``TORCH_EXPORT_RECIPE`` for
torch's export; bump one when its code changes). ``<root>`` is
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
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from claimgraph.embedding import bert_graph
from claimgraph.embedding.base import EmbeddingError
from claimgraph.embedding.sentence_model import SentenceModelLayout, probe_batch, source_fingerprint
from claimgraph.embedding.torch_export import torch_export, torch_installed

EXPORT_RECIPE = "bert-graph-v1"
TORCH_EXPORT_RECIPE = "torch-onnx-v1"
MODEL_FILE = "model.onnx"
MANIFEST_FILE = "export.json"
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


def cache_folder(root: Path, fingerprint: str, recipe: str = EXPORT_RECIPE) -> Path:
    return root / f"{fingerprint[:32]}-{recipe}"


def unbuildable_reason(layout: SentenceModelLayout) -> str | None:
    """Why the built-in BERT graph cannot reproduce this model (so torch must export it), or None."""
    return bert_graph.unsupported_reason(bert_graph.read_config(layout.transformer_dir), layout.transformer_dir)


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
    reason = unbuildable_reason(layout)
    folder = cache_folder(root, fingerprint, EXPORT_RECIPE if reason is None else TORCH_EXPORT_RECIPE)
    if is_complete(folder, fingerprint):
        return ExportedModel(folder, fingerprint, 0.0)
    if reason is not None and not torch_installed():
        raise EmbeddingError(f"{layout.transformer_dir}: the built-in ONNX graph covers BERT encoders only ({reason}); "
                             "exporting this model needs PyTorch: pip install 'claimgraph[torch]' "
                             "(or use --embedder st:PATH)")
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
        _export_into_place(layout, fingerprint, folder, reason)
        return ExportedModel(folder, fingerprint, time.perf_counter() - started)


def _export_into_place(layout: SentenceModelLayout, fingerprint: str, folder: Path, reason: str | None) -> None:
    """Export into a temporary sibling folder, then rename it to ``folder`` (a stale incomplete one is replaced)."""
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".partial", dir=folder.parent))
    try:
        staging.chmod(0o755)  # mkdtemp makes it private; a shared cache root must stay readable
        _log.info("converting %s to ONNX into %s (once per model version)", layout.folder, folder)
        write_export(layout, fingerprint, staging, reason)
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


def write_export(layout: SentenceModelLayout, fingerprint: str, folder: Path, reason: str | None) -> None:
    """Write ``folder/model.onnx`` (built, or exported by torch when ``reason`` says the builder cannot) and the manifest."""
    model_file = folder / MODEL_FILE
    if reason is None:
        details = _write_built_graph(layout, model_file)
        recipe = EXPORT_RECIPE
    else:
        details = torch_export(layout, model_file)
        recipe = TORCH_EXPORT_RECIPE
    manifest = {
        "fingerprint": fingerprint,
        "recipe": recipe,
        "source": str(layout.folder),
        "opset": bert_graph.OPSET,
        **details,
        "model_bytes": model_file.stat().st_size,
    }
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def _write_built_graph(layout: SentenceModelLayout, model_file: Path) -> dict[str, Any]:
    """Build the BERT graph, save it, and run it once on a padded probe batch before it is cached."""
    model = bert_graph.build_bert_model(layout.transformer_dir)
    import onnx

    onnx.save_model(model, str(model_file))
    _smoke_test(model_file, probe_batch(layout, list(bert_graph.INPUT_NAMES)), layout.transformer_dir)
    return {"inputs": list(bert_graph.INPUT_NAMES), "onnx": onnx.__version__}


def _smoke_test(model_file: Path, probe: dict[str, np.ndarray], source: Path) -> None:
    import onnxruntime

    try:
        session = onnxruntime.InferenceSession(str(model_file), providers=["CPUExecutionProvider"])
        hidden = session.run(None, probe)[0]
    except Exception as error:  # onnxruntime raises its own untyped errors
        raise EmbeddingError(f"ONNX Runtime cannot run the graph built from {source}: {error}") from error
    if hidden.shape[:2] != probe["input_ids"].shape or not np.isfinite(hidden).all():
        raise EmbeddingError(f"the graph built from {source} gives output of shape {hidden.shape} "
                             "or non-finite values on a probe batch")
