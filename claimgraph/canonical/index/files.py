"""Files of the sidecar: atomic writes, hashed reads, and numpy archives held in memory."""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
from pathlib import Path
from typing import Any, cast

import numpy as np

from claimgraph.errors import ClaimgraphError


class SidecarError(ClaimgraphError):
    """The sidecar is missing, unreadable, or does not match the store; it must be rebuilt."""


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def npz_bytes(**arrays: np.ndarray) -> bytes:
    """Arrays as the bytes of an uncompressed ``.npz`` archive (no pickles)."""
    buffer = io.BytesIO()
    np.savez(buffer, **cast(dict[str, Any], arrays))
    return buffer.getvalue()


def read_npz(data: bytes, where: Path) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` archive; SidecarError naming ``where`` when it cannot be read."""
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            return {key: archive[key] for key in archive.files}
    except (OSError, ValueError, KeyError) as error:
        raise SidecarError(f"{where} cannot be read back: {error}") from error


def read_checked(path: Path, expected_sha256: str) -> bytes:
    """The bytes of a file the id map names, checked against the hash it recorded."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise SidecarError(f"{path} is unreadable: {error}") from error
    if sha256(data) != expected_sha256:
        raise SidecarError(f"{path} does not match its id map (corrupted or half-written)")
    return data
