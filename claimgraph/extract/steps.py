"""The LLM steps of extraction, each a focused call per passage (seeds 000 and 002).

1. ``entities``: nodes only; node-level ShEx validation; each failing node goes
   back in one focused re-prompt naming the node and the violated constraint
   (at most ``max_reprompts`` times), after which it is dropped and recorded;
2. ``relations``: edges between the validated nodes; a new node is kept only
   when a relation needs it;
3. ``orphans``: nodes with no edge are shown again: link them or drop them;
4. ``gaps``: nodes with no edge to another node of their own passage;
5. ``dangling``: relation endpoints that name no node: match, create or drop.

A call that fails (LLMCallFailed) costs only its passage's step: it is recorded
and the other passages and steps go on. Nothing the model returns is evaluated:
replies go through ``parse_items`` and the validator boundary.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from claimgraph.extract.model import (
    Edge,
    Node,
    PaperExtraction,
    extraction_triples,
    node_iri,
    passage_numbered_text,
)
from claimgraph.extract.prompts import render
from claimgraph.extract.replies import parse_items
from claimgraph.extract.sanitize import clamp_confidence, clean_text
from claimgraph.llm.client import CallTag, LLMCallFailed, LLMClient
from claimgraph.loaders.document import Passage
from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import edge_labels
from claimgraph.quality.shapes import compile_profile, shape_results
from claimgraph.rdf.iris import IriScheme

STEPS = ("entities", "relations", "orphans", "gaps", "dangling")
ENTITY_KEYS = ("entities", "nodes")
RELATION_KEYS = ("relations", "edges", "relationships")


@dataclass
class StepLog:
    """What one step did to the paper, for the audit trail and the printed table."""

    step: str
    nodes_added: int = 0
    nodes_dropped: int = 0
    edges_added: int = 0
    edges_dropped: int = 0
    reprompts: int = 0
    matched: int = 0
    created: int = 0
    failed_calls: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {
            "nodes_added": self.nodes_added, "nodes_dropped": self.nodes_dropped,
            "edges_added": self.edges_added, "edges_dropped": self.edges_dropped,
            "reprompts": self.reprompts, "dangling_matched": self.matched, "dangling_created": self.created,
            "failed_calls": len(self.failed_calls),
        }


def _type_names(profile_types: Iterable[str]) -> dict[str, str]:
    """Accepted spellings of each node type: 'ResearchQuestion', 'research question', 'research_question'."""
    names = {}
    for name in profile_types:
        folded = name.casefold()
        names[folded] = name
        spaced = "".join(f" {c}" if c.isupper() and i else c for i, c in enumerate(name)).casefold()
        names[spaced] = name
        names[spaced.replace(" ", "_")] = name
        names[spaced.replace(" ", "-")] = name
    return names


def _text(item: Mapping[str, Any], *keys: str) -> str:
    for key in keys:
        value = item.get(key)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            text = clean_text(str(value))
            if text:
                return text
    return ""


class Extractor:
    """Runs the steps for one paper with one LLM client; the caller stores and measures between steps."""

    def __init__(self, client: LLMClient, profile: Profile, iris: IriScheme, node_types: Sequence[str], max_reprompts: int = 2) -> None:
        self.client = client
        self.profile = profile
        self.iris = iris
        self.node_types = list(node_types)
        self.type_of = _type_names(node_types)
        self.max_reprompts = max_reprompts
        self.compiled = compile_profile(profile)
        self.edge_labels = ", ".join(sorted(edge_labels(profile)))

    # ------------------------------------------------------------------ calls

    async def _ask(self, extraction: PaperExtraction, step: str, passage: Passage, prompt: str, log: StepLog) -> str | None:
        system = (self.profile.prompts_dir / "system.md").read_text(encoding="utf-8")
        tag = CallTag(extraction.document.paper_id, step, passage.index)
        try:
            completion = await self.client.complete([{"role": "system", "content": system}, {"role": "user", "content": prompt}], tag=tag)
        except LLMCallFailed as failure:
            log.failed_calls.append(f"passage {passage.index}: {failure.reason}")
            return None
        return completion.text

    def _render(self, phase: str, classes: Sequence[str], passage: Passage, **values: str) -> str:
        base = {"passage_index": str(passage.index), "passage": passage_numbered_text(passage),
                "node_types": ", ".join(self.node_types), "edge_labels": self.edge_labels}
        return render(self.profile, phase, classes, {**base, **values})

    async def _each_passage(self, extraction: PaperExtraction, work: Callable[[Passage], Awaitable[None]], only: Callable[[Passage], bool] = lambda _: True) -> None:
        await asyncio.gather(*(work(p) for p in extraction.document.passages if only(p)))

    # ------------------------------------------------------------------ items -> objects

    def node_from_item(self, item: Mapping[str, Any], passage: Passage, step: str, log: StepLog, fallback_id: str) -> Node | None:
        type_name = self.type_of.get(_text(item, "type", "kind", "class").casefold())
        text = _text(item, "text", "label", "name", "statement")
        if type_name is None or not text:
            problem = "no text" if type_name else f"unknown type {_text(item, 'type', 'kind', 'class')!r}"
            log.notes.append(f"passage {passage.index}: skipped item ({problem}): {json.dumps(dict(item), ensure_ascii=False)[:200]}")
            return None
        confidence, note = clamp_confidence(item.get("confidence"))
        if note:
            log.notes.append(f"passage {passage.index} {fallback_id}: {note}")
        node = Node(_text(item, "id") or fallback_id, type_name, text, passage.index, self._sentence(item, passage, log), confidence, step=step)
        if type_name == "Association":
            node.arg0 = _text(item, "arg0") or None
            node.arg1 = _text(item, "arg1") or None
        return node

    def _sentence(self, item: Mapping[str, Any], passage: Passage, log: StepLog) -> int | None:
        value = item.get("sentence")
        indices = {s.index for s in passage.sentences}
        try:
            number = int(str(value).strip().strip("[]")) if value is not None else None
        except ValueError:
            number = None
        if number not in indices:
            if value is not None:
                log.notes.append(f"passage {passage.index}: sentence {value!r} is not in the passage; node anchored to the passage only")
            return None
        return number

    def edge_from_item(self, item: Mapping[str, Any], passage: Passage, step: str, log: StepLog) -> Edge | None:
        source = _text(item, "source", "from", "subject", "head")
        target = _text(item, "target", "to", "object", "tail")
        label = _text(item, "label", "relation", "type", "predicate")
        if not (source and target and label):
            log.notes.append(f"passage {passage.index}: skipped relation without source, label or target: {json.dumps(dict(item), ensure_ascii=False)[:200]}")
            return None
        confidence, note = clamp_confidence(item.get("confidence"))
        if note:
            log.notes.append(f"passage {passage.index} {source}->{target}: {note}")
        return Edge(source, label, target, passage.index, confidence, self._sentence(item, passage, log), step)

    def _add_edges(self, extraction: PaperExtraction, items: Iterable[Mapping[str, Any]], passage: Passage, step: str, log: StepLog) -> None:
        known = {(e.passage, e.source, e.label.casefold(), e.target) for e in extraction.edges}
        for item in items:
            edge = self.edge_from_item(item, passage, step, log)
            if edge is not None and (edge.passage, edge.source, edge.label.casefold(), edge.target) not in known:
                extraction.edges.append(edge)
                known.add((edge.passage, edge.source, edge.label.casefold(), edge.target))
                log.edges_added += 1

    # ------------------------------------------------------------------ step 1: entities

    async def entities(self, extraction: PaperExtraction) -> StepLog:
        log = StepLog("entities")

        async def one(passage: Passage) -> None:
            reply = await self._ask(extraction, "entities", passage, self._render("entities", self.node_types, passage), log)
            if reply is None:
                return
            parsed = parse_items(reply, ENTITY_KEYS)
            log.notes.extend(f"passage {passage.index}: {d}" for d in parsed.diagnostics)
            for number, item in enumerate(parsed.items, start=1):
                node = self.node_from_item(item, passage, "entities", log, f"E{number}")
                if node is not None and (passage.index, node.id) not in extraction.nodes:
                    extraction.nodes[(passage.index, node.id)] = node
                    log.nodes_added += 1
            await self._revalidate(extraction, passage, log)

        await self._each_passage(extraction, one)
        return log

    def node_failures(self, extraction: PaperExtraction, passage: Passage) -> dict[tuple[int, str], str]:
        """Nodes of the passage that fail their shape, with the one-line reason.

        Only nodes (with their Association slots) are checked: relation edges are
        left out, since unknown labels are the alias repair's business, not a
        reason to re-prompt for a node.
        """
        nodes_only = PaperExtraction(extraction.document, extraction.nodes)
        triples = list(extraction_triples(nodes_only, self.iris, self.profile))
        key_of = {node_iri(self.iris, extraction.document.paper_id, n).value: (n.passage, n.id) for n in extraction.passage_nodes(passage.index)}
        failures = {}
        for focus, _blank, _shape, passed, reason in shape_results(triples, self.compiled):
            if not passed and focus in key_of:
                failures[key_of[focus]] = reason
        return failures

    async def _revalidate(self, extraction: PaperExtraction, passage: Passage, log: StepLog) -> None:
        """Focused re-prompts for failing nodes; what still fails after the bound is dropped."""
        for attempt in range(self.max_reprompts + 1):
            failures = self.node_failures(extraction, passage)
            if not failures:
                return
            if attempt == self.max_reprompts:
                break
            for key, reason in failures.items():
                await self._reprompt(extraction, passage, extraction.nodes[key], reason, log, attempt + 1)
        for key, reason in self.node_failures(extraction, passage).items():
            node = extraction.nodes[key]
            log.notes.append(f"passage {passage.index}: dropped {node.type} {node.id} ({reason})")
            extraction.drop_node(node)
            log.nodes_dropped += 1

    async def _reprompt(self, extraction: PaperExtraction, passage: Passage, node: Node, reason: str, log: StepLog, attempt: int) -> None:
        shown = {"id": node.id, "type": node.type, "text": node.text, "sentence": node.sentence, "arg0": node.arg0, "arg1": node.arg1}
        prompt = self._render("reprompt", [node.type], passage, node=json.dumps({k: v for k, v in shown.items() if v is not None}, ensure_ascii=False),
                              problem=reason, node_type=node.type, attempt=str(attempt), attempts=str(self.max_reprompts))
        log.reprompts += 1
        reply = await self._ask(extraction, log.step, passage, prompt, log)
        if reply is None:
            return
        parsed = parse_items(reply, ENTITY_KEYS)
        replacement = [self.node_from_item(item, passage, log.step, log, f"{node.id}-r{n}") for n, item in enumerate(parsed.items, start=1)]
        replacement = [r for r in replacement if r is not None]
        same = next((r for r in replacement if r.type == node.type), None)
        if same is None:
            return
        same.id = node.id
        extraction.nodes[(passage.index, node.id)] = same
        for extra in replacement:
            if extra is not same and (passage.index, extra.id) not in extraction.nodes:
                extraction.nodes[(passage.index, extra.id)] = extra
                log.nodes_added += 1

    # ------------------------------------------------------------------ step 2: relations

    def _node_list(self, nodes: Iterable[Node]) -> str:
        return json.dumps([{"id": n.id, "type": n.type, "text": n.text} for n in nodes], ensure_ascii=False, indent=1)

    async def relations(self, extraction: PaperExtraction) -> StepLog:
        log = StepLog("relations")

        async def one(passage: Passage) -> None:
            prompt = self._render("relations", self.node_types, passage, entities=self._node_list(extraction.passage_nodes(passage.index)))
            reply = await self._ask(extraction, "relations", passage, prompt, log)
            if reply is None:
                return
            relations = parse_items(reply, RELATION_KEYS)
            log.notes.extend(f"passage {passage.index}: {d}" for d in relations.diagnostics if relations.items)
            before = len(extraction.edges)
            self._add_edges(extraction, relations.items, passage, "relations", log)
            named = {name for e in extraction.edges[before:] for name in (e.source, e.target)}
            for number, item in enumerate(parse_items(reply, ENTITY_KEYS).items, start=1):
                node = self.node_from_item(item, passage, "relations", log, f"N{number}")
                if node is None:
                    continue
                if node.id not in named and node.text not in named:
                    log.notes.append(f"passage {passage.index}: new node {node.id} dropped: no relation needs it")
                elif (passage.index, node.id) not in extraction.nodes:
                    extraction.nodes[(passage.index, node.id)] = node
                    log.nodes_added += 1
            await self._revalidate(extraction, passage, log)

        await self._each_passage(extraction, one, lambda p: bool(extraction.passage_nodes(p.index)))
        return log

    # ------------------------------------------------------------------ step 3: orphans

    async def orphans(self, extraction: PaperExtraction) -> StepLog:
        log = StepLog("orphans")

        async def one(passage: Passage) -> None:
            orphans = extraction.orphans(passage.index)
            prompt = self._render("orphans", self.node_types, passage, orphans=self._node_list(orphans),
                                  entities=self._node_list(extraction.passage_nodes(passage.index)))
            reply = await self._ask(extraction, "orphans", passage, prompt, log)
            if reply is None:
                return
            self._add_edges(extraction, parse_items(reply, RELATION_KEYS).items, passage, "orphans", log)
            for item in parse_items(reply, ("drop",)).items:
                node = extraction.nodes.get((passage.index, _text(item, "id")))
                if node is not None and node in extraction.orphans(passage.index):
                    extraction.drop_node(node)
                    log.nodes_dropped += 1
                    log.notes.append(f"passage {passage.index}: orphan {node.id} dropped ({_text(item, 'reason') or 'no reason given'})")

        await self._each_passage(extraction, one, lambda p: bool(extraction.orphans(p.index)))
        return log

    # ------------------------------------------------------------------ step 4: co-location gaps

    async def gaps(self, extraction: PaperExtraction) -> StepLog:
        log = StepLog("gaps")

        async def one(passage: Passage) -> None:
            nodes = extraction.passage_nodes(passage.index)
            edges = [{"source": e.source, "label": e.label, "target": e.target} for e in extraction.edges if e.passage == passage.index]
            prompt = self._render("gaps", self.node_types, passage, gap_nodes=self._node_list(extraction.gap_nodes(passage.index)),
                                  entities=self._node_list(nodes), relations=json.dumps(edges, ensure_ascii=False))
            reply = await self._ask(extraction, "gaps", passage, prompt, log)
            if reply is not None:
                self._add_edges(extraction, parse_items(reply, RELATION_KEYS).items, passage, "gaps", log)

        await self._each_passage(extraction, one, lambda p: bool(extraction.gap_nodes(p.index)) and len(extraction.passage_nodes(p.index)) > 1)
        return log

    # ------------------------------------------------------------------ step 5: dangling edges

    async def dangling(self, extraction: PaperExtraction) -> StepLog:
        log = StepLog("dangling")

        async def one(passage: Passage) -> None:
            names = sorted({name for _, name in extraction.dangling(passage.index)})
            prompt = self._render("dangling", self.node_types, passage, dangling=json.dumps(names, ensure_ascii=False),
                                  entities=self._node_list(extraction.passage_nodes(passage.index)))
            reply = await self._ask(extraction, "dangling", passage, prompt, log)
            if reply is None:
                return
            for item in parse_items(reply, ("decisions", "resolutions")).items:
                self._decide(extraction, passage, names, item, log)

        await self._each_passage(extraction, one, lambda p: bool(extraction.dangling(p.index)))
        return log

    def _decide(self, extraction: PaperExtraction, passage: Passage, names: Sequence[str], item: Mapping[str, Any], log: StepLog) -> None:
        name = _text(item, "name", "dangling")
        action = _text(item, "action", "decision").casefold()
        if name not in names:
            log.notes.append(f"passage {passage.index}: decision for unknown dangling name {name!r} ignored")
            return
        edges = [e for e, n in extraction.dangling(passage.index) if n == name]
        if action == "match":
            target = extraction.resolve(passage.index, _text(item, "id", "entity", "match"))
            if target is None:
                log.notes.append(f"passage {passage.index}: match for {name!r} names no node; left dangling")
                return
            for edge in edges:
                edge.source = target.id if edge.source == name else edge.source
                edge.target = target.id if edge.target == name else edge.target
            log.matched += 1
            log.notes.append(f"passage {passage.index}: {name!r} matched to {target.id}")
        elif action == "create":
            node = self.node_from_item({**item, "id": name, "text": _text(item, "text") or name}, passage, "dangling", log, name)
            if node is None:
                return
            extraction.nodes[(passage.index, node.id)] = node
            log.created += 1
            log.nodes_added += 1
            log.notes.append(f"passage {passage.index}: {name!r} created as {node.type}")
        elif action == "drop":
            for edge in edges:
                extraction.edges.remove(edge)
                log.edges_dropped += 1
            log.notes.append(f"passage {passage.index}: {name!r} dropped as spurious ({len(edges)} edges)")
        else:
            log.notes.append(f"passage {passage.index}: unknown action {action!r} for {name!r}; left dangling")


