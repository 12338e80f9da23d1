"""The output parser: examples of each reply shape, then properties over generated items and noise."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimgraph.extract.replies import parse_items

E1 = {"id": "e1", "label": "Protein X", "type": "Factor"}
E2 = {"id": "e2", "label": "inflammation", "type": "Factor"}


@pytest.mark.parametrize(
    ("reply", "items", "branch"),
    [
        ('{"entities": [{"id": "e1", "label": "Protein X", "type": "Factor"}]}', [E1], "json"),
        ('[{"id": "e1", "label": "Protein X", "type": "Factor"}, {"id": "e2", "label": "inflammation", "type": "Factor"}]', [E1, E2], "json"),
        ('Sure! Here are the entities:\n```json\n{"nodes": [{"id": "e1", "label": "Protein X", "type": "Factor"}]}\n```\nLet me know.', [E1], "json"),
        ('{"id": "e1", "label": "Protein X", "type": "Factor"}\n{"id": "e2", "label": "inflammation", "type": "Factor"}', [E1, E2], "json"),
        ("[{'id': 'e1', 'label': 'Protein X', 'type': 'Factor'},]", [E1], "python-literal"),
        ('{"items": [{"id": "e1", "label": "Protein X", "type": "Factor",},],}', [E1], "python-literal"),
        ('{"result": {"entities": [{"id": "e1", "label": "Protein X", "type": "Factor"}]}}', [E1], "json"),
        ("[{'id': 'e1', 'label': 'Protein X', 'type': 'Factor', 'ok': true}]", [{**E1, "ok": True}], "lenient"),
    ],
)
def test_reply_shapes(reply: str, items: list[dict[str, Any]], branch: str) -> None:
    result = parse_items(reply)
    assert result.items == items
    assert result.branch == branch


def test_python_literal_with_nested_parentheses_and_quotes_inside_strings() -> None:
    reply = """[{'id': 'c1', 'text': "Smith's (2020) \\"big\\" claim (see (Fig. 2))", 'confidence': None, 'ok': True, 'span': (3, 4)}]"""
    result = parse_items(reply)
    assert result.items == [{"id": "c1", "text": 'Smith\'s (2020) "big" claim (see (Fig. 2))', "confidence": None, "ok": True, "span": [3, 4]}]
    assert result.branch == "python-literal" and result.diagnostics == []


def test_unescaped_quotes_inside_strings_are_kept_as_text() -> None:
    assert parse_items("[{'id': 'e1', 'label': 'Smith's claim'}]").items == [{"id": "e1", "label": "Smith's claim"}]
    assert parse_items('[{"id": "e1", "label": "He said "yes" (twice)"}]').items == [{"id": "e1", "label": 'He said "yes" (twice)'}]


def test_truncated_reply_keeps_complete_items_and_says_what_it_dropped() -> None:
    reply = '{"entities": [{"id": "e1", "label": "Protein X", "type": "Factor"}, {"id": "e2", "label": "inflammation", "type": "Factor"}, {"id": "e3", "lab'
    result = parse_items(reply)
    assert result.items == [E1, E2] and result.branch == "truncated"
    assert any("cut off" in line and '"e3"' in line for line in result.diagnostics)


def test_expected_key_picks_the_list_and_reports_the_rest() -> None:
    reply = '{"entities": [{"id": "e1"}], "edges": [{"source": "e1", "label": "supports", "target": "e2"}]}'
    result = parse_items(reply, expected=("relations", "edges"))
    assert result.items == [{"source": "e1", "label": "supports", "target": "e2"}]
    assert result.diagnostics == ["offset 0: ignored ['entities'] (expected ['relations', 'edges'])"]
    assert len(parse_items(reply).items) == 2
    assert parse_items(reply, expected="entities").items == [{"id": "e1"}]


def test_an_absent_expected_key_gives_no_items_rather_than_another_list() -> None:
    result = parse_items('{"relations": [{"source": "E1", "label": "supports", "target": "E2"}]}', expected="entities")
    assert result.items == [] and "ignored ['relations']" in result.diagnostics[0]
    assert parse_items('{"id": "E1", "type": "Claim"}', expected="entities").items == [{"id": "E1", "type": "Claim"}]


def test_stray_brackets_and_apostrophes_in_prose_do_not_hide_the_items() -> None:
    result = parse_items("Here's what I found [see below] (it's {partial}): [{\"id\": \"e1\"}] and [1].")
    assert result.items == [{"id": "e1"}]
    assert len(result.diagnostics) == 3


@pytest.mark.parametrize("reply", ["", "   ", "I could not find any entities in this passage.", "{", "[[[", "}{", "```json\n```", "null", "[1, 2]", '"just a string"'])
def test_garbage_gives_no_items_and_a_reason(reply: str) -> None:
    result = parse_items(reply)
    assert result.items == [] and result.branch in ("none", "json") and result.diagnostics


# ---------------------------------------------------------------- properties

TEXT = st.text(max_size=30)
SCALAR = st.one_of(TEXT, st.integers(-10**12, 10**12), st.floats(allow_nan=False, allow_infinity=False), st.booleans(), st.none())
ITEM = st.fixed_dictionaries(
    {"id": st.text(min_size=1, max_size=10), "label": TEXT, "type": st.sampled_from(["Claim", "Factor", "Evidence"])},
    optional={"confidence": SCALAR, "aliases": st.lists(TEXT, max_size=3), "extra": st.dictionaries(st.text(max_size=5), SCALAR, max_size=3)},
)
ITEMS = st.lists(ITEM, min_size=1, max_size=5)
PROSE = st.text(alphabet=st.characters(blacklist_characters="{}[]()", blacklist_categories=("Cs",)), max_size=40)


def with_trailing_commas(value: Any) -> str:
    """JSON with a comma after the last element of every list and object."""
    if isinstance(value, dict):
        return "{" + "".join(f"{json.dumps(k)}: {with_trailing_commas(v)}," for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + "".join(f"{with_trailing_commas(v)}," for v in value) + "]"
    return json.dumps(value)


STYLES = {
    "json": lambda items: json.dumps(items),
    "json-ascii-indented": lambda items: json.dumps({"entities": items}, indent=2),
    "python": repr,
    "python-wrapped": lambda items: repr({"items": items}),
    "trailing-commas": with_trailing_commas,
    "several-objects": lambda items: "\n\n".join(json.dumps(item, ensure_ascii=False) for item in items),
    "fenced": lambda items: "```json\n" + json.dumps(items, ensure_ascii=False) + "\n```",
}


@settings(deadline=None)
@given(ITEMS, st.sampled_from(sorted(STYLES)), PROSE, PROSE)
def test_valid_items_survive_any_style_and_prose_around_them(items: list[dict[str, Any]], style: str, before: str, after: str) -> None:
    result = parse_items(f"{before}\n{STYLES[style](items)}\n{after}")
    assert result.items == items


@settings(deadline=None)
@given(ITEMS, st.data())
def test_truncation_keeps_exactly_the_complete_items(items: list[dict[str, Any]], data: st.DataObject) -> None:
    parts = [json.dumps(item, ensure_ascii=False) for item in items]
    text = "[" + ", ".join(parts) + "]"
    ends = [1 + sum(len(part) for part in parts[: i + 1]) + 2 * i for i in range(len(parts))]
    cut = data.draw(st.integers(0, len(text)))
    result = parse_items("Output: " + text[:cut])
    assert result.items == [item for item, end in zip(items, ends) if end <= cut]


@settings(deadline=None)
@given(st.text(max_size=300))
def test_never_raises_on_arbitrary_text(text: str) -> None:
    result = parse_items(text)
    assert all(isinstance(item, dict) for item in result.items)
    assert all(isinstance(line, str) for line in result.diagnostics)


@settings(deadline=None)
@given(st.lists(st.sampled_from(['{', '}', '[', ']', '(', ')', '"', "'", ",", ":", "\\", "x", " ", "True", "1"]), max_size=60))
def test_never_raises_on_bracket_and_quote_soup(tokens: list[str]) -> None:
    parse_items("".join(tokens))
