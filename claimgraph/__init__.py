"""claimgraph: scientific papers into a typed, validated, cross-paper knowledge graph."""

__version__ = "0.1.0"
