"""Reading the profile's gate rules: SPARQL files that return violations, each with a severity and a typed residual.

They run in ``claimgraph.quality.semantic.rule_violations`` (with the Z3 checks of solver rules).

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
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from claimgraph.errors import ProfileError
from claimgraph.profile.manifest import Profile
from claimgraph.rdf.queries import read_sparql_file

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
