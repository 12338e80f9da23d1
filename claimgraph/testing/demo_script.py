"""The demo's hand-written replies as a script for the fake OpenAI-compatible server (to record or test with)."""

from __future__ import annotations

import json

from claimgraph.demo import DEMO_DIR
from claimgraph.testing.fake_llm import Rule


def demo_rules() -> list[Rule]:
    """The fake server's script: one Rule per entry of responses.json (objects are sent as JSON text)."""
    data = json.loads((DEMO_DIR / "responses.json").read_text(encoding="utf-8"))
    rules = []
    for entry in data["rules"]:
        replies = [reply if isinstance(reply, str) else json.dumps(reply) for reply in entry["replies"]]
        rules.append(Rule(replies, contains=entry.get("contains"), phase=entry.get("phase")))
    return rules
