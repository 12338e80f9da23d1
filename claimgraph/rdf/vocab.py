"""RDF namespaces used by claimgraph, as pyoxigraph term factories.

The ontology namespace is fixed and versioned; instance IRIs live under a
configurable base (see claimgraph.rdf.iris).
"""

from __future__ import annotations

import re

from pyoxigraph import NamedNode


class Namespace:
    """A namespace IRI; attribute or item access gives the NamedNode of a term.

    Not a str subclass, so that terms such as ``CG.index`` or ``CG.count`` are
    never shadowed by string methods.
    """

    def __init__(self, iri: str) -> None:
        self.iri = iri

    def __str__(self) -> str:
        return self.iri

    def __repr__(self) -> str:
        return f"Namespace({self.iri!r})"

    def __getattr__(self, name: str) -> NamedNode:
        if name.startswith("__"):
            raise AttributeError(name)
        return NamedNode(self.iri + name)

    def __getitem__(self, name: str) -> NamedNode:
        return NamedNode(self.iri + name)


CG = Namespace("https://w3id.org/claimgraph/ontology/v1#")
RDF = Namespace("http://www.w3.org/1999/02/22-rdf-syntax-ns#")
RDFS = Namespace("http://www.w3.org/2000/01/rdf-schema#")
OWL = Namespace("http://www.w3.org/2002/07/owl#")
XSD = Namespace("http://www.w3.org/2001/XMLSchema#")
PROV = Namespace("http://www.w3.org/ns/prov#")
DCTERMS = Namespace("http://purl.org/dc/terms/")
CITO = Namespace("http://purl.org/spar/cito/")
SKOS = Namespace("http://www.w3.org/2004/02/skos/core#")
BIBO = Namespace("http://purl.org/ontology/bibo/")
FABIO = Namespace("http://purl.org/spar/fabio/")
PRISM = Namespace("http://prismstandard.org/namespaces/basic/2.0/")
FRBR = Namespace("http://purl.org/vocab/frbr/core#")

PREFIXES: dict[str, str] = {
    "cg": str(CG),
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "owl": str(OWL),
    "xsd": str(XSD),
    "prov": str(PROV),
    "dcterms": str(DCTERMS),
    "cito": str(CITO),
    "skos": str(SKOS),
    "bibo": str(BIBO),
    "fabio": str(FABIO),
    "prism": str(PRISM),
    "frbr": str(FRBR),
}


def local_name(iri: str) -> str:
    """The part of an IRI after its last '#' or '/' (``cg:Claim`` -> ``Claim``)."""
    return re.split(r"[#/]", iri)[-1]


def curie(iri: str) -> str | None:
    """``prefix:local`` when one of PREFIXES fits the IRI, else None."""
    for prefix, namespace in PREFIXES.items():
        if iri.startswith(namespace):
            return f"{prefix}:{iri[len(namespace):]}"
    return None


def short_iri(iri: str) -> str:
    """An IRI as a CURIE when a known prefix fits, else its shape-local name or <iri>."""
    iri = iri.strip("<>")
    if "/shapes/" in iri and "#" in iri:
        return iri.rsplit("#", 1)[1]
    return curie(iri) or f"<{iri}>"
