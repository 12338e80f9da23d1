"""Reply items as nodes and edges: the validator boundary applied to what ``parse_items`` found.

An item is a dict from the model's reply. A node needs a known type and a
text; an edge needs a source, a label and a target. Confidences go through
``clamp_confidence`` (with a note when changed); a sentence number the passage
does not have is not trusted (the node is anchored to its passage only, with a
note). Nothing here raises on odd input: what cannot be read is skipped with a
note that names the passage and quotes the item.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from claimgraph.extract.model import Edge, Node
from claimgraph.extract.sanitize import clamp_confidence, clean_text
from claimgraph.loaders.document import Passage

NODE_TEXT_KEYS = ("text", "label", "name", "statement")
TYPE_KEYS = ("type", "kind", "class")
SOURCE_KEYS = ("source", "from", "subject", "head")
TARGET_KEYS = ("target", "to", "object", "tail")
LABEL_KEYS = ("label", "relation", "type", "predicate")


@dataclass
class StepLog:
    """What one step did to the paper, for the audit trail and the printed table.

    ``failed_calls`` and ``skipped_calls`` name each passage whose call gave no
    usable reply (failed after its retries, or not sent: circuit open, time
    budget spent); ``asked`` counts the passages the step asked about.
    """

    step: str
    nodes_added: int = 0
    nodes_dropped: int = 0
    edges_added: int = 0
    edges_dropped: int = 0
    reprompts: int = 0
    matched: int = 0
    created: int = 0
    asked: int = 0
    failed_calls: list[str] = field(default_factory=list)
    skipped_calls: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {
            "nodes_added": self.nodes_added, "nodes_dropped": self.nodes_dropped,
            "edges_added": self.edges_added, "edges_dropped": self.edges_dropped,
            "reprompts": self.reprompts, "dangling_matched": self.matched, "dangling_created": self.created,
            "passages_asked": self.asked, "failed_calls": len(self.failed_calls), "skipped_calls": len(self.skipped_calls),
        }


def type_spellings(profile_types: Iterable[str]) -> dict[str, str]:
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


def item_text(item: Mapping[str, Any], *keys: str) -> str:
    """The first of ``keys`` holding a string or number, cleaned; '' when none does."""
    for key in keys:
        value = item.get(key)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            text = clean_text(str(value))
            if text:
                return text
    return ""


def _quoted(item: Mapping[str, Any]) -> str:
    return json.dumps(dict(item), ensure_ascii=False, default=str)[:200]


class ItemReader:
    """Turns reply items into Node and Edge objects for one profile's node types."""

    def __init__(self, node_types: Iterable[str]) -> None:
        self.type_of = type_spellings(node_types)

    def node(self, item: Mapping[str, Any], passage: Passage, step: str, log: StepLog, fallback_id: str) -> Node | None:
        type_name = self.type_of.get(item_text(item, *TYPE_KEYS).casefold())
        text = item_text(item, *NODE_TEXT_KEYS)
        if type_name is None or not text:
            problem = "no text" if type_name else f"unknown type {item_text(item, *TYPE_KEYS)!r}"
            log.notes.append(f"passage {passage.index}: skipped item ({problem}): {_quoted(item)}")
            return None
        confidence, note = clamp_confidence(item.get("confidence"))
        if note:
            log.notes.append(f"passage {passage.index} {fallback_id}: {note}")
        node = Node(item_text(item, "id") or fallback_id, type_name, text, passage.index, self.sentence(item, passage, log), confidence, step=step)
        if type_name == "Association":
            node.arg0 = item_text(item, "arg0") or None
            node.arg1 = item_text(item, "arg1") or None
        return node

    @staticmethod
    def sentence(item: Mapping[str, Any], passage: Passage, log: StepLog) -> int | None:
        """The item's sentence number when the passage has it; else None and a note."""
        value = item.get("sentence")
        indices = {s.index for s in passage.sentences}
        try:
            number = int(str(value).strip().strip("[]")) if value is not None and not isinstance(value, bool) else None
        except ValueError:
            number = None
        if number not in indices:
            if value is not None:
                log.notes.append(f"passage {passage.index}: sentence {value!r} is not in the passage; node anchored to the passage only")
            return None
        return number

    def edge(self, item: Mapping[str, Any], passage: Passage, step: str, log: StepLog) -> Edge | None:
        source, target, label = item_text(item, *SOURCE_KEYS), item_text(item, *TARGET_KEYS), item_text(item, *LABEL_KEYS)
        if not (source and target and label):
            log.notes.append(f"passage {passage.index}: skipped relation without source, label or target: {_quoted(item)}")
            return None
        confidence, note = clamp_confidence(item.get("confidence"))
        if note:
            log.notes.append(f"passage {passage.index} {source}->{target}: {note}")
        return Edge(source, label, target, passage.index, confidence, self.sentence(item, passage, log), step)
