"""Cross-paper canonicalization: embeddings, the FAISS sidecar, merge policy, CANON_ hubs, convergence."""
