"""A stored paper read back as a Document: its passages, numbered sentences and given viewpoints.

This is what an extraction that starts again from the store needs of a paper
(the reasoning prompt shows the sentences and, for ARCHE input, the viewpoints
with their source tuples); the paper's extracted nodes are not read here.
"""

from __future__ import annotations

from claimgraph.errors import ClaimgraphError
from claimgraph.loaders.document import Document, Passage, Sentence, Viewpoint
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import read_sparql
from claimgraph.rdf.rows import integer_of, text_of
from claimgraph.store import Store


class PaperNotStored(ClaimgraphError):
    """The paper has no sentences in the store (never ingested, or removed)."""


def stored_document(store: Store, iris: IriScheme, paper_id: str) -> Document:
    """The paper's passages, sentences and viewpoints as stored; PaperNotStored when it has no sentence."""
    graph = {"graph": iris.paper(paper_id)}
    rows = store.select(read_sparql("internal", "document-sentences.rq"), graph)
    if not rows:
        raise PaperNotStored(f"no paper {paper_id!r} with sentences in the store at {store.location}; ingest it first")
    passages: dict[int, Passage] = {}
    for row in rows:
        number = integer_of(row, "passageIndex")
        passage = passages.setdefault(number, Passage(number, text_of(row, "heading") if "heading" in row else ""))
        passage.sentences.append(Sentence(integer_of(row, "index"), text_of(row, "text"), number))
    viewpoints = [Viewpoint(text_of(row, "text"), integer_of(row, "x"), integer_of(row, "y"), integer_of(row, "z"))
                  for row in store.select(read_sparql("internal", "document-viewpoints.rq"), graph)]
    return Document(paper_id, paper_id, "stored", passages=list(passages.values()), viewpoints=viewpoints)
