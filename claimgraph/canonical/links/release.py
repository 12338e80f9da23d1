"""Releasing a node: lift the verdicts that keep it apart, so that canonicalization may place it again.

An unmerge (``node cg:heldApartFrom hub``) and a judge's DIFFERENT (``node cg:judgedDifferentFrom
other``) keep a node out of a CANON_ node, and its text apart from the other text, until its paper
is ingested again. A verdict can be wrong: ``claimgraph release`` lifts the verdicts about one node
(every one, or those naming one CANON_ node or node), each with its statement
(``sparql/merge/release-verdict.ru``), and writes a ``release`` activity per verdict to the audit
trail of the paper it was about, all in one request. Paper graphs are not touched. The node stays
unattached until ``claimgraph canonicalize --force --paper ID`` places it again.

Verdicts hold for pairs of differing texts, so another verdict about the same two texts (on a copy of
the node's text) still keeps them apart; the release returns those, for the user to lift as well.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyoxigraph import NamedNode, Triple

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.papers.audit import Activity, now, numbered_triples
from claimgraph.rdf.binding import bind
from claimgraph.rdf.queries import join_updates, read_named_query, read_sparql
from claimgraph.rdf.vocab import CG, local_name
from claimgraph.store.base import insert_data_update


class ReleaseError(ClaimgraphError):
    """Nothing to release: no verdict keeps the node apart (from the one named)."""


@dataclass(frozen=True)
class Verdict:
    """One verdict keeping ``node`` apart from ``other``: ``kind`` is heldApartFrom or judgedDifferentFrom."""

    node: str
    kind: str
    other: str
    paper: str | None
    text: str | None
    other_text: str | None
    judge: str | None

    @property
    def texts(self) -> frozenset[str | None]:
        return frozenset((self.text, self.other_text))


@dataclass(frozen=True)
class Released:
    lifted: list[Verdict]
    still_apart: list[Verdict]  # other verdicts about the same two texts, which still keep them apart


def held_apart(ctx: Context, **bindings: NamedNode) -> list[Verdict]:
    """The verdicts of the shipped ``held-apart`` query, narrowed by ``node`` and/or ``other``."""
    rows = ctx.store.select(read_named_query("held-apart"), {"canonical": ctx.iris.canonical_graph(), **bindings})
    return [Verdict(row["node"].value, local_name(row["verdict"].value), row["other"].value,
                    *(row[name].value if name in row else None for name in ("paper", "text", "otherText", "judge")))
            for row in rows]


def release(ctx: Context, node: NamedNode, other: NamedNode | None = None, reason: str = "") -> Released:
    """Lift the verdicts that keep ``node`` apart (from ``other`` only, when given), whichever side it is on."""
    verdicts = _about(ctx, node, other)
    if not verdicts:
        apart_from = f" from <{other.value}>" if other is not None else ""
        raise ReleaseError(f"no verdict keeps node <{node.value}> apart{apart_from} in {ctx.store.location}; "
                           "list them with `claimgraph query held-apart`")
    canonical = ctx.iris.canonical_graph()
    script = read_sparql("merge", "release-verdict.ru")
    operations = [bind(script, {"node": NamedNode(verdict.node), "verdict": CG[verdict.kind], "other": NamedNode(verdict.other),
                                "canonical": canonical}) for verdict in verdicts]
    operations.append(insert_data_update(_audit(ctx, verdicts, reason)))
    ctx.store.update(join_updates(operations))
    lifted = {verdict.texts for verdict in verdicts if None not in verdict.texts and len(verdict.texts) == 2}
    return Released(verdicts, [verdict for verdict in held_apart(ctx) if verdict.texts in lifted])


def _about(ctx: Context, node: NamedNode, other: NamedNode | None) -> list[Verdict]:
    """The verdicts with ``node`` on either side (and ``other`` on the other, when given)."""
    as_subject = held_apart(ctx, node=node, **({"other": other} if other is not None else {}))
    as_object = held_apart(ctx, other=node, **({"node": other} if other is not None else {}))
    return list(dict.fromkeys(as_subject + as_object))


def _audit(ctx: Context, verdicts: list[Verdict], reason: str) -> dict[NamedNode, list[Triple]]:
    """One ``release`` activity per verdict, in the audit graph of the paper the verdict was about."""
    activities: dict[str, list[Activity]] = {}
    ended = now()
    for verdict in verdicts:
        paper_id = ctx.iris.paper_id_of(NamedNode(verdict.paper)) if verdict.paper else None
        if paper_id is None:
            continue
        notes = {"node": verdict.node, "verdict": verdict.kind, "other": verdict.other,
                 **({"judge": verdict.judge} if verdict.judge else {}), **({"reason": reason} if reason else {})}
        activities.setdefault(paper_id, []).append(Activity(
            "release", f"release from {verdict.kind}", {"released": 1}, [NamedNode(verdict.node), NamedNode(verdict.other)],
            notes, ended=ended))
    return numbered_triples(ctx.store, ctx.iris, activities)
