"""Does the cross-paper graph converge? Measures computed by SPARQL on the store.

After N papers: discourse nodes per type, CANON_ hubs, nodes attached to a hub,
merged (retired) IRIs, the nodes of either kind linked by similarity alone (no
judge checked the link), and the connected components of the cross-paper graph,
whose vertices are papers and whose edges join two papers that mention the
same hub or describe the same merge survivor.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from claimgraph.canonical.links.state import covered_papers
from claimgraph.context import Context
from claimgraph.papers.document_graph import stored_paper_ids
from claimgraph.profile.ontology import merge_policy
from claimgraph.rdf.queries import read_internal_query
from claimgraph.rdf.vocab import local_name

MEASURES = ("nodes", "hubs", "attached to a hub", "merged", "linked by similarity alone")


@dataclass(frozen=True)
class Convergence:
    papers: int
    canonicalized: int
    by_type: dict[str, dict[str, int]] = field(hash=False)  # measure -> type local name -> value
    components: int = 0
    largest_component: int = 0
    isolated_papers: int = 0

    def total(self, measure: str) -> int:
        return sum(self.by_type.get(measure, {}).values())

    def rows(self) -> list[tuple[str, int]]:
        """(measure, value) rows: totals first, then each measure per type."""
        rows = [("papers", self.papers), ("papers canonicalized", self.canonicalized)]
        rows += [(measure, self.total(measure)) for measure in MEASURES]
        rows += [("cross-paper components", self.components), ("largest component (papers)", self.largest_component),
                 ("papers linked to no other", self.isolated_papers)]
        for measure in MEASURES:
            rows += [(f"{measure}: {type_name}", value) for type_name, value in sorted(self.by_type.get(measure, {}).items())]
        return rows


def convergence(ctx: Context) -> Convergence:
    """The convergence measures of the store, for the node types canonicalization handles."""
    store, iris = ctx.store, ctx.iris
    policies = merge_policy(ctx.profile)
    canonical = {"canonical": iris.canonical_graph()}
    by_type: dict[str, dict[str, int]] = defaultdict(dict)
    for row in store.select(read_internal_query("convergence"), canonical):
        type_iri = row["type"].value
        if policies.get(type_iri, "never") != "never":
            by_type[row["measure"].value][local_name(type_iri)] = int(row["value"].value)
    papers = [iris.paper(paper_id).value for paper_id in stored_paper_ids(store, iris)]
    links = [(row["paper"].value, row["via"].value) for row in store.select(read_internal_query("cross-paper-links"), canonical)]
    sizes = component_sizes(papers, links)
    return Convergence(
        papers=len(papers),
        canonicalized=len(covered_papers(store)),
        by_type=dict(by_type),
        components=len(sizes),
        largest_component=max(sizes, default=0),
        isolated_papers=sum(1 for size in sizes if size == 1),
    )


def component_sizes(papers: list[str], links: list[tuple[str, str]]) -> list[int]:
    """Sizes of the connected components of papers joined through shared hubs or survivors."""
    parent = {paper: paper for paper in papers}

    def find(item: str) -> str:
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    first_paper: dict[str, str] = {}
    for paper, via in links:
        if paper not in parent:
            continue
        other = first_paper.setdefault(via, paper)
        parent[find(paper)] = find(other)
    sizes: dict[str, int] = defaultdict(int)
    for paper in papers:
        sizes[find(paper)] += 1
    return sorted(sizes.values(), reverse=True)


def convergence_delta(before: Convergence, after: Convergence) -> list[tuple[str, int, int, int]]:
    """(measure, before, after, change) for every measure of either state: how a batch changed the graph."""
    old, new = dict(before.rows()), dict(after.rows())
    names = list(dict.fromkeys([name for name, _ in after.rows()] + [name for name, _ in before.rows()]))
    return [(name, old.get(name, 0), new.get(name, 0), new.get(name, 0) - old.get(name, 0)) for name in names]
