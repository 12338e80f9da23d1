"""Benchmarks of reasoning-graph extraction: recorded or generated responses per model, scored by the PEARL loop, figures from the store."""
