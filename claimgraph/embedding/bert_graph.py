"""Build the ONNX graph of a BERT encoder straight from its ``config.json`` and ``model.safetensors``.

No PyTorch: the weights are read with numpy and the graph is written with the
``onnx`` helper API. It computes what ``transformers``' ``BertModel`` returns
as ``last_hidden_state`` in inference: word + position + token-type embeddings
and a LayerNorm, then per layer multi-head self-attention (scores scaled by
1/sqrt(head size), padding hidden by an additive mask of float32's lowest
value), output dense + residual + LayerNorm, intermediate dense + exact (erf)
GELU, output dense + residual + LayerNorm. Pooling and normalization stay in
``onnx_embedder``. Configurations this graph would not reproduce are refused
by ``unsupported_reason`` before anything is built.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from claimgraph.embedding.base import EmbeddingError
from claimgraph.embedding.safetensors_numpy import read_safetensors

OPSET = 17
INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT_NAME = "last_hidden_state"
WEIGHTS_FILE = "model.safetensors"
# protobuf cannot serialize a model of 2 GiB or more in one file.
_MAX_MODEL_BYTES = (2 << 30) - (64 << 20)


@dataclass(frozen=True)
class BertShape:
    """The sizes the graph needs, read from config.json."""

    hidden: int
    heads: int
    layers: int
    eps: float

    @property
    def head_size(self) -> int:
        return self.hidden // self.heads


def read_config(transformer_dir: Path) -> dict[str, Any]:
    path = transformer_dir / "config.json"
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise EmbeddingError(f"cannot read {path}: {error}; reinstall the model package") from error
    if not isinstance(config, dict):
        raise EmbeddingError(f"{path} is not a JSON object; reinstall the model package")
    return config


def unsupported_reason(config: dict[str, Any], transformer_dir: Path) -> str | None:
    """Why the built-in graph cannot reproduce this model, or None when it can."""
    checks = [
        (config.get("model_type") == "bert", f"model_type is {config.get('model_type')!r}, not 'bert'"),
        (config.get("hidden_act", "gelu") == "gelu", f"hidden_act is {config.get('hidden_act')!r}, not 'gelu'"),
        (config.get("position_embedding_type", "absolute") == "absolute",
         f"position_embedding_type is {config.get('position_embedding_type')!r}, not 'absolute'"),
        (not config.get("is_decoder") and not config.get("add_cross_attention"), "it is a decoder"),
        (all(isinstance(config.get(key), int) and config[key] > 0
             for key in ("hidden_size", "num_attention_heads", "num_hidden_layers")),
         "hidden_size, num_attention_heads or num_hidden_layers is missing"),
        ((transformer_dir / WEIGHTS_FILE).is_file(), f"{WEIGHTS_FILE} is missing (sharded or PyTorch-only weights)"),
    ]
    for passed, reason in checks:
        if not passed:
            return reason
    if config["hidden_size"] % config["num_attention_heads"]:
        return f"hidden_size {config['hidden_size']} is not a multiple of num_attention_heads {config['num_attention_heads']}"
    return None


def _bert_shape(config: dict[str, Any]) -> BertShape:
    return BertShape(hidden=int(config["hidden_size"]), heads=int(config["num_attention_heads"]),
                     layers=int(config["num_hidden_layers"]), eps=float(config.get("layer_norm_eps", 1e-12)))


class _Graph:
    """Nodes and initializers being assembled; every helper returns the name of its output."""

    def __init__(self, weights: dict[str, np.ndarray], prefix: str, path: Path) -> None:
        from onnx import helper

        self.helper = helper
        self.weights, self.prefix, self.path = weights, prefix, path
        self.nodes: list[Any] = []
        self.initializers: list[Any] = []
        self._count = 0

    def weight(self, name: str, shape: tuple[int, ...], transpose: bool = False) -> str:
        """A checkpoint tensor as an initializer, checked against the shape the config implies."""
        array = self.weights.get(self.prefix + name)
        if array is None or array.shape != shape:
            found = "missing" if array is None else f"of shape {list(array.shape)}"
            raise EmbeddingError(f"{self.path}: tensor {self.prefix + name} is {found}, expected {list(shape)}; "
                                 "the weights do not match config.json (reinstall the model package)")
        return self.constant(np.ascontiguousarray(array.T if transpose else array, dtype=np.float32), name)

    def constant(self, array: np.ndarray, name: str | None = None) -> str:
        from onnx import numpy_helper

        initializer_name = name or self._fresh("const")
        self.initializers.append(numpy_helper.from_array(array, initializer_name))
        return initializer_name

    def op(self, kind: str, *inputs: str, **attributes: Any) -> str:
        output = self._fresh(kind.lower())
        self.nodes.append(self.helper.make_node(kind, list(inputs), [output], name=output, **attributes))
        return output

    def _fresh(self, stem: str) -> str:
        self._count += 1
        return f"{stem}_{self._count}"

    def dense(self, x: str, name: str, inputs: int, outputs: int) -> str:
        """x @ W.T + b, with W stored (outputs, inputs) as in the checkpoint."""
        product = self.op("MatMul", x, self.weight(f"{name}.weight", (outputs, inputs), transpose=True))
        return self.op("Add", product, self.weight(f"{name}.bias", (outputs,)))

    def layer_norm(self, x: str, name: str, size: int, eps: float) -> str:
        return self.op("LayerNormalization", x, self.weight(f"{name}.weight", (size,)),
                       self.weight(f"{name}.bias", (size,)), axis=-1, epsilon=eps)


def _embeddings(graph: _Graph, config: dict[str, Any], shape: BertShape) -> str:
    hidden = shape.hidden
    words = graph.op("Gather", graph.weight("embeddings.word_embeddings.weight", (int(config["vocab_size"]), hidden)), "input_ids")
    length = graph.op("Squeeze", graph.op("Shape", "input_ids", start=1, end=2))
    positions = graph.op("Range", graph.constant(np.array(0, np.int64)), length, graph.constant(np.array(1, np.int64)))
    position_table = graph.weight("embeddings.position_embeddings.weight", (int(config.get("max_position_embeddings", 512)), hidden))
    types = graph.weight("embeddings.token_type_embeddings.weight", (int(config.get("type_vocab_size", 2)), hidden))
    summed = graph.op("Add", graph.op("Add", words, graph.op("Gather", position_table, positions)),
                      graph.op("Gather", types, "token_type_ids"))
    return graph.layer_norm(summed, "embeddings.LayerNorm", hidden, shape.eps)


def _additive_mask(graph: _Graph) -> str:
    """(batch, 1, 1, sequence): 0 where attended, float32's lowest value on padding."""
    mask = graph.op("Cast", "attention_mask", to=1)
    hidden = graph.op("Sub", graph.constant(np.array(1.0, np.float32)), mask)
    scaled = graph.op("Mul", hidden, graph.constant(np.array(np.finfo(np.float32).min, np.float32)))
    return graph.op("Unsqueeze", scaled, graph.constant(np.array([1, 2], np.int64)))


def _attention(graph: _Graph, x: str, mask: str, name: str, shape: BertShape) -> str:
    split = graph.constant(np.array([0, 0, shape.heads, shape.head_size], np.int64))
    merged = graph.constant(np.array([0, 0, shape.hidden], np.int64))

    def heads(part: str, perm: list[int]) -> str:
        projected = graph.dense(x, f"{name}.self.{part}", shape.hidden, shape.hidden)
        return graph.op("Transpose", graph.op("Reshape", projected, split), perm=perm)

    scores = graph.op("MatMul", heads("query", [0, 2, 1, 3]), heads("key", [0, 2, 3, 1]))
    scaled = graph.op("Mul", scores, graph.constant(np.array(shape.head_size ** -0.5, np.float32)))
    probabilities = graph.op("Softmax", graph.op("Add", scaled, mask), axis=-1)
    context = graph.op("MatMul", probabilities, heads("value", [0, 2, 1, 3]))
    context = graph.op("Reshape", graph.op("Transpose", context, perm=[0, 2, 1, 3]), merged)
    output = graph.dense(context, f"{name}.output.dense", shape.hidden, shape.hidden)
    return graph.layer_norm(graph.op("Add", output, x), f"{name}.output.LayerNorm", shape.hidden, shape.eps)


def _gelu(graph: _Graph, x: str) -> str:
    """0.5 * x * (1 + erf(x / sqrt(2))): the exact GELU of BERT's ``gelu`` activation."""
    erf = graph.op("Erf", graph.op("Div", x, graph.constant(np.array(np.sqrt(2.0), np.float32))))
    one_plus = graph.op("Add", erf, graph.constant(np.array(1.0, np.float32)))
    return graph.op("Mul", graph.op("Mul", x, graph.constant(np.array(0.5, np.float32))), one_plus)


def _layer(graph: _Graph, x: str, mask: str, index: int, shape: BertShape, intermediate: int) -> str:
    name = f"encoder.layer.{index}"
    attended = _attention(graph, x, mask, f"{name}.attention", shape)
    inner = _gelu(graph, graph.dense(attended, f"{name}.intermediate.dense", shape.hidden, intermediate))
    output = graph.dense(inner, f"{name}.output.dense", intermediate, shape.hidden)
    return graph.layer_norm(graph.op("Add", output, attended), f"{name}.output.LayerNorm", shape.hidden, shape.eps)


def _weight_prefix(weights: dict[str, np.ndarray]) -> str:
    """Checkpoints of task models (BertForX) nest the encoder under ``bert.``."""
    return "bert." if "bert.embeddings.word_embeddings.weight" in weights else ""


def build_bert_model(transformer_dir: Path) -> Any:
    """The ONNX ModelProto of the BERT encoder in ``transformer_dir`` (inputs INPUT_NAMES, output OUTPUT_NAME)."""
    try:
        from onnx import TensorProto, checker, helper
    except ImportError as error:
        raise EmbeddingError("building the ONNX model needs the onnx package: pip install onnx") from error

    config = read_config(transformer_dir)
    reason = unsupported_reason(config, transformer_dir)
    if reason is not None:
        raise EmbeddingError(f"{transformer_dir / 'config.json'}: the built-in BERT graph cannot reproduce this model: {reason}")
    weights_path = transformer_dir / WEIGHTS_FILE
    weights = read_safetensors(weights_path)
    if sum(array.nbytes for array in weights.values()) > _MAX_MODEL_BYTES:
        raise EmbeddingError(f"{weights_path}: the model is too large for a single ONNX file")
    shape = _bert_shape(config)
    graph = _Graph(weights, _weight_prefix(weights), weights_path)
    mask = _additive_mask(graph)
    hidden = _embeddings(graph, config, shape)
    intermediate = int(config.get("intermediate_size", 4 * shape.hidden))
    for index in range(shape.layers):
        hidden = _layer(graph, hidden, mask, index, shape, intermediate)
    graph.nodes.append(helper.make_node("Identity", [hidden], [OUTPUT_NAME], name=OUTPUT_NAME))
    inputs = [helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"]) for name in INPUT_NAMES]
    output = helper.make_tensor_value_info(OUTPUT_NAME, TensorProto.FLOAT, ["batch", "sequence", shape.hidden])
    body = helper.make_graph(graph.nodes, "bert_encoder", inputs, [output], graph.initializers)
    model = helper.make_model(body, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="claimgraph")
    model.ir_version = 8  # ONNX Runtime 1.18 reads IR 8 at opset 17; newer onnx would stamp a later one
    checker.check_model(model)
    return model
