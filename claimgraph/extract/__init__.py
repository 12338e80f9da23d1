"""LLM extraction of discourse graphs: steps, prompts from shapes, reply parsing, the extraction model."""
