"""The RDF form of papers: document structure, edge annotations, the audit trail, the paper catalogue."""
