"""The sidecar's parts: HNSW partitions, their append-only files, and the embedding cache."""
