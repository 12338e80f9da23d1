"""The audit trail: PROV-O activities in each paper's audit named graph.

Every step that changes a paper (load, an extraction phase, a repair script, a
merge or hub link) is recorded as one ``prov:Activity`` with its kind, name,
counts and the IRIs it touched. Ingest starts a fresh trail for the paper;
later steps append to it, numbered by ``cg:sequence``.

An activity run by software that decides content (an LLM extraction step) is
``prov:wasAssociatedWith`` a ``prov:SoftwareAgent``: the model, the endpoint's
host, the request parameters, the hash of the prompt templates and the
claimgraph version (never a key or a full URL). The nodes it produced point to
it with ``prov:wasGeneratedBy``; both live in the audit graph, so the paper
graph keeps its shapes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.rdf.iris import IriScheme, content_hash
from claimgraph.rdf.queries import read_internal_query
from claimgraph.rdf.vocab import CG, PROV, RDF, RDFS, XSD
from claimgraph.store import Store

if TYPE_CHECKING:
    from datetime import datetime


@dataclass(frozen=True)
class SoftwareAgent:
    """What produced an activity's content: model, endpoint host, parameters, prompt template hash, version.

    ``parameters`` are request settings (temperature, max_tokens, structured
    output); only names and values that say how the content was made belong here.
    """

    model: str
    endpoint_host: str
    template_hash: str
    version: str
    temperature: float | None = None
    max_tokens: int | None = None
    structured_output: bool | None = None

    def key(self) -> str:
        return content_hash(self.model, self.endpoint_host, self.template_hash, self.version,
                            repr(self.temperature), repr(self.max_tokens), repr(self.structured_output))


@dataclass
class Activity:
    """One recorded step. ``counts`` holds named integers (before/after, calls, tokens...).

    ``agent`` is the software agent the step ran as; ``generated`` the nodes it produced.
    """

    kind: str
    name: str
    counts: Mapping[str, int] = field(default_factory=dict)
    touched: Sequence[NamedNode] = ()
    notes: Mapping[str, str] = field(default_factory=dict)
    started: datetime | None = None
    ended: datetime | None = None
    agent: SoftwareAgent | None = None
    generated: Sequence[NamedNode] = ()


def now() -> datetime:
    from datetime import UTC, datetime  # here, not at the top: reading the audit trail (claimgraph audit) never needs it

    return datetime.now(UTC)


def _datetime(value: datetime) -> Literal:
    """An xsd:dateTime in its canonical form (UTC as Z, no trailing zeros), which SPARQL engines keep as written."""
    from datetime import UTC

    text = value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f").rstrip("0").rstrip(".")
    return Literal(text + "Z", datatype=XSD.dateTime)


def _integer(value: int) -> Literal:
    return Literal(str(int(value)), datatype=XSD.integer)


def activity_iri(audit_graph: NamedNode, sequence: int, activity: Activity) -> NamedNode:
    return NamedNode(f"{audit_graph.value}/activity/{sequence:04d}-{content_hash(activity.kind, activity.name, length=8)}")


def agent_iri(iris: IriScheme, agent: SoftwareAgent) -> NamedNode:
    """The same agent description gives the same IRI in every paper's audit graph."""
    return NamedNode(f"{iris.base}agent/{agent.key()}")


def agent_triples(iris: IriScheme, agent: SoftwareAgent) -> Iterator[Triple]:
    node = agent_iri(iris, agent)
    yield Triple(node, RDF.type, PROV.SoftwareAgent)
    yield Triple(node, RDFS.label, Literal(f"{agent.model} at {agent.endpoint_host}"))
    yield Triple(node, CG.modelName, Literal(agent.model))
    yield Triple(node, CG.endpointHost, Literal(agent.endpoint_host))
    yield Triple(node, CG.promptTemplateHash, Literal(agent.template_hash))
    yield Triple(node, CG.claimgraphVersion, Literal(agent.version))
    if agent.temperature is not None:
        yield Triple(node, CG.temperature, Literal(repr(float(agent.temperature)), datatype=XSD.decimal))
    if agent.max_tokens is not None:
        yield Triple(node, CG.maxTokens, _integer(agent.max_tokens))
    if agent.structured_output is not None:
        yield Triple(node, CG.structuredOutput, Literal("true" if agent.structured_output else "false", datatype=XSD.boolean))


def activity_triples(iris: IriScheme, paper_id: str, sequence: int, activity: Activity) -> Iterator[Triple]:
    audit = iris.audit_graph(paper_id)
    node = activity_iri(audit, sequence, activity)
    yield Triple(node, RDF.type, PROV.Activity)
    yield Triple(node, CG.activityKind, Literal(activity.kind))
    yield Triple(node, RDFS.label, Literal(activity.name))
    yield Triple(node, CG.sequence, _integer(sequence))
    yield Triple(node, PROV.used, iris.paper(paper_id))
    if activity.started:
        yield Triple(node, PROV.startedAtTime, _datetime(activity.started))
    if activity.ended:
        yield Triple(node, PROV.endedAtTime, _datetime(activity.ended))
    for name, value in sorted(activity.counts.items()):
        count = NamedNode(f"{node.value}/count/{content_hash(name, length=8)}")
        yield Triple(node, CG.hasCount, count)
        yield Triple(count, CG.countName, Literal(name))
        yield Triple(count, RDF.value, _integer(value))
    for name, text in sorted(activity.notes.items()):
        note = NamedNode(f"{node.value}/note/{content_hash(name, length=8)}")
        yield Triple(node, CG.hasNote, note)
        yield Triple(note, CG.noteName, Literal(name))
        yield Triple(note, RDF.value, Literal(text))
    for touched in dict.fromkeys(activity.touched):
        yield Triple(node, CG.touched, touched)
    if activity.agent is not None:
        yield Triple(node, PROV.wasAssociatedWith, agent_iri(iris, activity.agent))
        yield from agent_triples(iris, activity.agent)
    for generated in dict.fromkeys(activity.generated):
        yield Triple(generated, PROV.wasGeneratedBy, node)


def next_sequence(store: Store, iris: IriScheme, paper_id: str) -> int:
    return store.scalar(read_internal_query("audit-next-sequence"), {"audit": iris.audit_graph(paper_id)})


def numbered_triples(store: Store, iris: IriScheme, activities: Mapping[str, Sequence[Activity]]) -> dict[NamedNode, list[Triple]]:
    """The triples of each paper's ``activities`` (paper id -> activities, in order), numbered from the paper's next
    sequence number, per audit graph: for an INSERT DATA in the same request as the change they record."""
    triples: dict[NamedNode, list[Triple]] = {}
    for paper_id, items in activities.items():
        start = next_sequence(store, iris, paper_id)
        triples[iris.audit_graph(paper_id)] = [
            triple for offset, activity in enumerate(items) for triple in activity_triples(iris, paper_id, start + offset, activity)]
    return triples
