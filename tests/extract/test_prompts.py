"""Prompts and reply schemas are generated from the .shex files: the schema excerpt, the cardinality sentences, the JSON schemas."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from claimgraph.errors import ProfileError
from claimgraph.extract.prompts import cardinality_rules, render, reply_schema, schema_excerpt, shape_blocks, template_hash
from claimgraph.extract.reasoning import reasoning_labels, reasoning_prompt
from claimgraph.loaders.formats.text import build_document
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


# ---------------------------------------------------------------- reply schemas and the peirce prompt


def test_reply_schemas_take_types_labels_and_facets_from_the_profile_and_its_shapes(tmp_path: Path) -> None:
    profile = load_profile("discourse")
    schema = reply_schema(profile, "relations", ["Claim", "Evidence"], ["opposes", "supports"])
    assert schema is not None and schema.name == "relations"
    relation = schema.schema["properties"]["relations"]["items"]
    assert relation["properties"]["label"] == {"enum": ["opposes", "supports"]}
    assert relation["properties"]["confidence"] == {"type": "number", "minimum": 0.0, "maximum": 1.0}
    assert schema.schema["properties"]["entities"]["items"]["properties"]["type"] == {"enum": ["Claim", "Evidence"]}
    original = profile.shex_files[0]
    edited = tmp_path / original.name
    edited.write_text(original.read_text(encoding="utf-8").replace("MININCLUSIVE 0 MAXINCLUSIVE 1", "MININCLUSIVE 0 MAXINCLUSIVE 0.9"), encoding="utf-8")
    changed = reply_schema(replace(profile, shex_files=(edited,)), "gaps", ["Claim"], ["supports"])
    assert changed is not None
    assert changed.schema["properties"]["relations"]["items"]["properties"]["confidence"]["maximum"] == 0.9
    assert reply_schema(profile, "no-such-phase", ["Claim"], []) is None


def test_an_unknown_placeholder_in_the_reply_schemas_is_a_profile_error(tmp_path: Path) -> None:
    profile = load_profile("discourse")
    prompts = tmp_path / "prompts"
    shutil.copytree(profile.prompts_dir, prompts)
    (prompts / "replies.json").write_text('{"phases": {"gaps": {"items": "@nothing"}}}', encoding="utf-8")
    with pytest.raises(ProfileError, match="'@nothing' names no definition"):
        reply_schema(replace(profile, prompts_dir=prompts), "gaps", ["Claim"], [])


def test_the_template_hash_changes_with_the_template(tmp_path: Path) -> None:
    profile = load_profile("discourse")
    prompts = tmp_path / "prompts"
    shutil.copytree(profile.prompts_dir, prompts)
    edited = replace(profile, prompts_dir=prompts)
    assert template_hash(edited, "gaps") == template_hash(profile, "gaps") != template_hash(profile, "orphans")
    (prompts / "gaps.md").write_text((prompts / "gaps.md").read_text(encoding="utf-8") + "\nBe brief.\n", encoding="utf-8")
    assert template_hash(edited, "gaps") != template_hash(profile, "gaps")


def test_the_peirce_prompt_is_generated_from_its_shapes_and_ontology() -> None:
    profile = load_profile("peirce")
    assert profile.extraction == "reasoning" and load_profile("discourse").extraction == "discourse"
    document = build_document(Path("paper-x.md"), "markdown", [("Results", ["Warming raised respiration. So soils lose carbon."])])
    prompt = reasoning_prompt(profile, document)
    assert ":ReasoningNodeShape CLOSED {" in prompt
    assert "- Every ReasoningNode must have exactly one text, or it fails validation." in prompt
    assert '- Deduction: "deduction-case" (the premise is its case), "deduction-rule" (the premise is its rule)' in prompt
    assert "[1] Warming raised respiration." in prompt and "## Results" in prompt
    assert set(reasoning_labels(profile)) == {"deduction-rule", "deduction-case", "induction-common", "induction-case",
                                               "abduction-phenomenon", "abduction-knowledge"}
    schema = reply_schema(profile, "reasoning", ["ReasoningNode"], list(reasoning_labels(profile)))
    assert schema is not None and schema.schema["required"] == ["nodes", "edges"]
