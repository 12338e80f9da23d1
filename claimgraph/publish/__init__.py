"""Publishing: exports to RDF syntaxes, JSON-LD and DOT."""
