"""Source tuples resolved to the paper: which sentence, viewpoint or cited reference a node derives from.

ARCHE's tuple (x, y, z) is (sentence x, reference y cited in it, viewpoint z of
that reference); y = 0 is the sentence's own viewpoints, (x, 0, 0) the sentence
itself, (0, 0, 0) implicit information. A tuple resolves to:

- ``resolved``: the viewpoint it names, the sentence for (x, 0, 0), or the
  reference for (x, y, 0) when sentence x cites reference y;
- ``fallen_back``: sentence x exists but names no such viewpoint or citation;
  the node is linked to the whole sentence (and the paper is residual
  ``unresolved_source``, since the tuple says more than the link keeps);
- ``unresolved``: sentence x does not exist; no link;
- ``implicit``: (0, 0, 0), no link, no residual.

Models often write a sentence's own viewpoint k as (x, k, 0), the viewpoint
number in the second slot. ``node_reading`` decides per node where the paper
settles it: an (x, k, 0) that names an own viewpoint (x, 0, k) and no
reference k cited by sentence x is read as (x, 0, k); one that names the
citation and no such viewpoint, or neither, is read as written. Only a tuple
that names both is left to the response's majority (``choose_reading``: when
more of its (x, k, 0) tuples name an own viewpoint than a citation, reading
``viewpoint-second-slot``, else ``standard``). ``reading_summary`` names what
a response got (``standard``, ``viewpoint-second-slot`` when every (x, k, 0)
was read the second way, ``mixed`` otherwise); the node keeps the tuple as
written (claimgraph.reasoning.triples) when it was read otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from pyoxigraph import NamedNode

from claimgraph.papers.input_rows import input_rows
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.rows import integer_of, iri_of, text_of
from claimgraph.reasoning.labels import IMPLICIT, Source
from claimgraph.store import Store

STANDARD = "standard"
SECOND_SLOT = "viewpoint-second-slot"
MIXED = "mixed"
STATUSES = ("resolved", "fallen_back", "unresolved", "implicit")


@dataclass
class AnchorTable:
    """A paper's anchors by tuple: viewpoints (x, y, z), sentences x, references cited by a sentence (x, y)."""

    viewpoints: dict[Source, NamedNode] = field(default_factory=dict)
    sentences: dict[int, NamedNode] = field(default_factory=dict)
    citations: dict[tuple[int, int], NamedNode] = field(default_factory=dict)
    kinds: dict[NamedNode, str] = field(default_factory=dict)
    texts: dict[NamedNode, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Resolution:
    """Where a tuple points: the tuple as read, its anchor (None when it has none) and the status."""

    source: Source
    anchor: NamedNode | None
    status: str


def load_anchors(store: Store, iris: IriScheme, paper_id: str) -> AnchorTable:
    """The paper's sentences, viewpoints and citations, from the paper graph (read once per stored structure)."""
    table = AnchorTable()
    for row in input_rows(store, iris, paper_id, "source-anchors"):
        anchor, kind = iri_of(row, "anchor"), text_of(row, "kind")
        x, y, z = integer_of(row, "x"), integer_of(row, "y"), integer_of(row, "z")
        if kind == "viewpoint":
            table.viewpoints.setdefault((x, y, z), anchor)
        elif kind == "sentence":
            table.sentences.setdefault(x, anchor)
        else:
            table.citations.setdefault((x, y), anchor)
        table.kinds[anchor] = kind
        if "text" in row:
            table.texts[anchor] = text_of(row, "text")
    return table


def _second_slot(source: Source) -> bool:
    return source[1] > 0 and source[2] == 0


def choose_reading(table: AnchorTable, sources: Iterable[Source]) -> str:
    """``viewpoint-second-slot`` when more (x, k, 0) tuples name an own viewpoint (x, 0, k) than a citation (x, k)."""
    candidates = [source for source in sources if _second_slot(source)]
    as_citation = sum(1 for x, k, _ in candidates if (x, k) in table.citations)
    as_viewpoint = sum(1 for x, k, _ in candidates if (x, 0, k) in table.viewpoints)
    return SECOND_SLOT if as_viewpoint > as_citation else STANDARD


def node_reading(table: AnchorTable, source: Source, majority: str) -> str:
    """How one stated tuple is read: by what the paper's anchors say of it, by ``majority`` only when they name both readings."""
    if not _second_slot(source):
        return STANDARD
    x, k, _ = source
    as_citation, as_viewpoint = (x, k) in table.citations, (x, 0, k) in table.viewpoints
    if as_citation and as_viewpoint:
        return majority
    return SECOND_SLOT if as_viewpoint else STANDARD


def reading_summary(readings: Iterable[tuple[Source, str]]) -> str:
    """The response's reading from (stated tuple, reading) pairs: standard, viewpoint-second-slot or mixed."""
    candidates = [reading for source, reading in readings if _second_slot(source)]
    second = sum(reading == SECOND_SLOT for reading in candidates)
    if not second:
        return STANDARD
    return SECOND_SLOT if second == len(candidates) else MIXED


def read_tuple(source: Source, reading: str) -> Source:
    """The tuple as the response's reading takes it."""
    return (source[0], 0, source[1]) if reading == SECOND_SLOT and _second_slot(source) else source


def resolve(table: AnchorTable, source: Source, reading: str = STANDARD) -> Resolution:
    """The anchor and status of a stated tuple under the response's reading."""
    source = read_tuple(source, reading)
    x, y, z = source
    if source == IMPLICIT:
        return Resolution(source, None, "implicit")
    exact = table.viewpoints.get(source) if z else (table.sentences.get(x) if not y else table.citations.get((x, y)))
    if exact is not None:
        return Resolution(source, exact, "resolved")
    sentence = table.sentences.get(x)
    return Resolution(source, sentence, "fallen_back" if sentence is not None else "unresolved")


def status_counts(resolutions: Iterable[Resolution]) -> Counter[str]:
    counts: Counter[str] = Counter({status: 0 for status in STATUSES})
    counts.update(resolution.status for resolution in resolutions)
    return counts
