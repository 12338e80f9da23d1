"""The recipes of the malformed reasoning corpus that damage the text itself: cuts, an open quote, a missing or stray brace.

Each builds on a clean model (``Bench.model``); the verdict follows from
where the damage fell (``reasoning_cuts``), see the rules in
``claimgraph.testing.reasoning_cases.cases``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from claimgraph.testing.reasoning_cases.cuts import (
    MALFORMED,
    TRUNCATED,
    closed_prefix,
    closed_prefix_verdict,
    cut_verdict,
    mid_label_cut,
    mid_statement_cut,
    open_prefix_cut,
    stray_brace,
    unclosed_quote,
)
from claimgraph.testing.reasoning_cases.mutations import Model, NotApplicable
from claimgraph.testing.reasoning_cases.recipes import Bench, Built, Recipe, built, recipe
from claimgraph.testing.reasoning_cases.responses import EdgeEntry, NodeEntry, Rendered
from claimgraph.testing.reasoning_cases.verdicts import Verdict

CUT_FRACTIONS = {"truncate_25": 0.25, "truncate_50": 0.5, "truncate_60": 0.6, "truncate_75": 0.75, "truncate_90": 0.9}
CUT_RECIPES: list[Recipe] = []


def recipe_cut(name: str) -> Callable[[Callable[[Bench], Built]], Callable[[Bench], Built]]:
    return recipe(name, CUT_RECIPES)


# ---------------------------------------------------------------- cuts


def _cut(bench: Bench, model: Model, mutation: str, wrap: str, where: Callable[[Rendered], int], incident: bool = False) -> Built:
    draft, extra = bench.wrap(model.draft(), model.surface.fmt, wrap, incident=incident)
    rendered = draft.render()
    cut = where(rendered)
    return built(rendered.text[:cut], model, (mutation, *extra), cut_verdict(rendered, cut, model.verdict(), model.surface.fmt))


def _fraction_recipe(mutation: str, wrap: str, fmt: str = "dot", incident: bool = False, **fixed: Any) -> Callable[[Bench], Built]:
    """A cut at a fraction of the whole text; ``incident``: wrapped as in the reported incident (``Sure! Here is the graph:``)."""
    def build(bench: Bench) -> Built:
        model = bench.model(fmt, **fixed)
        return _cut(bench, model, mutation, wrap, lambda rendered: round(CUT_FRACTIONS[mutation] * len(rendered.text)), incident)
    return build


recipe_cut("cut-25-fenced")(_fraction_recipe("truncate_25", "both"))
recipe_cut("cut-50")(_fraction_recipe("truncate_50", "none"))
recipe_cut("cut-60-fenced")(_fraction_recipe("truncate_60", "both", incident=True, style="strict"))
recipe_cut("cut-75-edges-first")(_fraction_recipe("truncate_75", "random", layout="edges_first"))
recipe_cut("cut-90-fenced")(_fraction_recipe("truncate_90", "both"))
recipe_cut("cut-60-json")(_fraction_recipe("truncate_60", "random", fmt="json"))


def _mid_cut(bench: Bench, kind: type, statement: bool, wrap: str) -> Built:
    model = bench.model(style=bench.rng.choice(("strict", "loose")))
    draft, extra = bench.wrap(model.draft(), "dot", wrap)
    rendered = draft.render()
    target = round(bench.rng.choice(list(CUT_FRACTIONS.values())) * len(rendered.text))
    cut = mid_statement_cut(rendered, target, bench.rng) if statement else mid_label_cut(rendered, target, bench.rng, kind)
    mutation = "truncate_mid_statement" if statement else "truncate_mid_label"
    return built(rendered.text[:cut], model, (mutation, *extra), cut_verdict(rendered, cut, model.verdict(), "dot"))


recipe_cut("cut-mid-node-label")(lambda bench: _mid_cut(bench, NodeEntry, False, "none"))
recipe_cut("cut-mid-edge-label-fenced")(lambda bench: _mid_cut(bench, EdgeEntry, False, "both"))
recipe_cut("cut-mid-statement")(lambda bench: _mid_cut(bench, EdgeEntry, True, "random"))


@recipe_cut("cut-at-boundary-edges-first")
def _cut_boundary(bench: Bench) -> Built:
    model = bench.model(layout="edges_first")
    edges = sum(isinstance(entry, EdgeEntry) for entry in model.entries)
    keep = bench.rng.randint(edges + 1, len(model.entries) - 1)
    return _cut(bench, model, "truncate_at_boundary", "random", lambda rendered: open_prefix_cut(rendered, keep))


@recipe_cut("cut-closed-in-edges")
def _cut_closed_edges(bench: Bench) -> Built:
    model = bench.model(layout="nodes_first")
    nodes = sum(isinstance(entry, NodeEntry) for entry in model.entries)
    return _closed_cut(bench, model, bench.rng.randint(nodes + 1, len(model.entries) - 1))


@recipe_cut("cut-closed-in-nodes")
def _cut_closed_nodes(bench: Bench) -> Built:
    model = bench.model(layout="edges_first")
    edges = sum(isinstance(entry, EdgeEntry) for entry in model.entries)
    return _closed_cut(bench, model, bench.rng.randint(edges + 1, len(model.entries) - 1))


def _closed_cut(bench: Bench, model: Model, keep: int) -> Built:
    """The first ``keep`` statements, the graph closed after them: verdict by what remains."""
    draft, extra = bench.wrap(closed_prefix(model.draft(), keep), "dot", "random")
    prefix = Model(model.graph, model.surface, model.entries[:keep], model.parts)
    return built(draft.render().text, prefix, ("truncate_closed", *extra), closed_prefix_verdict(model.entries[:keep]))


@recipe_cut("cut-after-header")
def _cut_header(bench: Bench) -> Built:
    model = bench.model()
    draft, extra = bench.wrap(model.draft(), "dot", "random")
    rendered = draft.render()
    verdict = Verdict(frozenset({"parse_failed", "truncated_response"}))
    return built(rendered.text[: rendered.body_start], model, ("truncate_header", *extra), verdict)


# ---------------------------------------------------------------- broken strings and braces


def _open_quote(bench: Bench, kind: type, wrap: str) -> Built:
    model = bench.model(style=bench.rng.choice(("strict", "loose")))
    draft, extra = bench.wrap(model.draft(), "dot", wrap)
    try:
        text = unclosed_quote(draft.render(), bench.rng, kind)
    except ValueError as error:
        raise NotApplicable(str(error)) from error
    mutation = "unclosed_quote_node_label" if kind is NodeEntry else "unclosed_quote_edge_label"
    return built(text, model, (mutation, *extra), MALFORMED)


recipe_cut("open-quote-node")(lambda bench: _open_quote(bench, NodeEntry, "none"))
recipe_cut("open-quote-node-fenced")(lambda bench: _open_quote(bench, NodeEntry, "both"))
recipe_cut("open-quote-edge")(lambda bench: _open_quote(bench, EdgeEntry, "random"))


@recipe_cut("brace-missing-at-end")
def _brace_missing(bench: Bench) -> Built:
    model = bench.model()
    how = bench.rng.choice(("none", "both"))
    draft, extra = bench.wrap(replace(model.draft(), tail=""), "dot", how, close_fence=False)
    return built(draft.render().text.rstrip() + "\n", model, ("unclosed_brace_end", *extra), model.verdict().adding(TRUNCATED))


@recipe_cut("brace-stray-in-middle")
def _brace_stray(bench: Bench) -> Built:
    model = bench.model(style=bench.rng.choice(("strict", "loose")))
    draft, extra = bench.wrap(stray_brace(model.draft(), bench.rng), "dot", "random")
    return built(draft.render().text, model, ("unclosed_brace_middle", *extra), MALFORMED)


@recipe_cut("cut-closed-at-unit")
def _cut_closed_unit(bench: Bench) -> Built:
    model = bench.model(layout="units", style=bench.rng.choice(("strict", "loose")))
    ends = [index + 1 for index, entry in enumerate(model.entries[:-1])
            if isinstance(entry, EdgeEntry) and not isinstance(model.entries[index + 1], EdgeEntry)]
    if not ends:
        raise NotApplicable("one unit only: no unit boundary before the end")
    return _closed_cut(bench, model, bench.rng.choice(ends))
