"""Judge runs as RDF in the paper's audit graph, and what a later run reads back (votes to reuse, the last run).

Layout (terms in ontology/discourse.ttl, section "grounding audit and judges"):

- the run: a ``cg:JudgeRun`` and ``prov:Activity`` of kind ``judge`` with its
  counts and notes, ``prov:wasAssociatedWith`` each judge agent, CG, REA, the
  final verdict, the residual labels, the settings hash and the state it left;
- each judge: a ``cg:JudgeAgent`` (``prov:SoftwareAgent``) ``<base>agent/judge/<signature>``
  with its name, model and endpoint host;
- each vote: a ``cg:Judgment`` (unit conclusion, unit key, round, agent, time,
  verdict, grounded, feedback); each failure a ``cg:JudgeFailure`` with its reason;
- each unit in each round: a ``cg:UnitScore`` (votes for and against,
  failures, majority, grounded, whether the votes were reused);
- each repair attempt: a ``prov:Activity`` of kind ``judge-repair`` before the
  run, with what it changed (counts, touched nodes) and the feedback it used.

sparql/queries/judge-votes.rq and judge-scores.rq read them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.context import Context
from claimgraph.judge.settings import JudgeSpec
from claimgraph.judge.voting import UnitOutcome, Vote
from claimgraph.papers.audit import Activity, activity_iri, activity_triples, next_sequence
from claimgraph.rdf.binding import bind
from claimgraph.rdf.iris import IriScheme, content_hash
from claimgraph.rdf.queries import read_internal_query, read_sparql
from claimgraph.rdf.rows import integer_of, iri_of, number_of, text_of
from claimgraph.rdf.vocab import CG, PROV, RDF, RDFS, XSD


def _decimal(value: float) -> Literal:
    return Literal(f"{value:.3f}", datatype=XSD.decimal)


def _integer(value: int) -> Literal:
    return Literal(str(value), datatype=XSD.integer)


def _boolean(value: bool) -> Literal:
    return Literal("true" if value else "false", datatype=XSD.boolean)


def _time(value: datetime) -> Literal:
    return Literal(value.isoformat(), datatype=XSD.dateTime)


def agent_iri(iris: IriScheme, signature: str) -> NamedNode:
    return NamedNode(f"{iris.base}agent/judge/{signature}")


@dataclass
class RunRecord:
    """What one judge run writes: the run activity, its repair activities, votes, scores and outcome."""

    activity: Activity
    repairs: list[Activity] = field(default_factory=list)
    outcomes: list[UnitOutcome] = field(default_factory=list)
    judges: Mapping[JudgeSpec, str] = field(default_factory=dict)
    hosts: Mapping[JudgeSpec, str] = field(default_factory=dict)
    reused_from_store: frozenset[tuple[str, str]] = frozenset()
    cg: float = 0.0
    rea: float = 0.0
    verdict: str = "residual"
    residuals: Sequence[str] = ()
    settings_hash: str = ""
    state_hash: str = ""


def _agent_triples(iris: IriScheme, judge: JudgeSpec, signature: str, host: str) -> Iterator[Triple]:
    agent = agent_iri(iris, signature)
    yield Triple(agent, RDF.type, CG.JudgeAgent)
    yield Triple(agent, RDF.type, PROV.SoftwareAgent)
    yield Triple(agent, RDFS.label, Literal(judge.name))
    yield Triple(agent, CG.judgeModel, Literal(judge.model))
    yield Triple(agent, CG.endpointHost, Literal(host))


def _outcome_triples(iris: IriScheme, run: NamedNode, outcome: UnitOutcome, emitted: set[tuple[str, str]],
                     skip: frozenset[tuple[str, str]]) -> Iterator[Triple]:
    unit, conclusion = outcome.unit, outcome.unit.conclusion.iri
    score = NamedNode(f"{run.value}/unit/{outcome.round}-{content_hash(conclusion.value, length=12)}")
    yield Triple(run, CG.hasUnitScore, score)
    yield Triple(score, RDF.type, CG.UnitScore)
    yield Triple(score, CG.judgedUnit, conclusion)
    yield Triple(score, CG.unitKey, Literal(unit.key))
    yield Triple(score, CG.round, _integer(outcome.round))
    yield Triple(score, CG.votesCorrect, _integer(outcome.correct))
    yield Triple(score, CG.votesIncorrect, _integer(outcome.incorrect))
    yield Triple(score, CG.judgeFailures, _integer(len(outcome.failures)))
    yield Triple(score, CG.majority, Literal(outcome.majority))
    yield Triple(score, CG.unitGrounded, _boolean(outcome.grounded))
    yield Triple(score, CG.votesReused, _boolean(outcome.reused))
    for vote in outcome.votes:
        identity = (vote.signature, unit.key)
        if identity in emitted or identity in skip:
            continue
        emitted.add(identity)
        judgment = NamedNode(f"{run.value}/judgment/{content_hash(vote.signature, unit.key, str(outcome.round), length=16)}")
        yield from _judgment_triples(iris, run, judgment, outcome, vote.signature, vote.at)
        yield Triple(judgment, RDF.type, CG.Judgment)
        yield Triple(judgment, CG.verdict, Literal(vote.verdict))
        yield Triple(judgment, CG.groundedVerdict, _boolean(vote.grounded))
        if vote.feedback:
            yield Triple(judgment, CG.feedback, Literal(vote.feedback))
    for number, failure in enumerate(outcome.failures):
        node = NamedNode(f"{run.value}/failure/{content_hash(failure.signature, unit.key, str(outcome.round), str(number), length=16)}")
        yield from _judgment_triples(iris, run, node, outcome, failure.signature, failure.at)
        yield Triple(node, RDF.type, CG.JudgeFailure)
        yield Triple(node, CG.failureReason, Literal(failure.reason[:2000]))


def _judgment_triples(iris: IriScheme, run: NamedNode, node: NamedNode, outcome: UnitOutcome, signature: str, at: datetime) -> Iterator[Triple]:
    yield Triple(run, CG.hasJudgment, node)
    yield Triple(node, CG.judgedUnit, outcome.unit.conclusion.iri)
    yield Triple(node, CG.unitKey, Literal(outcome.unit.key))
    yield Triple(node, CG.round, _integer(outcome.round))
    yield Triple(node, PROV.wasAssociatedWith, agent_iri(iris, signature))
    yield Triple(node, PROV.generatedAtTime, _time(at))


def write_run(ctx: Context, paper_id: str, record: RunRecord) -> NamedNode:
    """Append the repair activities and the run to the paper's audit graph in one update; returns the run's IRI."""
    audit = ctx.iris.audit_graph(paper_id)
    sequence = next_sequence(ctx.store, ctx.iris, paper_id)
    triples: list[Triple] = []
    for offset, repair in enumerate(record.repairs):
        triples.extend(activity_triples(ctx.iris, paper_id, sequence + offset, repair))
    sequence += len(record.repairs)
    run = activity_iri(audit, sequence, record.activity)
    triples.extend(activity_triples(ctx.iris, paper_id, sequence, record.activity))
    triples += [Triple(run, RDF.type, CG.JudgeRun), Triple(run, CG.contentGrounding, _decimal(record.cg)),
                Triple(run, CG.reasoningAccuracy, _decimal(record.rea)), Triple(run, CG.finalVerdict, Literal(record.verdict)),
                Triple(run, CG.settingsHash, Literal(record.settings_hash)), Triple(run, CG.judgedState, Literal(record.state_hash))]
    triples += [Triple(run, CG.judgeResidual, Literal(label)) for label in record.residuals]
    for judge, signature in record.judges.items():
        triples.append(Triple(run, PROV.wasAssociatedWith, agent_iri(ctx.iris, signature)))
        triples.extend(_agent_triples(ctx.iris, judge, signature, record.hosts.get(judge, "")))
    emitted: set[tuple[str, str]] = set()
    for outcome in record.outcomes:
        triples.extend(_outcome_triples(ctx.iris, run, outcome, emitted, record.reused_from_store))
    ctx.store.insert({audit: list(dict.fromkeys(triples))})
    return run


def write_paper_residuals(ctx: Context, paper_id: str, residuals: Sequence[str]) -> None:
    """Replace the paper's judge-stage ``cg:residual`` labels with a run's (the gate keeps them; other stages stay)."""
    paper = ctx.iris.paper(paper_id)
    clear = bind(read_sparql("internal", "clear-judge-residuals.ru"), {"graph": paper})
    ctx.store.insert({paper: [Triple(paper, CG.residual, Literal(label)) for label in residuals]}, before=clear)


# ---------------------------------------------------------------- reading back


def stored_votes(ctx: Context, paper_id: str, judges: Mapping[JudgeSpec, str]) -> dict[tuple[str, str], Vote]:
    """(signature, unit key) -> the latest vote of a current judge in an earlier run of this paper."""
    by_signature = {signature: judge for judge, signature in judges.items()}
    votes: dict[tuple[str, str], Vote] = {}
    for row in ctx.store.select(read_internal_query("judge-stored-votes"), {"audit": ctx.iris.audit_graph(paper_id)}):
        signature = row["agent"].value.rsplit("/", 1)[-1]
        judge = by_signature.get(signature)
        if judge is None:
            continue
        feedback = row["feedback"].value if "feedback" in row else ""
        at = datetime.fromisoformat(row["at"].value)
        votes[(signature, row["key"].value)] = Vote(judge, signature, row["verdict"].value, row["grounded"].value == "true", feedback, at)
    return votes


@dataclass(frozen=True)
class LastRun:
    run: NamedNode
    settings_hash: str
    state_hash: str
    verdict: str
    cg: float
    rea: float
    rounds: int
    residuals: tuple[str, ...]


def last_run(ctx: Context, paper_id: str) -> LastRun | None:
    rows = ctx.store.select(read_internal_query("judge-last-run"), {"audit": ctx.iris.audit_graph(paper_id)})
    if not rows or "run" not in rows[0]:
        return None
    row = rows[0]
    residuals = tuple(text_of(row, "residuals").split()) if "residuals" in row else ()
    rounds = integer_of(row, "rounds") if "rounds" in row else 0
    return LastRun(iri_of(row, "run"), text_of(row, "settings"), text_of(row, "state"), text_of(row, "verdict"),
                   number_of(row, "cg"), number_of(row, "rea"), rounds, residuals)
