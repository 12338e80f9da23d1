"""What a profile's ontology declares: classes, edge labels, merge policies, reasoning families, residual types.

The ontology files (Turtle) are loaded once into an in-memory pyoxigraph store
and read with SPARQL, so the ontology stays the single source of truth and
looking things up needs no heavy RDF library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

import pyoxigraph

from claimgraph.errors import ProfileError
from claimgraph.rdf.vocab import CG, PREFIXES

if TYPE_CHECKING:
    from claimgraph.profile.manifest import Profile

MergePolicy = Literal["aggressive", "cautious", "never"]
MERGE_POLICIES: tuple[MergePolicy, ...] = ("aggressive", "cautious", "never")

_PROLOGUE = "".join(f"PREFIX {prefix}: <{namespace}>\n" for prefix, namespace in PREFIXES.items())


@cache
def _ontology(files: tuple[Path, ...]) -> pyoxigraph.Store:
    store = pyoxigraph.Store()
    for path in files:
        try:
            store.load(path=str(path), format=pyoxigraph.RdfFormat.TURTLE)
        except (SyntaxError, OSError, ValueError) as error:
            raise ProfileError(f"{path}: cannot parse the ontology: {error}") from error
    return store


def ontology_store(profile: Profile) -> pyoxigraph.Store:
    """The union of the profile's ontology files, in memory (default graph)."""
    return _ontology(profile.ontology_files)


def _select(files: tuple[Path, ...], query: str) -> list[tuple[str, ...]]:
    """The rows of a SELECT over the ontology files, each value as its lexical form."""
    solutions = _ontology(files).query(_PROLOGUE + query)
    if not isinstance(solutions, pyoxigraph.QuerySolutions):
        raise ProfileError(f"ontology lookup is not a SELECT: {query[:60]}")
    names = [variable.value for variable in solutions.variables]
    return [tuple(term.value if (term := solution[name]) is not None else "" for name in names) for solution in solutions]


def _rows(profile: Profile, query: str) -> list[tuple[str, ...]]:
    return _select(profile.ontology_files, query)


def defined_terms(profile: Profile) -> set[str]:
    """Every IRI the ontology says something about (its subjects)."""
    return {row[0] for row in _rows(profile, "SELECT DISTINCT ?term WHERE { ?term ?p ?o FILTER(isIRI(?term)) }")}


def ontology_classes(profile: Profile) -> set[str]:
    """IRIs of the owl:Class resources the ontology declares."""
    return {row[0] for row in _rows(profile, "SELECT ?class WHERE { ?class a owl:Class FILTER(isIRI(?class)) }")}


def merge_policy(profile: Profile) -> dict[str, MergePolicy]:
    """Class IRI -> merge policy, from the ``cg:mergePolicy`` annotations of the ontology."""
    return dict(_merge_policy(profile.ontology_files, profile.name))


@cache
def _merge_policy(files: tuple[Path, ...], name: str) -> dict[str, MergePolicy]:
    policies: dict[str, MergePolicy] = {}
    for cls, policy_iri in _select(files, "SELECT ?class ?policy WHERE { ?class cg:mergePolicy ?policy }"):
        policy = policy_iri.removeprefix(CG.iri)
        if policy not in MERGE_POLICIES:
            raise ProfileError(f"{cls} has cg:mergePolicy {policy_iri}; expected one of cg:{', cg:'.join(MERGE_POLICIES)}")
        if policies.setdefault(cls, cast(MergePolicy, policy)) != policy:
            raise ProfileError(f"{cls} has two merge policies in profile {name}")
    return policies


def edge_labels(profile: Profile) -> dict[str, str]:
    """Canonical edge label -> property IRI, from ``skos:notation`` on object properties."""
    return dict(_edge_labels(profile.ontology_files))


@cache
def _edge_labels(files: tuple[Path, ...]) -> dict[str, str]:
    return {label: prop for label, prop in _select(files, "SELECT ?label ?property WHERE { ?property a owl:ObjectProperty ; skos:notation ?label }")}


def edge_label_key(raw: str) -> str:
    """An edge label as looked up in the alias table: lower case, runs of spaces, underscores and dashes as one dash."""
    return re.sub(r"[\s_-]+", "-", raw.strip().lower()).strip("-")


def canonical_edge_label(profile: Profile, raw: str) -> str | None:
    """The canonical edge label of a raw label (exact, case/spacing variant or alias), else None."""
    label = edge_label_key(raw)
    label = profile.aliases.get(label, label)
    return label if label in _edge_labels(profile.ontology_files) else None


def edge_families(profile: Profile) -> dict[str, tuple[str, str]]:
    """Reasoning edge property IRI -> (family IRI, role), from ``cg:family`` and ``cg:role``."""
    rows = _rows(profile, "SELECT ?property ?family ?role WHERE { ?property cg:family ?family ; cg:role ?role }")
    return {prop: (family, role) for prop, family, role in rows}


def extracted_classes(profile: Profile) -> list[str]:
    """IRIs of the classes the LLM extracts (``cg:extractedClass true`` in the ontology), sorted."""
    return sorted(row[0] for row in _rows(profile, "SELECT ?class WHERE { ?class cg:extractedClass true }"))


def extracted_class_names(profile: Profile) -> list[str]:
    """Local names of the extracted classes (``Association``, ``Claim`` ...), as prompts and replies use them."""
    return [cls.removeprefix(CG.iri) for cls in extracted_classes(profile)]



@dataclass(frozen=True)
class ResidualType:
    """A ``cg:ResidualType`` of the ontology: its IRI, label (skos:notation), stage and definition."""

    iri: str
    label: str
    stage: str
    definition: str


def residual_types(profile: Profile) -> dict[str, ResidualType]:
    """Residual label -> its declaration, from the ``cg:ResidualType`` individuals (ontology/residuals.ttl)."""
    rows = _rows(profile, "SELECT ?type ?label ?stage ?definition WHERE { ?type a cg:ResidualType ; skos:notation ?label ; "
                          "cg:residualStage ?stage ; skos:definition ?definition }")
    return {row[1]: ResidualType(*row) for row in sorted(rows, key=lambda row: row[1])}
