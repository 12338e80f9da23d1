"""The recipes of the malformed reasoning corpus that change what the graph states (surfaces, labels, anchors, shape).

Each recipe builds a ``Built`` from a ``Bench`` (the case's random generator,
the paper, its clean graph, spare viewpoints, the surface material). Recipes
fix what their name says and leave the rest of the surface (DOT style, layout,
tuple spelling, root mark, header, prose) to the case's random generator. The
verdict comes from the model of what was written (``Model.verdict``) or from
where a cut fell (``reasoning_damage``), never from running claimgraph.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from claimgraph.loaders.document import Document
from claimgraph.testing.reasoning_cases.graphs import CleanGraph, Source
from claimgraph.testing.reasoning_cases.mutations import (
    Model,
    Surface,
    alias_labels,
    broken_cardinality,
    build_model,
    conflicting_anchors,
    cycle_edge,
    drop_unit_edge,
    duplicate_node,
    isolated_node,
    mixed_family,
    nodes_only,
    renamed_node,
    reversed_root,
    second_slot_tuples,
    unresolved_anchors,
    wrong_labels,
)
from claimgraph.testing.reasoning_cases.responses import DOT_STYLES, Draft, SurfaceData
from claimgraph.testing.reasoning_cases.verdicts import Verdict, repair

LAYOUTS = ("nodes_first", "edges_first", "units")
TUPLE_FORMS = ("prefix", "role", "source_line", "trailing")


@dataclass(frozen=True)
class Built:
    text: str
    verdict: Verdict
    mutations: tuple[str, ...]
    format: str  # dot, xml, plist, json, text
    expected_graph: CleanGraph | None = None


@dataclass
class Bench:
    rng: random.Random
    document: Document
    graph: CleanGraph
    spare: list[tuple[str, Source]]
    data: SurfaceData

    def surface(self, fmt: str = "dot", **fixed: Any) -> Surface:
        """A random surface for the format, with ``fixed`` fields kept."""
        rng = self.rng
        style = {"dot": rng.choice(DOT_STYLES), "xml": rng.choice(("attrs", "children")), "json": rng.choice(("plain", "from_to"))}.get(fmt, "plain")
        style = str(fixed.get("style", style))
        arrows = ("->",) if style == "strict" else tuple(rng.sample(("->", "→", "=>", "-->"), rng.randint(1, 2)))
        surface = Surface(
            fmt=fmt,
            style=style,
            layout=rng.choice(LAYOUTS) if fmt in ("dot", "xml") else "nodes_first",
            tuples=rng.choice(TUPLE_FORMS),
            root_mark=rng.choice(("none", "prefix") if style == "colon" else ("none", "attr", "prefix")),
            header=rng.choice(self.data.headers),
            arrows=arrows,
        )
        return replace(surface, **fixed)

    def model(self, fmt: str = "dot", role_name: dict[str, str] | None = None, **fixed: Any) -> Model:
        return build_model(self.graph, self.surface(fmt, **fixed), self.rng, role_name)

    def wrap(self, draft: Draft, fmt: str, how: str, close_fence: bool = True, incident: bool = False) -> tuple[Draft, tuple[str, ...]]:
        """Prose and/or a code fence around the graph (``how``: none, prose, fence, both, random);
        ``incident`` uses the first prefix of the data file and the format's first fence."""
        if how == "random":
            how = self.rng.choice(("none", "prose", "fence", "both"))
        if how == "none":
            return draft, ()
        fences = self.data.fences["xml" if fmt == "plist" else fmt]
        prefix = (self.data.prefixes[0] if incident else self.rng.choice(self.data.prefixes)) if how in ("prose", "both") else None
        suffix = self.rng.choice(self.data.suffixes) if how in ("prose", "both") and close_fence else None
        fence = (fences[0] if incident else self.rng.choice(fences)) if how in ("fence", "both") else None
        return draft.wrapped(prefix, fence, suffix, close_fence), ("prose_fences",)

    def finish(self, model: Model, mutations: tuple[str, ...], wrap: str = "none", draft: Draft | None = None) -> Built:
        """The model written out (or the given draft of it), wrapped; verdict from the model."""
        fmt = model.surface.fmt
        wrapped, extra = self.wrap(draft or model.draft(), fmt, wrap)
        return built(wrapped.render().text, model, (*mutations, *extra))


def built(text: str, model: Model, mutations: tuple[str, ...], verdict: Verdict | None = None, fmt: str | None = None) -> Built:
    verdict = verdict or model.verdict()
    expected = repair(model.nodes(), model.edges()).to_graph() if verdict.accept else None
    return Built(text, verdict, mutations, fmt or model.surface.fmt, expected)


Recipe = tuple[str, Callable[[Bench], Built]]
RECIPES: list[Recipe] = []


def recipe(name: str, into: list[Recipe] = RECIPES) -> Callable[[Callable[[Bench], Built]], Callable[[Bench], Built]]:
    """Register a recipe under ``name`` (in ``into``, this module's list unless given)."""
    def register(build: Callable[[Bench], Built]) -> Callable[[Bench], Built]:
        into.append((name, build))
        return build
    return register


# ---------------------------------------------------------------- clean surfaces (accept)


@recipe("clean-strict")
def _clean_strict(bench: Bench) -> Built:
    return bench.finish(bench.model(style="strict"), ("clean",))


@recipe("clean-loose-units")
def _clean_loose(bench: Bench) -> Built:
    return bench.finish(bench.model(style="loose", layout="units"), ("clean",))


@recipe("clean-colon-edges-first")
def _clean_colon(bench: Bench) -> Built:
    return bench.finish(bench.model(style="colon", layout="edges_first"), ("clean",))


@recipe("prose-and-fence")
def _prose_fence(bench: Bench) -> Built:
    return bench.finish(bench.model(style="strict"), (), "both")


@recipe("prose-no-fence")
def _prose(bench: Bench) -> Built:
    return bench.finish(bench.model(style="loose"), (), "prose")


@recipe("xml-attributes")
def _xml(bench: Bench) -> Built:
    return bench.finish(bench.model("xml", style="attrs"), ("format_xml",))


@recipe("xml-children-fenced")
def _xml_children(bench: Bench) -> Built:
    return bench.finish(bench.model("xml", style="children"), ("format_xml",), "both")


@recipe("plist")
def _plist(bench: Bench) -> Built:
    return bench.finish(bench.model("plist"), ("format_plist",), "random")


@recipe("json")
def _json(bench: Bench) -> Built:
    return bench.finish(bench.model("json"), ("format_json",))


@recipe("json-fenced")
def _json_fenced(bench: Bench) -> Built:
    return bench.finish(bench.model("json"), ("format_json",), "both")


@recipe("aliases")
def _aliases(bench: Bench) -> Built:
    model = bench.model()
    alias_labels(model, bench.rng, bench.data)
    return bench.finish(model, ("alias_labels",))


@recipe("aliases-in-roles-fenced")
def _alias_roles(bench: Bench) -> Built:
    names = {label: bench.rng.choice(spellings) for label, spellings in bench.data.aliases.items()}
    model = bench.model(role_name=names, tuples="role")
    alias_labels(model, bench.rng, bench.data)
    return bench.finish(model, ("alias_labels",), "both")


@recipe("duplicate-node")
def _duplicate(bench: Bench) -> Built:
    model = bench.model()
    duplicate_node(model, bench.rng)
    return bench.finish(model, ("duplicate_node",))


@recipe("duplicate-node-wrapped")
def _duplicate_wrapped(bench: Bench) -> Built:
    model = bench.model("dot", style="loose")
    duplicate_node(model, bench.rng)
    return bench.finish(model, ("duplicate_node",), "random")


@recipe("anchor-conflict-inline")
def _conflict_inline(bench: Bench) -> Built:
    model = bench.model(tuples="prefix")
    conflicting_anchors(model, bench.rng, "conflict_inline")
    return bench.finish(model, ("conflicting_anchor",))


@recipe("anchor-conflict-line")
def _conflict_line(bench: Bench) -> Built:
    model = bench.model(tuples="prefix")
    conflicting_anchors(model, bench.rng, "conflict_line")
    return bench.finish(model, ("conflicting_anchor",), "random")


@recipe("anchor-conflict-json-field")
def _conflict_json(bench: Bench) -> Built:
    model = bench.model("json", tuples="prefix")
    conflicting_anchors(model, bench.rng, "field")
    return bench.finish(model, ("conflicting_anchor", "format_json"))


@recipe("viewpoint-in-second-slot")
def _second_slot(bench: Bench) -> Built:
    model = bench.model(tuples=bench.rng.choice(("prefix", "source_line", "trailing")))
    second_slot_tuples(model, bench.rng, bench.document)
    return bench.finish(model, ("viewpoint_second_slot",), "random")


@recipe("brace-missing-fence-closed")
def _brace_missing_fenced(bench: Bench) -> Built:
    model = bench.model()
    return bench.finish(model, ("unclosed_brace_end",), "both", replace(model.draft(), tail=""))


# ---------------------------------------------------------------- labels, roots, anchors


@recipe("discourse-labels")
def _discourse(bench: Bench) -> Built:
    model = bench.model()
    wrong_labels(model, bench.rng, bench.data.discourse_labels, every=True)
    return bench.finish(model, ("wrong_family_all",), "random")


@recipe("unknown-label-fenced")
def _unknown_one(bench: Bench) -> Built:
    model = bench.model()
    wrong_labels(model, bench.rng, bench.data.unknown_labels, every=False)
    return bench.finish(model, ("wrong_family_one",), "both")


@recipe("reversed-root-attribute")
def _reversed_attr(bench: Bench) -> Built:
    model = bench.model(style=bench.rng.choice(("strict", "loose")), root_mark="none")
    reversed_root(model, bench.rng, "attr")
    return bench.finish(model, ("reversed_root",), "random")


@recipe("reversed-root-prefix")
def _reversed_prefix(bench: Bench) -> Built:
    model = bench.model(root_mark="none", tuples=bench.rng.choice(("prefix", "source_line")))
    reversed_root(model, bench.rng, "prefix")
    return bench.finish(model, ("reversed_root",))


@recipe("renamed-node")
def _renamed(bench: Bench) -> Built:
    model = bench.model()
    renamed_node(model, bench.rng)
    return bench.finish(model, ("renamed_node",))


@recipe("renamed-node-fenced")
def _renamed_fenced(bench: Bench) -> Built:
    model = bench.model(bench.rng.choice(("dot", "xml")))
    renamed_node(model, bench.rng)
    return bench.finish(model, ("renamed_node",), "both")


@recipe("unresolved-sentence")
def _unresolved_sentence(bench: Bench) -> Built:
    model = bench.model()
    unresolved_anchors(model, bench.rng, bench.document, "sentence")
    return bench.finish(model, ("unresolved_source",), "random")


@recipe("unresolved-viewpoint")
def _unresolved_viewpoint(bench: Bench) -> Built:
    model = bench.model(bench.rng.choice(("dot", "json")))
    unresolved_anchors(model, bench.rng, bench.document, "viewpoint")
    return bench.finish(model, ("unresolved_source",), "random")


# ---------------------------------------------------------------- graph shape


@recipe("isolated-node")
def _isolated(bench: Bench) -> Built:
    model = bench.model()
    isolated_node(model, bench.rng, bench.spare)
    return bench.finish(model, ("isolated_node",), "random")


@recipe("isolated-node-aliases")
def _isolated_aliases(bench: Bench) -> Built:
    model = bench.model()
    isolated_node(model, bench.rng, bench.spare)
    alias_labels(model, bench.rng, bench.data)
    return bench.finish(model, ("isolated_node", "alias_labels"))


@recipe("nodes-only")
def _nodes_only(bench: Bench) -> Built:
    model = bench.model(bench.rng.choice(("dot", "dot", "xml", "json")))
    nodes_only(model)
    return bench.finish(model, ("nodes_only",), "random")


@recipe("cycle")
def _cycle(bench: Bench) -> Built:
    model = bench.model()
    cycle_edge(model, bench.rng)
    return bench.finish(model, ("cycle",), "random")


@recipe("cycle-through-root")
def _cycle_root(bench: Bench) -> Built:
    model = bench.model(root_mark="none")
    cycle_edge(model, bench.rng, through_root=True)
    return bench.finish(model, ("cycle",), "random")


@recipe("mixed-family")
def _mixed(bench: Bench) -> Built:
    model = bench.model()
    mixed_family(model, bench.rng, bench.spare)
    return bench.finish(model, ("mixed_family",), "random")


@recipe("unit-cardinality")
def _cardinality(bench: Bench) -> Built:
    model = bench.model()
    broken_cardinality(model, bench.rng)
    return bench.finish(model, ("unit_cardinality",), "random")


@recipe("unit-edge-dropped")
def _edge_dropped(bench: Bench) -> Built:
    model = bench.model()
    drop_unit_edge(model, bench.rng)
    return bench.finish(model, ("drop_unit_edge",), "random")


@recipe("prose-only")
def _prose_only(bench: Bench) -> Built:
    model = bench.model()
    lines = [bench.rng.choice(bench.data.prefixes)] if bench.rng.random() < 0.5 else []
    text = "\n".join([*lines, bench.rng.choice(bench.data.no_graph)]) + "\n"
    return built(text, model, ("prose_only",), Verdict(frozenset({"parse_failed"})), "text")
