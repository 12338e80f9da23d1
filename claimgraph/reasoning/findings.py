"""What reading a response found, before any repair: its typed residuals of stage ``input`` and notes.

- ``parse_failed``: no parser branch recovered a node or an edge;
- ``truncated_response`` / ``malformed_response``: what the parser could not
  close or read (``ParsedGraph.problems``);
- ``dangling_edge``: edges name node ids the response never declares (or
  declares without a text): the recovered graph is smaller than what it states;
- ``truncated_response`` again when a closed graph references more undeclared
  ids than it has unconnected nodes and declares nodes after edges: then the
  missing declarations were lost (a cut closed again), not renamed;
- notes (no residual): skipped prose, a missing brace closed by a fence, node
  statements without a text that no edge names (not admitted), nodes stating
  two different source tuples, the tuple reading used.

Each finding is a ``RuleViolation`` of rule ``input`` on the paper, so the
gate reports it with the rule rows; a note has severity ``warning``.
"""

from __future__ import annotations

from collections.abc import Iterable

from pyoxigraph import NamedNode

from claimgraph.quality.reports import RuleViolation
from claimgraph.reasoning.parsed import PARSE_FAILED, TRUNCATED, ParsedGraph

DANGLING = "dangling_edge"


def _finding(paper: NamedNode, reason: str, residual: str | None) -> RuleViolation:
    return RuleViolation(paper, "input", paper, reason, residual, "critical" if residual else "warning")


def _names(ids: Iterable[str], limit: int = 4) -> str:
    ordered = sorted(ids)
    return ", ".join(ordered[:limit]) + (f" and {len(ordered) - limit} more" if len(ordered) > limit else "")


def response_findings(parsed: ParsedGraph, admitted: set[str], paper: NamedNode) -> list[RuleViolation]:
    """The input-stage residuals and notes of a parsed response; ``admitted``: the ids of nodes stored with a text."""
    findings = []
    if parsed.branch == PARSE_FAILED:
        findings.append(_finding(paper, "no parser branch recovered a node or an edge from the response", "parse_failed"))
    findings += [_finding(paper, problem.reason, problem.residual) for problem in parsed.problems]
    findings += _endpoint_findings(parsed, admitted, paper)
    silent = set(parsed.nodes) - admitted - {end for edge in parsed.edges for end in (edge.source, edge.target)}
    if silent:
        findings.append(_finding(paper, f"{len(silent)} node statement(s) without a text were not admitted: {_names(silent)}", None))
    return findings


def _endpoint_findings(parsed: ParsedGraph, admitted: set[str], paper: NamedNode) -> list[RuleViolation]:
    ends = {end for edge in parsed.edges for end in (edge.source, edge.target)}
    undeclared = ends - set(parsed.nodes)
    textless = (ends & set(parsed.nodes)) - admitted
    findings = []
    if undeclared:
        findings.append(_finding(paper, f"{len(undeclared)} node id(s) named by edges are never declared: {_names(undeclared)}", DANGLING))
    if textless:
        findings.append(_finding(paper, f"{len(textless)} node(s) named by edges are declared without a text: {_names(textless)}", DANGLING))
    unconnected = admitted - ends
    cut = TRUNCATED in parsed.residuals
    if undeclared and len(undeclared) > len(unconnected) and parsed.nodes_after_edges and not cut:
        findings.append(_finding(paper, f"the graph names {len(undeclared)} node id(s) it never declares but has only "
                                        f"{len(unconnected)} unconnected node(s), and declares nodes after its edges: "
                                        "declarations were lost", TRUNCATED))
    return findings
