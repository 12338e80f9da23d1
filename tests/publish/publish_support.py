"""Constants and helpers the publishing tests share (imported by conftest.py and the test modules)."""

from __future__ import annotations

from pathlib import Path

from claimgraph.context import Context
from claimgraph.store import EmbeddedStore

SAMPLE_ONTOLOGY = Path(__file__).resolve().parents[2] / "examples" / "ontologies" / "sample-terms.ttl"
REASONING_PAPER = "synthetic-ripples"
REASONING_RESPONSE = """digraph G {
  n1 [label="(1,0,0) Small ripples decay faster when a film of soap covers the surface."];
  n2 [label="(3,0,0) Film elasticity may explain the extra damping."];
  n3 [label="(0,0,0) A soap film damps ripples through its elasticity."];
  n1 -> n3 [label="deduction-rule"];
  n2 -> n3 [label="deduction-case"];
}
"""
HOSTILE_TEXTS = [
    'say "hello" & <b>bold</b> \\ back\\slash',
    "line one\nline two\ttab } ; DROP ALL ; {",
    "control \x01\x07\x1b chars ü 中文 🧪 \u2028",
    "-> [label=\"x\"] // /* not a comment */ # nor this",
]


def open_context(path: Path, profile: str = "discourse") -> Context:
    from claimgraph.profile.manifest import load_profile

    return Context(EmbeddedStore(path, read_only=True), profile=load_profile(profile), read_only=True)
