"""Deciding which ontology term a node's text names: label and synonym match, then embedding similarity.

In order, for each mention (a node's text):

1. its comparable form equals a term's label -> ``skos:exactMatch``, score 1;
2. it equals an exact synonym -> ``skos:exactMatch``, score EXACT_SYNONYM_SCORE;
3. it equals a related, broad or narrow synonym -> ``skos:closeMatch``, score RELATED_SYNONYM_SCORE;
4. else the term whose label or synonym is nearest by cosine similarity of
   their embeddings -> ``skos:closeMatch`` with the cosine as score, when it
   reaches ``close_threshold`` and the canonicalization guards find no
   difference an embedding blurs (a negation, another number, an opposite:
   "interleukin-17" is not "interleukin-10", "non-randomized trial" is not
   "randomized trial").

When one comparable form names two different terms, the lexical step
abstains and the embedding step decides, guarded like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from claimgraph.canonical.guards.check import check_pair
from claimgraph.embedding.base import Embedder
from claimgraph.federation.labels import normalized_label
from claimgraph.federation.terms import OntologyTerm, TermLabel

EXACT_SYNONYM_SCORE = 0.95
RELATED_SYNONYM_SCORE = 0.85
DEFAULT_CLOSE_THRESHOLD = 0.8
EXACT, CLOSE = "exactMatch", "closeMatch"


@dataclass(frozen=True)
class Mention:
    """A text to link: a node's text, keyed by the node's IRI (or any id)."""

    key: str
    text: str
    type: str = ""


@dataclass(frozen=True)
class Match:
    """A decided link: the mention, the term, exactMatch or closeMatch, the score, how it was found and the label matched."""

    mention: Mention
    term: str
    relation: str
    score: float
    method: str
    matched_label: str


@dataclass(frozen=True)
class MatchSettings:
    close_threshold: float = DEFAULT_CLOSE_THRESHOLD
    guards: bool = True


LEXICAL = {"label": (EXACT, 1.0, "label"), "exact": (EXACT, EXACT_SYNONYM_SCORE, "synonym"),
           "related": (CLOSE, RELATED_SYNONYM_SCORE, "synonym")}


def lexical_index(terms: Sequence[OntologyTerm]) -> dict[str, list[tuple[OntologyTerm, TermLabel]]]:
    index: dict[str, list[tuple[OntologyTerm, TermLabel]]] = {}
    for term in terms:
        for label in term.labels:
            if label.normalized:
                index.setdefault(label.normalized, []).append((term, label))
    return index


def lexical_match(mention: Mention, index: dict[str, list[tuple[OntologyTerm, TermLabel]]]) -> Match | None:
    """The label or synonym match of the mention's comparable form, None when there is none or it is ambiguous."""
    hits = index.get(normalized_label(mention.text), [])
    for kind in LEXICAL:
        found = [(term, label) for term, label in hits if label.kind == kind]
        if len({term.iri for term, _ in found}) == 1:
            relation, score, method = LEXICAL[kind]
            return Match(mention, found[0][0].iri, relation, score, method, found[0][1].text)
        if found:
            return None
    return None


def embedding_matches(mentions: Sequence[Mention], terms: Sequence[OntologyTerm], embedder: Embedder, settings: MatchSettings) -> list[Match]:
    """The nearest term of each mention by embedding, kept when close enough and the guards agree."""
    labels = [(term, label) for term in terms for label in term.labels]
    if not mentions or not labels:
        return []
    texts = list(dict.fromkeys(mention.text for mention in mentions))
    mention_vectors = embedder.embed(texts)
    label_vectors = embedder.embed([label.text for _, label in labels])
    similarity = mention_vectors @ label_vectors.T
    row_of = {text: row for row, text in enumerate(texts)}
    matches = []
    for mention in mentions:
        scores = similarity[row_of[mention.text]]
        for column in np.argsort(-scores):
            score = float(scores[column])
            if score < settings.close_threshold:
                break
            term, label = labels[int(column)]
            if settings.guards and not check_pair(mention.text, label.text, frame=False).compatible:
                continue
            matches.append(Match(mention, term.iri, CLOSE, round(min(score, 1.0), 3), "embedding", label.text))
            break
    return matches


def match_mentions(mentions: Sequence[Mention], terms: Sequence[OntologyTerm], embedder: Embedder | None,
                   settings: MatchSettings | None = None) -> list[Match]:
    """One decided link per mention that has one, in the order of the mentions (``embedder`` None: lexical only)."""
    settings = settings or MatchSettings()
    index = lexical_index(terms)
    decided: dict[str, Match] = {}
    remaining = []
    for mention in mentions:
        found = lexical_match(mention, index)
        if found is not None:
            decided[mention.key] = found
        else:
            remaining.append(mention)
    if embedder is not None:
        decided.update({match.mention.key: match for match in embedding_matches(remaining, terms, embedder, settings)})
    return [decided[mention.key] for mention in mentions if mention.key in decided]
