"""What canonicalizing one paper decides (merges, hub links, new hubs) and the counts of a run."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from pyoxigraph import NamedNode

from claimgraph.canonical.state import HubRow


@dataclass(frozen=True)
class Merge:
    retired: str
    survivor: str
    type: str
    similarity: float
    graphs: tuple[str, ...]  # the paper graphs that described the retired IRI


@dataclass(frozen=True)
class Link:
    node: NamedNode
    graph: NamedNode
    hub: NamedNode
    similarity: float


@dataclass
class Plan:
    """What canonicalizing one paper will write."""

    graph: NamedNode
    nodes: int = 0
    merges: list[Merge] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    new_hubs: list[HubRow] = field(default_factory=list)
    unattached: int = 0
    skipped: bool = False


@dataclass
class CanonicalizeSummary:
    """Counts of one run; ``rebuilt`` says why the sidecar was rebuilt on open, if it was."""

    papers: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    nodes: int = 0
    merges: int = 0
    links: int = 0
    hubs_created: int = 0
    unattached: int = 0
    embedded: int = 0
    rebuilt: str | None = None
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def add(self, paper_id: str, plan: Plan) -> None:
        if plan.skipped:
            self.skipped.append(paper_id)
            return
        self.papers.append(paper_id)
        self.nodes += plan.nodes
        self.merges += len(plan.merges)
        self.links += len(plan.links)
        self.hubs_created += len(plan.new_hubs)
        self.unattached += plan.unattached

    def rows(self) -> list[list[object]]:
        rows: list[list[object]] = [
            ["papers canonicalized", len(self.papers)],
            ["papers already covered (skipped)", len(self.skipped)],
            ["nodes placed", self.nodes],
            ["merges", self.merges],
            ["mentions of CANON_ hubs", self.links],
            ["CANON_ hubs created", self.hubs_created],
            ["nodes left unattached", self.unattached],
            ["texts embedded (not cached)", self.embedded],
        ]
        if self.rebuilt:
            rows.append(["sidecar rebuilt because", self.rebuilt])
        rows.extend([f"seconds {name}", f"{value:.2f}"] for name, value in self.seconds.items())
        return rows
