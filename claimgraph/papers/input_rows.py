"""Reads of a paper's input structure, kept in memory by the digest of that structure.

A paper's sentences, viewpoints and references are written once, when the
paper is stored (``papers.storage``), and every later step only reads them:
the materializer of each reasoning response reads the source anchors, the
grounding audit of each judge run the spans. Scoring one paper's responses from
five models read the same rows ten times. The load activity notes the SHA-256
of the structure as stored (``input_sha256``); ``input_rows`` keys its memory by
the paper graph, that digest and the query, so a row set is reused only for
the very structure it was read from: a paper stored again gets a new load
activity, hence a new digest, and is read afresh. A paper stored without the
note (by an older claimgraph) is always read from the store.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterable

from pyoxigraph import Triple

from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_internal_query
from claimgraph.store import Row, Store, ntriples

INPUT_DIGEST_NOTE = "input_sha256"
_KEPT = 256  # row sets kept (one per paper and query); an ARCHE paper's anchors are about 600 rows
_memory: OrderedDict[tuple[str, str, str], list[Row]] = OrderedDict()


def input_digest(triples: Iterable[Triple]) -> str:
    """The SHA-256 of a paper's structure triples as N-Triples, in the order they are written (the same document
    gives the same order; another order would only cost a read)."""
    return hashlib.sha256(ntriples(triples).encode("utf-8")).hexdigest()


def stored_input_digest(store: Store, iris: IriScheme, paper_id: str) -> str | None:
    """The digest the paper's load activity noted, or None (no such paper, or stored without one)."""
    rows = store.select(read_internal_query("paper-input-digest"), {"audit": iris.audit_graph(paper_id)})
    return rows[0]["digest"].value if rows else None


def input_rows(store: Store, iris: IriScheme, paper_id: str, query: str) -> list[Row]:
    """The rows of the internal query ``query`` (it reads the structure of the paper graph bound to ``?graph``),
    from memory when this structure was read by it before. The rows are shared: callers must not change them."""
    graph = iris.paper(paper_id)
    digest = stored_input_digest(store, iris, paper_id)
    if digest is None:
        return store.select(read_internal_query(query), {"graph": graph})
    key = (graph.value, digest, query)
    if key in _memory:
        _memory.move_to_end(key)
        return _memory[key]
    rows = store.select(read_internal_query(query), {"graph": graph})
    _memory[key] = rows
    if len(_memory) > _KEPT:
        _memory.popitem(last=False)
    return rows
