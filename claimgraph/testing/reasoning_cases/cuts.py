"""Text-level damage to a rendered response (cuts, a dropped quote, a stray brace) and the verdict each leaves.

The verdict of a cut follows from where the cut falls in the rendered text,
which the generator knows statement by statement (see the rules in
``claimgraph.testing.reasoning_cases.cases``). A statement the cut passes through
has three readings, all valid for a tolerant parser: dropped, admitted whole,
or admitted with a broken label or tuple; what every reading requires is
required, anything one of them produces is tolerated.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from claimgraph.testing.reasoning_cases.responses import Draft, EdgeEntry, Entry, NodeEntry, Placed, Rendered
from claimgraph.testing.reasoning_cases.verdicts import ANY_GRAPH_RESIDUAL, EdgeDecl, NodeDecl, Verdict, either, graph_verdict

TRUNCATED = frozenset({"truncated_response"})
MALFORMED = Verdict(frozenset({"malformed_response"}), ANY_GRAPH_RESIDUAL)


def entries_verdict(entries: Sequence[Entry]) -> Verdict:
    nodes = [entry.decl for entry in entries if isinstance(entry, NodeEntry)]
    edges = [entry.decl for entry in entries if isinstance(entry, EdgeEntry)]
    return graph_verdict(nodes, edges)


def _damaged(entry: Entry) -> NodeDecl | EdgeDecl:
    """The declaration a cut statement states when a parser admits what is left of it."""
    if isinstance(entry, EdgeEntry):
        return replace(entry.decl, label=None)
    return replace(entry.decl, resolves=False)


def cut_verdict(rendered: Rendered, cut: int, whole: Verdict, graph_format: str) -> Verdict:
    """The verdict of ``rendered.text[:cut]``; ``whole`` is the verdict of the uncut response."""
    if cut >= rendered.tail_end:
        return whole
    if cut < rendered.body_start:
        return Verdict(frozenset({"parse_failed"}), TRUNCATED)
    if graph_format != "dot":
        return Verdict(TRUNCATED, ANY_GRAPH_RESIDUAL | {"parse_failed"})
    complete = [placed.statement.entry for placed in rendered.placed if placed.end <= cut and placed.statement.entry]
    partial = next((placed.statement.entry for placed in rendered.placed if placed.start < cut < placed.end), None)
    readings = [entries_verdict(complete)]
    if partial is not None:
        readings.append(entries_verdict([*complete, partial]))
        nodes = [entry.decl for entry in complete if isinstance(entry, NodeEntry)]
        edges = [entry.decl for entry in complete if isinstance(entry, EdgeEntry)]
        damaged = _damaged(partial)
        readings.append(graph_verdict([*nodes, damaged] if isinstance(damaged, NodeDecl) else nodes, [*edges, damaged] if isinstance(damaged, EdgeDecl) else edges))
    verdict = either(readings).relaxing({"dangling_edge", "parse_failed"}).adding(TRUNCATED)
    return verdict.adding(tolerated={"dangling_edge"} if partial is not None else ())


def closed_prefix_verdict(entries: Sequence[Entry]) -> Verdict:
    """A graph cut at a statement boundary and closed again: what the remaining graph shows; ids it
    references but never declares mean it was cut (truncated_response, its dangling edges tolerated)."""
    verdict = entries_verdict(entries)
    if "dangling_edge" in verdict.residuals:
        verdict = verdict.relaxing({"dangling_edge"}).adding(TRUNCATED)
    return verdict


def closed_prefix(draft: Draft, keep: int) -> Draft:
    """The draft with only its first ``keep`` statements (and the separators after them), closed as before."""
    index = draft.statement_index(keep - 1)
    return replace(draft, items=[*draft.items[: index + 1], "\n"])


def open_prefix_cut(rendered: Rendered, keep: int) -> int:
    """The offset just after the ``keep``-th statement: a cut at a statement boundary."""
    return rendered.placed[keep - 1].end


def statements_before(rendered: Rendered, cut: int) -> int:
    return sum(1 for placed in rendered.placed if placed.end <= cut)


def span(placed: Placed) -> tuple[int, int]:
    """Where a placed statement's quoted label starts and ends (only statements with a label are asked)."""
    if placed.label is None:
        raise ValueError("the statement has no quoted label")
    return placed.label


def mid_label_cut(rendered: Rendered, cut: int, rng: random.Random, kind: type) -> int:
    """A cut inside the quoted label of the ``kind`` statement nearest to ``cut`` (after its opening quote, before its closing one)."""
    labelled = [placed for placed in rendered.placed
                if isinstance(placed.statement.entry, kind) and placed.label and placed.label[1] - placed.label[0] >= 6]
    placed = min(labelled, key=lambda item: abs(span(item)[0] - cut))
    start, end = span(placed)
    return rng.randint(start + 2, end - 2)


def mid_statement_cut(rendered: Rendered, cut: int, rng: random.Random) -> int:
    """A cut inside the statement nearest to ``cut`` but outside its label: within ``a -> b [label=``."""
    labelled = [placed for placed in rendered.placed if placed.label and placed.label[0] - placed.start >= 3]
    placed = min(labelled, key=lambda item: abs(item.start - cut))
    return rng.randint(placed.start + 2, span(placed)[0] - 1)


def unclosed_quote(rendered: Rendered, rng: random.Random, kind: type) -> str:
    """The text with the closing quote of one label dropped: a node or edge statement (``kind``) that has at
    least two quoted statements after it, so the open string runs into them rather than off the end."""
    placed = list(rendered.placed)
    candidates = [index for index, item in enumerate(placed[:-2])
                  if isinstance(item.statement.entry, kind) and item.label and sum(1 for later in placed[index + 1:] if later.label) >= 2]
    if not candidates:
        raise ValueError("no labelled statement with two quoted statements after it")
    item: Placed = placed[rng.choice(candidates)]
    close = span(item)[1] - 1
    return rendered.text[:close] + rendered.text[close + 1:]


def stray_brace(draft: Draft, rng: random.Random) -> Draft:
    """A brace opened in the middle of the graph and never closed (the graph's own closing brace is still there)."""
    statements = sum(1 for item in draft.items if not isinstance(item, str))
    index = draft.statement_index(rng.randint(1, max(1, statements - 2)))
    opener = rng.choice(("  subgraph cluster_premises {\n", "  {\n"))
    return replace(draft, items=[*draft.items[: index - 1], opener, *draft.items[index - 1:]])
