"""One HNSW partition of the sidecar (one role, one node type), kept in append-only files.

Rows are only ever appended; a retired row is cleared in an alive bitmap that
every search passes to FAISS as an ID selector. On disk a partition is a list
of row segments (the rows added since the previous save), the alive bitmap,
and now and then a snapshot of the HNSW graph. Loading deserializes the
snapshot and adds the rows written after it, so a save writes what changed
since the last one, not the whole partition: a snapshot is written only once
the rows after the last one reach a quarter of it (at least 2,048), which keeps
the cost of saving proportional to the rows added. When dead rows outnumber
live ones twice, the partition is compacted (rebuilt from its live rows) and
starts a new generation of files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import numpy as np

from claimgraph.canonical.index.files import SidecarError, atomic_write, npz_bytes, read_checked, read_npz, sha256
from claimgraph.embedding.base import normalize_rows

if TYPE_CHECKING:
    import faiss

SNAPSHOT_MIN_TAIL = 2048
SNAPSHOT_TAIL_SHARE = 0.25


@dataclass(frozen=True)
class Hit:
    iri: str
    similarity: float


class SavedFile(TypedDict):
    """A file of the partition as the id map records it."""

    file: str
    sha256: str


class Segment(SavedFile):
    """A file of rows ``start`` to ``start + rows``."""

    start: int
    rows: int


class Snapshot(SavedFile):
    """A serialized HNSW index of the first ``rows`` rows."""

    rows: int


def partition_key(name: str) -> str:
    """The folder name of a partition: a hash of its name (names hold IRIs)."""
    return hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]


class Partition:
    """The HNSW index of one (role, node type), with raw vectors, graphs and tombstones."""

    def __init__(self, name: str, dimension: int, m: int = 32, ef_construction: int = 64) -> None:
        self.name = name
        self.dimension = dimension
        self.m = m
        self.ef_construction = ef_construction
        self.generation = 0
        self._reset()

    def _reset(self) -> None:
        self.iris: list[str] = []
        self.graphs: list[tuple[str, ...]] = []
        self._vectors = np.zeros((16, self.dimension), dtype=np.float32)
        self._alive = np.zeros(16, dtype=bool)
        self._row: dict[str, int] = {}
        self.index: faiss.Index = self._new_index()
        self._segments: list[Segment] = []
        self._snapshot: Snapshot | None = None
        self._alive_file: SavedFile | None = None
        self._alive_dirty = True
        self._bitmap: np.ndarray | None = None  # packed alive flags for FAISS, rebuilt after a change

    def _new_index(self) -> faiss.IndexHNSWFlat:
        import faiss
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
        alive = np.zeros(size, dtype=bool)
        alive[:len(self._alive)] = self._alive
        self._alive = alive

    def add_many(self, iris: Sequence[str], vectors: np.ndarray, graphs: Sequence[Iterable[str]]) -> None:
        """Append rows (an IRI already present is retired first: this is the upsert)."""
        for iri in iris:
            if iri in self._row:
                self.retire(iri)
        start = self.rows
        self._grow(start + len(iris))
        vectors = normalize_rows(np.asarray(vectors, dtype=np.float32).reshape(len(iris), self.dimension))
        self._vectors[start:start + len(iris)] = vectors
        self._alive[start:start + len(iris)] = True
        for offset, (iri, row_graphs) in enumerate(zip(iris, graphs)):
            self.iris.append(iri)
            self.graphs.append(tuple(sorted(set(row_graphs))))
            self._row[iri] = start + offset
        if len(iris):
            self.index.add(vectors)
            self._alive_dirty = True
            self._bitmap = None
        if self.rows > 1024 and self.rows > 2 * len(self._row):
            self.compact()

    def add(self, iri: str, vector: np.ndarray, graphs: Iterable[str] = ()) -> None:
        self.add_many([iri], vector.reshape(1, -1), [graphs])

    def retire(self, iri: str) -> None:
        row = self._row.pop(iri, None)
        if row is not None:
            self._alive[row] = False
            self._alive_dirty = True
            self._bitmap = None

    def vector(self, iri: str) -> np.ndarray:
        return self._vectors[self._row[iri]].copy()

    def graphs_of(self, iri: str) -> tuple[str, ...]:
        return self.graphs[self._row[iri]]

    def search(self, vector: np.ndarray, k: int, ef_search: int = 64) -> list[Hit]:
        """The ``k`` nearest live rows by cosine, best first."""
        import faiss

        if not self._row:
            return []
        params = faiss.SearchParametersHNSW()  # type: ignore[attr-defined]
        params.efSearch = max(ef_search, k)
        selector = None  # must outlive the search, as must the bitmap it points to (kept on self)
        if len(self._row) < self.rows:
            if self._bitmap is None:
                self._bitmap = np.packbits(self._alive[:self.rows], bitorder="little")
            selector = faiss.IDSelectorBitmap(self.rows, faiss.swig_ptr(self._bitmap))
            params.sel = selector
        scores, rows = self.index.search(normalize_rows(vector), min(k, len(self._row)), params=params)
        del selector
        return [Hit(self.iris[row], float(score)) for score, row in zip(scores[0], rows[0]) if row >= 0 and self._alive[row]]

    def exact_search(self, vector: np.ndarray, k: int) -> list[Hit]:
        """Brute-force search over the live rows (the reference for HNSW recall)."""
        live = np.flatnonzero(self._alive[:self.rows])
        if not len(live):
            return []
        scores = self._vectors[live] @ normalize_rows(vector)[0]
        order = np.argsort(-scores, kind="stable")[:k]
        return [Hit(self.iris[live[i]], float(scores[i])) for i in order]

    def compact(self) -> None:
        """Rebuild the HNSW index from the live rows only; the next save starts a new generation of files."""
        items = self.live_items()
        generation = self.generation + 1
        self._reset()
        self.generation = generation
        if items:
            iris, vectors, graphs = zip(*items)
            self.add_many(list(iris), np.stack(vectors), list(graphs))

    def live_items(self) -> list[tuple[str, np.ndarray, tuple[str, ...]]]:
        """(iri, vector, graphs) of every live row, in row order."""
        live = np.flatnonzero(self._alive[:self.rows])
        return [(self.iris[row], self._vectors[row].copy(), self.graphs[row]) for row in live]

    # ---------------------------------------------------------------- files

    def _saved_rows(self) -> int:
        return sum(segment["rows"] for segment in self._segments)

    def persist(self, folder: Path) -> dict[str, object]:
        """Write what changed since the last save into ``folder``; the id map entry naming the files."""
        import faiss

        prefix = f"g{self.generation}"
        saved = self._saved_rows()
        if self.rows > saved:
            data = npz_bytes(vectors=self._vectors[saved:self.rows], iris=np.array(self.iris[saved:], dtype=str),
                             graphs=np.array([json.dumps(list(graphs)) for graphs in self.graphs[saved:]], dtype=str))
            name = f"{prefix}-rows-{saved:010d}.npz"
            atomic_write(folder / name, data)
            self._segments.append({"file": name, "start": saved, "rows": self.rows - saved, "sha256": sha256(data)})
        if self._alive_dirty or self._alive_file is None:
            data = npz_bytes(alive=self._alive[:self.rows])
            name = f"{prefix}-alive-{self.rows:010d}-{sha256(data)[:8]}.npz"
            atomic_write(folder / name, data)
            self._alive_file = {"file": name, "sha256": sha256(data)}
            self._alive_dirty = False
        covered = self._snapshot["rows"] if self._snapshot else 0
        if self.rows - covered >= max(SNAPSHOT_MIN_TAIL, SNAPSHOT_TAIL_SHARE * covered):
            data = faiss.serialize_index(self.index).tobytes()
            name = f"{prefix}-hnsw-{self.rows:010d}.faiss"
            atomic_write(folder / name, data)
            self._snapshot = {"file": name, "rows": self.rows, "sha256": sha256(data)}
        return {"name": self.name, "key": partition_key(self.name), "generation": self.generation, "rows": self.rows,
                "segments": list(self._segments), "alive": self._alive_file, "snapshot": self._snapshot}

    @classmethod
    def restore(cls, folder: Path, entry: dict, dimension: int) -> Partition:
        """The partition an id map entry describes, from its files (each checked against its hash)."""
        import faiss

        partition = cls(str(entry["name"]), dimension)
        partition.generation = int(entry["generation"])
        iris: list[str] = []
        graphs: list[tuple[str, ...]] = []
        vectors: list[np.ndarray] = []
        for segment in entry["segments"]:
            arrays = read_npz(read_checked(folder / segment["file"], segment["sha256"]), folder / segment["file"])
            if int(segment["start"]) != len(iris) or len(arrays["iris"]) != int(segment["rows"]):
                raise SidecarError(f"{folder / segment['file']}: rows out of order or missing")
            iris.extend(str(iri) for iri in arrays["iris"])
            graphs.extend(tuple(json.loads(str(row))) for row in arrays["graphs"])
            vectors.append(arrays["vectors"])
        alive = read_npz(read_checked(folder / entry["alive"]["file"], entry["alive"]["sha256"]), folder)["alive"]
        if len(iris) != int(entry["rows"]) or len(alive) != len(iris):
            raise SidecarError(f"partition {partition.name}: id map and files disagree ({len(iris)} rows, {len(alive)} flags)")
        matrix = np.concatenate(vectors) if vectors else np.zeros((0, dimension), dtype=np.float32)
        snapshot = entry.get("snapshot")
        start = 0
        if snapshot:
            raw = read_checked(folder / snapshot["file"], snapshot["sha256"])
            index = faiss.deserialize_index(np.frombuffer(raw, dtype=np.uint8))
            start = int(snapshot["rows"])
            if index.ntotal != start or index.d != dimension or start > len(iris):
                raise SidecarError(f"{folder / snapshot['file']}: {index.ntotal} vectors where {start} were recorded")
            partition.index = index
        partition.iris, partition.graphs = iris, graphs
        partition._grow(len(iris))
        partition._vectors[:len(iris)] = matrix
        partition._alive[:len(iris)] = alive
        partition._row = {iri: row for row, iri in enumerate(iris) if alive[row]}
        if len(iris) > start:
            partition.index.add(matrix[start:])
        partition._segments = [Segment(file=str(segment["file"]), sha256=str(segment["sha256"]), start=int(segment["start"]),
                                       rows=int(segment["rows"])) for segment in entry["segments"]]
        partition._snapshot = Snapshot(file=str(snapshot["file"]), sha256=str(snapshot["sha256"]), rows=start) if snapshot else None
        partition._alive_file = SavedFile(file=str(entry["alive"]["file"]), sha256=str(entry["alive"]["sha256"]))
        partition._alive_dirty = False
        return partition

    def files(self) -> set[str]:
        """The file names the last save wrote and still refers to."""
        named = [segment["file"] for segment in self._segments]
        named += [record["file"] for record in (self._alive_file, self._snapshot) if record]
        return {str(name) for name in named}
