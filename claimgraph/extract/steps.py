"""The LLM steps of extraction, each a focused call per passage (seeds 000 and 002).

1. ``entities``: nodes only; node-level ShEx validation; each failing node goes
   back in one focused re-prompt naming the node and the violated constraint
   (at most ``max_reprompts`` times), after which it is dropped and recorded;
2. ``relations``: edges between the validated nodes; a new node is kept only
   when a relation needs it;
3. ``orphans``: nodes with no edge are shown again: link them or drop them;
4. ``gaps``: nodes with no edge to another node of their own passage;
5. ``dangling``: relation endpoints that name no node: match (to a node of any
   passage: the prompt lists the paper's whole node list), create or drop.

Each call asks for structured output with the phase's reply schema (see
claimgraph.extract.prompts); a reply with nothing parseable in it fails the
call and is not cached. A call that fails (LLMCallFailed) or is skipped (circuit
open, the paper's time budget spent) costs only its passage's step: it is
recorded by passage and the other passages and steps go on. Nothing the model
returns is evaluated: replies go through ``parse_items`` and the validator boundary.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from claimgraph.extract.items import ItemReader, StepLog, item_text
from claimgraph.extract.model import (
    Node,
    PaperExtraction,
    extraction_triples,
    node_iri,
    passage_numbered_text,
    qualified_id,
)
from claimgraph.extract.prompts import render, reply_schema
from claimgraph.extract.replies import parse_items
from claimgraph.llm.client import CallTag, Check, LLMCallFailed, LLMClient
from claimgraph.loaders.document import Passage
from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import edge_labels
from claimgraph.quality.shapes import compile_profile, shape_results
from claimgraph.rdf.iris import IriScheme

STEPS = ("entities", "relations", "orphans", "gaps", "dangling")
ENTITY_KEYS = ("entities", "nodes")
RELATION_KEYS = ("relations", "edges", "relationships")
DROP_KEYS = ("drop",)
DECISION_KEYS = ("decisions", "resolutions")
T = TypeVar("T")


class StoreTurns:
    """CPU and store work of concurrent papers (validation, store writes, measures), one job at a time in a worker
    thread, so that the event loop keeps serving other calls: a call's deadline then measures the endpoint only."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()

    async def run(self, work: Callable[..., T], *args: object) -> T:
        async with self._lock:
            return await asyncio.to_thread(work, *args)


def yields_items(keys: Sequence[str]) -> Check:
    """The check of a reply: something parseable (an empty list is an answer; prose or a cut-off fragment is not)."""

    def check(text: str) -> str | None:
        parsed = parse_items(text, keys)
        return None if parsed.branch != "none" else "; ".join(parsed.diagnostics[-2:]) or "nothing parseable"

    return check


class Extractor:
    """Runs the steps for one paper with one LLM client; the caller stores and measures between steps."""

    def __init__(self, client: LLMClient, profile: Profile, iris: IriScheme, node_types: Sequence[str], max_reprompts: int = 2,
                 budget: float | None = None, turns: StoreTurns | None = None) -> None:
        self.client = client
        self.profile = profile
        self.iris = iris
        self.node_types = list(node_types)
        self.items = ItemReader(node_types)
        self.max_reprompts = max_reprompts
        self.compiled = compile_profile(profile)
        self.labels = sorted(edge_labels(profile))
        self.edge_labels = ", ".join(self.labels)
        self.budget = budget
        self.deadline: float | None = None
        self.turns = turns or StoreTurns()

    def start_budget(self) -> None:
        """Start the paper's time budget (``budget`` seconds for all its calls from now on)."""
        if self.budget is not None:
            self.deadline = asyncio.get_running_loop().time() + self.budget

    # ------------------------------------------------------------------ calls

    async def _ask(self, extraction: PaperExtraction, step: str, passage: Passage, prompt: str, log: StepLog,
                   keys: Sequence[str], schema_phase: str | None = None) -> str | None:
        """The reply text, or None when the call failed or was skipped (recorded by passage in ``log``)."""
        system = (self.profile.prompts_dir / "system.md").read_text(encoding="utf-8")
        tag = CallTag(extraction.document.paper_id, step, passage.index)
        schema = reply_schema(self.profile, schema_phase or step, self.node_types, self.labels)
        log.asked += 1
        call = self.client.complete([{"role": "system", "content": system}, {"role": "user", "content": prompt}],
                                    tag=tag, schema=schema, check=yields_items(keys))
        remaining = None if self.deadline is None else self.deadline - asyncio.get_running_loop().time()
        try:
            if remaining is None:
                completion = await call
            elif remaining <= 0:
                call.close()
                self._budget_spent(tag, log)
                return None
            else:
                completion = await asyncio.wait_for(call, remaining)
        except TimeoutError:
            self._budget_spent(tag, log)
            return None
        except LLMCallFailed as failure:
            (log.skipped_calls if failure.skipped else log.failed_calls).append(f"passage {passage.index}: {failure.reason}")
            return None
        return completion.text

    def _budget_spent(self, tag: CallTag, log: StepLog) -> None:
        self.client.accounting.record_skip(tag)
        log.skipped_calls.append(f"passage {tag.passage}: not answered: the paper's time budget of {self.budget:g} s is spent")

    def _render(self, phase: str, classes: Sequence[str], passage: Passage, **values: str) -> str:
        base = {"passage_index": str(passage.index), "passage": passage_numbered_text(passage),
                "node_types": ", ".join(self.node_types), "edge_labels": self.edge_labels}
        return render(self.profile, phase, classes, {**base, **values})

    async def _each_passage(self, extraction: PaperExtraction, work: Callable[[Passage], Awaitable[None]], only: Callable[[Passage], bool] = lambda _: True) -> None:
        await asyncio.gather(*(work(p) for p in extraction.document.passages if only(p)))

    # ------------------------------------------------------------------ items -> objects

    def _add_edges(self, extraction: PaperExtraction, items: Iterable[Mapping[str, Any]], passage: Passage, step: str, log: StepLog) -> None:
        known = {(e.passage, e.source, e.label.casefold(), e.target) for e in extraction.edges}
        for item in items:
            edge = self.items.edge(item, passage, step, log)
            if edge is not None and (edge.passage, edge.source, edge.label.casefold(), edge.target) not in known:
                extraction.edges.append(edge)
                known.add((edge.passage, edge.source, edge.label.casefold(), edge.target))
                log.edges_added += 1

    # ------------------------------------------------------------------ step 1: entities

    async def entities(self, extraction: PaperExtraction) -> StepLog:
        log = StepLog("entities")

        async def one(passage: Passage) -> None:
            reply = await self._ask(extraction, "entities", passage, self._render("entities", self.node_types, passage), log, ENTITY_KEYS)
            if reply is None:
                return
            parsed = parse_items(reply, ENTITY_KEYS)
            log.notes.extend(f"passage {passage.index}: {d}" for d in parsed.diagnostics)
            for number, item in enumerate(parsed.items, start=1):
                node = self.items.node(item, passage, "entities", log, f"E{number}")
                if node is not None and (passage.index, node.id) not in extraction.nodes:
                    extraction.nodes[(passage.index, node.id)] = node
                    log.nodes_added += 1
            await self._revalidate(extraction, passage, log)

        await self._each_passage(extraction, one)
        return log

    async def node_failures(self, extraction: PaperExtraction, passage: Passage) -> dict[tuple[int, str], str]:
        """Nodes of the passage that fail their shape, with the one-line reason.

        Only nodes (with their Association slots) are checked: relation edges are
        left out, since unknown labels are the alias repair's business, not a
        reason to re-prompt for a node. The triples are built here, in the event
        loop's thread: other passages' replies add nodes to ``extraction``
        meanwhile, so the worker thread gets a finished list, never the live dict.
        """
        nodes_only = PaperExtraction(extraction.document, dict(extraction.nodes))
        triples = list(extraction_triples(nodes_only, self.iris, self.profile))
        key_of = {node_iri(self.iris, extraction.document.paper_id, n).value: (n.passage, n.id) for n in nodes_only.passage_nodes(passage.index)}
        rows = await self.turns.run(shape_results, triples, self.compiled)
        return {key_of[focus]: reason for focus, _blank, _shape, passed, reason in rows if not passed and focus in key_of}

    async def _revalidate(self, extraction: PaperExtraction, passage: Passage, log: StepLog) -> None:
        """Focused re-prompts for failing nodes; what still fails after the bound is dropped."""
        for attempt in range(self.max_reprompts + 1):
            failures = await self.node_failures(extraction, passage)
            if not failures:
                return
            if attempt == self.max_reprompts:
                break
            for key, reason in failures.items():
                await self._reprompt(extraction, passage, extraction.nodes[key], reason, log, attempt + 1)
        for key, reason in (await self.node_failures(extraction, passage)).items():
            node = extraction.nodes[key]
            log.notes.append(f"passage {passage.index}: dropped {node.type} {node.id} ({reason})")
            extraction.drop_node(node)
            log.nodes_dropped += 1

    async def _reprompt(self, extraction: PaperExtraction, passage: Passage, node: Node, reason: str, log: StepLog, attempt: int) -> None:
        shown = {"id": node.id, "type": node.type, "text": node.text, "sentence": node.sentence, "arg0": node.arg0, "arg1": node.arg1}
        prompt = self._render("reprompt", [node.type], passage, node=json.dumps({k: v for k, v in shown.items() if v is not None}, ensure_ascii=False),
                              problem=reason, node_type=node.type, attempt=str(attempt), attempts=str(self.max_reprompts))
        log.reprompts += 1
        reply = await self._ask(extraction, log.step, passage, prompt, log, ENTITY_KEYS, "reprompt")
        if reply is None:
            return
        parsed = parse_items(reply, ENTITY_KEYS)
        candidates = [self.items.node(item, passage, log.step, log, f"{node.id}-r{n}") for n, item in enumerate(parsed.items, start=1)]
        replacement = [r for r in candidates if r is not None]
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

    def _paper_node_list(self, extraction: PaperExtraction, passage: int) -> str:
        """Every node of the paper: this passage's by id, the others' by ``p<passage>-<id>`` (dangling names may match either)."""
        listed = [{"id": n.id if n.passage == passage else qualified_id(n), "type": n.type, "text": n.text}
                  for n in sorted(extraction.nodes.values(), key=lambda n: (n.passage != passage, n.passage, n.id))]
        return json.dumps(listed, ensure_ascii=False, indent=1)

    async def relations(self, extraction: PaperExtraction) -> StepLog:
        log = StepLog("relations")

        async def one(passage: Passage) -> None:
            prompt = self._render("relations", self.node_types, passage, entities=self._node_list(extraction.passage_nodes(passage.index)))
            reply = await self._ask(extraction, "relations", passage, prompt, log, RELATION_KEYS)
            if reply is None:
                return
            relations = parse_items(reply, RELATION_KEYS)
            log.notes.extend(f"passage {passage.index}: {d}" for d in relations.diagnostics if relations.items)
            before = len(extraction.edges)
            self._add_edges(extraction, relations.items, passage, "relations", log)
            named = {name for e in extraction.edges[before:] for name in (e.source, e.target)}
            for number, item in enumerate(parse_items(reply, ENTITY_KEYS).items, start=1):
                node = self.items.node(item, passage, "relations", log, f"N{number}")
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
            reply = await self._ask(extraction, "orphans", passage, prompt, log, (*RELATION_KEYS, *DROP_KEYS))
            if reply is None:
                return
            self._add_edges(extraction, parse_items(reply, RELATION_KEYS).items, passage, "orphans", log)
            for item in parse_items(reply, DROP_KEYS).items:
                node = extraction.nodes.get((passage.index, item_text(item, "id")))
                if node is not None and node in extraction.orphans(passage.index):
                    extraction.drop_node(node)
                    log.nodes_dropped += 1
                    log.notes.append(f"passage {passage.index}: orphan {node.id} dropped ({item_text(item, 'reason') or 'no reason given'})")

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
            reply = await self._ask(extraction, "gaps", passage, prompt, log, RELATION_KEYS)
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
                                  entities=self._paper_node_list(extraction, passage.index))
            reply = await self._ask(extraction, "dangling", passage, prompt, log, DECISION_KEYS)
            if reply is None:
                return
            for item in parse_items(reply, DECISION_KEYS).items:
                self._decide(extraction, passage, names, item, log)

        await self._each_passage(extraction, one, lambda p: bool(extraction.dangling(p.index)))
        return log

    def _decide(self, extraction: PaperExtraction, passage: Passage, names: Sequence[str], item: Mapping[str, Any], log: StepLog) -> None:
        name = item_text(item, "name", "dangling")
        action = item_text(item, "action", "decision").casefold()
        if name not in names:
            log.notes.append(f"passage {passage.index}: decision for unknown dangling name {name!r} ignored")
            return
        edges = [e for e, n in extraction.dangling(passage.index) if n == name]
        if action == "match":
            target = extraction.resolve(passage.index, item_text(item, "id", "entity", "match"))
            if target is None:
                log.notes.append(f"passage {passage.index}: match for {name!r} names no node; left dangling")
                return
            for edge in edges:
                named = target.id if target.passage == edge.passage else qualified_id(target)
                edge.source = named if edge.source == name else edge.source
                edge.target = named if edge.target == name else edge.target
            log.matched += 1
            log.notes.append(f"passage {passage.index}: {name!r} matched to {target.id}")
        elif action == "create":
            node = self.items.node({**item, "id": name, "text": item_text(item, "text") or name}, passage, "dangling", log, name)
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


