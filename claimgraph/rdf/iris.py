"""The instance IRI scheme: deterministic IRIs derived from paper ids and local ids.

Layout (``base`` defaults to DEFAULT_BASE and is configurable):

- ``<base>paper/<id>``            the paper node and the paper's named graph
- ``<base>paper/<id>/raw``        unrepaired extraction, kept for audit and diff
- ``<base>paper/<id>/audit``      PROV-O activities of repairs and merges
- ``<base>paper/<id>/<kind>/<n>`` a node of the paper (sentence, viewpoint, ...)
- ``<base>paper/<id>/stmt/<hash>`` the reification resource of one edge
- ``<base>graph/canonical``       CANON_ hubs shared by all papers
- ``<base>graph/citations``       paper-to-paper citation links
- ``<base>work/<key>``            a cited work, named by its normalized work key
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pyoxigraph import Literal, NamedNode

from claimgraph.errors import ClaimgraphError

DEFAULT_BASE = "https://claimgraph.example/"

_PAPER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,63}$")
_LOCAL_ID = re.compile(r"^[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*$")


class InvalidIdError(ClaimgraphError):
    """A paper id or local id cannot be used inside an IRI."""


def slugify(text: str) -> str:
    """A paper id made from free text (file names, titles): ASCII, lowercase, dashes."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", ascii_text).strip("-._").lower()
    return slug[:200] or "paper"


def content_hash(*parts: str, length: int = 16) -> str:
    """A short stable hash of normalized content, used in IRIs."""
    import hashlib  # loads OpenSSL: only commands that mint IRIs pay for it

    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return digest[:length]


@dataclass(frozen=True)
class IriScheme:
    """Builds every instance IRI from a base; the same inputs always give the same IRIs."""

    base: str = DEFAULT_BASE

    def __post_init__(self) -> None:
        if not self.base.endswith(("/", "#")):
            object.__setattr__(self, "base", self.base + "/")
        NamedNode(self.base)  # raises ValueError on a malformed base

    def paper(self, paper_id: str) -> NamedNode:
        if not _PAPER_ID.match(paper_id):
            raise InvalidIdError(
                f"paper id {paper_id!r} must be 1-200 characters of letters, digits, '.', '_' or '-'"
            )
        return NamedNode(f"{self.base}paper/{paper_id}")

    def raw_graph(self, paper_id: str) -> NamedNode:
        return NamedNode(f"{self.paper(paper_id).value}/raw")

    def audit_graph(self, paper_id: str) -> NamedNode:
        return NamedNode(f"{self.paper(paper_id).value}/audit")

    def node(self, paper_id: str, kind: str, local_id: str) -> NamedNode:
        if not _LOCAL_ID.match(kind) or not _LOCAL_ID.match(local_id):
            raise InvalidIdError(f"local id {kind}/{local_id!r} has characters not allowed in an IRI")
        return NamedNode(f"{self.paper(paper_id).value}/{kind}/{local_id}")

    def extracted_node(self, paper_id: str, name: str) -> NamedNode:
        """A node the LLM named ``name`` (an id it chose, free text): kept when IRI-safe and short, else hashed."""
        local = name if _SAFE_NAME.match(name) else "h-" + content_hash(name)
        return self.node(paper_id, "node", local)

    def statement(self, graph: NamedNode, subject: NamedNode, predicate: NamedNode, obj: NamedNode | Literal) -> NamedNode:
        """The reification resource of the edge (graph, subject, predicate, object)."""
        key = content_hash(graph.value, subject.value, predicate.value, str(obj))
        return NamedNode(f"{graph.value}/stmt/{key}")

    def canonical_graph(self) -> NamedNode:
        return NamedNode(f"{self.base}graph/canonical")

    def citations_graph(self) -> NamedNode:
        return NamedNode(f"{self.base}graph/citations")

    def cited_work(self, key: str) -> NamedNode:
        """The work a work key (``doi:10.1/x``, ``pmid:123``, ``ref:...``) names; the key is percent-encoded but ':' and '/'."""
        from urllib.parse import quote

        return NamedNode(f"{self.base}work/{quote(key, safe=':/')}")

    def canonical_node(self, type_local_name: str, key: str) -> NamedNode:
        return NamedNode(f"{self.base}canonical/CANON_{type_local_name}_{key}")

    def paper_id_of(self, graph: NamedNode) -> str | None:
        """The paper id of a paper graph IRI (or of its raw/audit graph), else None."""
        prefix = f"{self.base}paper/"
        if not graph.value.startswith(prefix):
            return None
        return graph.value[len(prefix):].split("/", 1)[0]

    def paper_of_graph(self, graph: NamedNode) -> str | None:
        """The paper id when ``graph`` is a paper graph itself (not its raw or audit graph), else None."""
        paper_id = self.paper_id_of(graph)
        return paper_id if paper_id is not None and _PAPER_ID.match(paper_id) and graph == self.paper(paper_id) else None
