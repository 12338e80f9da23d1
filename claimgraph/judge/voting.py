"""k judges vote on each unit; the majority decides; a judge that gives no vote is a failure, never a vote.

Majority rule: a unit is ``correct`` when strictly more judges voted correct
than incorrect, ``incorrect`` otherwise (a tie counts as incorrect: acceptance
needs a majority for it), and ``unjudged`` when no judge voted at all. The
same rule decides whether the unit is grounded. Failures (the call failed
after its retries, or the reply was not a verdict) are counted apart, so a
panel of three with one failing judge decides on two votes.

Each judge calls its own model through the LLM client (cache, retries,
concurrency bound); all calls of a round run concurrently. Votes already given
on an unchanged unit (same key, same judge signature) are reused instead of
called again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from claimgraph.judge.prompts import ReplyError, judge_messages, parse_verdict
from claimgraph.judge.settings import JudgeSettings, JudgeSpec, judge_config
from claimgraph.judge.units import Unit
from claimgraph.llm.accounting import Accounting
from claimgraph.llm.client import CallTag, LLMCallFailed, LLMClient, Message, open_client
from claimgraph.llm.config import LLMConfig
from claimgraph.papers.audit import now
from claimgraph.profile.manifest import Profile

CORRECT, INCORRECT, UNJUDGED = "correct", "incorrect", "unjudged"


@dataclass(frozen=True)
class Vote:
    judge: JudgeSpec
    signature: str
    verdict: str
    grounded: bool
    feedback: str
    at: datetime


@dataclass(frozen=True)
class Failure:
    judge: JudgeSpec
    signature: str
    reason: str
    at: datetime


@dataclass
class UnitOutcome:
    """One unit's votes in one round; ``reused`` when no judge had to be called for it."""

    unit: Unit
    round: int
    votes: list[Vote] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    reused: bool = False

    @property
    def correct(self) -> int:
        return sum(vote.verdict == CORRECT for vote in self.votes)

    @property
    def incorrect(self) -> int:
        return sum(vote.verdict == INCORRECT for vote in self.votes)

    @property
    def majority(self) -> str:
        if not self.votes:
            return UNJUDGED
        return CORRECT if self.correct > self.incorrect else INCORRECT

    @property
    def grounded(self) -> bool:
        yes = sum(vote.grounded for vote in self.votes)
        return yes > len(self.votes) - yes

    @property
    def feedback(self) -> list[str]:
        """The matched feedback for a repair: what the judges who voted incorrect said about this unit."""
        return [f"{vote.judge.name}: {vote.feedback}" for vote in self.votes if vote.verdict == INCORRECT and vote.feedback]


class Panel:
    """The judges' clients and the repairer's, opened for one run; use ``async with``."""

    def __init__(self, settings: JudgeSettings, llm: LLMConfig, accounting: Accounting) -> None:
        self.settings = settings
        self.llm = llm
        self.accounting = accounting
        self._clients: dict[LLMConfig, LLMClient] = {}
        self.signatures = {judge: judge.signature(llm.base_url, llm.temperature) for judge in settings.judges}

    def client(self, config: LLMConfig) -> LLMClient:
        if config not in self._clients:
            self._clients[config] = open_client(config, self.accounting)
        return self._clients[config]

    async def __aenter__(self) -> Panel:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        for client in self._clients.values():
            await client.aclose()

    async def ask(self, messages: Sequence[Message], tag: CallTag, config: LLMConfig | None = None) -> str:
        """One completion's text (raises LLMCallFailed)."""
        return (await self.client(config or self.llm).complete(messages, tag=tag)).text

    async def _vote(self, profile: Profile, paper_id: str, unit: Unit, judge: JudgeSpec) -> Vote | Failure:
        messages = judge_messages(profile, paper_id, unit, judge.name, len(self.settings.judges))
        signature = self.signatures[judge]
        try:
            reply = await self.ask(messages, CallTag(paper_id, f"judge:{judge.name}"), judge_config(self.llm, judge))
            verdict = parse_verdict(reply)
        except (LLMCallFailed, ReplyError) as failure:
            return Failure(judge, signature, str(failure), now())
        return Vote(judge, signature, verdict.verdict, verdict.grounded, verdict.feedback, now())

    async def judge_unit(self, profile: Profile, paper_id: str, unit: Unit, round_number: int,
                         known: Mapping[tuple[str, str], Vote]) -> UnitOutcome:
        """Every judge's vote on the unit: reused from ``known`` (signature, unit key) when there, else asked."""
        outcome = UnitOutcome(unit, round_number)
        asked = []
        for judge in self.settings.judges:
            vote = known.get((self.signatures[judge], unit.key))
            if vote is not None:
                outcome.votes.append(vote)
            else:
                asked.append(self._vote(profile, paper_id, unit, judge))
        outcome.reused = not asked
        for result in await asyncio.gather(*asked):
            if isinstance(result, Vote):
                outcome.votes.append(result)
            else:
                outcome.failures.append(result)
        return outcome

    async def judge_units(self, profile: Profile, paper_id: str, units: Sequence[Unit], round_number: int,
                          known: Mapping[tuple[str, str], Vote]) -> list[UnitOutcome]:
        return list(await asyncio.gather(*(self.judge_unit(profile, paper_id, unit, round_number, known) for unit in units)))


def known_votes(outcomes: Sequence[UnitOutcome]) -> dict[tuple[str, str], Vote]:
    """(judge signature, unit key) -> vote, from earlier outcomes."""
    return {(vote.signature, outcome.unit.key): vote for outcome in outcomes for vote in outcome.votes}
