"""Applying a repair or a claim root to a paper graph: local edits on the unit's own triples, checked first.

A repair plan may rewrite the texts and source tuples of the unit's conclusion
and premises, change a premise's role, add premises (a new node with a text
and a source tuple) and drop premises. It cannot reach outside the unit: a
premise it names must be one of the unit's, a role must be one of the
profile's unit labels, and a dropped premise loses only its edge into this
conclusion (the node goes too when no edge is left on it). A claim root links
the graph's final conclusions to one new node and removes the storage
scaffolding the single_root repair had added; the repair scripts run next and
derive the root flag again.

Everything is checked before anything changes: a plan that breaks a rule
raises PlanError and the graph stays as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.errors import ClaimgraphError
from claimgraph.judge.prompts import PlannedPremise, RepairPlan, RootPlan
from claimgraph.judge.units import Unit, UnitNode
from claimgraph.papers.document_graph import source_tuple_triples
from claimgraph.profile.ontology import edge_label_key
from claimgraph.rdf.iris import IriScheme, content_hash
from claimgraph.rdf.vocab import CG, PROV, RDF

Source = tuple[int, int, int]
IMPLICIT: Source = (0, 0, 0)
SOURCE_PREDICATES = (CG.sourceSentence, CG.sourceReference, CG.sourceViewpoint, PROV.wasDerivedFrom)


class PlanError(ClaimgraphError):
    """A repair or root plan asks for something a local repair may not do."""


@dataclass
class GraphEdit:
    """The new triples of the paper graph and what changed."""

    triples: list[Triple]
    touched: list[NamedNode] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class EditContext:
    """What edits need besides the plan: IRIs, the allowed labels (and their aliases) and where source tuples point."""

    iris: IriScheme
    paper_id: str
    labels: Mapping[str, NamedNode]
    anchors: Mapping[Source, NamedNode]
    node_class: NamedNode


def _role(edit: EditContext, role: str, where: str) -> NamedNode:
    predicate = edit.labels.get(edge_label_key(role))
    if predicate is None:
        raise PlanError(f"{where}: role {role!r} is not one of {', '.join(sorted(set(edit.labels)))}")
    return predicate


def _anchor_triples(edit: EditContext, node: NamedNode, source: Source) -> list[Triple]:
    triples = list(source_tuple_triples(node, source))
    anchor = (edit.anchors.get(source) or edit.anchors.get((source[0], 0, 0))) if source != IMPLICIT else None
    return [*triples, Triple(node, PROV.wasDerivedFrom, anchor)] if anchor is not None else triples


def _retext(triples: list[Triple], edit: EditContext, node: NamedNode, text: str | None, source: Source | None) -> list[Triple]:
    """The triples with the node's text and/or source tuple replaced."""
    if text is None and source is None:
        return triples
    kept = [t for t in triples if not (t.subject == node and ((text is not None and t.predicate == CG.text)
                                                              or (source is not None and t.predicate in SOURCE_PREDICATES)))]
    if text is not None:
        kept.append(Triple(node, CG.text, Literal(text)))
    if source is not None:
        kept.extend(_anchor_triples(edit, node, source))
    return kept


def _new_node(edit: EditContext, key: str, text: str, source: Source, node_class: NamedNode, like: NamedNode | None,
              triples: Sequence[Triple]) -> tuple[NamedNode, list[Triple]]:
    node = edit.iris.extracted_node(edit.paper_id, f"judge-{content_hash(key, text, length=10)}")
    made = [Triple(node, RDF.type, node_class), Triple(node, CG.text, Literal(text)), *_anchor_triples(edit, node, source)]
    if like is not None and node_class != CG.ReasoningNode:
        made += [Triple(node, CG.inPassage, t.object) for t in triples if t.subject == like and t.predicate == CG.inPassage][:1]
    return node, made


def _unit_edges(unit: Unit) -> set[Triple]:
    return {Triple(premise.node.iri, premise.edge, unit.conclusion.iri) for premise in unit.premises}


def _drop_bare_nodes(triples: list[Triple], candidates: Iterable[NamedNode], edges: set[NamedNode]) -> tuple[list[Triple], list[NamedNode]]:
    """Remove candidate nodes that no edge (a predicate in ``edges``) touches any more."""
    linked = {end for t in triples if t.predicate in edges for end in (t.subject, t.object)}
    gone = [node for node in candidates if node not in linked]
    return [t for t in triples if t.subject not in gone and t.object not in gone], gone


def apply_repair(triples: list[Triple], unit: Unit, plan: RepairPlan, edit: EditContext, edge_predicates: set[NamedNode]) -> GraphEdit:
    """The paper graph's triples after the plan's local repair of ``unit``."""
    current = {premise.node.local: premise for premise in unit.premises}
    planned: list[tuple[PlannedPremise, NamedNode]] = []
    for number, item in enumerate(plan.premises):
        where = f"premises[{number}]"
        predicate = _role(edit, item.role, where)
        if item.node is not None and item.node not in current:
            raise PlanError(f"{where}: {item.node!r} is not a premise of the unit into {unit.conclusion.local} (known: {', '.join(current) or 'none'})")
        if item.node is None and item.text is None:
            raise PlanError(f"{where}: a new premise needs a text")
        planned.append((item, predicate))
    kept_ids = [item.node for item, _ in planned if item.node is not None]
    if len(kept_ids) != len(set(kept_ids)):
        raise PlanError("the plan names one premise twice")
    result = [t for t in triples if t not in _unit_edges(unit)]
    result = _retext(result, edit, unit.conclusion.iri, plan.conclusion_text, plan.conclusion_source)
    touched, counts = [unit.conclusion.iri], {"premises_added": 0, "premises_dropped": 0, "roles_changed": 0, "texts_changed": 0}
    counts["texts_changed"] += int(plan.conclusion_text is not None and plan.conclusion_text != unit.conclusion.text)
    for item, predicate in planned:
        if item.node is None:
            node, made = _new_node(edit, unit.conclusion.iri.value, item.text or "", item.source or IMPLICIT, edit.node_class, unit.conclusion.iri, triples)
            result.extend(made)
            counts["premises_added"] += 1
        else:
            premise = current[item.node]
            node = premise.node.iri
            result = _retext(result, edit, node, item.text, item.source)
            counts["roles_changed"] += int(predicate != premise.edge)
            counts["texts_changed"] += int(item.text is not None and item.text != premise.node.text)
        result.append(Triple(node, predicate, unit.conclusion.iri))
        touched.append(node)
    dropped = [current[local].node.iri for local in current if local not in kept_ids]
    counts["premises_dropped"] = len(dropped)
    result, gone = _drop_bare_nodes(result, dropped, edge_predicates)
    return GraphEdit(list(dict.fromkeys(result)), [*touched, *dropped], {**counts, "nodes_removed": len(gone)})


def apply_root(triples: list[Triple], finals: Sequence[UnitNode], plan: RootPlan, edit: EditContext) -> GraphEdit:
    """The paper graph's triples with a claim root over the final conclusions, scaffolding removed."""
    known = {node.local: node for node in finals}
    links = []
    for number, item in enumerate(plan.premises):
        if item.node is None or item.node not in known:
            raise PlanError(f"premises[{number}]: {item.node!r} is not one of the final conclusions ({', '.join(known)})")
        links.append((known[item.node].iri, _role(edit, item.role, f"premises[{number}]")))
    scaffolds = {t.subject for t in triples if t.predicate == CG.isScaffolding}
    result = [t for t in triples if t.subject not in scaffolds and t.object not in scaffolds
              and t.predicate not in (CG.aggregatedInto, CG.isRoot)]
    root, made = _new_node(edit, "claim-root", plan.text, plan.source, edit.node_class, None, triples)
    result += made + [Triple(premise, predicate, root) for premise, predicate in links]
    return GraphEdit(list(dict.fromkeys(result)), [root, *(premise for premise, _ in links)],
                     {"root_premises": len(links), "scaffolding_removed": len(scaffolds)})
