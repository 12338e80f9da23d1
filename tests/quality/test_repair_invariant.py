"""The repair invariant, as properties, on both profiles.

1. A graph that validates (shapes and the profile's rules) is left unchanged by
   the profile's repair scripts, and still validates.
2. A valid graph with injected defects comes out of repair either valid or
   carrying a typed residual, and every node the input stated is still there
   unless a recorded merge (survivor cg:mergedFrom node) folded it.

Graphs are generated: reasoning trees of complete units (peirce) and claims,
evidence and hypotheses with supports/opposes edges over a small paper
(discourse), with optional edge confidences; defects are drawn from what
repair fixes (duplicates, self-loops, dangling ids, aliases, out-of-range
confidences) and what it must leave as a residual (unknown labels, unreadable
confidences, isolated nodes, root marks on premises).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.context import Context
from claimgraph.papers.annotations import confidence_literal, edge_annotation_triples
from claimgraph.profile.manifest import load_profile
from claimgraph.profile.vocabulary import raw_label_iri
from claimgraph.quality.gate import evaluate_gate
from claimgraph.quality.repair import repair_graph
from claimgraph.quality.validation import validate_graph
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, DCTERMS, PROV, RDF, RDFS, XSD
from claimgraph.store import EmbeddedStore

IRIS = IriScheme()
PAPER = IRIS.paper("p1")
P = PAPER.value + "/"
FAMILIES = [("deductionRule", "deductionCase"), ("abductionPhenomenon", "abductionKnowledge"), ("inductionCommon", "inductionCase")]
PEIRCE_DEFECTS = ["duplicate_node", "self_loop", "dangling_edge", "alias", "out_of_range_confidence", "unreadable_confidence",
                  "unknown_label", "isolated_node", "root_mark_on_premise"]
DISCOURSE_DEFECTS = ["duplicate_node", "self_loop", "dangling_edge", "alias", "out_of_range_confidence", "unreadable_confidence", "unknown_label"]
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def integer(value: int) -> Literal:
    return Literal(str(value), datatype=XSD.integer)


@dataclass
class Built:
    """A generated paper graph: its triples, its extracted nodes, its edges (with confidence or None)."""

    profile: str
    triples: list[Triple] = field(default_factory=list)
    nodes: dict[str, NamedNode] = field(default_factory=dict)
    edges: list[tuple[NamedNode, NamedNode, NamedNode]] = field(default_factory=list)

    def node(self, name: str, cls: NamedNode, text: str, extra: list[tuple[NamedNode, object]]) -> NamedNode:
        iri = NamedNode(P + "node/" + name)
        self.nodes[name] = iri
        self.triples += [Triple(iri, RDF.type, cls), Triple(iri, CG.text, Literal(text))]
        self.triples += [Triple(iri, predicate, value) for predicate, value in extra]  # type: ignore[arg-type]
        return iri

    def edge(self, source: NamedNode, predicate: NamedNode, target: NamedNode, confidence: Decimal | None) -> None:
        self.triples.append(Triple(source, predicate, target))
        self.edges.append((source, predicate, target))
        if confidence is not None:
            self.triples += edge_annotation_triples(IRIS, PAPER, source, predicate, target, confidence_literal(confidence))


confidences = st.one_of(st.none(), st.decimals(min_value=0, max_value=1, places=3))


@st.composite
def peirce_graphs(draw: st.DrawFn) -> Built:
    """A single-root tree of complete units, premises -> conclusions, the root marked cg:isRoot."""
    built = Built("peirce")
    tuple_zero = [(CG.sourceSentence, integer(0)), (CG.sourceReference, integer(0)), (CG.sourceViewpoint, integer(0))]
    count = 0

    def new(extra: list | None = None) -> NamedNode:
        nonlocal count
        count += 1
        return built.node(f"n{count}", CG.ReasoningNode, f"statement {count} of the argument", [*tuple_zero, (CG.statedOrder, integer(count)), *(extra or [])])

    frontier = [new([(CG.isRoot, Literal("true", datatype=XSD.boolean))])]
    for _ in range(draw(st.integers(1, 4))):
        target = frontier.pop(draw(st.integers(0, len(frontier) - 1)))
        first, second = draw(st.sampled_from(FAMILIES))
        cases = draw(st.integers(1, 2)) if first == "inductionCommon" else 1
        for label in [first] + [second] * cases:
            premise = new()
            built.edge(premise, CG[label], target, draw(confidences))
            frontier.append(premise)
    return built


@st.composite
def discourse_graphs(draw: st.DrawFn) -> Built:
    """A small paper (two passages, two sentences) with claims, evidence and hypotheses and supports/opposes edges."""
    built = Built("discourse")
    passages, sentences = [NamedNode(P + f"passage/{i}") for i in (1, 2)], [NamedNode(P + f"sentence/{i}") for i in (1, 2)]
    built.triples += [Triple(PAPER, RDF.type, CG.Paper), Triple(PAPER, DCTERMS.identifier, Literal("p1")), Triple(PAPER, CG.inputFormat, Literal("markdown"))]
    for index, (passage, sentence) in enumerate(zip(passages, sentences), start=1):
        built.triples += [Triple(passage, RDF.type, CG.Passage), Triple(passage, DCTERMS.isPartOf, PAPER), Triple(passage, CG.index, integer(index)),
                          Triple(passage, RDFS.label, Literal(f"Part {index}")),
                          Triple(sentence, RDF.type, CG.Sentence), Triple(sentence, DCTERMS.isPartOf, PAPER), Triple(sentence, CG.inPassage, passage),
                          Triple(sentence, CG.index, integer(index)), Triple(sentence, CG.text, Literal(f"Sentence {index} of the paper."))]

    def anchored(part: int) -> list:
        return [(CG.inPassage, passages[part]), (CG.inSentence, sentences[part]), (PROV.wasDerivedFrom, sentences[part]),
                (CG.sourceSentence, integer(part + 1)), (CG.sourceReference, integer(0)), (CG.sourceViewpoint, integer(0))]

    kinds = {"claim": CG.Claim, "evidence": CG.Evidence, "hypothesis": CG.Hypothesis}
    made: dict[str, list[NamedNode]] = {kind: [] for kind in kinds}
    for kind, cls in kinds.items():
        for number in range(draw(st.integers(1, 2))):
            made[kind].append(built.node(f"{kind}{number}", cls, f"{kind} number {number} of the paper", anchored(0)))
    targets = made["claim"] + made["hypothesis"]
    for source in made["evidence"] + made["claim"]:
        for target in draw(st.lists(st.sampled_from(targets), max_size=2, unique=True)):
            if target != source:
                built.edge(source, draw(st.sampled_from([CG.supports, CG.opposes])), target, draw(confidences))
    return built


def stored(built: Built) -> Context:
    ctx = Context(EmbeddedStore(None), IRIS, load_profile(built.profile))
    ctx.store.replace_graphs({PAPER: built.triples, IRIS.raw_graph("p1"): built.triples})
    return ctx


def conforms(ctx: Context) -> tuple[bool, list[str]]:
    report = validate_graph(ctx, PAPER)
    return report.conforms, [*report.lines()]


def assert_repair_leaves_it_unchanged(built: Built) -> None:
    """The graph validates; every repair script then changes nothing and it still validates."""
    ctx = stored(built)
    valid, lines = conforms(ctx)
    assert valid, lines
    before = set(ctx.store.triples(PAPER))
    runs = repair_graph(ctx, PAPER)
    assert not [run.name for run in runs if run.changed]
    assert set(ctx.store.triples(PAPER)) == before and conforms(ctx)[0]


@given(peirce_graphs())
@SETTINGS
def test_a_valid_reasoning_graph_is_left_unchanged_by_repair(built: Built) -> None:
    assert_repair_leaves_it_unchanged(built)


@given(discourse_graphs())
@SETTINGS
def test_a_valid_discourse_graph_is_left_unchanged_by_repair(built: Built) -> None:
    assert_repair_leaves_it_unchanged(built)


def inject(built: Built, defects: list[str], choose: st.DrawFn) -> None:
    """Add each defect to the built graph (it stays a list of triples, as a writer other than repair would leave it)."""
    nodes = list(built.nodes.values())
    some = choose(st.sampled_from(nodes))
    for defect in defects:
        if defect == "duplicate_node":
            original = choose(st.sampled_from(nodes))
            copy = NamedNode(original.value + "-copy")
            built.triples += [Triple(copy, triple.predicate, triple.object) for triple in built.triples
                              if triple.subject == original and triple.predicate not in (CG.isRoot, CG.statedOrder)]
            if built.profile == "peirce":  # stated later in the response
                built.triples.append(Triple(copy, CG.statedOrder, integer(99)))
            else:  # read from the other passage
                built.triples = [Triple(t.subject, t.predicate, NamedNode(P + "passage/2")) if (t.subject, t.predicate) == (copy, CG.inPassage) else t
                                 for t in built.triples]
        elif defect == "self_loop":
            built.triples.append(Triple(some, built.edges[0][1] if built.edges else CG.supports, some))
        elif defect == "dangling_edge" and built.edges:
            built.triples.append(Triple(NamedNode(P + "node/ghost"), built.edges[0][1], built.edges[0][2]))
        elif defect == "alias" and built.edges:
            source, predicate, target = built.edges[0]
            alias = {"deductionRule": "dr", "deductionCase": "dc", "abductionPhenomenon": "ap", "abductionKnowledge": "ak",
                     "inductionCommon": "ico", "inductionCase": "ica", "supports": "support", "opposes": "contradicts"}
            built.triples.remove(Triple(source, predicate, target))
            built.triples.append(Triple(source, raw_label_iri(alias[predicate.value.rsplit("#", 1)[1]]), target))
        elif defect in ("out_of_range_confidence", "unreadable_confidence") and built.edges:
            source, predicate, target = built.edges[-1]
            value = Literal("1.7", datatype=XSD.decimal) if defect == "out_of_range_confidence" else Literal("high")
            built.triples += [t for t in edge_annotation_triples(IRIS, PAPER, source, predicate, target, value) if t.predicate != CG.confidence]
            built.triples.append(Triple(IRIS.statement(PAPER, source, predicate, target), CG.confidence, value))
        elif defect == "unknown_label" and built.edges:
            built.triples.append(Triple(built.edges[0][0], raw_label_iri("leads to"), built.edges[0][2]))
        elif defect == "isolated_node":
            built.node("loner", CG.ReasoningNode, "a statement nothing connects",
                       [(CG.sourceSentence, integer(0)), (CG.sourceReference, integer(0)), (CG.sourceViewpoint, integer(0))])
        elif defect == "root_mark_on_premise" and built.edges:
            built.triples.append(Triple(built.edges[-1][0], CG.markedRoot, Literal("true", datatype=XSD.boolean)))


def extracted_nodes(ctx: Context) -> set[NamedNode]:
    rows = ctx.store.select("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT DISTINCT ?n WHERE { "
                            "GRAPH ?v { ?c cg:extractedClass true } GRAPH ?g { ?n a ?c } }", {"g": PAPER, "v": ctx.vocabulary})
    return {row["n"] for row in rows}  # type: ignore[misc]


def merged(ctx: Context) -> set[NamedNode]:
    rows = ctx.store.select("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?d WHERE { GRAPH ?g { ?s cg:mergedFrom ?d } }", {"g": PAPER})
    return {row["d"] for row in rows}  # type: ignore[misc]


def check_repair_fixes_or_leaves_a_residual(built: Built) -> None:
    ctx = stored(built)
    stated = extracted_nodes(ctx)
    repair_graph(ctx, PAPER)
    kept = extracted_nodes(ctx)
    assert stated <= kept | merged(ctx), f"nodes removed without a recorded merge: {sorted(str(n) for n in stated - kept - merged(ctx))}"
    gate = evaluate_gate(ctx, "p1")
    valid, lines = conforms(ctx)
    assert valid or gate.residuals, f"repaired graph is neither valid nor a typed residual: {lines}"
    assert not gate.accepted or valid, f"accepted but invalid: {lines}"


@given(peirce_graphs(), st.lists(st.sampled_from(PEIRCE_DEFECTS), min_size=1, max_size=3, unique=True), st.data())
@SETTINGS
def test_a_damaged_reasoning_graph_is_repaired_or_left_a_typed_residual_and_loses_no_node(built: Built, defects: list[str], data: st.DataObject) -> None:
    inject(built, defects, data.draw)
    check_repair_fixes_or_leaves_a_residual(built)


@given(discourse_graphs(), st.lists(st.sampled_from(DISCOURSE_DEFECTS), min_size=1, max_size=3, unique=True), st.data())
@SETTINGS
def test_a_damaged_discourse_graph_is_repaired_or_left_a_typed_residual_and_loses_no_node(built: Built, defects: list[str], data: st.DataObject) -> None:
    inject(built, defects, data.draw)
    check_repair_fixes_or_leaves_a_residual(built)
