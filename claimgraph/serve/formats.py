"""The media types the endpoint answers in, by kind of result, in the server's order of preference.

SELECT and ASK results: SPARQL JSON (the default), XML, CSV, TSV. CONSTRUCT
and DESCRIBE results and Graph Store reads: Turtle (the default), N-Triples,
JSON-LD, RDF/XML. ``application/json`` and ``application/xml`` are accepted
as the SPARQL results formats, which is what generic HTTP clients ask for.
"""

from __future__ import annotations

from pyoxigraph import QueryResultsFormat, RdfFormat

RESULTS_FORMATS: dict[str, QueryResultsFormat] = {
    "application/sparql-results+json": QueryResultsFormat.JSON,
    "application/sparql-results+xml": QueryResultsFormat.XML,
    "text/csv": QueryResultsFormat.CSV,
    "text/tab-separated-values": QueryResultsFormat.TSV,
    "application/json": QueryResultsFormat.JSON,
    "application/xml": QueryResultsFormat.XML,
}

GRAPH_FORMATS: dict[str, RdfFormat] = {
    "text/turtle": RdfFormat.TURTLE,
    "application/n-triples": RdfFormat.N_TRIPLES,
    "application/ld+json": RdfFormat.JSON_LD,
    "application/rdf+xml": RdfFormat.RDF_XML,
}

QUERY_MEDIA_TYPES = ("application/sparql-query", "application/x-www-form-urlencoded")
UPDATE_MEDIA_TYPES = ("application/sparql-update", "application/x-www-form-urlencoded")


def with_charset(media_type: str) -> str:
    """The Content-Type header value: text formats say they are UTF-8."""
    textual = media_type.startswith("text/") or media_type.endswith(("json", "xml", "n-triples"))
    return f"{media_type}; charset=utf-8" if textual else media_type


def offered(kind: str) -> tuple[str, ...]:
    """The media types offered for ``kind`` ``solutions``, ``boolean`` or ``graph``."""
    return tuple(GRAPH_FORMATS) if kind == "graph" else tuple(RESULTS_FORMATS)
