"""Export a model the built-in BERT graph cannot reproduce with ``torch.onnx``: needs the ``torch`` extra.

Only models refused by ``bert_graph.unsupported_reason`` come here (another
architecture, another activation, PyTorch-only weights). The exported graph is
checked against PyTorch on a padded probe batch before it is cached.
"""

from __future__ import annotations

import importlib.util
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from claimgraph.embedding.base import EmbeddingError
from claimgraph.embedding.bert_graph import OPSET, OUTPUT_NAME
from claimgraph.embedding.sentence_model import SentenceModelLayout, probe_batch

# Largest difference allowed between the exported graph and PyTorch on the probe batch.
PROBE_TOLERANCE = 1e-3


def torch_installed() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in ("torch", "transformers"))


def _load_torch_model(layout: SentenceModelLayout) -> Any:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from transformers import AutoModel

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


def torch_export(layout: SentenceModelLayout, model_file: Path) -> dict[str, Any]:
    """Export the transformer of ``layout`` to ``model_file``, check it against PyTorch; manifest fields."""
    import torch

    model = _load_torch_model(layout)
    names = _input_names(model)

    class LastHiddenState(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            return self.model(**dict(zip(names, inputs))).last_hidden_state

    # A fresh wrapper module is in training mode, and the exporter restores that mode
    # on the whole tree afterwards (dropout on): switch it to eval, compute the reference first.
    wrapper = LastHiddenState().eval()
    probe = probe_batch(layout, names)
    probe_tensors = tuple(torch.from_numpy(probe[name]) for name in names)
    axes = {name: {0: "batch", 1: "sequence"} for name in [*names, OUTPUT_NAME]}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        expected = wrapper(*probe_tensors).numpy()
        try:
            torch.onnx.export(wrapper, probe_tensors, str(model_file), dynamo=False, input_names=names,
                              output_names=[OUTPUT_NAME], dynamic_axes=axes, opset_version=OPSET)
        except Exception as error:  # the exporter raises many unrelated types
            raise EmbeddingError(f"exporting {layout.transformer_dir} to ONNX failed: {type(error).__name__}: {error}; "
                                 "use --embedder st:PATH (sentence-transformers) instead") from error
    _check_export(model_file, probe, expected)
    return {"inputs": names, "torch": torch.__version__}


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
                                 "use --embedder st:PATH (sentence-transformers) instead")
