"""Peircean reasoning graphs: tolerant materialization of LLM graph responses and storage."""
