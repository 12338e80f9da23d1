"""Reasoning-graph extraction from text: one LLM call per paper, for profiles whose manifest says ``extraction = "reasoning"``.

The prompt is rendered from ``prompts/<profile>/reasoning.md`` like the
discourse phases: the ShEx excerpt and cardinality rules of the reasoning node
shape, the profile's reasoning edge labels and their families (from the
ontology), and the paper with its sentences numbered. The reply (JSON asked for
with the profile's reply schema; DOT or any form the materializer reads also
passes) is returned as text: the workflow stores it through the reasoning
materializer, which this package does not import. The caller's ``check`` says
whether a reply holds a graph; one that does not fails the call and is not cached.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from claimgraph.context import Context
from claimgraph.extract.items import StepLog
from claimgraph.extract.prompts import render, reply_schema
from claimgraph.extract.runner import extraction_agent
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.client import CallTag, Check, LLMCallFailed, LLMClient, open_client
from claimgraph.llm.config import LLMConfig
from claimgraph.loaders.document import Document
from claimgraph.papers.audit import Activity, now
from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import edge_families, edge_labels
from claimgraph.rdf.vocab import local_name

REASONING_STEP = "reasoning"
REASONING_CLASSES = ("ReasoningNode",)


@dataclass
class ReasoningReply:
    """The reply for one paper (``text`` None when the call gave nothing usable) and the audit activity of the call."""

    paper_id: str
    text: str | None
    log: StepLog
    activity: Activity
    notes: list[str] = field(default_factory=list)


def reasoning_labels(profile: Profile) -> dict[str, tuple[str, str]]:
    """Reasoning edge label -> (family local name, role), in label order."""
    families = edge_families(profile)
    return {label: (local_name(families[iri][0]), families[iri][1]) for label, iri in sorted(edge_labels(profile).items()) if iri in families}


def families_text(profile: Profile) -> str:
    """One line per family: its labels and the role each gives the premise."""
    grouped: dict[str, list[str]] = {}
    for label, (family, role) in reasoning_labels(profile).items():
        grouped.setdefault(family, []).append(f'"{label}" (the premise is its {role})')
    return "\n".join(f"- {family}: {', '.join(labels)}" for family, labels in grouped.items())


def paper_text(document: Document) -> str:
    """The paper as the prompt shows it: passage headings, one ``[n] sentence`` per line, each followed by the
    viewpoints the input gave for it (ARCHE), one ``(x,y,z) text`` per line, the sentence's own first."""
    given: dict[int, list[str]] = {}
    for viewpoint in sorted(document.viewpoints, key=lambda v: v.source):
        x, y, z = viewpoint.source
        given.setdefault(x, []).append(f"    ({x},{y},{z}) {'cited: ' if y else ''}{viewpoint.text}")
    blocks = []
    for passage in document.passages:
        lines = [f"## {passage.heading}"] if passage.heading else []
        for sentence in passage.sentences:
            lines.append(f"[{sentence.index}] {sentence.text}")
            lines += given.get(sentence.index, [])
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def reasoning_prompt(profile: Profile, document: Document) -> str:
    """The reasoning prompt for one paper; the source-tuple rule is the one for sentences alone or for given viewpoints."""
    labels = list(reasoning_labels(profile))
    sources = "reasoning-sources-viewpoints.md" if document.viewpoints else "reasoning-sources-sentences.md"
    values = {"paper_id": document.paper_id, "paper": paper_text(document), "edge_labels": ", ".join(labels),
              "families": families_text(profile), "sources": (profile.prompts_dir / sources).read_text(encoding="utf-8").strip(),
              "viewpoints_note": ", each followed by its viewpoints and those of the works it cites" if document.viewpoints else ""}
    return render(profile, REASONING_STEP, REASONING_CLASSES, values)


async def ask_reasoning(ctx: Context, document: Document, client: LLMClient, check: Check) -> ReasoningReply:
    """One call for the paper's reasoning graph; a failure is recorded in the reply, never raised."""
    profile = ctx.profile
    log = StepLog(REASONING_STEP, asked=1)
    started = now()
    system = (profile.prompts_dir / "system.md").read_text(encoding="utf-8")
    schema = reply_schema(profile, REASONING_STEP, REASONING_CLASSES, list(reasoning_labels(profile)))
    messages = [{"role": "system", "content": system}, {"role": "user", "content": reasoning_prompt(profile, document)}]
    text: str | None = None
    tag = CallTag(document.paper_id, REASONING_STEP)
    budget = client.config.paper_budget
    try:
        call = client.complete(messages, tag=tag, schema=schema, check=check)
        text = (await (call if budget is None else asyncio.wait_for(call, budget))).text
    except LLMCallFailed as failure:
        (log.skipped_calls if failure.skipped else log.failed_calls).append(f"paper: {failure.reason}")
    except TimeoutError:
        client.accounting.record_skip(tag)
        log.skipped_calls.append(f"paper: not answered: the paper's time budget of {budget:g} s is spent")
    counts = {**log.counts(), **client.accounting.as_activity_counts(document.paper_id, REASONING_STEP)}
    notes = {f"note {n:03d}": note for n, note in enumerate(log.failed_calls + log.skipped_calls, start=1)}
    activity = Activity("extract", REASONING_STEP, counts, notes=notes, started=started, ended=now(),
                        agent=extraction_agent(ctx, client.config, REASONING_STEP))
    return ReasoningReply(document.paper_id, text, log, activity)


async def _ask_all(ctx: Context, documents: Sequence[Document], config: LLMConfig, accounting: Accounting, check: Check) -> list[ReasoningReply]:
    async with open_client(config, accounting) as client:
        return list(await asyncio.gather(*(ask_reasoning(ctx, document, client, check) for document in documents)))


def run_reasoning_extractions(ctx: Context, documents: Sequence[Document], config: LLMConfig, accounting: Accounting,
                              check: Check) -> dict[str, ReasoningReply]:
    """The reasoning-graph reply of each paper, all papers through one client."""
    if not documents:
        return {}
    return {reply.paper_id: reply for reply in asyncio.run(_ask_all(ctx, documents, config, accounting, check))}
