"""Links in the canonical graph: what the store holds (state), what a paper's placement writes,
the guarded placement itself, LLM adjudication of borderline pairs, and undoing a link (unmerge)."""
