"""Scripted models for the benchmark: responses per paper written by fixed rules, each with what it damaged.

A *kind* names what a scripted model writes for a paper. Most are recipes of
the malformed reasoning corpus (claimgraph.testing.reasoning_cases), whose
generator records the verdict the gate must give; the others are made here:

- ``clean``, ``clean-json``, ``clean-xml``: a clean single-root graph;
- ``reversed-root``: the root marked on a premise;
- ``cut-*``, ``open-quote-*``, ``brace-*``: the text cut or left open;
- ``off-profile-labels``: edges labelled supports/opposes;
- ``edges-dropped``: the nodes without any edge;
- ``another-paper``: a clean graph of a different paper;
- ``duplicated-same``: one clean graph written twice in the reply;
- ``duplicated-different``: a clean graph, then another one;
- ``garbage``: prose with no graph.

``write_archive(folder, documents, models)`` writes ``<model>/<paper-id>.<ext>``
and returns, per (model, paper), the kind written and whether the kind is a
damage (a damaged response must never be counted as accepted without saying
what was lost).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from claimgraph.loaders import Document
from claimgraph.testing.reasoning_cases.cases import _case
from claimgraph.testing.reasoning_cases.mutations import NotApplicable

RECIPE_OF = {
    "clean": "clean-strict", "clean-loose": "clean-loose-units", "clean-json": "json", "clean-xml": "xml-attributes",
    "reversed-root": "reversed-root-attribute", "off-profile-labels": "discourse-labels", "edges-dropped": "nodes-only",
    "cut-25": "cut-25-fenced", "cut-50": "cut-50", "cut-90": "cut-90-fenced", "cut-mid-label": "cut-mid-node-label",
    "cut-json": "cut-60-json", "open-quote": "open-quote-node", "brace-stray": "brace-stray-in-middle",
}
CLEAN = ("clean", "clean-loose", "clean-json", "clean-xml", "duplicated-same")
GARBAGE = "I could not find a reasoning chain in this paper. The authors discuss several results but I am unsure how they connect."
EXTENSIONS = {"clean-json": "json", "cut-json": "json", "clean-xml": "xml"}


@dataclass(frozen=True)
class Written:
    model: str
    paper_id: str
    kind: str
    path: Path

    @property
    def damaged(self) -> bool:
        return self.kind not in CLEAN


def _recipe(document: Document, recipe: str, seed: int) -> str:
    return _case(seed, recipe, document, seed).response


def response(kind: str, document: Document, others: Sequence[Document], seed: int) -> str:
    """The text a scripted model writes for ``document`` (``others``: papers it may confuse it with)."""
    if kind in RECIPE_OF:
        return _recipe(document, RECIPE_OF[kind], seed)
    if kind == "another-paper":
        other = next(paper for paper in others if paper.paper_id != document.paper_id)
        return _recipe(other, "clean-strict", seed)
    if kind == "duplicated-same":
        text = _recipe(document, "clean-strict", seed)
        return f"{text}\n\nHere is the same graph again:\n{text}"
    if kind == "duplicated-different":
        return _recipe(document, "clean-strict", seed) + "\n\nA revised graph:\n" + _recipe(document, "clean-strict", seed + 1)
    if kind == "garbage":
        return GARBAGE
    raise ValueError(f"unknown scripted response kind {kind!r}")


def write_archive(folder: Path, documents: Sequence[Document], models: Mapping[str, Sequence[str]], seed: int = 7) -> list[Written]:
    """For each model, one response per paper, the kinds taken in turn (``models``: model -> kinds); a recipe
    that cannot act on a paper falls back to the next kind."""
    written = []
    for model, kinds in models.items():
        (folder / model).mkdir(parents=True, exist_ok=True)
        for index, document in enumerate(sorted(documents, key=lambda paper: paper.paper_id)):
            rng = random.Random(f"{seed}/{model}/{document.paper_id}")
            for attempt in range(len(kinds)):
                kind = kinds[(index + attempt) % len(kinds)]
                try:
                    text = response(kind, document, documents, rng.randrange(1000))
                except NotApplicable:
                    continue
                path = folder / model / f"{document.paper_id}.{EXTENSIONS.get(kind, 'dot')}"
                path.write_text(text, encoding="utf-8")
                written.append(Written(model, document.paper_id, kind, path))
                break
    return written
