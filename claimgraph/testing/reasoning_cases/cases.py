"""A generated corpus of malformed reasoning-graph responses, each with the verdict the gate must give.

``generate_cases(documents, seed)`` grows a clean single-root reasoning graph
per case from a paper's own viewpoints (``reasoning_graphs``), writes it as an
LLM-style response (DOT, XML fields, plist, JSON, with or without prose and
code fences), damages it by a recipe (``reasoning_recipes`` for what the graph
states, ``reasoning_damage`` for the text itself) and records the
expected verdict. The verdict follows from what the generator wrote, never
from running claimgraph. ``write_cases(folder, cases)`` writes each response
to a file and ``cases.json``; from the command line:
``python -m claimgraph.testing.reasoning_cases.cases OUT [--arche DIR | --synthetic N] [--seed S]``.

Mutations (``ReasoningCase.mutations``, names in ``MUTATIONS``)
---------------------------------------------------------------
Surfaces that must be accepted: ``clean`` (DOT: strict, loose or ``a: "label"``
/ ``a -> b : label`` styles; nodes first, edges first or unit by unit),
``prose_fences`` (prose and/or a code fence around the graph), ``format_xml``,
``format_plist``, ``format_json``, ``alias_labels`` (``DR``, ``ded-rule``,
``Deduction rule`` on edges and as node role prefixes), ``duplicate_node``
(one text under two ids; accepted after the recorded merge),
``conflicting_anchor``, ``viewpoint_second_slot``. Damage: ``truncate_25`` ...
``truncate_90`` (cut at that share of the text), ``truncate_mid_label``,
``truncate_mid_statement``, ``truncate_at_boundary``, ``truncate_closed``,
``truncate_header``; ``unclosed_quote_node_label``, ``unclosed_quote_edge_label``;
``unclosed_brace_end``, ``unclosed_brace_middle``; ``wrong_family_all`` (only
supports/opposes), ``wrong_family_one``; ``reversed_root``; ``renamed_node``
(edges keep the old id); ``unresolved_source``; ``isolated_node``;
``nodes_only``; ``cycle``; ``mixed_family``; ``unit_cardinality``;
``drop_unit_edge``; ``prose_only`` (no graph at all).

Verdicts
--------
A verdict is ``accept`` or a set of required residuals plus a set of tolerated
ones: a pipeline that produced the residual set R gives the expected verdict
when ``required <= R <= required | tolerated`` (``Verdict.admits``). Accept
means nothing required and nothing tolerated: the stored graph must then be
``expected_graph`` (node ids, texts, source tuples, edge labels).

Residuals and their triggers
----------------------------
About the response text:

- ``parse_failed``: nothing recoverable: no node and no edge statement.
- ``truncated_response``: the input ends inside a string, inside a statement,
  or inside the graph's open brace (DOT ``{``, JSON ``{``/``[``); or the graph
  is closed but references node ids it never declares after losing statements.
- ``malformed_response``: a string left open in the middle of the graph (it
  "closes" on a later statement's quote and swallows what lies between), or a
  brace opened in the middle and never closed (the text still ends with the
  graph's own closing brace); statements holding graph material were lost.

About what the response states (after materialization):

- ``unknown_label``: an edge label outside the closed Peircean vocabulary and
  its aliases (``supports``, ``opposes``, ``leads to``).
- ``unresolved_source``: a node's tuple names a sentence the paper does not
  have, or a viewpoint number its sentence does not have. (0, 0, 0) is implicit,
  not unresolved.
- ``dangling_edge``: an edge names a node id the (uncut) response never declares.
- ``root_orientation``: a node the response marks as root (``root=true``, a
  ``Root:``/``Conclusion:`` label prefix) has outgoing reasoning edges, and
  they cannot be re-oriented by a fixed rule (the mark sits on a premise).

About the repaired graph (aliases canonicalized; nodes of equal text after
case and space folding merged into the smallest id; self-loops, dangling and
duplicate edges dropped; several terminals joined by the scaffolding root,
which is no residual):

- ``no_edges``: nodes but no reasoning edge (``isolated_nodes`` is then
  tolerated, not required).
- ``isolated_nodes``: a stated node with no reasoning edge while others have some.
- ``mixed_family_unit``: a target's incoming edges mix families.
- ``single_edge_unit``: a target with exactly one incoming edge.
- ``unit_cardinality``: any other incomplete single-family unit (two rules,
  induction cases without a common, ...).
- ``cycle``: reasoning edges form a directed cycle.
- ``no_root``: no terminal node (every node has an outgoing reasoning edge).

Rules for the ambiguous cases
-----------------------------
- An edge with an unknown label may be read as no edge at all or as an edge of
  no role (it counts for isolation and the terminal, and leaves its unit
  incomplete). What both readings give is required, the rest tolerated.
- A cut that passes through a statement has three readings: the statement
  dropped, admitted whole, or admitted with a broken label (an unknown edge
  label) or tuple (an unresolved node). What all readings give is required,
  the rest tolerated, ``truncated_response`` always required and
  ``dangling_edge`` tolerated (a cut explains ids that are never declared).
- A cut that falls after the graph's closing brace (in trailing prose or the
  closing fence) leaves the graph whole: the verdict of the uncut response.
- A cut before the graph begins (inside leading prose or the header) is
  ``parse_failed`` (``truncated_response`` tolerated); a cut right after the
  opening brace is both.
- A DOT graph missing its closing brace counts as cut (``truncated_response``)
  when nothing follows its last statement; when its code fence is closed after
  it (and prose may follow), the brace was forgotten, not cut: the verdict is
  that of the graph (accept for a clean one).
- A graph cut at a statement boundary and closed again (``truncate_closed``)
  is indistinguishable from a smaller answer: labelled by what the remaining
  graph shows (accept when it is whole units under the root, ``isolated_nodes``,
  ``single_edge_unit``, ...), except that ids it references but never declares
  make it ``truncated_response``.
- A cut in JSON, XML or plist is ``truncated_response`` with every graph
  residual tolerated (what a parser salvages from a cut document is its choice).
- A broken string or brace in the middle (``malformed_response``) tolerates
  every graph residual for the same reason.
- A node anchored at its sentence's own viewpoint (x, 0, k) written as
  (x, k, 0), where sentence x cites no reference k, means (x, 0, k): accept.
- A node written ``(0,0,0) ... Source: (x,y,z)`` (or with a JSON ``source``
  field) keeps the explicit anchor (x, y, z): accept.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claimgraph.errors import ClaimgraphError
from claimgraph.loaders.document import Document
from claimgraph.testing.reasoning_cases.damage import CUT_RECIPES
from claimgraph.testing.reasoning_cases.graphs import MIN_VIEWPOINTS, CleanGraph, ReasoningCorpusError, graph_size, grow_graph, paper_viewpoints
from claimgraph.testing.reasoning_cases.mutations import NotApplicable
from claimgraph.testing.reasoning_cases.recipes import RECIPES as GRAPH_RECIPES
from claimgraph.testing.reasoning_cases.recipes import Bench, Built, Recipe
from claimgraph.testing.reasoning_cases.responses import load_surface
from claimgraph.testing.reasoning_cases.verdicts import RESIDUALS, Verdict

CASES_PER_PAPER = 3
RECIPES: tuple[Recipe, ...] = (*GRAPH_RECIPES, *CUT_RECIPES)
CASES_FILE = "cases.json"
EXTENSIONS = {"dot": "dot", "xml": "xml", "plist": "plist", "json": "json", "text": "txt"}
MUTATIONS = (
    "clean", "prose_fences", "format_xml", "format_plist", "format_json", "alias_labels", "duplicate_node",
    "conflicting_anchor", "viewpoint_second_slot", "unresolved_source",
    "truncate_25", "truncate_50", "truncate_60", "truncate_75", "truncate_90", "truncate_mid_label",
    "truncate_mid_statement", "truncate_at_boundary", "truncate_closed", "truncate_header",
    "unclosed_quote_node_label", "unclosed_quote_edge_label", "unclosed_brace_end", "unclosed_brace_middle",
    "wrong_family_all", "wrong_family_one", "reversed_root", "renamed_node", "isolated_node", "nodes_only",
    "cycle", "mixed_family", "unit_cardinality", "drop_unit_edge", "prose_only",
)


@dataclass(frozen=True)
class ReasoningCase:
    paper_id: str
    name: str
    response: str
    format: str
    graph: CleanGraph
    mutations: tuple[str, ...]
    verdict: Verdict
    expected_graph: CleanGraph | None = None

    @property
    def file_name(self) -> str:
        return f"{self.name}.{EXTENSIONS[self.format]}"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "paper_id": self.paper_id,
            "file": self.file_name,
            "format": self.format,
            "mutations": list(self.mutations),
            "expected": self.verdict.to_json(),
            "graph": self.graph.to_json(),
            "expected_graph": self.expected_graph.to_json() if self.expected_graph else None,
        }


def _bench(document: Document, rng: random.Random) -> Bench:
    viewpoints = paper_viewpoints(document)
    if len(viewpoints) < MIN_VIEWPOINTS:
        raise NotApplicable(f"{document.paper_id} has {len(viewpoints)} distinct viewpoints, fewer than {MIN_VIEWPOINTS}")
    graph = grow_graph(rng, viewpoints, graph_size(rng, len(viewpoints) - 4))
    spare = viewpoints[len(graph.nodes): len(graph.nodes) + 4]
    return Bench(rng, document, graph, spare, load_surface())


def _case(index: int, name: str, document: Document, seed: int) -> ReasoningCase:
    """One recipe on one paper; raises NotApplicable when the recipe has nothing to act on there."""
    build = dict(RECIPES)[name]
    rng = random.Random(f"{seed}/{index}/{document.paper_id}/{name}")
    bench = _bench(document, rng)
    result: Built = build(bench)
    if result.verdict.ambiguous:
        raise ReasoningCorpusError(f"recipe {name} on {document.paper_id} gave an ambiguous verdict (nothing required, "
                                   f"{sorted(result.verdict.tolerated)} tolerated): its rule must decide")
    return ReasoningCase(document.paper_id, f"{index:03d}-{name}", result.text, result.format, bench.graph,
                         result.mutations, result.verdict, result.expected_graph)


def generate_cases(documents: Sequence[Document], seed: int = 7, cases_per_paper: int = CASES_PER_PAPER) -> list[ReasoningCase]:
    """``cases_per_paper`` cases per paper and every recipe at least once, recipes taken in turn over the
    papers (sorted by id); a recipe that cannot act on a paper moves to the next one. Deterministic for
    (documents, seed)."""
    papers = sorted(documents, key=lambda document: document.paper_id)
    if not papers:
        raise ReasoningCorpusError("no papers to generate reasoning cases from")
    cases = []
    for index in range(max(len(papers) * cases_per_paper, len(RECIPES))):
        name = RECIPES[index % len(RECIPES)][0]
        for offset in range(len(papers)):
            try:
                cases.append(_case(index, name, papers[(index + offset) % len(papers)], seed))
                break
            except NotApplicable:
                continue
    return cases


def write_cases(folder: Path, cases: Sequence[ReasoningCase], seed: int | None = None) -> Path:
    """Each response as ``<name>.<ext>`` and ``cases.json`` (expected verdicts, clean graphs) into ``folder``
    (new, empty, or holding only files of an earlier run); returns the path of ``cases.json``."""
    names = {case.file_name for case in cases} | {CASES_FILE}
    if folder.exists() and not folder.is_dir():
        raise ReasoningCorpusError(f"{folder}: exists and is not a folder; give a folder for the cases")
    strangers = sorted(path.name for path in folder.iterdir() if path.name not in names) if folder.is_dir() else []
    if strangers:
        raise ReasoningCorpusError(f"{folder}: already holds {', '.join(strangers[:3])}{' ...' if len(strangers) > 3 else ''}; "
                                   "write the cases into an empty folder")
    folder.mkdir(parents=True, exist_ok=True)
    for case in cases:
        (folder / case.file_name).write_bytes(case.response.encode("utf-8"))
    index = {"generator": __name__, "seed": seed, "residuals": list(RESIDUALS), "cases": [case.to_json() for case in cases]}
    path = folder / CASES_FILE
    path.write_bytes((json.dumps(index, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
    return path


def summary(cases: Sequence[ReasoningCase]) -> tuple[Counter[str], Counter[str]]:
    """(cases per expected verdict: 'accept' or each required residual; cases per mutation)."""
    verdicts: Counter[str] = Counter()
    for case in cases:
        verdicts.update(sorted(case.verdict.residuals) or ["accept"])
    return verdicts, Counter(mutation for case in cases for mutation in case.mutations)


def load_papers(folder: Path) -> list[Document]:
    from claimgraph.loaders import load_document

    paths = sorted(folder.glob("*.json"))
    if not paths:
        raise ReasoningCorpusError(f"{folder}: no ARCHE JSON papers there")
    return [load_document(path) for path in paths]


def synthetic_papers(count: int, seed: int) -> list[Document]:
    from claimgraph.loaders.formats.arche import arche_document
    from claimgraph.testing.synthetic.arche import corpus_documents

    return [arche_document(data, Path(name)) for name, data in corpus_documents(count, seed).items()]


def add_corpus_options(parser: argparse.ArgumentParser) -> None:
    """``--arche DIR | --synthetic N``: the papers a benchmark runs on (see ``chosen_papers``)."""
    from claimgraph.testing.corpora import ARCHE_ENV

    source = parser.add_mutually_exclusive_group()
    source.add_argument("--arche", type=Path, help=f"folder of ARCHE JSON papers (default: ${ARCHE_ENV} or ../shared/data/arche)")
    source.add_argument("--synthetic", type=int, metavar="N", help="use N papers of the synthetic ARCHE-format corpus")


def chosen_papers(args: argparse.Namespace, seed: int, fallback: int) -> tuple[list[Document], str]:
    """The papers ``add_corpus_options`` chose, and a line naming them: the real corpus unless ``--synthetic``
    (``fallback`` synthetic papers, with a note, on a machine without it)."""
    from claimgraph.testing.corpora import ARCHE_ENV, real_arche_dir

    if args.synthetic is None:
        folder = args.arche or real_arche_dir()
        if folder is not None:
            return load_papers(folder), f"real ARCHE corpus at {folder}"
        print(f"note: no real ARCHE corpus found (set {ARCHE_ENV} or pass --arche); using the synthetic ARCHE-format corpus", file=sys.stderr)
    count = args.synthetic or fallback
    return synthetic_papers(count, seed), f"synthetic ARCHE-format corpus ({count} papers, seed {seed})"


def main(argv: Sequence[str] | None = None) -> int:
    from claimgraph.testing.corpora import ARCHE_ENV, real_arche_dir

    parser = argparse.ArgumentParser(prog="python -m claimgraph.testing.reasoning_cases.cases",
                                     description="Write malformed reasoning-graph responses and cases.json with their expected verdicts.")
    parser.add_argument("out", type=Path, help="folder to write (new or empty)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--arche", type=Path, help=f"folder of ARCHE JSON papers (default: ${ARCHE_ENV} or ../shared/data/arche)")
    source.add_argument("--synthetic", type=int, metavar="PAPERS", help="use this many papers of the synthetic ARCHE corpus instead")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    args = parser.parse_args(argv)
    try:
        if args.synthetic:
            documents = synthetic_papers(args.synthetic, args.seed)
        else:
            folder = args.arche or real_arche_dir()
            if folder is None:
                raise ReasoningCorpusError(f"no ARCHE corpus found: pass --arche DIR, set {ARCHE_ENV}, or use --synthetic N")
            documents = load_papers(folder)
        cases = generate_cases(documents, args.seed)
        path = write_cases(args.out, cases, args.seed)
    except ClaimgraphError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    verdicts, mutations = summary(cases)
    print(f"wrote {len(cases)} cases from {len(documents)} papers to {path.parent} ({CASES_FILE})")
    print("expected verdicts: " + ", ".join(f"{name} {count}" for name, count in sorted(verdicts.items())))
    print("mutations: " + ", ".join(f"{name} {count}" for name, count in sorted(mutations.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
