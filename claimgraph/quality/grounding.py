"""Source grounding audit: each anchored node against the span its source tuple cites (PEARL's lexical diagnostic).

A node's score is the larger of two token overlaps with its span: token F1 and
containment (the share of the node's tokens found in the span). Tokens are
case-folded letter/digit runs without the function words of
``grounding_words.txt``, with a plural ``s`` folded. The span of a tuple
(x, y, z) is sentence x's text, plus the cited reference's viewpoint (x, y, z)
when y > 0 (sparql/internal/grounding-nodes.rq and grounding-spans.rq).

Nodes fall in three groups: *scored* (the tuple names a sentence), *implicit*
((0, 0, 0) or no tuple: counted apart, never scored) and *unresolved* (the
tuple names a sentence the paper does not have: scored 0). A scored node below
the profile's threshold is listed. The paper passes when the share of scored
nodes at or above the threshold is at least ``min_grounded_share`` and the share
of implicit nodes is at most ``max_implicit_share`` ("most nodes have
sufficient resolved overlap and default-source nodes remain limited").

The gate runs the audit on every paper it judges (``grounding_violations``): a
paper that fails gets one rule row ``grounding`` of the profile's severity,
which as ``critical`` (the default) makes it the typed residual
``weak_grounding`` and blocks acceptance. A paper that fails is also compared with the other stored papers
(``foreign_graph_violations``): when one of them states the graph's anchored
nodes at their tuples, the graph is that paper's, the residual
``foreign_graph`` in every profile.

Profile table, all optional (docs/grounding.md says how the default threshold
was calibrated)::

    [grounding]
    threshold = 0.6
    min_grounded_share = 0.5
    max_implicit_share = 0.5
    severity = "critical"

``audit_paper`` only reads; ``record_grounding`` appends a ``grounding``
activity with the paper-level counts and one cg:GroundingScore per node to the
paper's audit graph; ``ground_paper`` does both.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.context import Context
from claimgraph.errors import ProfileError
from claimgraph.papers.audit import Activity, activity_iri, activity_triples, next_sequence, now
from claimgraph.papers.input_rows import input_rows
from claimgraph.profile.manifest import Profile
from claimgraph.quality.reports import RuleViolation
from claimgraph.quality.rules import SEVERITIES, profile_section
from claimgraph.rdf.binding import Term
from claimgraph.rdf.iris import IriScheme, content_hash
from claimgraph.rdf.queries import read_internal_query
from claimgraph.rdf.rows import integer_of, iri_of, text_of
from claimgraph.rdf.vocab import CG, RDF, XSD
from claimgraph.store import Row, Store

WORDS_FILE = Path(__file__).with_name("grounding_words.txt")
_WORD = re.compile(r"[^\W_]+")
SCORED, IMPLICIT, UNRESOLVED = "scored", "implicit", "unresolved"
GROUNDING_RULE, WEAK_GROUNDING, FOREIGN_GRAPH = "grounding", "weak_grounding", "foreign_graph"
Source = tuple[int, int, int]


@cache
def function_words(path: Path = WORDS_FILE) -> frozenset[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#"))


def fold(word: str) -> str:
    """A light plural fold: studies -> study, waves -> wave, mass stays."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokens(text: str) -> list[str]:
    stop = function_words()
    return [fold(word) for word in _WORD.findall(text.casefold()) if word not in stop]


def overlap_scores(node_text: str, span_text: str) -> tuple[float, float]:
    """(token F1, containment) of a node's text against its span; (0, 0) when either has no content word."""
    node, span = Counter(tokens(node_text)), Counter(tokens(span_text))
    if not node or not span:
        return 0.0, 0.0
    shared = sum((node & span).values())
    precision, recall = shared / sum(node.values()), shared / sum(span.values())
    f1 = 2 * precision * recall / (precision + recall) if shared else 0.0
    return f1, precision


@dataclass(frozen=True)
class GroundingSettings:
    """The defaults are the calibration of docs/grounding.md (bench/grounding.py); a profile's [grounding] overrides them."""

    threshold: float = 0.6
    min_grounded_share: float = 0.5
    max_implicit_share: float = 0.5
    severity: str = "critical"


def grounding_settings(profile: Profile) -> GroundingSettings:
    section = profile_section(profile, "grounding")
    severity = section.get("severity", GroundingSettings.severity)
    if severity not in SEVERITIES:
        raise ProfileError(f"{profile.manifest}: [grounding] severity must be one of {', '.join(SEVERITIES)}, not {severity!r}")
    return GroundingSettings(_share(profile, section, "threshold", GroundingSettings.threshold),
                             _share(profile, section, "min_grounded_share", GroundingSettings.min_grounded_share),
                             _share(profile, section, "max_implicit_share", GroundingSettings.max_implicit_share),
                             severity)


def _share(profile: Profile, section: Mapping[str, object], name: str, default: float) -> float:
    """The [grounding] ``name`` of the profile (a number from 0 to 1), ``default`` when it is not set."""
    if name not in section:
        return default
    value = section[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ProfileError(f"{profile.manifest}: [grounding] {name} must be a number from 0 to 1, not {value!r}")
    return float(value)


@dataclass(frozen=True)
class NodeGrounding:
    """One node against its span; ``score`` = max(F1, containment); spans are the sentence and viewpoint cited."""

    node: NamedNode
    text: str
    source: tuple[int, int, int] | None
    status: str
    span_text: str = ""
    spans: tuple[NamedNode, ...] = ()
    f1: float = 0.0
    containment: float = 0.0

    @property
    def score(self) -> float:
        return max(self.f1, self.containment)


@dataclass
class GroundingAudit:
    """The nodes of one paper against their spans; ``spans``: how many sentences and viewpoints the paper holds."""

    paper_id: str
    settings: GroundingSettings
    nodes: list[NodeGrounding] = field(default_factory=list)
    spans: int = 0

    def by_status(self, status: str) -> list[NodeGrounding]:
        return [node for node in self.nodes if node.status == status]

    @property
    def anchored(self) -> list[NodeGrounding]:
        """Nodes whose tuple points into the paper (scored and unresolved)."""
        return [node for node in self.nodes if node.status != IMPLICIT]

    @property
    def below(self) -> list[NodeGrounding]:
        return [node for node in self.anchored if node.score < self.settings.threshold]

    @property
    def grounded(self) -> int:
        """How many anchored nodes reach the threshold."""
        return len(self.anchored) - len(self.below)

    @property
    def grounded_share(self) -> float:
        anchored = self.anchored
        return self.grounded / len(anchored) if anchored else 0.0

    @property
    def implicit_share(self) -> float:
        return len(self.by_status(IMPLICIT)) / len(self.nodes) if self.nodes else 0.0

    @property
    def assessable(self) -> bool:
        """False when anchored nodes have nothing to be compared with: the paper graph holds no sentence
        (a reasoning graph written without its paper, as the rule peirce_unresolved_source also allows)."""
        return self.spans > 0 or not self.anchored

    @property
    def verdict(self) -> str:
        if not self.assessable:
            return "not assessed"
        return "passed" if self.passed else "failed"

    @property
    def passed(self) -> bool:
        if not self.nodes:
            return True
        return self.grounded_share >= self.settings.min_grounded_share and self.implicit_share <= self.settings.max_implicit_share

    def measures(self) -> dict[str, int]:
        """Paper-level figures as integers (shares and scores in thousandths), for the gate table and the audit."""
        scored = [node.score for node in self.anchored]
        return {
            "grounding_nodes": len(self.nodes),
            "grounding_scored": len(self.by_status(SCORED)),
            "grounding_below_threshold": len(self.below),
            "grounding_implicit": len(self.by_status(IMPLICIT)),
            "grounding_unresolved": len(self.by_status(UNRESOLVED)),
            "grounding_mean_permille": round(1000 * sum(scored) / len(scored)) if scored else 0,
            "grounding_share_permille": round(1000 * self.grounded_share),
            "grounding_threshold_permille": round(1000 * self.settings.threshold),
            "grounding_passed": int(self.passed),
        }

    def node(self, iri: NamedNode) -> NodeGrounding | None:
        return next((node for node in self.nodes if node.node == iri), None)


def audit_paper(ctx: Context, paper_id: str, settings: GroundingSettings | None = None, spans_graph: NamedNode | None = None) -> GroundingAudit:
    """Score every extracted node of the paper graph against its span (reads only).

    ``spans_graph``: the graph holding the paper's sentences and viewpoints when
    it is not the paper graph (a working copy keeps them apart from the graph its
    scripts and rules see).
    """
    audit = GroundingAudit(paper_id, settings or grounding_settings(ctx.profile))
    graph = ctx.iris.paper(paper_id)
    rows: list[Row] = []
    seen: set[Term] = set()
    for row in ctx.store.select(read_internal_query("grounding-nodes"), {"graph": graph, "vocabulary": ctx.vocabulary}):
        if row["node"] not in seen:  # a node with two types or texts is scored once
            seen.add(row["node"])
            rows.append(row)
    if not rows:  # nothing to score: the spans (every sentence and viewpoint of the paper) are not read
        return audit
    spans = _spans(ctx.store.select(read_internal_query("grounding-spans"), {"graph": spans_graph}) if spans_graph is not None
                   else input_rows(ctx.store, ctx.iris, paper_id, "grounding-spans"))
    audit.nodes.extend(_node_grounding(iri_of(row, "node"), text_of(row, "text"), _source(row), spans) for row in rows)
    audit.spans = len(spans)
    return audit


def _spans(rows: Iterable[Row]) -> dict[Source, tuple[NamedNode, str]]:
    """What the tuples of a paper can cite, from the rows of sparql/internal/grounding-spans.rq, by tuple: (its IRI, its text)."""
    spans: dict[Source, tuple[NamedNode, str]] = {}
    for row in rows:
        spans.setdefault((integer_of(row, "x"), integer_of(row, "y"), integer_of(row, "z")), (iri_of(row, "span"), text_of(row, "text")))
    return spans


def _source(row: Row) -> Source | None:
    return (integer_of(row, "x"), integer_of(row, "y"), integer_of(row, "z")) if "x" in row else None


def grounding_violations(audit: GroundingAudit, paper: NamedNode, limit: int = 5) -> list[RuleViolation]:
    """The gate's row for a paper (``paper``: its paper graph) that fails the audit, naming the weakest nodes; none when it passes.

    A paper graph holding no sentence cannot be assessed: a warning says so (its nodes are not called ungrounded).
    """
    if not audit.assessable:
        reason = f"not assessed: the paper graph holds no sentence to compare its {len(audit.anchored)} anchored nodes with"
        return [RuleViolation(paper, GROUNDING_RULE, paper, reason, None, "warning")]
    if audit.passed:
        return []
    settings = audit.settings
    anchored, below, implicit = len(audit.anchored), audit.below, len(audit.by_status(IMPLICIT))
    weakest = sorted(below, key=lambda node: node.score)[:limit]
    named = ", ".join(f"{node.node.value.rsplit('/', 1)[-1]} ({node.score:.2f})" for node in weakest)
    reason = (f"{anchored - len(below)} of {anchored} anchored nodes reach the grounding threshold {settings.threshold:g} "
              f"(needs {settings.min_grounded_share:.0%}); {implicit} of {len(audit.nodes)} nodes implicit "
              f"(at most {settings.max_implicit_share:.0%})" + (f"; weakest: {named}" if named else ""))
    if anchored and len(below) == anchored:
        reason += "; no anchored node is stated by the text it names: the graph may be of another paper, or its tuples wrong"
    residual = WEAK_GROUNDING if settings.severity == "critical" else None
    return [RuleViolation(paper, GROUNDING_RULE, paper, reason, residual, settings.severity)]


def foreign_graph_violations(store: Store, iris: IriScheme, audit: GroundingAudit, paper: NamedNode) -> list[RuleViolation]:
    """The residual ``foreign_graph`` when the graph is another stored paper's: too few of its anchored nodes are
    stated by its own paper (below ``min_grounded_share``), while another paper of ``store``, read at the same tuples,
    states enough of them (at least that share, two or more, and more than its own paper does).

    Only a graph that fails the grounding share is looked at, so the cost (one read of the stored papers' sentences
    at the graph's sentence numbers, then the spans of the nearest few) is paid by graphs that are doubtful anyway.
    The verdict is an identification, not a grounding score: it is critical whatever the profile's [grounding]
    severity.
    """
    anchored = audit.anchored
    if not audit.assessable or len(anchored) < 2 or audit.grounded_share >= audit.settings.min_grounded_share:
        return []
    best = max(_regrounded_elsewhere(store, iris, audit), key=lambda other: other.grounded, default=None)
    if best is None or best.grounded < 2 or best.grounded <= audit.grounded or best.grounded_share < audit.settings.min_grounded_share:
        return []
    reason = (f"the graph is of paper {best.paper_id}: {best.grounded} of {len(anchored)} anchored nodes are stated by its text at "
              f"their tuples, {audit.grounded} by the text of {audit.paper_id}")
    return [RuleViolation(paper, FOREIGN_GRAPH, paper, reason, FOREIGN_GRAPH, "critical")]


def _regrounded_elsewhere(store: Store, iris: IriScheme, audit: GroundingAudit, candidates: int = 3) -> list[GroundingAudit]:
    """The graph's nodes audited against the ``candidates`` other stored papers whose sentences at the nodes' sentence
    numbers are nearest to the nodes' texts (summed overlap: a node citing a cited work's viewpoint still shares words
    with the sentence that cites it)."""
    wanted: dict[int, list[NodeGrounding]] = {}
    for node in audit.anchored:
        wanted.setdefault(node.source[0] if node.source else 0, []).append(node)
    numbers = Literal(" " + " ".join(str(number) for number in sorted(wanted)) + " ")
    nearness: dict[str, float] = {}
    for row in store.select(read_internal_query("stored-sentences"), {"numbers": numbers}):
        other, nodes = iris.paper_of_graph(iri_of(row, "graph")), wanted.get(integer_of(row, "x"), [])
        if nodes and other is not None and other != audit.paper_id:
            sentence = text_of(row, "text")
            nearness[other] = nearness.get(other, 0.0) + sum(max(overlap_scores(node.text, sentence)) for node in nodes)
    audits = []
    for other in sorted(nearness, key=lambda paper: -nearness[paper])[:candidates]:
        spans = _spans(input_rows(store, iris, other, "grounding-spans"))
        audits.append(GroundingAudit(other, audit.settings, [_node_grounding(node.node, node.text, node.source, spans) for node in audit.nodes],
                                     len(spans)))
    return audits


def _node_grounding(node: NamedNode, text: str, source: Source | None, spans: Mapping[Source, tuple[NamedNode, str]]) -> NodeGrounding:
    if source is None or source[0] == 0:
        return NodeGrounding(node, text, source, IMPLICIT)
    sentence = spans.get((source[0], 0, 0))
    if sentence is None:
        return NodeGrounding(node, text, source, UNRESOLVED)
    cited = [sentence, *([spans[source]] if source[1] > 0 and source in spans else [])]
    span = " ".join(text for _, text in cited)
    f1, containment = overlap_scores(text, span)
    return NodeGrounding(node, text, source, SCORED, span, tuple(iri for iri, _ in cited), f1, containment)


# ---------------------------------------------------------------- the audit graph


def _decimal(value: float) -> Literal:
    return Literal(f"{value:.3f}", datatype=XSD.decimal)


def score_triples(activity: NamedNode, scored: NodeGrounding, threshold: float) -> Iterator[Triple]:
    score = NamedNode(f"{activity.value}/score/{content_hash(scored.node.value, length=12)}")
    yield Triple(activity, CG.hasGroundingScore, score)
    yield Triple(score, RDF.type, CG.GroundingScore)
    yield Triple(score, CG.scoredNode, scored.node)
    yield Triple(score, CG.groundingStatus, Literal(scored.status))
    if scored.status != IMPLICIT:
        yield Triple(score, CG.tokenF1, _decimal(scored.f1))
        yield Triple(score, CG.containment, _decimal(scored.containment))
        yield Triple(score, CG.groundingValue, _decimal(scored.score))
        yield Triple(score, CG.belowThreshold, Literal("true" if scored.score < threshold else "false", datatype=XSD.boolean))
    for span in scored.spans:
        yield Triple(score, CG.citedSpan, span)


def grounding_activity(audit: GroundingAudit) -> Activity:
    notes = {"verdict": audit.verdict, "threshold": f"{audit.settings.threshold:g}",
             "below_threshold": " ".join(node.node.value.rsplit("/", 1)[-1] for node in audit.below[:50]) or "none"}
    return Activity("grounding", "source grounding audit", audit.measures(), touched=[node.node for node in audit.below], notes=notes, ended=now())


def record_grounding(ctx: Context, audit: GroundingAudit) -> NamedNode:
    """Append the audit to the paper's audit graph (one activity, one score per node); returns the activity IRI."""
    activity = grounding_activity(audit)
    sequence = next_sequence(ctx.store, ctx.iris, audit.paper_id)
    iri = activity_iri(ctx.iris.audit_graph(audit.paper_id), sequence, activity)
    triples = list(activity_triples(ctx.iris, audit.paper_id, sequence, activity))
    for scored in audit.nodes:
        triples.extend(score_triples(iri, scored, audit.settings.threshold))
    ctx.store.insert({ctx.iris.audit_graph(audit.paper_id): triples})
    return iri


def ground_paper(ctx: Context, paper_id: str, settings: GroundingSettings | None = None) -> GroundingAudit:
    audit = audit_paper(ctx, paper_id, settings)
    record_grounding(ctx, audit)
    return audit


def roc_auc(positives: Sequence[float], negatives: Sequence[float]) -> float:
    """Probability that a positive scores above a negative (ties count half): how well scores separate two sets."""
    if not positives or not negatives:
        raise ValueError("roc_auc needs at least one positive and one negative score")
    ranked = sorted([(score, 1) for score in positives] + [(score, 0) for score in negatives])
    rank_sum, position = 0.0, 0
    while position < len(ranked):
        end = position
        while end < len(ranked) and ranked[end][0] == ranked[position][0]:
            end += 1
        average_rank = (position + 1 + end) / 2
        rank_sum += average_rank * sum(label for _, label in ranked[position:end])
        position = end
    count = len(positives)
    return (rank_sum - count * (count + 1) / 2) / (count * len(negatives))
