"""Constants and helpers the linking tests share (imported by conftest.py and the test modules)."""

from __future__ import annotations

from pathlib import Path

from claimgraph.context import Context
from claimgraph.federation.terms import links_graph
from claimgraph.store import EmbeddedStore

ONTOLOGIES = Path(__file__).resolve().parents[2] / "examples" / "ontologies"
SAMPLE = "https://w3id.org/claimgraph/examples/sample-terms/"
PAPERS = {
    "cohort-paper": [("Factor", "IL-6"), ("Factor", "body mass index"), ("Variable", "next-day word recall"),
                     ("StudyDesign", "prospective cohort study"), ("StatisticalMethod", "Cox regression"),
                     ("Factor", "interleukin-17"), ("Claim", "IL-6 predicts word recall")],
    "soil-paper": [("Factor", "soil temperature"), ("Factor", "Soil Moisture"), ("Variable", "weekly soil respiration"),
                   ("StudyDesign", "incubation experiment"), ("StatisticalMethod", "linear mixed model"),
                   ("Factor", "soil pH")],
}


def term(number: int) -> str:
    return f"{SAMPLE}CGS_{number:07d}"


LEXICAL = {  # node text -> (term, relation) by label and synonym alone
    "IL-6": (term(1), "exactMatch"), "body mass index": (term(5), "exactMatch"), "Cox regression": (term(54), "exactMatch"),
    "soil temperature": (term(22), "exactMatch"), "Soil Moisture": (term(23), "exactMatch"),
    "incubation experiment": (term(45), "exactMatch"), "linear mixed model": (term(51), "exactMatch"),
    "prospective cohort study": (term(40), "closeMatch"),
}


def links_in_store(store: EmbeddedStore, name: str) -> dict[str, tuple[str, str]]:
    rows = store.select("SELECT ?text ?p ?term WHERE { GRAPH ?links { ?node ?p ?term } GRAPH ?paper { ?node <https://w3id.org/claimgraph/ontology/v1#text> ?text } "
                        "FILTER(?p IN (<http://www.w3.org/2004/02/skos/core#exactMatch>, <http://www.w3.org/2004/02/skos/core#closeMatch>)) }",
                        {"links": links_graph(Context(store).iris, name)})
    return {row["text"].value: (row["term"].value, row["p"].value.rsplit("#", 1)[1]) for row in rows}
