"""What canonicalizing one paper decides (links to hubs, new hubs) and the counts of a run."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from pyoxigraph import NamedNode

from claimgraph.canonical.links.state import HubRow
from claimgraph.rdf.vocab import CG


@dataclass(frozen=True)
class Link:
    """``node`` (of paper graph ``graph``) joins ``hub``: cg:mentions (cautious) or skos:exactMatch (a merge);
    ``basis`` is how it was decided (cg:exactText, cg:similarity or cg:judged, with the ``judge``'s name)."""

    node: NamedNode
    graph: NamedNode
    hub: NamedNode
    similarity: float
    predicate: NamedNode
    type: str
    text: str
    policy: str
    basis: NamedNode
    judge: str | None = None


@dataclass(frozen=True)
class JudgedApart:
    """A judge's DIFFERENT while placing: ``node`` (of paper graph ``graph``) and ``other`` (a CANON_ node, or an
    unattached node) state different things, in the words of ``judge``."""

    node: NamedNode
    graph: NamedNode
    other: NamedNode
    judge: str


@dataclass
class Plan:
    """What canonicalizing one paper will write, and what deciding it took."""

    graph: NamedNode
    nodes: int = 0
    links: list[Link] = field(default_factory=list)
    new_hubs: list[HubRow] = field(default_factory=list)
    judged_apart: list[JudgedApart] = field(default_factory=list)
    unattached: int = 0
    skipped: bool = False
    exact: int = 0          # nodes placed by exact text, without an ANN search
    guard_vetoes: int = 0   # candidates above the threshold that the guards kept apart
    adjudicated: dict[str, int] = field(default_factory=lambda: {"same": 0, "different": 0})

    @property
    def merges(self) -> list[Link]:
        return [link for link in self.links if link.policy == "aggressive"]


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
    exact: int = 0
    guard_vetoes: int = 0
    adjudicated_same: int = 0
    adjudicated_different: int = 0
    by_similarity: int = 0  # links and merges decided by cosine and the guards alone (cg:similarity)
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
        self.links += len(plan.links) - len(plan.merges)
        self.hubs_created += len(plan.new_hubs)
        self.unattached += plan.unattached
        self.exact += plan.exact
        self.guard_vetoes += plan.guard_vetoes
        self.adjudicated_same += plan.adjudicated["same"]
        self.adjudicated_different += plan.adjudicated["different"]
        self.by_similarity += sum(link.basis == CG.similarity for link in plan.links)

    def rows(self) -> list[list[object]]:
        rows: list[list[object]] = [
            ["papers canonicalized", len(self.papers)],
            ["papers already covered (skipped)", len(self.skipped)],
            ["nodes placed", self.nodes],
            ["merges (skos:exactMatch to a CANON_ node)", self.merges],
            ["mentions of CANON_ hubs", self.links],
            ["CANON_ hubs created", self.hubs_created],
            ["nodes left unattached", self.unattached],
            ["placed by exact text (no ANN search)", self.exact],
            ["candidates vetoed by the guards", self.guard_vetoes],
            ["links and merges by similarity alone (not checked by a judge)", self.by_similarity],
            ["texts embedded (not cached)", self.embedded],
        ]
        if self.adjudicated_same or self.adjudicated_different:
            rows.append(["judged in the band: same / different", f"{self.adjudicated_same} / {self.adjudicated_different}"])
        if self.rebuilt:
            rows.append(["sidecar rebuilt because", self.rebuilt])
        rows.extend([f"seconds {name}", f"{value:.2f}"] for name, value in self.seconds.items())
        return rows
