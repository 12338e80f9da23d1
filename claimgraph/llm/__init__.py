"""The LLM client: OpenAI-compatible backends, response cache and replay, retries, accounting."""
