"""The profile's semantic gate rules: SPARQL files that return violations, each mapped to a typed residual."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pyoxigraph import Literal, NamedNode

from claimgraph.quality.reports import RuleViolation
from claimgraph.rdf.binding import Term
from claimgraph.rdf.queries import read_sparql_file
from claimgraph.store import Store


@dataclass(frozen=True)
class Rule:
    name: str
    text: str
    residual: str | None



def load_rule(path: Path) -> Rule:
    text = read_sparql_file(path)
    match = re.search(r"^#\s*residual:\s*(\S+)", text, re.MULTILINE)
    residual = match.group(1) if match and match.group(1) != "none" else None
    return Rule(path.stem, text, residual)




def rule_violations(store: Store, graph: NamedNode, rules: Sequence[Rule], vocabulary: NamedNode) -> list[RuleViolation]:
    """The rows of the profile's gate rules for one graph (``vocabulary``: the profile vocabulary graph)."""
    violations = []
    for rule in rules:
        for row in store.select(rule.text, {"graph": graph, "vocabulary": vocabulary}):
            residual = row.get("residual")
            violations.append(RuleViolation(
                graph, rule.name, row["focus"], _value(row.get("reason")) or rule.name,
                _value(residual) if residual is not None else rule.residual,
            ))
    return violations


def _value(term: Term | None) -> str:
    return "" if term is None else term.value if isinstance(term, (Literal, NamedNode)) else str(term)
