"""The judged paper: a small document with a clean reasoning graph, and helpers to script judges and repairers on the fake server."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Triple

from claimgraph.context import Context
from claimgraph.judge.runner import JudgeResult
from claimgraph.judge.settings import JudgeSettings
from claimgraph.llm.accounting import Accounting
from claimgraph.loaders import Document
from claimgraph.loaders.document import Passage, Sentence
from claimgraph.papers.document_graph import document_triples, sentence_iri, source_tuple_triples
from claimgraph.quality.repair import repair_paper
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.vocab import CG, PROV, RDF
from claimgraph.testing.fake_llm import Rule

PAPER_ID = "p-judged"
SENTENCES = [
    "Rock pools that dry out each summer hold fewer snail species than permanent pools.",
    "Drying removes species that cannot survive out of water for weeks.",
    "The pools on the upper shore dry out every summer.",
    "Surveys of twelve shores counted snail species in permanent and drying pools.",
    "On the northern shores drying pools held half the species of permanent pools.",
    "On the southern shores drying pools held a third of the species of permanent pools.",
    "Snail shells in the drying pools were thicker than in the permanent pools.",
    "Thick shells slow water loss in snails exposed to air.",
]
# local id -> (text, source tuple); texts restate their sentences, so grounding passes
NODES = {
    "root": ("Upper shore rock pools hold fewer snail species than permanent pools.", (1, 0, 0)),
    "mid1": ("Drying removes snail species that cannot survive weeks out of water.", (2, 0, 0)),
    "mid2": ("Upper shore pools dry out every summer.", (3, 0, 0)),
    "c": ("Surveys on twelve shores counted snail species in permanent and drying pools.", (4, 0, 0)),
    "n1": ("On northern shores drying pools held half the species of permanent pools.", (5, 0, 0)),
    "n2": ("On southern shores drying pools held a third of the species of permanent pools.", (6, 0, 0)),
    "ph": ("Snail shells in drying pools were thicker than in permanent pools.", (7, 0, 0)),
    "kn": ("Thick shells slow water loss in snails exposed to air.", (8, 0, 0)),
}
EDGES = [
    ("mid1", "deductionRule", "root"), ("mid2", "deductionCase", "root"),
    ("c", "inductionCommon", "mid1"), ("n1", "inductionCase", "mid1"), ("n2", "inductionCase", "mid1"),
    ("ph", "abductionPhenomenon", "mid2"), ("kn", "abductionKnowledge", "mid2"),
]


def document() -> Document:
    doc = Document(paper_id=PAPER_ID, source=f"{PAPER_ID}.json", format="arche")
    passage = Passage(index=1, heading="Introduction")
    passage.sentences = [Sentence(index=i, text=text, passage_index=1) for i, text in enumerate(SENTENCES, start=1)]
    doc.passages.append(passage)
    return doc


def graph_triples(iris: IriScheme, nodes: dict[str, tuple[str, tuple[int, int, int]]], edges: list[tuple[str, str, str]]) -> list[Triple]:
    triples = list(document_triples(document(), iris))
    for local, (text, source) in nodes.items():
        node = iris.extracted_node(PAPER_ID, local)
        triples += [Triple(node, RDF.type, CG.ReasoningNode), Triple(node, CG.text, Literal(text)), *source_tuple_triples(node, source)]
        if source != (0, 0, 0):
            triples.append(Triple(node, PROV.wasDerivedFrom, sentence_iri(iris, PAPER_ID, source[0])))
    triples += [Triple(iris.extracted_node(PAPER_ID, s), CG[p], iris.extracted_node(PAPER_ID, t)) for s, p, t in edges]
    return triples


@dataclass
class Paper:
    ctx: Context
    tmp: Path

    def node(self, local: str) -> NamedNode:
        return self.ctx.iris.extracted_node(PAPER_ID, local)

    def text(self, local: str) -> str:
        rows = self.ctx.store.select("PREFIX cg: <https://w3id.org/claimgraph/ontology/v1#> SELECT ?t WHERE { GRAPH ?g { ?n cg:text ?t } }",
                                     {"g": self.ctx.iris.paper(PAPER_ID), "n": self.node(local)})
        return rows[0]["t"].value if rows else ""


def store_graph(ctx: Context, nodes: dict[str, tuple[str, tuple[int, int, int]]] = NODES, edges: list[tuple[str, str, str]] = EDGES) -> None:
    ctx.store.replace_graphs({ctx.iris.paper(PAPER_ID): graph_triples(ctx.iris, nodes, edges)})
    repair_paper(ctx, PAPER_ID)


def verdict(value: str, feedback: str = "", grounded: bool = True) -> str:
    return json.dumps({"verdict": value, "grounded": grounded, "feedback": feedback or f"the unit is {value}"})


def unit_rule(unit: str, reply: str | list[str], judge: str | None = None) -> list[Rule]:
    """Judge replies for the unit into ``unit``: from one judge, or from each of j1..j3 (not the repairer)."""
    replies = reply if isinstance(reply, list) else [reply]
    return [Rule(replies=replies, contains=f"into node {unit}.", phase=f"judge:{name}") for name in ([judge] if judge else ["j1", "j2", "j3"])]


def judges_say(value: str) -> list[Rule]:
    """A fallback: every judge gives this verdict on every unit."""
    return [Rule(replies=[verdict(value)], phase=f"judge:j{n}") for n in (1, 2, 3)]


def repair_rule(unit: str, plan: dict) -> Rule:
    return Rule(replies=[json.dumps(plan)], contains=f"into node {unit}.", phase="judge-repair")


RunJudges = Callable[..., tuple[list[JudgeResult], Accounting, JudgeSettings]]
