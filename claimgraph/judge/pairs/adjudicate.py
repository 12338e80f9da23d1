"""LLM adjudication of borderline candidate pairs (off by default).

A candidate whose cosine falls in its type's band (``[canonicalize.adjudicate]``
of the profile) and that the guards pass is put to a chat model through the
project's OpenAI-compatible client (``claimgraph.llm``): the prompt is
``prompts/canonical/adjudicate.md``, the answer is one word, SAME or DIFFERENT.
The client's response cache makes a repeated question free; anything but a
clear SAME counts as DIFFERENT, so an unreadable answer never merges. Each
decision is kept (texts, answer, verdict) and counted in the paper's
``canonicalize`` audit activity.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from functools import cache
from string import Template

from claimgraph.assets import read_asset
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.client import CallTag, LLMCallFailed, LLMClient, open_client
from claimgraph.llm.config import LLMConfig

_FIRST_WORD = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class Decision:
    a: str
    b: str
    type: str
    answer: str
    same: bool


@cache
def _template() -> Template:
    return Template(read_asset("prompts", "canonical", "adjudicate.md"))


def adjudication_prompt(a: str, b: str, type_name: str) -> str:
    """The question for one pair, filled in one pass: a text holding ``$b`` or ``{b}`` stays as written."""
    return _template().substitute(type=type_name, a=a, b=b)


def read_verdict(answer: str) -> bool:
    """True only for an answer whose first word is SAME (any case)."""
    return read_answer(answer) is True


def read_answer(answer: str) -> bool | None:
    """True for an answer whose first word is SAME, False for DIFFERENT (any case), None for anything else."""
    match = _FIRST_WORD.search(answer)
    word = match.group(0).upper() if match else ""
    return {"SAME": True, "DIFFERENT": False}.get(word)


@dataclass
class LLMAdjudicator:
    """A callable ``(text a, text b, class name) -> same?`` backed by a chat model; ``close()`` when done."""

    config: LLMConfig
    accounting: Accounting = field(default_factory=Accounting)
    decisions: list[Decision] = field(default_factory=list)
    failures: int = 0

    def __post_init__(self) -> None:
        self._client: LLMClient = open_client(self.config, self.accounting)
        self._loop = asyncio.new_event_loop()

    @property
    def model(self) -> str:
        return self.config.model

    @property
    def name(self) -> str:
        return f"llm:{self.config.model}"

    def __call__(self, a: str, b: str, type_name: str) -> bool:
        """Same or not, for placing a node: a failed call or an unclear answer counts as DIFFERENT."""
        return self.verdict(a, b, type_name) is True

    def verdict(self, a: str, b: str, type_name: str) -> bool | None:
        """SAME (True), DIFFERENT (False), or None when the call failed or the answer is neither."""
        prompt = adjudication_prompt(a, b, type_name)
        try:
            completion = self._loop.run_until_complete(
                self._client.complete([{"role": "user", "content": prompt}], tag=CallTag("canonicalize", "adjudicate")))
        except LLMCallFailed:
            self.failures += 1
            self.decisions.append(Decision(a, b, type_name, "", False))
            return None
        answer = read_answer(completion.text)
        self.decisions.append(Decision(a, b, type_name, completion.text.strip()[:200], answer is True))
        return answer

    def close(self) -> None:
        self._loop.run_until_complete(self._client.aclose())
        self._loop.close()
