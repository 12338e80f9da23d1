"""Node labels: the source tuple kept when a label states several, role prefixes, and what marks a root."""

from __future__ import annotations

import pytest

from claimgraph.profile.manifest import load_profile
from claimgraph.reasoning.labels import choose_source, node_content, parse_node_label
from claimgraph.reasoning.parsed import ParsedNode

PEIRCE = load_profile("peirce")


@pytest.mark.parametrize(
    ("label", "field", "source", "text"),
    [
        ("(0,0,0) Abduction-phenomenon: Tar damages DNA. Source: (32,0,0)", None, (32, 0, 0), "Tar damages DNA."),
        ("(0,0,0) Tar damages DNA.\nSource: (32,1,2)", None, (32, 1, 2), "Tar damages DNA."),
        ("(0,0,0) Tar damages DNA.", "(5,0,1)", (5, 0, 1), "Tar damages DNA."),
        ("(4,0,1) Tar damages DNA.", None, (4, 0, 1), "Tar damages DNA."),
        ("Tar damages DNA. (4,0,1)", None, (4, 0, 1), "Tar damages DNA."),
        ("(0,0,0) Tar damages DNA.", None, (0, 0, 0), "Tar damages DNA."),
        ("Tar damages DNA.", None, None, "Tar damages DNA."),
    ],
)
def test_an_explicit_or_non_implicit_tuple_wins_over_a_leading_implicit_one(label: str, field: str | None, source: tuple | None, text: str) -> None:
    content = parse_node_label(PEIRCE, label, field)
    assert (content.source, content.text, content.conflicts) == (source, text, ())


def test_two_different_real_tuples_are_a_conflict_and_the_explicit_one_is_kept() -> None:
    content = parse_node_label(PEIRCE, "(3,0,1) Tar damages DNA. Source: (32,0,2)")
    assert content.source == (32, 0, 2) and content.conflicts == ((3, 0, 1),)
    assert choose_source([(4, (1, 0, 1)), (2, (2, 0, 1)), (1, (0, 0, 0))]) == ((1, 0, 1), ((2, 0, 1),))


@pytest.mark.parametrize(
    ("attrs", "role", "marked"),
    [
        ({"label": "Root: the claim"}, "root", True),
        ({"label": "Conclusion: the claim"}, "conclusion", False),
        ({"label": "the claim", "root": "true"}, None, True),
        ({"label": "DR: a rule", "root": "yes"}, "deduction-rule", True),
        ({"label": "Deduction-rule: a rule"}, "deduction-rule", False),
    ],
)
def test_root_marks_come_from_a_root_attribute_or_a_root_prefix_never_from_conclusion(attrs: dict, role: str | None, marked: bool) -> None:
    content = node_content(PEIRCE, ParsedNode("n", attrs))
    assert (content.role, content.marked_root) == (role, marked)
