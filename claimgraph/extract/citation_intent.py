"""Why a sentence cites a work: citation intent, classified by an LLM and stored as CiTO properties.

The pairs come from the store: a sentence of the paper graph that ``cg:cites``
a reference (JATS xref, TEI ref, ARCHE, PDF bracketed numbers). One call per
paper lists them (``prompts/<profile>/citations.md``) with the profile's closed
label set (``[citations.intents]``: label -> CiTO property and description).
The reply is read as data (``extract.replies.parse_items``, never evaluated);
a pair is stored as ``<sentence> cito:<property> <reference>`` only when the
reply names a pair the paper has and a label the profile lists. Everything
else is counted (unknown labels, pairs the paper does not have, pairs left
unanswered) and reported. A paper's earlier intents are replaced in the same
update, and the call is an audit activity of the paper with its agent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from pyoxigraph import NamedNode, Triple

from claimgraph.context import Context
from claimgraph.errors import ClaimgraphError, ProfileError
from claimgraph.extract.prompts import render
from claimgraph.extract.replies import parse_items
from claimgraph.extract.runner import extraction_agent
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.client import CallTag, LLMCallFailed, LLMClient, open_client
from claimgraph.llm.config import LLMConfig
from claimgraph.papers.audit import Activity, now
from claimgraph.papers.audit_append import record
from claimgraph.papers.document_graph import stored_paper_ids
from claimgraph.profile.manifest import Profile
from claimgraph.quality.rules import profile_section
from claimgraph.rdf.binding import bind
from claimgraph.rdf.queries import read_sparql
from claimgraph.rdf.rows import integer_of, iri_of, text_of
from claimgraph.rdf.vocab import CITO

INTENT_STEP = "citations"


class CitationIntentError(ClaimgraphError):
    """Citation intent cannot be asked for: the profile lists no intents, or the paper is not stored."""


@dataclass(frozen=True)
class Intent:
    label: str
    property: NamedNode
    description: str


@dataclass(frozen=True)
class CitingPair:
    sentence: NamedNode
    sentence_index: int
    text: str
    reference: NamedNode
    reference_index: int
    described: str


@dataclass
class IntentReport:
    """What one paper's call gave: pairs asked, stored, and what the reply said that could not be stored."""

    paper_id: str
    pairs: int = 0
    stored: int = 0
    unknown_labels: int = 0
    not_a_pair: int = 0
    unanswered: int = 0
    failure: str | None = None
    notes: list[str] = field(default_factory=list)


def profile_intents(profile: Profile) -> dict[str, Intent]:
    """The profile's ``[citations.intents]``: label -> Intent; an error naming the manifest when absent or malformed."""
    table = profile_section(profile, "citations").get("intents")
    if not table:
        raise CitationIntentError(f"profile {profile.name} lists no citation intents ([citations.intents] in {profile.manifest})")
    intents = {}
    for label, value in table.items():
        if not (isinstance(value, list) and len(value) == 2 and all(isinstance(part, str) for part in value)):
            raise ProfileError(f"{profile.manifest}: [citations.intents] {label} must be [\"<CiTO property>\", \"<description>\"]")
        intents[label] = Intent(label, CITO[value[0]], value[1])
    return intents


def citing_pairs(ctx: Context, paper_id: str) -> list[CitingPair]:
    rows = ctx.store.select(read_sparql("citations", "citing-pairs.rq"), {"graph": ctx.iris.paper(paper_id)})
    return [CitingPair(iri_of(row, "sentence"), integer_of(row, "sentenceIndex"), text_of(row, "text"), iri_of(row, "reference"),
                       integer_of(row, "referenceIndex"), text_of(row, "described")) for row in rows]


def intent_prompt(profile: Profile, paper_id: str, pairs: Sequence[CitingPair], intents: dict[str, Intent]) -> str:
    """The prompt: the label set with descriptions, then each citing sentence followed by the works it cites."""
    lines: list[str] = []
    shown: set[int] = set()
    for pair in pairs:
        if pair.sentence_index not in shown:
            shown.add(pair.sentence_index)
            lines.append(f"[{pair.sentence_index}] {pair.text}")
        lines.append(f"    reference {pair.reference_index}: {pair.described[:300] or '(no description)'}")
    listed = "\n".join(f'- "{intent.label}": {intent.description}' for intent in intents.values())
    return render(profile, INTENT_STEP, (), {"paper_id": paper_id, "intents": listed, "pairs": "\n".join(lines)})


def read_intents(text: str, pairs: Sequence[CitingPair], intents: dict[str, Intent], report: IntentReport) -> dict[tuple[int, int], Intent]:
    """The intents of the reply for the paper's pairs (the first answer per pair wins); the rest is counted in ``report``."""
    known = {(pair.sentence_index, pair.reference_index) for pair in pairs}
    chosen: dict[tuple[int, int], Intent] = {}
    for item in parse_items(text, "citations").items:
        key = (_integer(item.get("sentence")), _integer(item.get("reference")))
        label = str(item.get("intent", "")).strip().lower()
        if key not in known:
            report.not_a_pair += 1
        elif label not in intents:
            report.unknown_labels += 1
        else:
            chosen.setdefault(key, intents[label])
    report.unanswered = len(known) - len(chosen)
    return chosen


def _no_items(text: str) -> str | None:
    """Why a reply is no answer at all (the call then fails, is not cached, and the stored intents stay), or None."""
    return None if parse_items(text, "citations").items else "the reply holds no citation item"


def _integer(value: object) -> int | None:
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def store_intents(ctx: Context, paper_id: str, pairs: Sequence[CitingPair], chosen: dict[tuple[int, int], Intent], activity: Activity) -> None:
    """Replace the paper's intents with ``chosen`` in one update, then record the activity."""
    paper = ctx.iris.paper(paper_id)
    triples = [Triple(pair.sentence, chosen[key].property, pair.reference) for pair in pairs
               if (key := (pair.sentence_index, pair.reference_index)) in chosen]
    ctx.store.insert({paper: triples} if triples else {}, before=bind(read_sparql("citations", "clear-intents.ru"), {"graph": paper}))
    record(ctx.store, ctx.iris, paper_id, [activity])


async def _classify_paper(ctx: Context, paper_id: str, client: LLMClient, intents: dict[str, Intent]) -> IntentReport:
    report = IntentReport(paper_id)
    pairs = citing_pairs(ctx, paper_id)
    report.pairs = len(pairs)
    if not pairs:
        report.notes.append("no sentence cites a reference")
        return report
    started = now()
    system = (ctx.profile.prompts_dir / "system.md").read_text(encoding="utf-8")
    messages = [{"role": "system", "content": system}, {"role": "user", "content": intent_prompt(ctx.profile, paper_id, pairs, intents)}]
    try:
        completion = await client.complete(messages, tag=CallTag(paper_id, INTENT_STEP), check=_no_items)
    except LLMCallFailed as failure:
        report.failure = failure.reason
        return report
    chosen = read_intents(completion.text, pairs, intents, report)
    report.stored = len(chosen)
    counts = {"pairs": report.pairs, "stored": report.stored, "unknown_labels": report.unknown_labels,
              "not_a_pair": report.not_a_pair, "unanswered": report.unanswered,
              **client.accounting.as_activity_counts(paper_id, INTENT_STEP)}
    activity = Activity("extract", INTENT_STEP, counts, started=started, ended=now(), agent=extraction_agent(ctx, client.config, INTENT_STEP))
    store_intents(ctx, paper_id, pairs, chosen, activity)
    return report


@dataclass
class IntentRun:
    """The reports of one ``classify_citations`` call, and the LLM calls and tokens it spent."""

    reports: list[IntentReport]
    accounting: Accounting


def classify_citations(ctx: Context, paper_ids: Sequence[str], llm: LLMConfig) -> IntentRun:
    """Ask for the citation intents of each paper's citing sentences, all papers through one client."""
    intents = profile_intents(ctx.profile)
    stored = set(stored_paper_ids(ctx.store, ctx.iris))
    missing = [paper_id for paper_id in paper_ids if paper_id not in stored]
    if missing:
        raise CitationIntentError(f"no paper {', '.join(map(repr, missing))} in the store at {ctx.store.location}")

    accounting = Accounting()

    async def run_all() -> list[IntentReport]:
        async with open_client(llm, accounting) as client:
            return list(await asyncio.gather(*(_classify_paper(ctx, paper_id, client, intents) for paper_id in paper_ids)))

    return IntentRun(asyncio.run(run_all()), accounting)
