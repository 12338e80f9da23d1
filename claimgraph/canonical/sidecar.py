"""The canonicalization sidecar: one HNSW partition per (role, node type), the papers it covers, and
the fingerprint of the store state it was built from.

The store is the truth; the sidecar is a derived, rebuildable accelerator kept
next to it (``<store dir>.sidecar/`` for an embedded store, a cache folder
keyed by the URL for a remote one). Files:

- ``partitions/<key>/``  each partition's row segments, alive bitmap and HNSW
  snapshots (``claimgraph.canonical.index.partition``), written incrementally;
- ``idmap.json``  the embedder, the store fingerprint, the covered papers, and
  for each partition the files that hold it with their SHA-256;
- ``embeddings-<embedder>/``  text hash -> vector shards (``index.embedding_cache``).

A partition holds the vectors of one role (``hub``: CANON_ nodes, whose vector
is the embedding of their representative text; ``pending``: nodes of covered
papers not linked to any hub) and one node type, so a search can only ever
return candidates of the query's type. Files are written under new names and
``idmap.json`` goes last (atomically), so a crash leaves the previous save
intact; files no id map names any more are removed after it is written.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import numpy as np

from claimgraph.canonical.index.files import SidecarError, atomic_write
from claimgraph.canonical.index.partition import Hit, Partition, partition_key

FORMAT_VERSION = 3
IDMAP_FILE = "idmap.json"
PARTITIONS_DIR = "partitions"
ROLES = ("hub", "pending")

__all__ = ["IDMAP_FILE", "Hit", "Partition", "ROLES", "Sidecar", "SidecarError", "default_sidecar_dir", "partition_name"]


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


def partition_name(role: str, type_iri: str) -> str:
    if role not in ROLES:
        raise ValueError(f"unknown partition role {role!r}")
    return f"{role} {type_iri}"


class Sidecar:
    """All partitions, the papers they cover, and the store fingerprint they match."""

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
        """Write what changed since the last save, then idmap.json naming every file, then drop unnamed files."""
        self.fingerprint = fingerprint
        if self.directory is None:
            return
        root = self.directory / PARTITIONS_DIR
        entries = [self.partitions[name].persist(root / partition_key(name)) for name in sorted(self.partitions)]
        idmap = {
            "format": FORMAT_VERSION,
            "embedder": self.embedder_name,
            "dimension": self.dimension,
            "fingerprint": fingerprint,
            "covered": sorted(self.covered),
            "partitions": entries,
        }
        atomic_write(self.directory / IDMAP_FILE, json.dumps(idmap).encode("utf-8"))
        self._remove_unnamed(self.directory)

    def _remove_unnamed(self, directory: Path) -> None:
        """Delete the files of ``directory`` (the sidecar's) that the id map no longer names."""
        root = directory / PARTITIONS_DIR
        keep = {partition_key(name): partition.files() for name, partition in self.partitions.items()}
        for folder in root.iterdir() if root.is_dir() else []:
            if folder.name not in keep:
                shutil.rmtree(folder, ignore_errors=True)
                continue
            for path in folder.iterdir():
                if path.name not in keep[folder.name] and not path.name.startswith("."):
                    path.unlink(missing_ok=True)
        (directory / "index.npz").unlink(missing_ok=True)  # format 1

    @classmethod
    def load(cls, directory: Path, embedder_name: str, dimension: int) -> Sidecar:
        """The sidecar saved in ``directory``; SidecarError says why it cannot be used."""
        idmap_path = directory / IDMAP_FILE
        if not idmap_path.is_file():
            raise SidecarError(f"no sidecar in {directory}")
        try:
            idmap = json.loads(idmap_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise SidecarError(f"{idmap_path} is unreadable: {error}") from error
        if not isinstance(idmap, dict) or idmap.get("format") != FORMAT_VERSION:
            raise SidecarError(f"{idmap_path} is not a format-{FORMAT_VERSION} id map")
        if idmap.get("embedder") != embedder_name or idmap.get("dimension") != dimension:
            raise SidecarError(f"the sidecar was built with embedder {idmap.get('embedder')}, not {embedder_name}")
        sidecar = cls(directory, embedder_name, dimension)
        try:
            for entry in idmap["partitions"]:
                folder = directory / PARTITIONS_DIR / str(entry["key"])
                partition = Partition.restore(folder, entry, dimension)
                sidecar.partitions[partition.name] = partition
        except (KeyError, TypeError, ValueError, RuntimeError) as error:
            raise SidecarError(f"{idmap_path} names files that cannot be read back: {error}") from error
        sidecar.covered = set(idmap.get("covered", []))
        sidecar.fingerprint = str(idmap.get("fingerprint", ""))
        return sidecar
