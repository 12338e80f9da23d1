"""Rechecking the links decided by similarity alone: a judge turns each candidate into a verdict.

Without a judge, canonicalization links by cosine and the guards (``cg:linkBasis cg:similarity``),
which makes a candidate, not a checked claim. Once a judge is at hand,
``claimgraph canonicalize --recheck`` with ``--adjudicate`` (an LLM) or ``--pair-model DIR`` puts
every such link to it, if the link's cosine lies in its type's band (the judge's remit in the
profile):

- SAME: the link stays and becomes ``cg:judged``, with ``cg:judgedBy`` naming the judge;
- DIFFERENT: the link is undone as ``claimgraph unmerge`` undoes one (the node is held apart from
  that CANON_ node), with the judge's answer as the reason and the judge named on the hold-apart
  mark's statement;
- a failed call, or an answer that is neither: the link is left as it was, counted as undecided.

The judge compares the member's own text with the CANON_ node's text, as when it places a node.
Confirmations and one ``recheck`` activity per paper are written in one request; the links to
undo go in one more (``unmerge.undo_links``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pyoxigraph import Literal, NamedNode

from claimgraph.canonical.links.unmerge import Unlinked, links_by_paper, undo_links
from claimgraph.canonical.settings import CanonicalizeSettings
from claimgraph.context import Context
from claimgraph.papers.audit import Activity, now, numbered_triples
from claimgraph.rdf.binding import bind
from claimgraph.rdf.queries import join_updates, read_sparql
from claimgraph.rdf.vocab import local_name
from claimgraph.store.base import insert_data_update

Verdict = Callable[[str, str, str], "bool | None"]  # (member text, hub text, class name) -> SAME, DIFFERENT or unclear


@dataclass
class RecheckSummary:
    """What a recheck asked and did."""

    judge: str
    asked: int = 0
    confirmed: int = 0
    undone: list[Unlinked] = field(default_factory=list)
    undecided: int = 0
    outside_band: int = 0  # links whose cosine lies outside their type's band, or of a type without one: not asked

    def rows(self) -> list[list[object]]:
        return [["judge", self.judge], ["links by similarity put to the judge", self.asked],
                ["confirmed (now cg:judged)", self.confirmed], ["undone (the judge said DIFFERENT)", len(self.undone)],
                ["undecided (failed call or unclear answer; left as they were)", self.undecided],
                ["not asked (outside the judge's band)", self.outside_band]]


def recheck_links(ctx: Context, verdict: Verdict, judge: str, settings: CanonicalizeSettings) -> RecheckSummary:
    """Put every link decided by similarity alone, within its type's band, to ``verdict``; confirm or undo it."""
    canonical = ctx.iris.canonical_graph()
    summary = RecheckSummary(judge)
    confirmed: list[Unlinked] = []
    for row in ctx.store.select(read_sparql("merge", "similarity-links.rq"), {"canonical": canonical}):
        if not _in_band(settings.band(row["type"].value), float(row["similarity"].value)):
            summary.outside_band += 1
            continue
        summary.asked += 1
        link = Unlinked(row["member"].value, row["hub"].value, row["paper"].value, row["type"].value,
                        local_name(row["link"].value), row["similarity"].value)
        answer = verdict(row["text"].value, row["hubText"].value, local_name(row["type"].value))
        if answer is None:
            summary.undecided += 1
        elif answer:
            confirmed.append(link)
        else:
            summary.undone.append(link)
    summary.confirmed = len(confirmed)
    if confirmed:
        _confirm(ctx, confirmed, judge)
    if summary.undone:
        undo_links(ctx, summary.undone, "recheck", f"{judge} answered DIFFERENT", judge=judge)
    return summary


def _in_band(band: tuple[float, float] | None, similarity: float) -> bool:
    """Whether the judge decides a link of this cosine: from the band's low end up to its high end
    (a band that reaches 1.0 takes the stored cosines rounded up to 1 too)."""
    if band is None:
        return False
    low, high = band
    return similarity >= low - 1e-9 and (similarity < high - 1e-9 or high >= 1.0)


def _confirm(ctx: Context, links: list[Unlinked], judge: str) -> None:
    """The confirmed links become cg:judged, and each paper gets a ``recheck`` activity, in one request."""
    canonical = ctx.iris.canonical_graph()
    script = read_sparql("merge", "confirm-link.ru")
    operations = [bind(script, {"member": NamedNode(link.member), "hub": NamedNode(link.hub), "judge": Literal(judge),
                                "canonical": canonical}) for link in links]
    ended = now()
    operations.append(insert_data_update(numbered_triples(ctx.store, ctx.iris, {paper_id: [
        Activity("recheck", "links by similarity confirmed by a judge", {"confirmed": len(items)},
                 list(dict.fromkeys(NamedNode(link.hub) for link in items)), {"judge": judge}, ended=ended)]
        for paper_id, items in links_by_paper(ctx, links)})))
    ctx.store.update(join_updates([operation for operation in operations if operation]))
