"""Who judges and how long repair may go on: the judge panel and the bounds of a judge run.

A panel is k judges, each an OpenAI-compatible model (optionally on its own
endpoint). Defaults < the profile's ``[judges]`` table < command-line flags::

    [judges]
    count = 3                   # k; odd by default (ties count as incorrect)
    models = ["gpt-4o-mini", "qwen2.5-72b@http://gpu-box:8000/v1"]   # cycled to k judges; default the --model
    rounds = 2                  # repair rounds after the first judgment
    build_root = true           # ask for a claim root when the graph has no single terminal
                                # (default: when the profile repairs with single_root)
    node_class = "ReasoningNode"  # class of premises a repair adds (default ReasoningNode
                                  # when the profile extracts it, else Evidence)

Judges of the same model differ by their name in the prompt (``judge j2 of
3``), so the response cache keeps one answer per judge; with temperature 0 they
will mostly agree, so a panel of distinct models (or a temperature) is the
meaningful setting.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from urllib.parse import urlparse

from claimgraph.errors import ClaimgraphError
from claimgraph.llm.config import LLMConfig
from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import extracted_class_names
from claimgraph.quality.rules import profile_section

DEFAULT_COUNT = 3
DEFAULT_ROUNDS = 2
PROMPT_VERSION = "judge-1"


class JudgeSettingsError(ClaimgraphError):
    """The judge panel or its bounds are not usable (no judge, bad model spec, negative rounds)."""


@dataclass(frozen=True)
class JudgeSpec:
    """One judge: its name in the panel, the model, and an endpoint when not the default one."""

    name: str
    model: str
    base_url: str | None = None

    def host(self, default: str | None) -> str:
        url = self.base_url or default
        return (urlparse(url).netloc or url) if url else "api.openai.com"

    def signature(self, default_url: str | None, temperature: float) -> str:
        """What makes two votes of this judge interchangeable: name, model, endpoint, temperature, prompt version."""
        text = "\x1f".join([self.name, self.model, self.host(default_url), f"{temperature:g}", PROMPT_VERSION])
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class JudgeSettings:
    judges: tuple[JudgeSpec, ...]
    rounds: int = DEFAULT_ROUNDS
    build_root: bool = False
    node_class: str = "ReasoningNode"
    repair: bool = True

    def fingerprint(self, llm: LLMConfig) -> str:
        """A hash of everything that decides a run's outcome besides the graph."""
        parts = [judge.signature(llm.base_url, llm.temperature) for judge in self.judges]
        parts += [str(self.rounds), str(self.build_root), self.node_class, str(self.repair), llm.model, PROMPT_VERSION]
        return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


def parse_model(spec: str) -> tuple[str, str | None]:
    """``model`` or ``model@http(s)://host/v1`` -> (model, base URL or None)."""
    model, _, url = spec.partition("@")
    if not model.strip() or (url and urlparse(url).scheme not in ("http", "https")):
        raise JudgeSettingsError(f"judge model {spec!r}: write MODEL or MODEL@http(s)://HOST/v1")
    return model.strip(), url.strip() or None


def judge_settings(profile: Profile, llm: LLMConfig, count: int | None = None, models: Sequence[str] = (),
                   rounds: int | None = None, repair: bool = True) -> JudgeSettings:
    """The panel and bounds for a run: flags over the profile's [judges] table over the defaults."""
    section = profile_section(profile, "judges")
    count = count if count is not None else int(section.get("count", DEFAULT_COUNT))
    rounds = rounds if rounds is not None else int(section.get("rounds", DEFAULT_ROUNDS))
    if count < 1:
        raise JudgeSettingsError(f"a judge panel needs at least one judge (got {count})")
    if rounds < 0:
        raise JudgeSettingsError(f"repair rounds must be 0 or more (got {rounds})")
    listed = list(models) or [str(model) for model in section.get("models", [])] or [llm.model]
    parsed = [parse_model(spec) for spec in listed]
    judges = tuple(JudgeSpec(f"j{number + 1}", *parsed[number % len(parsed)]) for number in range(count))
    rooted = "single_root" in profile.repair_names
    node_class = "ReasoningNode" if "ReasoningNode" in extracted_class_names(profile) else "Evidence"
    return JudgeSettings(judges, rounds, bool(section.get("build_root", rooted)), str(section.get("node_class", node_class)), repair)


def judge_config(base: LLMConfig, judge: JudgeSpec) -> LLMConfig:
    """The LLM settings of one judge: the run's settings with its model and endpoint."""
    return replace(base, model=judge.model, base_url=judge.base_url or base.base_url)
