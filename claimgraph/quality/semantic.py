"""Semantic rules: the profile's ``[semantic]`` rule set, SPARQL for local patterns and Z3 where a rule reasons over assignments.

Each rule is one file ``sparql/rules/<name>.rq`` (header: severity, residual,
origin; see claimgraph.quality.rules). A plain rule returns its violations. A
solver rule (``# solver: z3 CHECK``) returns facts, and the check named here
turns them into violations:

- ``polarity``: rows ``?source ?edge ?target`` (cg:supports / cg:opposes). One
  boolean side per node; supports asks equal sides, opposes different sides.
  Each unsat core (a loop with an odd number of oppositions) is one violation;
  one edge of it is set aside and the search goes on, so several independent
  conflicts are all reported (at most MAX_CONFLICTS).
- ``independent_lines``: rows ``?focus ?line ?source``. For each focus, a choice
  variable per line that has a source; at least two chosen, and no two chosen
  lines sharing a source. Unsatisfiable: the focus is reported with its lines.

The profile manifest lists the rules and may override a severity::

    [semantic]
    rules = ["discourse_polarity_consistency", ...]
    severity = { discourse_hypothesis_independent_evidence = "critical" }

See docs/semantic-rules.md.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import cast

from pyoxigraph import Literal, NamedNode

from claimgraph.assets import asset_root
from claimgraph.context import Context
from claimgraph.errors import ProfileError
from claimgraph.profile.manifest import Profile
from claimgraph.quality.reports import RuleViolation
from claimgraph.quality.rules import SEVERITIES, Rule, load_rule, profile_section
from claimgraph.rdf.binding import Term
from claimgraph.rdf.rows import iri_of
from claimgraph.rdf.vocab import local_name
from claimgraph.store import Row, Store

MAX_CONFLICTS = 20


@dataclass(frozen=True)
class Finding:
    """What a solver check found: the node the violation is about, the message, every node involved."""

    focus: NamedNode
    reason: str
    nodes: tuple[NamedNode, ...] = ()


# ---------------------------------------------------------------- the rows of rules


def rule_violations(store: Store, graph: NamedNode, rules: Sequence[Rule], vocabulary: NamedNode) -> list[RuleViolation]:
    """The rows of the profile's gate rules for one graph (``vocabulary``: the profile vocabulary graph).

    A solver rule's rows are facts; its violations come from its Z3 check.
    """
    violations = []
    for rule in rules:
        rows = store.select(rule.text, {"graph": graph, "vocabulary": vocabulary})
        if rule.solver is not None:
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


# ---------------------------------------------------------------- the rule set of a profile


@cache
def semantic_rules(profile: Profile) -> tuple[Rule, ...]:
    """The profile's ``[semantic] rules``, loaded, with the manifest's severity overrides applied."""
    section = profile_section(profile, "semantic")
    names = section.get("rules", [])
    overrides = section.get("severity", {})
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise ProfileError(f"{profile.manifest}: [semantic] rules must be a list of rule names (files in sparql/rules/)")
    if not isinstance(overrides, dict):
        raise ProfileError(f"{profile.manifest}: [semantic] severity must be a table of rule name = \"critical\" | \"warning\"")
    rules = []
    for name in names:
        path = asset_root() / "sparql" / "rules" / f"{name}.rq"
        if not path.is_file():
            raise ProfileError(f"{profile.manifest}: semantic rule {name!r} has no file sparql/rules/{name}.rq")
        rule = load_rule(path)
        severity = overrides.get(name, rule.severity)
        if severity not in SEVERITIES:
            raise ProfileError(f"{profile.manifest}: [semantic] severity of {name} is {severity!r}; use one of {', '.join(SEVERITIES)}")
        rules.append(replace(rule, severity=severity))
    unknown = sorted(set(overrides) - set(names))
    if unknown:
        raise ProfileError(f"{profile.manifest}: [semantic] severity names rules not in [semantic] rules: {unknown}")
    return tuple(rules)


def semantic_violations(ctx: Context, paper_id: str) -> list[RuleViolation]:
    """Every semantic rule of the context's profile on one paper graph (critical and warning)."""
    return rule_violations(ctx.store, ctx.iris.paper(paper_id), semantic_rules(ctx.profile), ctx.vocabulary)


def critical(violations: Sequence[RuleViolation]) -> list[RuleViolation]:
    return [violation for violation in violations if violation.critical]


def solver_violations(rule: Rule, graph: NamedNode, rows: Sequence[Row]) -> list[RuleViolation]:
    """The violations a solver rule's Z3 check finds in its fact rows."""
    check = CHECKS.get(rule.solver or "")
    if check is None:
        raise ProfileError(f"sparql/rules/{rule.name}.rq names the solver check {rule.solver!r}; known: {', '.join(sorted(CHECKS))}")
    return [RuleViolation(graph, rule.name, finding.focus, finding.reason, rule.residual, rule.severity) for finding in check(rows)]


# ---------------------------------------------------------------- Z3 checks


def _short(node: NamedNode) -> str:
    """A node as messages name it: its last two path segments (``node/n003``)."""
    return "/".join(node.value.rsplit("/", 2)[-2:])


def check_polarity(rows: Sequence[Row]) -> list[Finding]:
    """Odd loops of supports/opposes edges: one finding per unsat core, cores found one after another."""
    edges = [(cast(NamedNode, row["source"]), local_name(row["edge"].value), cast(NamedNode, row["target"])) for row in rows]
    if not any(label == "opposes" for _, label, _ in edges):
        return []  # without an opposition every node can stand on one side
    import z3  # here, not above: a paper without an opposition never loads the solver (36 ms)
    nodes = sorted({end for source, _, target in edges for end in (source, target)}, key=lambda node: node.value)
    side = {node: z3.Bool(f"side{number}") for number, node in enumerate(nodes)}
    solver = z3.Solver()
    solver.set("core.minimize", True)
    switches = []
    for number, (source, label, target) in enumerate(edges):
        switch = z3.Bool(f"edge{number}")
        relation = side[source] == side[target] if label == "supports" else side[source] != side[target]
        solver.add(z3.Implies(switch, relation))
        switches.append(switch)
    active = list(range(len(edges)))
    findings: list[Finding] = []
    while len(findings) < MAX_CONFLICTS and solver.check(*(switches[index] for index in active)) == z3.unsat:
        core_names = {str(item) for item in solver.unsat_core()}
        core = [index for index in active if str(switches[index]) in core_names]
        findings.append(_polarity_finding([edges[index] for index in core]))
        opposition = next((index for index in core if edges[index][1] == "opposes"), core[0])
        active.remove(opposition)
    return findings


def _polarity_finding(loop: Sequence[tuple[NamedNode, str, NamedNode]]) -> Finding:
    focus = next((target for _, label, target in loop if label == "opposes"), loop[0][2])
    stated = "; ".join(f"{_short(source)} {label} {_short(target)}" for source, label, target in loop)
    nodes = tuple(dict.fromkeys(end for source, _, target in loop for end in (source, target)))
    reason = (f"polarity conflict among {len(nodes)} nodes: {stated}; no assignment of sides puts every supporter "
              "with and every opponent against its target, so one of these edges has the wrong polarity")
    return Finding(focus, reason, nodes)


def check_independent_lines(rows: Sequence[Row]) -> list[Finding]:
    """Foci whose lines cannot give two with disjoint sources."""
    import z3

    lines: dict[NamedNode, dict[NamedNode, set[str]]] = defaultdict(lambda: defaultdict(set))
    for row in rows:
        sources = lines[iri_of(row, "focus")][iri_of(row, "line")]
        if "source" in row:
            sources.add(row["source"].value)
    findings = []
    for focus, by_line in lines.items():
        anchored = [(line, sources) for line, sources in by_line.items() if sources]
        choose = [z3.Bool(f"line{number}") for number in range(len(anchored))]
        solver = z3.Solver()
        solver.add(z3.Sum([z3.If(chosen, 1, 0) for chosen in choose] or [z3.IntVal(0)]) >= 2)
        for first in range(len(anchored)):
            for second in range(first + 1, len(anchored)):
                if anchored[first][1] & anchored[second][1]:
                    solver.add(z3.Not(z3.And(choose[first], choose[second])))
        if solver.check() == z3.unsat:
            findings.append(_lines_finding(focus, by_line))
    return findings


def _lines_finding(focus: NamedNode, by_line: dict[NamedNode, set[str]]) -> Finding:
    described = "; ".join(
        f"{_short(line)}: {', '.join(sorted(sources)) if sources else 'no anchored source'}"
        for line, sources in sorted(by_line.items(), key=lambda item: item[0].value)
    )
    count = len(by_line)
    reason = (f"{_short(focus)} rests on {count} line{'s' if count != 1 else ''} ({described}); "
              "no two of them have disjoint sources, so the support is not independent")
    return Finding(focus, reason, (focus, *by_line))


CHECKS: dict[str, Callable[[Sequence[Row]], list[Finding]]] = {
    "polarity": check_polarity,
    "independent_lines": check_independent_lines,
}
