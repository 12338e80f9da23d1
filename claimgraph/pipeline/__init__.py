"""Extraction pipeline: LLM client, output parsing, validator boundary, phases, gate, canonicalization."""
