"""``api/queries``: the shipped queries of ``sparql/queries/`` (as ``claimgraph query --list`` lists them), for the SPARQL box."""

from __future__ import annotations

from claimgraph.publish.elements import Json
from claimgraph.rdf.queries import list_named_queries, query_description, read_named_query


def queries_payload() -> Json:
    """Each shipped query's name, its header as one line, and its text ready to run (fragments expanded)."""
    return {"queries": [{"name": name, "description": query_description(path), "text": read_named_query(name)}
                        for name, path in list_named_queries().items()]}
