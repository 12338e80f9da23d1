"""Releasing a node: lift the verdicts that keep it apart, so that canonicalization may place it again.

An unmerge (``node cg:heldApartFrom hub``) and a judge's DIFFERENT (``node cg:judgedDifferentFrom
other``) keep a node out of a CANON_ node, and its text apart from the other text; an unmerge's mark
outlives a re-ingest that leaves the node's text as it was, a judge's DIFFERENT goes with the re-ingest
(``sparql/merge/remove-hub-members.ru``). A verdict can be wrong: ``claimgraph release`` lifts the verdicts about one node
(every one, or those naming one CANON_ node or node), each with its statement
(``sparql/merge/release-verdict.ru``), and writes a ``release`` activity per verdict to the audit
trail of the paper it was about, all in one request. Paper graphs are not touched. The node stays
unattached until ``claimgraph canonicalize --force --paper ID`` places it again.

Verdicts hold for pairs of differing texts (``text_pairs``, as placement reads them), so another verdict
that keeps a lifted pair apart (on a copy of the node's text, or another node held apart from the same
CANON_ node) still does; the release returns those, for the user to lift as well.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from pyoxigraph import NamedNode, Triple

from claimgraph.canonical.links.section import single_writer
from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError
from claimgraph.papers.audit import Activity, now, numbered_triples
from claimgraph.rdf.binding import bind
from claimgraph.rdf.queries import join_updates, read_internal_query, read_named_query, read_sparql
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


@dataclass(frozen=True)
class Released:
    lifted: list[Verdict]
    still_apart: list[Verdict]  # other verdicts that keep a text pair of the lifted ones apart, as placement reads them
    unaudited: list[Verdict]    # lifted verdicts about a node whose paper is no longer stored: no audit graph to write to


def held_apart(ctx: Context) -> list[Verdict]:
    """Every verdict, from the shipped ``held-apart`` query."""
    rows = ctx.store.select(read_named_query("held-apart"), {"canonical": ctx.iris.canonical_graph()})
    return [Verdict(row["node"].value, local_name(row["verdict"].value), row["other"].value,
                    *(row[name].value if name in row else None for name in ("paper", "text", "otherText", "judge")))
            for row in rows]


def release(ctx: Context, node: NamedNode, other: NamedNode | None = None, reason: str = "") -> Released:
    """Lift the verdicts that keep ``node`` apart (from ``other`` only, when given), whichever side it is on; nothing
    is lifted (``Released.lifted`` empty) when no verdict keeps a stored node apart any more (a retried release)."""
    with single_writer(ctx):
        return _release(ctx, node, other, reason)


def _release(ctx: Context, node: NamedNode, other: NamedNode | None, reason: str) -> Released:
    every = held_apart(ctx)
    verdicts = _about(ctx, every, node, other)
    if not verdicts and ctx.store.ask(read_internal_query("node-known"), {"node": node}):
        return Released([], [], [])  # already released: nothing keeps the node apart
    if not verdicts:
        apart_from = f" from <{other.value}>" if other is not None else ""
        raise ReleaseError(f"no verdict keeps node <{node.value}> apart{apart_from} in {ctx.store.location}, and no stored "
                           "paper has that node; list the verdicts with `claimgraph query held-apart`")
    lifted_pairs = {pair for pair, producers in text_pairs(every).items() if any(verdict in verdicts for verdict in producers)}
    canonical = ctx.iris.canonical_graph()
    script = read_sparql("merge", "release-verdict.ru")
    operations = [bind(script, {"node": NamedNode(verdict.node), "verdict": CG[verdict.kind], "other": NamedNode(verdict.other),
                                "canonical": canonical}) for verdict in verdicts]
    papers = {verdict: _paper_of(ctx, verdict) for verdict in verdicts}
    operations.append(insert_data_update(_audit(ctx, papers, reason)))
    ctx.store.update(join_updates(operations))
    after = text_pairs([verdict for verdict in every if verdict not in verdicts])
    still = [verdict for pair in sorted(lifted_pairs & after.keys(), key=sorted) for verdict in after[pair]]
    return Released(verdicts, list(dict.fromkeys(still)), [verdict for verdict, paper in papers.items() if paper is None])


def text_pairs(verdicts: list[Verdict]) -> dict[frozenset[str], list[Verdict]]:
    """The pairs of differing texts that ``verdicts`` keep apart, each with the verdicts that do, as placement
    reads them (``links.placement.apart_pairs``): a judge's DIFFERENT pairs its two texts; nodes held apart
    from one CANON_ node pair their texts with each other and with its text, while it exists."""
    pairs: dict[frozenset[str], list[Verdict]] = defaultdict(list)
    groups: dict[str, list[Verdict]] = defaultdict(list)
    for verdict in verdicts:
        if verdict.kind == "heldApartFrom":
            groups[verdict.other].append(verdict)
        elif verdict.text is not None and verdict.other_text is not None and verdict.text != verdict.other_text:
            pairs[frozenset((verdict.text, verdict.other_text))].append(verdict)
    for members in groups.values():
        texts = {verdict.text for verdict in members if verdict.text is not None}
        texts |= {verdict.other_text for verdict in members if verdict.other_text is not None}
        for verdict in members:
            if verdict.text is not None:
                own: str = verdict.text
                for text in sorted(texts - {own}):
                    pairs[frozenset((own, text))].append(verdict)
    return pairs


def _about(ctx: Context, every: list[Verdict], node: NamedNode, other: NamedNode | None) -> list[Verdict]:
    """The verdicts with ``node`` on either side (and ``other`` on the other, when given). A CANON_ node is refused:
    every member held apart from it would be released at once."""
    is_hub = ctx.store.ask("ASK { GRAPH ?canonical { ?node a ?hub } }",
                           {"canonical": ctx.iris.canonical_graph(), "node": node, "hub": CG.CanonicalNode})
    if is_hub or any(verdict.kind == "heldApartFrom" and verdict.other == node.value for verdict in every):
        raise ReleaseError(f"<{node.value}> is a CANON_ node (or was one): name the node held apart with --node, "
                           "and this CANON_ node with --from")
    sides = {node.value, other.value} if other is not None else {node.value}
    return [verdict for verdict in every
            if node.value in (verdict.node, verdict.other) and (other is None or {verdict.node, verdict.other} == sides)]


def _paper_of(ctx: Context, verdict: Verdict) -> str | None:
    """The id of the stored paper the verdict is about: the one holding the node's text, else the one its IRI
    names (a node whose text has gone from its paper graph); None when that paper is not stored."""
    paper_id = ctx.iris.paper_id_of(NamedNode(verdict.paper)) if verdict.paper else ctx.iris.paper_id_of(NamedNode(verdict.node))
    if paper_id is None or not ctx.store.ask("ASK { GRAPH ?g { ?g a ?paper } }", {"g": ctx.iris.paper(paper_id), "paper": CG.Paper}):
        return None
    return paper_id


def _audit(ctx: Context, papers: dict[Verdict, str | None], reason: str) -> dict[NamedNode, list[Triple]]:
    """One ``release`` activity per verdict, in the audit graph of the paper it is about (when that is stored)."""
    activities: dict[str, list[Activity]] = defaultdict(list)
    ended = now()
    for verdict, paper_id in papers.items():
        if paper_id is not None:
            notes = {"node": verdict.node, "verdict": verdict.kind, "other": verdict.other,
                     **({"judge": verdict.judge} if verdict.judge else {}), **({"reason": reason} if reason else {})}
            activities[paper_id].append(Activity("release", f"release from {verdict.kind}", {"released": 1},
                                                 [NamedNode(verdict.node), NamedNode(verdict.other)], notes, ended=ended))
    return numbered_triples(ctx.store, ctx.iris, activities)
