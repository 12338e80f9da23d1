"""The terms of an ontology held in a named graph: each with its labels and synonyms, in comparable form."""

from __future__ import annotations

from dataclasses import dataclass, field

from pyoxigraph import NamedNode

from claimgraph.federation.labels import normalized_label
from claimgraph.rdf.iris import IriScheme, slugify
from claimgraph.rdf.queries import read_sparql
from claimgraph.store import Store

KINDS = ("label", "exact", "related")


@dataclass(frozen=True)
class TermLabel:
    """One label of a term: its text, its kind (``label``, ``exact`` or ``related`` synonym) and comparable form."""

    text: str
    kind: str

    @property
    def normalized(self) -> str:
        return normalized_label(self.text)


@dataclass
class OntologyTerm:
    iri: str
    labels: list[TermLabel] = field(default_factory=list)

    @property
    def label(self) -> str:
        """The term's own label (its first rdfs:label or skos:prefLabel), else its first synonym."""
        own = [label.text for label in self.labels if label.kind == "label"]
        return (own or [label.text for label in self.labels] or [self.iri])[0]


def ontology_graph(iris: IriScheme, name: str) -> NamedNode:
    """``<base>graph/ontology/<name>``: the named graph an ontology is loaded into."""
    return NamedNode(f"{iris.base}graph/ontology/{slugify(name)}")


def links_graph(iris: IriScheme, name: str) -> NamedNode:
    """``<base>graph/links/<name>``: the named graph of the links to one ontology."""
    return NamedNode(f"{iris.base}graph/links/{slugify(name)}")


def ontology_terms(store: Store, graph: NamedNode) -> list[OntologyTerm]:
    """The terms in ``graph``, sorted by IRI, each label once."""
    terms: dict[str, OntologyTerm] = {}
    for row in store.select(read_sparql("link", "terms.rq"), {"ontology": graph}):
        term = terms.setdefault(row["term"].value, OntologyTerm(row["term"].value))
        label = TermLabel(row["text"].value, row["kind"].value)
        if label.text.strip() and label not in term.labels:
            term.labels.append(label)
    for term in terms.values():
        term.labels.sort(key=lambda label: (KINDS.index(label.kind), label.text))
    return sorted((term for term in terms.values() if term.labels), key=lambda term: term.iri)
