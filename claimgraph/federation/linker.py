"""``claimgraph link``: load an ontology (a file, or a remote endpoint's terms) and link nodes to its terms.

The ontology goes into its own named graph, ``<base>graph/ontology/<name>``;
the links into ``<base>graph/links/<name>``, a ``void:Linkset`` replaced as a
whole on every run: for each linked node ``node skos:exactMatch|closeMatch
term``, with an annotation (the statement, its score as ``cg:confidence``,
how it was found, the label matched, the paper graph it came from and the
activity that made it). Each paper whose nodes were linked gets one ``link``
activity in its audit trail naming the ontology, the settings and the nodes.
Paper graphs are never written, so their shapes do not change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.context import Context
from claimgraph.embedding.base import Embedder
from claimgraph.embedding.embedders import make_embedder
from claimgraph.errors import ClaimgraphError, StoreError
from claimgraph.federation.matching import Match, MatchSettings, Mention, match_mentions
from claimgraph.federation.rdf_input import load_rdf
from claimgraph.federation.terms import links_graph, ontology_graph, ontology_terms
from claimgraph.papers.audit import Activity, activity_iri, next_sequence, now
from claimgraph.papers.audit_append import record
from claimgraph.rdf.queries import read_sparql
from claimgraph.rdf.vocab import CG, DCTERMS, PROV, RDF, SKOS, XSD, Namespace
from claimgraph.store import Store

VOID = Namespace("http://rdfs.org/ns/void#")
LINKED_TYPES = ("Factor", "Variable", "StudyDesign", "StatisticalMethod")


class LinkError(ClaimgraphError):
    """Linking cannot run: no terms in the ontology, an unknown node type, an unreachable endpoint."""


@dataclass(frozen=True)
class OntologySource:
    """Where the terms come from: a file, or a SPARQL endpoint; ``name`` names the graphs."""

    name: str
    path: Path | None = None
    endpoint: str | None = None
    syntax: str | None = None

    @property
    def described(self) -> str:
        return str(self.path) if self.path is not None else str(self.endpoint)


@dataclass
class LinkReport:
    ontology: NamedNode
    links: NamedNode
    terms: int = 0
    candidates: int = 0
    matches: list[Match] = field(default_factory=list)
    papers: dict[str, int] = field(default_factory=dict)

    def count(self, relation: str) -> int:
        return sum(1 for match in self.matches if match.relation == relation)


def load_terms(ctx: Context, source: OntologySource) -> NamedNode:
    """Load the ontology's triples (a file) or its terms (an endpoint, through SERVICE) into its named graph."""
    graph = ontology_graph(ctx.iris, source.name)
    if source.path is not None:
        load_rdf(ctx, source.path, graph, source.syntax)
        return graph
    if not source.endpoint:
        raise LinkError("give an ontology file or a SPARQL endpoint")
    try:
        endpoint = NamedNode(source.endpoint)
    except ValueError as error:
        raise LinkError(f"--endpoint {source.endpoint!r} is not a URL: {error}") from error
    store = ctx.store
    allowed: frozenset[str] = frozenset(getattr(store, "allowed_services", frozenset()))
    store.allowed_services = allowed | {endpoint.value}
    try:
        store.update(read_sparql("link", "copy-remote-terms.ru").replace("<urn:claimgraph:endpoint>", str(endpoint)), {"ontology": graph})
    except StoreError as error:
        raise LinkError(f"cannot copy the terms of the SPARQL endpoint {endpoint.value}: {error}") from error
    finally:
        store.allowed_services = allowed
    return graph


def candidates(store: Store, types: Sequence[str]) -> list[tuple[str, Mention]]:
    """(paper graph, mention) for every node of the given types in the paper graphs, each node once."""
    found: dict[str, tuple[str, Mention]] = {}
    for type_name in types:
        for row in store.select(read_sparql("link", "candidates.rq"), {"type": CG[type_name]}):
            found.setdefault(row["node"].value, (row["paper"].value, Mention(row["node"].value, row["text"].value, type_name)))
    return list(found.values())


def link_triples(ctx: Context, report: LinkReport, source: OntologySource, papers_of: dict[str, str], activities: dict[str, NamedNode]) -> list[Triple]:
    links = report.links
    triples = [Triple(links, RDF.type, VOID.Linkset), Triple(links, VOID.objectsTarget, report.ontology),
               Triple(links, DCTERMS.source, Literal(source.described))]
    for match in report.matches:
        node, term = NamedNode(match.mention.key), NamedNode(match.term)
        predicate = SKOS[match.relation]
        statement = ctx.iris.statement(links, node, predicate, term)
        paper = NamedNode(papers_of[match.mention.key])
        triples += [
            Triple(node, predicate, term),
            Triple(statement, RDF.type, RDF.Statement), Triple(statement, RDF.type, CG.EdgeAnnotation),
            Triple(statement, RDF.subject, node), Triple(statement, RDF.predicate, predicate), Triple(statement, RDF.object, term),
            Triple(statement, CG.confidence, Literal(format(match.score, ".3f").rstrip("0").rstrip("."), datatype=XSD.decimal)),
            Triple(statement, CG.matchMethod, Literal(match.method)),
            Triple(statement, CG.matchedLabel, Literal(match.matched_label)),
            Triple(statement, PROV.wasDerivedFrom, paper),
            Triple(statement, PROV.wasGeneratedBy, activities[papers_of[match.mention.key]]),
        ]
    return triples


def resolve_embedder(embedder: str | Embedder | None) -> Embedder | None:
    """An embedder from its spec (None: the default model; ``none``: no embedding step, labels and synonyms only)."""
    if embedder is None or isinstance(embedder, str):
        return None if embedder == "none" else make_embedder(embedder)
    return embedder


def link_ontology(ctx: Context, source: OntologySource, embedder: str | Embedder | None = None,
                  settings: MatchSettings | None = None, types: Sequence[str] = LINKED_TYPES) -> LinkReport:
    """Load the ontology, link every node of ``types`` to its terms, write the links and the audit; see the module docstring."""
    unknown = sorted(set(types) - set(LINKED_TYPES))
    if unknown:
        raise LinkError(f"cannot link nodes of type {', '.join(unknown)}; choose among {', '.join(LINKED_TYPES)}")
    settings = settings or MatchSettings()
    started = now()
    report = LinkReport(load_terms(ctx, source), links_graph(ctx.iris, source.name))
    terms = ontology_terms(ctx.store, report.ontology)
    if not terms:
        raise LinkError(f"{source.described} holds no OWL class or SKOS concept with a label; nothing to link to")
    found = candidates(ctx.store, types)
    papers_of = {mention.key: paper for paper, mention in found}
    model = resolve_embedder(embedder)
    report.terms, report.candidates = len(terms), len(found)
    report.matches = match_mentions([mention for _, mention in found], terms, model, settings)
    activities: dict[str, NamedNode] = {}
    pending: dict[str, Activity] = {}
    for paper in sorted({papers_of[match.mention.key] for match in report.matches}):
        paper_id = ctx.iris.paper_id_of(NamedNode(paper)) or ""
        linked = [match for match in report.matches if papers_of[match.mention.key] == paper]
        counts = {"candidates": sum(1 for graph, _ in found if graph == paper), "exact": sum(m.relation == "exactMatch" for m in linked),
                  "close": sum(m.relation == "closeMatch" for m in linked)}
        notes = {"ontology": source.described, "links_graph": report.links.value, "embedder": getattr(model, "name", "none"),
                 "close_threshold": f"{settings.close_threshold:g}"}
        activity = Activity("link", f"link to {source.name}", counts, [NamedNode(m.mention.key) for m in linked], notes, started, now())
        pending[paper_id] = activity
        activities[paper] = activity_iri(ctx.iris.audit_graph(paper_id), next_sequence(ctx.store, ctx.iris, paper_id), activity)
        report.papers[paper_id] = len(linked)
    ctx.store.replace_graph(report.links, link_triples(ctx, report, source, papers_of, activities))
    for paper_id, activity in pending.items():
        record(ctx.store, ctx.iris, paper_id, [activity])
    return report
