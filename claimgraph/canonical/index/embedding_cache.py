"""Vectors of texts already embedded, by text hash, saved in append-only shards.

The cache lives in ``embeddings-<embedder>/`` inside the sidecar folder: each
``flush`` writes one shard holding only the vectors computed since the previous
flush, so saving costs what was added. ``embed`` sends new texts to the embedder
in chunks of CHUNK (128) texts and flushes after each chunk, so a run killed half
way loses at most the chunk it was embedding. Each shard is written to a
temporary file and renamed into place: a kill during the write leaves the
previous shards as they were. Once there are more than 32 shards they are
merged into one. A damaged shard is only a loss of cache: it is skipped.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from claimgraph.canonical.index.files import atomic_write, npz_bytes
from claimgraph.embedding.base import Embedder

MAX_SHARDS = 32
CHUNK = 128
"""Texts embedded (and saved) at a time: the most a killed run loses; small next to the cost of one save."""


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class EmbeddingCache:
    """Embeds texts once per embedder; ``flush`` persists the new vectors as one more shard."""

    def __init__(self, embedder: Embedder, directory: Path | None) -> None:
        self.embedder = embedder
        slug = "".join(ch if ch.isalnum() else "-" for ch in embedder.name)
        self.folder = directory / f"embeddings-{slug}" if directory else None
        self._legacy = directory / f"embeddings-{slug}.npz" if directory else None
        self._vectors: dict[str, np.ndarray] = {}
        self._new: list[str] = []
        self.computed = 0
        if self.folder is not None:
            self._load()

    def _shards(self) -> list[Path]:
        return sorted(self.folder.glob("shard-*.npz")) if self.folder and self.folder.is_dir() else []

    def _load(self) -> None:
        paths = ([self._legacy] if self._legacy and self._legacy.is_file() else []) + self._shards()
        for path in paths:
            try:
                with np.load(path, allow_pickle=False) as data:
                    keys, vectors = data["keys"], data["vectors"]
            except (OSError, ValueError, KeyError):
                continue  # a damaged shard is only a cache miss
            self._vectors.update((str(key), vector) for key, vector in zip(keys, vectors))

    def __len__(self) -> int:
        return len(self._vectors)

    def __contains__(self, text: str) -> bool:
        return text_key(text) in self._vectors

    def missing(self, texts: Sequence[str]) -> list[str]:
        """The distinct texts of ``texts`` never embedded, in first-seen order."""
        seen: dict[str, str] = {}
        for text in texts:
            key = text_key(text)
            if key not in self._vectors and key not in seen:
                seen[key] = text
        return list(seen.values())

    def embed(self, texts: Sequence[str], on_chunk: Callable[[int], None] | None = None) -> np.ndarray:
        """Vectors of ``texts`` in order; only texts never seen before reach the embedder, once each,
        in chunks of CHUNK texts, each chunk flushed to disk and reported to ``on_chunk`` (texts done)."""
        todo = self.missing(texts)
        for start in range(0, len(todo), CHUNK):
            chunk = todo[start:start + CHUNK]
            vectors = self.embedder.embed(chunk)
            for text, vector in zip(chunk, vectors):
                key = text_key(text)
                self._vectors[key] = np.asarray(vector, dtype=np.float32)
                self._new.append(key)
            self.computed += len(chunk)
            self.flush()
            if on_chunk:
                on_chunk(len(chunk))
        if not texts:
            return np.zeros((0, self.embedder.dimension), dtype=np.float32)
        return np.stack([self._vectors[text_key(text)] for text in texts]).astype(np.float32)

    def flush(self) -> None:
        """Write the vectors computed since the last flush as one new shard (merge shards past MAX_SHARDS)."""
        if self.folder is None or not self._new:
            return
        shards = self._shards()
        number = int(shards[-1].stem.split("-")[1]) + 1 if shards else 1
        keys = list(dict.fromkeys(self._new))
        data = npz_bytes(keys=np.array(keys, dtype="U32"), vectors=np.stack([self._vectors[key] for key in keys]))
        atomic_write(self.folder / f"shard-{number:06d}.npz", data)
        self._new = []
        if len(shards) + 1 > MAX_SHARDS:
            self._merge_shards(self.folder, number + 1)

    def _merge_shards(self, folder: Path, number: int) -> None:
        """One shard in ``folder`` (the cache's) holding every vector in place of the many (written before the old ones go)."""
        old = self._shards() + ([self._legacy] if self._legacy and self._legacy.is_file() else [])
        keys = list(self._vectors)
        data = npz_bytes(keys=np.array(keys, dtype="U32"), vectors=np.stack([self._vectors[key] for key in keys]))
        atomic_write(folder / f"shard-{number:06d}.npz", data)
        for path in old:
            path.unlink(missing_ok=True)

    def save(self) -> None:
        self.flush()
