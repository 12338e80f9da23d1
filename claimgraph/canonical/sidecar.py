"""The canonicalization sidecar: FAISS HNSW indexes, their id map and the embedding cache.

The store is the truth; the sidecar is a derived, rebuildable accelerator kept
next to it (``<store dir>.sidecar/`` for an embedded store, a cache folder
keyed by the URL for a remote one). Files:

- ``index.npz``   one HNSW index per partition, with its raw vectors, weights and alive flags;
- ``idmap.json``  row -> node IRI (and graphs) per partition, the SHA-256 of
  ``index.npz``, the embedder, and the store fingerprint it was built from;
- ``embeddings-<embedder>.npz``  text hash -> vector, so unchanged texts are never re-embedded.

A partition holds the vectors of one role (``merge``: aggressive nodes,
``hub``: CANON_ hubs, ``pending``: cautious nodes not yet in a hub) and one node
type, so a search can only ever return candidates of the query's type. Each
file is written to a temporary name and renamed; ``idmap.json`` goes last and
names the index file's hash, so a crash between the two is detected on open.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import faiss
import numpy as np

from claimgraph.canonical.embeddings import Embedder, normalize_rows
from claimgraph.errors import ClaimgraphError

FORMAT_VERSION = 1
INDEX_FILE = "index.npz"
IDMAP_FILE = "idmap.json"
ROLES = ("merge", "hub", "pending")


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


def default_sidecar_dir(store_location: str) -> Path | None:
    """Where the sidecar of a store lives: ``<dir>.sidecar`` next to an embedded store,
    ``$XDG_CACHE_HOME/claimgraph/sidecar/<host>-<hash>`` for a remote one, None in memory.
    ``CLAIMGRAPH_SIDECAR`` overrides both."""
    override = os.environ.get("CLAIMGRAPH_SIDECAR")
    if override:
        return Path(override)
    if store_location == ":memory:":
        return None
    if store_location.startswith(("http://", "https://")):
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        host = store_location.split("//", 1)[1].split("/", 1)[0].replace(":", "-")
        key = hashlib.sha256(store_location.rstrip("/").encode("utf-8")).hexdigest()[:12]
        return cache / "claimgraph" / "sidecar" / f"{host}-{key}"
    path = Path(store_location).resolve()
    return path.with_name(path.name + ".sidecar")


def _text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class EmbeddingCache:
    """Vectors of texts already embedded by one embedder, persisted in the sidecar folder."""

    def __init__(self, embedder: Embedder, directory: Path | None) -> None:
        self.embedder = embedder
        slug = "".join(ch if ch.isalnum() else "-" for ch in embedder.name)
        self.path = directory / f"embeddings-{slug}.npz" if directory else None
        self._vectors: dict[str, np.ndarray] = {}
        self._dirty = False
        self.computed = 0
        if self.path and self.path.is_file():
            self._load(self.path)

    def _load(self, path: Path) -> None:
        try:
            with np.load(path, allow_pickle=False) as data:
                keys, vectors = data["keys"], data["vectors"]
        except (OSError, ValueError, KeyError):
            return  # a damaged cache is only a cache: start empty
        self._vectors = {str(key): vector for key, vector in zip(keys, vectors)}

    def __len__(self) -> int:
        return len(self._vectors)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts`` in order; only texts never seen before reach the embedder (once each)."""
        keys = [_text_key(text) for text in texts]
        missing = {key: text for key, text in zip(keys, texts) if key not in self._vectors}
        if missing:
            vectors = self.embedder.embed(list(missing.values()))
            self._vectors.update(zip(missing, vectors))
            self.computed += len(missing)
            self._dirty = True
        if not keys:
            return np.zeros((0, self.embedder.dimension), dtype=np.float32)
        return np.stack([self._vectors[key] for key in keys]).astype(np.float32)

    def save(self) -> None:
        if not (self.path and self._dirty and self._vectors):
            return
        buffer = io.BytesIO()
        np.savez(buffer, keys=np.array(list(self._vectors), dtype="U32"), vectors=np.stack(list(self._vectors.values())))
        atomic_write(self.path, buffer.getvalue())
        self._dirty = False


@dataclass(frozen=True)
class Hit:
    iri: str
    similarity: float


class Partition:
    """The HNSW index of one (role, node type), with raw vectors, weights, graphs and tombstones.

    Rows are never removed from HNSW; a retired row is cleared in the alive
    bitmap that every search passes to FAISS as an ID selector, and the index is
    compacted (rebuilt from the alive rows) once dead rows outnumber live ones.
    """

    def __init__(self, name: str, dimension: int, m: int = 32, ef_construction: int = 64) -> None:
        self.name = name
        self.dimension = dimension
        self.m = m
        self.ef_construction = ef_construction
        self._reset()

    def _reset(self) -> None:
        self.iris: list[str] = []
        self.graphs: list[tuple[str, ...]] = []
        self._vectors = np.zeros((16, self.dimension), dtype=np.float32)
        self._weights = np.zeros(16, dtype=np.float64)
        self._alive = np.zeros(16, dtype=bool)
        self._row: dict[str, int] = {}
        self.index = self._new_index()

    def _new_index(self) -> faiss.IndexHNSWFlat:
        index = faiss.IndexHNSWFlat(self.dimension, self.m, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = self.ef_construction
        return index

    def __len__(self) -> int:
        return len(self._row)

    def __contains__(self, iri: str) -> bool:
        return iri in self._row

    @property
    def rows(self) -> int:
        return len(self.iris)

    def _grow(self, needed: int) -> None:
        if needed <= len(self._alive):
            return
        size = max(needed, 2 * len(self._alive))
        self._vectors = np.resize(self._vectors, (size, self.dimension))
        self._weights = np.resize(self._weights, size)
        alive = np.zeros(size, dtype=bool)
        alive[:len(self._alive)] = self._alive
        self._alive = alive

    def add_many(self, iris: Sequence[str], vectors: np.ndarray, weights: Sequence[float], graphs: Sequence[Iterable[str]]) -> None:
        """Append rows (an IRI already present is retired first: this is the upsert)."""
        for iri in iris:
            if iri in self._row:
                self.retire(iri)
        start = self.rows
        self._grow(start + len(iris))
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(iris), self.dimension)
        self._vectors[start:start + len(iris)] = vectors
        self._weights[start:start + len(iris)] = weights
        self._alive[start:start + len(iris)] = True
        for offset, (iri, row_graphs) in enumerate(zip(iris, graphs)):
            self.iris.append(iri)
            self.graphs.append(tuple(sorted(set(row_graphs))))
            self._row[iri] = start + offset
        if len(iris):
            self.index.add(normalize_rows(vectors))
        if self.rows > 1024 and self.rows > 2 * len(self._row):
            self.compact()

    def add(self, iri: str, vector: np.ndarray, weight: float = 1.0, graphs: Iterable[str] = ()) -> None:
        self.add_many([iri], vector.reshape(1, -1), [weight], [graphs])

    def retire(self, iri: str) -> None:
        row = self._row.pop(iri, None)
        if row is not None:
            self._alive[row] = False

    def vector(self, iri: str) -> np.ndarray:
        return self._vectors[self._row[iri]].copy()

    def weight(self, iri: str) -> float:
        return float(self._weights[self._row[iri]])

    def graphs_of(self, iri: str) -> tuple[str, ...]:
        return self.graphs[self._row[iri]]

    def search(self, vector: np.ndarray, k: int, ef_search: int = 64) -> list[Hit]:
        """The ``k`` nearest live rows by cosine, best first."""
        if not self._row:
            return []
        params = faiss.SearchParametersHNSW()
        params.efSearch = max(ef_search, k)
        bitmap = selector = None  # both must outlive the search: FAISS holds raw pointers to them
        if len(self._row) < self.rows:
            bitmap = np.packbits(self._alive[:self.rows], bitorder="little")
            selector = faiss.IDSelectorBitmap(self.rows, faiss.swig_ptr(bitmap))
            params.sel = selector
        scores, rows = self.index.search(normalize_rows(vector), min(k, len(self._row)), params=params)
        del bitmap, selector
        return [Hit(self.iris[row], float(score)) for score, row in zip(scores[0], rows[0]) if row >= 0 and self._alive[row]]

    def exact_search(self, vector: np.ndarray, k: int) -> list[Hit]:
        """Brute-force search over the live rows (the reference for HNSW recall)."""
        live = np.flatnonzero(self._alive[:self.rows])
        if not len(live):
            return []
        scores = normalize_rows(self._vectors[live]) @ normalize_rows(vector)[0]
        order = np.argsort(-scores, kind="stable")[:k]
        return [Hit(self.iris[live[i]], float(scores[i])) for i in order]

    def compact(self) -> None:
        """Rebuild the HNSW index from the live rows only."""
        items = self.live_items()
        self._reset()
        if items:
            iris, vectors, weights, graphs = zip(*items)
            self.add_many(list(iris), np.stack(vectors), list(weights), list(graphs))

    def live_items(self) -> list[tuple[str, np.ndarray, float, tuple[str, ...]]]:
        """(iri, raw vector, weight, graphs) of every live row, in row order."""
        live = np.flatnonzero(self._alive[:self.rows])
        return [(self.iris[row], self._vectors[row].copy(), float(self._weights[row]), self.graphs[row]) for row in live]

    # ---------------------------------------------------------------- persistence

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        n = self.rows
        return {
            f"{prefix}index": faiss.serialize_index(self.index),
            f"{prefix}vectors": self._vectors[:n],
            f"{prefix}weights": self._weights[:n],
            f"{prefix}alive": self._alive[:n],
        }

    def manifest(self) -> dict[str, object]:
        return {"name": self.name, "iris": self.iris, "graphs": [list(graphs) for graphs in self.graphs]}

    @classmethod
    def restore(cls, manifest: dict, arrays: dict[str, np.ndarray], prefix: str, dimension: int) -> Partition:
        partition = cls(str(manifest["name"]), dimension)
        iris, graphs = list(manifest["iris"]), [tuple(row) for row in manifest["graphs"]]
        vectors, weights, alive = arrays[f"{prefix}vectors"], arrays[f"{prefix}weights"], arrays[f"{prefix}alive"]
        index = faiss.deserialize_index(arrays[f"{prefix}index"])
        if not (len(iris) == len(graphs) == len(vectors) == len(weights) == len(alive) == index.ntotal) or index.d != dimension:
            raise SidecarError(f"partition {partition.name}: id map and index disagree ({len(iris)} ids, {index.ntotal} vectors)")
        partition.index = index
        partition.iris, partition.graphs = iris, graphs
        partition._grow(len(iris))
        partition._vectors[:len(iris)] = vectors
        partition._weights[:len(iris)] = weights
        partition._alive[:len(iris)] = alive
        partition._row = {iri: row for row, iri in enumerate(iris) if alive[row]}
        return partition


def partition_name(role: str, type_iri: str) -> str:
    if role not in ROLES:
        raise ValueError(f"unknown partition role {role!r}")
    return f"{role} {type_iri}"


class Sidecar:
    """All partitions, the papers they cover, and the store fingerprint they were built from."""

    def __init__(self, directory: Path | None, embedder_name: str, dimension: int) -> None:
        self.directory = directory
        self.embedder_name = embedder_name
        self.dimension = dimension
        self.partitions: dict[str, Partition] = {}
        self.covered: set[str] = set()
        self.fingerprint = ""

    def partition(self, role: str, type_iri: str) -> Partition:
        """The partition of one role and one node type (created empty on first use)."""
        name = partition_name(role, type_iri)
        if name not in self.partitions:
            self.partitions[name] = Partition(name, self.dimension)
        return self.partitions[name]

    def has(self, role: str, type_iri: str, iri: str) -> bool:
        """Whether a live row of ``iri`` is in the (role, type) partition."""
        partition = self.partitions.get(partition_name(role, type_iri))
        return partition is not None and iri in partition

    def search(self, role: str, type_iri: str, vector: np.ndarray, k: int, ef_search: int = 64) -> list[Hit]:
        """Nearest nodes of exactly ``type_iri`` in the ``role`` partition: the role filter is the partition."""
        name = partition_name(role, type_iri)
        return self.partitions[name].search(vector, k, ef_search) if name in self.partitions else []

    def save(self, fingerprint: str) -> None:
        """Write index.npz, then idmap.json (which names the index file's hash), each atomically."""
        self.fingerprint = fingerprint
        if self.directory is None:
            return
        names = sorted(self.partitions)
        arrays: dict[str, np.ndarray] = {}
        for number, name in enumerate(names):
            arrays.update(self.partitions[name].arrays(f"p{number}_"))
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        index_bytes = buffer.getvalue()
        atomic_write(self.directory / INDEX_FILE, index_bytes)
        idmap = {
            "format": FORMAT_VERSION,
            "embedder": self.embedder_name,
            "dimension": self.dimension,
            "fingerprint": fingerprint,
            "index_sha256": hashlib.sha256(index_bytes).hexdigest(),
            "covered": sorted(self.covered),
            "partitions": [self.partitions[name].manifest() for name in names],
        }
        atomic_write(self.directory / IDMAP_FILE, json.dumps(idmap).encode("utf-8"))

    @classmethod
    def load(cls, directory: Path, embedder_name: str, dimension: int) -> Sidecar:
        """The sidecar saved in ``directory``; SidecarError says why it cannot be used."""
        idmap_path, index_path = directory / IDMAP_FILE, directory / INDEX_FILE
        if not idmap_path.is_file() or not index_path.is_file():
            raise SidecarError(f"no sidecar in {directory}")
        try:
            idmap = json.loads(idmap_path.read_text(encoding="utf-8"))
            index_bytes = index_path.read_bytes()
        except (OSError, ValueError) as error:
            raise SidecarError(f"{idmap_path} is unreadable: {error}") from error
        if not isinstance(idmap, dict) or idmap.get("format") != FORMAT_VERSION:
            raise SidecarError(f"{idmap_path} is not a format-{FORMAT_VERSION} id map")
        if idmap.get("embedder") != embedder_name or idmap.get("dimension") != dimension:
            raise SidecarError(f"the sidecar was built with embedder {idmap.get('embedder')}, not {embedder_name}")
        if hashlib.sha256(index_bytes).hexdigest() != idmap.get("index_sha256"):
            raise SidecarError(f"{index_path} does not match its id map (corrupted or half-written)")
        sidecar = cls(directory, embedder_name, dimension)
        try:
            with np.load(io.BytesIO(index_bytes), allow_pickle=False) as data:
                arrays = {key: data[key] for key in data.files}
            for number, manifest in enumerate(idmap["partitions"]):
                partition = Partition.restore(manifest, arrays, f"p{number}_", dimension)
                sidecar.partitions[partition.name] = partition
        except (KeyError, TypeError, ValueError, RuntimeError) as error:
            raise SidecarError(f"{index_path} cannot be read back: {error}") from error
        sidecar.covered = set(idmap.get("covered", []))
        sidecar.fingerprint = str(idmap.get("fingerprint", ""))
        return sidecar
