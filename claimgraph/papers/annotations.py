"""Edge annotations: the reification resource that carries an edge's confidence and provenance.

Confidences are stored one way everywhere: an ``xsd:decimal`` in [0, 1],
rounded half-up to CONFIDENCE_DECIMALS decimals, in canonical lexical form
(``0.25``, ``1``), which is what the clamp_confidence repair produces too, so
a stored value is never rewritten by repair for its form alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, PROV, RDF, XSD

CONFIDENCE_DECIMALS = 3
_QUANTUM = Decimal(1).scaleb(-CONFIDENCE_DECIMALS)


def round_confidence(value: Decimal | float) -> Decimal:
    """A confidence rounded half-up to CONFIDENCE_DECIMALS decimals (not clamped)."""
    number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    return number.quantize(_QUANTUM, rounding=ROUND_HALF_UP)


def confidence_literal(value: Decimal | float) -> Literal:
    """The ``xsd:decimal`` literal of a confidence: rounded, in canonical lexical form."""
    text = format(round_confidence(value).normalize(), "f")
    return Literal(text, datatype=XSD.decimal)


def edge_annotation_triples(
    iris: IriScheme, paper: NamedNode, subject: NamedNode, predicate: NamedNode, obj: NamedNode,
    confidence: Literal, derived_from: NamedNode | None = None,
) -> Iterator[Triple]:
    """The reification resource of the edge ``subject predicate obj`` in paper graph ``paper``.

    Its IRI is IriScheme.statement(paper, s, p, o); it carries the edge's
    confidence and, when known, the sentence it was read from.
    """
    annotation = iris.statement(paper, subject, predicate, obj)
    yield Triple(annotation, RDF.type, RDF.Statement)
    yield Triple(annotation, RDF.type, CG.EdgeAnnotation)
    yield Triple(annotation, RDF.subject, subject)
    yield Triple(annotation, RDF.predicate, predicate)
    yield Triple(annotation, RDF.object, obj)
    yield Triple(annotation, CG.confidence, confidence)
    if derived_from is not None:
        yield Triple(annotation, PROV.wasDerivedFrom, derived_from)
