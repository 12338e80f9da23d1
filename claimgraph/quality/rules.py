"""The profile's gate rules: SPARQL files that return violations, each with a severity and a typed residual.

A rule file's comment header carries its metadata:

- ``# residual: LABEL`` the typed residual its violations map to (``none``: no label);
- ``# severity: critical|warning`` critical violations block acceptance, warnings
  are reported only (default critical, the behaviour before severities existed);
- ``# from: ...`` the seed or reasoning the rule comes from (documentation);
- ``# solver: z3 CHECK`` the SELECT does not return violations but facts, which
  the named Z3 check of ``claimgraph.quality.semantic`` reasons over.

Profiles also carry tables of their own for the semantic layer (``[semantic]``,
``[grounding]``, ``[judges]``); ``profile_section`` reads them from the manifest.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pyoxigraph import Literal, NamedNode

from claimgraph.errors import ProfileError
from claimgraph.profile.manifest import Profile
from claimgraph.quality.reports import RuleViolation
from claimgraph.rdf.binding import Term
from claimgraph.rdf.queries import read_sparql_file
from claimgraph.store import Store

SEVERITIES = ("critical", "warning")


@dataclass(frozen=True)
class Rule:
    name: str
    text: str
    residual: str | None
    severity: str = "critical"
    solver: str | None = None
    origin: str = ""


def _header(text: str, key: str) -> str | None:
    match = re.search(rf"^#\s*{key}:\s*(.+?)\s*$", text, re.MULTILINE)
    return match.group(1) if match else None


def load_rule(path: Path) -> Rule:
    text = read_sparql_file(path)
    residual_header = _header(text, "residual")
    residual = residual_header.split()[0] if residual_header else None
    severity = (_header(text, "severity") or "critical").lower()
    if severity not in SEVERITIES:
        raise ProfileError(f"{path}: '# severity: {severity}' must be one of {', '.join(SEVERITIES)}")
    solver = _header(text, "solver")
    if solver is not None:
        parts = solver.split()
        if len(parts) != 2 or parts[0] != "z3":
            raise ProfileError(f"{path}: '# solver: {solver}' must read 'z3 CHECK' (a check of claimgraph.quality.semantic)")
        solver = parts[1]
    return Rule(path.stem, text, residual if residual != "none" else None, severity, solver, _header(text, "from") or "")


@cache
def profile_rules(profile: Profile) -> tuple[Rule, ...]:
    """The profile's gate rules, read once (the gate needs only these, not the ShEx schema)."""
    return tuple(load_rule(path) for path in profile.rule_files)


def rule_violations(store: Store, graph: NamedNode, rules: Sequence[Rule], vocabulary: NamedNode) -> list[RuleViolation]:
    """The rows of the profile's gate rules for one graph (``vocabulary``: the profile vocabulary graph).

    A solver rule's rows are facts; its violations come from its Z3 check.
    """
    violations = []
    for rule in rules:
        rows = store.select(rule.text, {"graph": graph, "vocabulary": vocabulary})
        if rule.solver is not None:
            from claimgraph.quality.semantic import solver_violations

            violations.extend(solver_violations(rule, graph, rows))
            continue
        for row in rows:
            residual = row.get("residual")
            violations.append(RuleViolation(
                graph, rule.name, row["focus"], _value(row.get("reason")) or rule.name,
                _value(residual) if residual is not None else rule.residual, rule.severity,
            ))
    return violations


def _value(term: Term | None) -> str:
    return "" if term is None else term.value if isinstance(term, (Literal, NamedNode)) else str(term)


# ---------------------------------------------------------------- profile tables of the semantic layer


def _manifest_data(manifest: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ProfileError(f"{manifest}: cannot read the profile manifest: {error}") from error


def profile_section(profile: Profile, name: str) -> dict[str, Any]:
    """The ``[name]`` table of the profile manifest ({} when absent)."""
    table = _manifest_data(profile.manifest).get(name, {})
    if not isinstance(table, dict):
        raise ProfileError(f"{profile.manifest}: [{name}] must be a table")
    return table
