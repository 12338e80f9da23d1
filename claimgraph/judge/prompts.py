"""Judge, repair and root prompts (prompts/judge/*.md, string.Template) and the parsing of their replies.

Replies are JSON objects (the first balanced ``{...}`` of the reply, read with
json.loads; never evaluated). A reply that is not one, or lacks what is
required, raises ReplyError: for a judge that is a failure, not a vote; for a
repairer it is a failed repair, and the unit stays as it was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from string import Template
from typing import Any

from claimgraph.assets import asset_path
from claimgraph.errors import AssetNotFoundError, ClaimgraphError
from claimgraph.judge.units import Unit, UnitNode
from claimgraph.llm.cache import Message
from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import edge_labels

VERDICTS = ("correct", "incorrect")
Source = tuple[int, int, int]


class ReplyError(ClaimgraphError):
    """An LLM reply is not the JSON object its prompt asks for."""


@cache
def template(name: str) -> Template:
    return Template(asset_path("prompts", "judge", f"{name}.md").read_text(encoding="utf-8"))


@cache
def roles_text(profile_name: str) -> str:
    try:
        return template(f"roles-{profile_name}").template.strip()
    except AssetNotFoundError:
        return "Each premise bears on the conclusion in the role its edge label names."


def unit_labels(profile: Profile) -> list[str]:
    """The labels a repair may give a premise: the profile's reasoning labels, else supports / opposes."""
    labels = sorted(edge_labels(profile))
    peircean = [label for label in labels if label.split("-")[0] in ("deduction", "induction", "abduction")]
    return peircean or [label for label in labels if label in ("supports", "opposes")]


def _chat(system: str, user: str) -> list[Message]:
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def judge_messages(profile: Profile, paper_id: str, unit: Unit, judge: str, panel: int) -> list[Message]:
    system = template("judge_system").substitute(judge=judge, panel=panel, roles=roles_text(profile.name))
    user = template("judge_user").substitute(paper=paper_id, conclusion_id=unit.conclusion.local, unit=unit.describe())
    return _chat(system, user)


def repair_messages(profile: Profile, paper_id: str, unit: Unit, feedback: list[str]) -> list[Message]:
    labels = ", ".join(unit_labels(profile))
    system = template("repair_system").substitute(roles=roles_text(profile.name), labels=labels)
    said = "\n".join(f"- {text}" for text in feedback) or "- (no feedback text)"
    user = template("repair_user").substitute(paper=paper_id, conclusion_id=unit.conclusion.local, unit=unit.describe(), feedback=said)
    return _chat(system, user)


def root_messages(profile: Profile, paper_id: str, finals: list[UnitNode]) -> list[Message]:
    labels = ", ".join(unit_labels(profile))
    system = template("root_system").substitute(roles=roles_text(profile.name), labels=labels)
    listed = "\n".join(f"- [{node.local}] {node.text}" for node in finals)
    cited = "\n".join(dict.fromkeys(f"- {node.source}: {node.span}" for node in finals if node.span)) or "- (none cited)"
    return _chat(system, template("root_user").substitute(paper=paper_id, terminals=listed, sentences=cited))


# ---------------------------------------------------------------- replies


def json_object(reply: str, attempts: int = 200) -> dict[str, Any]:
    """The first JSON object in a reply (code fences and prose around it are ignored)."""
    decoder = json.JSONDecoder()
    start = reply.find("{")
    while start != -1 and attempts > 0:
        attempts -= 1
        try:
            value, _ = decoder.raw_decode(reply, start)
        except json.JSONDecodeError:
            value = None
        if isinstance(value, dict):
            return value
        start = reply.find("{", start + 1)
    raise ReplyError(f"the reply holds no JSON object: {reply[:120]!r}")


@dataclass(frozen=True)
class Verdict:
    verdict: str
    grounded: bool
    feedback: str


def parse_verdict(reply: str) -> Verdict:
    data = json_object(reply)
    verdict = str(data.get("verdict", "")).strip().lower()
    if verdict not in VERDICTS:
        raise ReplyError(f"the reply's verdict is {data.get('verdict')!r}, not one of {', '.join(VERDICTS)}")
    grounded = data.get("grounded", True)
    if not isinstance(grounded, bool):
        grounded = str(grounded).strip().lower() in ("true", "yes", "1")
    return Verdict(verdict, grounded, str(data.get("feedback", "")).strip()[:2000])


@dataclass(frozen=True)
class PlannedPremise:
    node: str | None
    role: str
    text: str | None = None
    source: Source | None = None


@dataclass(frozen=True)
class RepairPlan:
    conclusion_text: str | None
    conclusion_source: Source | None
    premises: tuple[PlannedPremise, ...]
    note: str = ""


@dataclass(frozen=True)
class RootPlan:
    text: str
    source: Source
    premises: tuple[PlannedPremise, ...]
    note: str = ""


def _source(value: Any, where: str) -> Source | None:
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != 3
            or not all(isinstance(item, int) and not isinstance(item, bool) and item >= 0 for item in value)):
        raise ReplyError(f"{where}: source must be [x, y, z] with three whole numbers >= 0, not {value!r}")
    return (value[0], value[1], value[2])


def _text(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ReplyError(f"{where}: text must be non-empty text")
    return " ".join(value.split())[:2000]


def _premises(data: dict[str, Any]) -> tuple[PlannedPremise, ...]:
    items = data.get("premises")
    if not isinstance(items, list) or not items:
        raise ReplyError("the reply lists no premises")
    premises = []
    for number, item in enumerate(items):
        where = f"premises[{number}]"
        if not isinstance(item, dict) or not isinstance(item.get("role"), str):
            raise ReplyError(f"{where} must be an object with a role")
        node = item.get("node")
        if node is not None and not isinstance(node, str):
            raise ReplyError(f"{where}: node must be an id or null")
        premises.append(PlannedPremise(node or None, item["role"].strip(), _text(item.get("text"), where), _source(item.get("source"), where)))
    return tuple(premises)


def parse_repair(reply: str) -> RepairPlan:
    data = json_object(reply)
    conclusion = data.get("conclusion") or {}
    if not isinstance(conclusion, dict):
        raise ReplyError("conclusion must be an object")
    return RepairPlan(_text(conclusion.get("text"), "conclusion"), _source(conclusion.get("source"), "conclusion"),
                      _premises(data), str(data.get("note", ""))[:2000])


def parse_root(reply: str) -> RootPlan:
    data = json_object(reply)
    text = _text(data.get("text"), "root")
    if text is None:
        raise ReplyError("the root has no text")
    return RootPlan(text, _source(data.get("source"), "root") or (0, 0, 0), _premises(data), str(data.get("note", ""))[:2000])
