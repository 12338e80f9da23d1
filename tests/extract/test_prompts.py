"""Prompts are generated from the .shex files: the schema excerpt and the cardinality sentences."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from claimgraph.errors import ProfileError
from claimgraph.extract.prompts import cardinality_rules, render, schema_excerpt, shape_blocks
from claimgraph.profile.manifest import load_profile

ENTITY_VALUES = {"node_types": "Claim, Association, Factor", "passage_index": "1", "passage": "[1] X raises Y."}


def test_entity_prompt_quotes_the_shapes_and_states_the_association_rule() -> None:
    prompt = render(load_profile("discourse"), "entities", ["Association", "Factor"], ENTITY_VALUES)
    assert ":AssociationShape CLOSED {" in prompt and "cg:arg1 @:FactorShape" in prompt
    assert "- Every Association must have exactly one arg1 pointing to a Factor, or it fails validation." in prompt
    assert "Do NOT return relations" in prompt and "[1] X raises Y." in prompt


def test_changing_a_cardinality_in_the_shex_changes_the_prompt(tmp_path: Path) -> None:
    profile = load_profile("discourse")
    original = profile.shex_files[0]
    edited = tmp_path / original.name
    text = original.read_text(encoding="utf-8")
    assert "  cg:arg1 @:FactorShape\n" in text
    edited.write_text(text.replace("  cg:arg1 @:FactorShape\n", "  cg:arg1 @:FactorShape {1,3}\n"), encoding="utf-8")
    changed = replace(profile, shex_files=(edited, *profile.shex_files[1:]))
    before = cardinality_rules(profile, ["Association"])
    after = cardinality_rules(changed, ["Association"])
    assert "Every Association must have exactly one arg1 pointing to a Factor" in before
    assert "Every Association must have between 1 and 3 arg1 pointing to a Factor, or it fails validation." in after
    assert "cg:arg1 @:FactorShape {1,3}" in render(changed, "entities", ["Association"], ENTITY_VALUES)


def test_optional_text_and_unbounded_edges_read_as_may() -> None:
    rules = cardinality_rules(load_profile("discourse"), ["Claim"])
    assert "- Every Claim may have at most one confidence." in rules
    assert "- Every Claim may have any number of supports pointing to a ClaimOrHypothesis." in rules
    assert "sourceSentence" not in rules, "pipeline-written predicates are not the model's business"


def test_shape_blocks_skip_comments_and_end_at_the_closing_brace() -> None:
    blocks = shape_blocks(":AShape CLOSED {\n  # note\n  cg:text xsd:string\n}\n:BShape {\n  cg:x IRI\n}\n")
    assert blocks == {"AShape": ":AShape CLOSED {\n  cg:text xsd:string\n}", "BShape": ":BShape {\n  cg:x IRI\n}"}


def test_unknown_class_and_missing_placeholder_are_profile_errors(tmp_path: Path) -> None:
    profile = load_profile("discourse")
    with pytest.raises(ProfileError, match="no shape NoSuchShape"):
        schema_excerpt(profile, ["NoSuch"])
    prompts = tmp_path / "prompts"
    shutil.copytree(profile.prompts_dir, prompts)
    with pytest.raises(ProfileError, match=r"uses \$passage_index"):
        render(replace(profile, prompts_dir=prompts), "entities", ["Claim"], {"node_types": "Claim", "passage": "p"})
