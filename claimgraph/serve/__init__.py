"""Serving the store: a SPARQL 1.1 Protocol endpoint, Graph Store reads, and the browser viewer with its JSON API."""
