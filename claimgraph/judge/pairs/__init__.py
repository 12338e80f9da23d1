"""Judges of a text pair for cross-paper links: an LLM (adjudicate) or a trained cross-encoder (pair_model)."""
