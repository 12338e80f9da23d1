"""Phase prompts rendered from template files, with schema excerpts generated from the .shex files.

A template (``prompts/<profile>/<phase>.md``) uses ``$name`` placeholders
(string.Template). Two are always available: ``$schema_excerpt`` (the ShExC text
of the shapes in play, quoted from the profile's .shex files) and
``$cardinality_rules`` (one sentence per constraint, derived from the parsed
schema), so changing a cardinality in the .shex changes the prompt.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from string import Template

from claimgraph.errors import ProfileError
from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import edge_labels
from claimgraph.profile.schema import UNBOUNDED, TripleConstraint, load_schema, triple_constraints
from claimgraph.rdf.vocab import CG, local_name

_SHAPE_START = re.compile(r"^(?P<label>:[A-Za-z][A-Za-z0-9_]*)\s.*\{\s*$")


def shape_blocks(shex_text: str) -> dict[str, str]:
    """ShExC shape definitions by local label (``AssociationShape``), as written in the file."""
    blocks: dict[str, str] = {}
    lines = shex_text.splitlines()
    for start, line in enumerate(lines):
        match = _SHAPE_START.match(line)
        if not match:
            continue
        end = next((i for i in range(start, len(lines)) if lines[i].rstrip() == "}"), start)
        body = [text for text in lines[start:end + 1] if not text.lstrip().startswith("#")]
        blocks[match.group("label")[1:]] = "\n".join(body)
    return blocks


def schema_excerpt(profile: Profile, classes: Iterable[str]) -> str:
    """The .shex text of the shapes of these classes (local names such as ``Association``)."""
    blocks: dict[str, str] = {}
    for path in profile.shex_files:
        blocks.update(shape_blocks(path.read_text(encoding="utf-8")))
    wanted = [f"{name}Shape" for name in classes]
    missing = [name for name in wanted if name not in blocks]
    if missing:
        raise ProfileError(f"profile {profile.name}: no shape {', '.join(missing)} in {', '.join(map(str, profile.shex_files))}")
    if "NodeCore" in "".join(blocks[name] for name in wanted):
        core = next((b for b in blocks.values() if "$:NodeCore" in b), "")
        wanted_blocks = [_node_core(core)] if core else []
    else:
        wanted_blocks = []
    return "\n\n".join([*wanted_blocks, *(blocks[name] for name in wanted)])


def _node_core(block: str) -> str:
    """The labelled ``$:NodeCore ( ... )`` group, quoted on its own for the excerpt."""
    start = block.index("$:NodeCore")
    depth = 0
    for position in range(block.index("(", start), len(block)):
        depth += {"(": 1, ")": -1}.get(block[position], 0)
        if depth == 0:
            return "# shared by every discourse node:\n" + block[start:position + 1]
    return ""


def _count_phrase(low: int, high: int) -> str:
    if low == high:
        return "exactly one" if low == 1 else f"exactly {low}"
    if high == UNBOUNDED:
        return "any number of" if low == 0 else ("at least one" if low == 1 else f"at least {low}")
    if low == 0:
        return "at most one" if high == 1 else f"at most {high}"
    return f"between {low} and {high}"


def cardinality_sentence(constraint: TripleConstraint) -> str:
    """One plain-English rule for a triple constraint, e.g. the arg1 rule of an Association."""
    subject = local_name(constraint.shape).removesuffix("Shape")
    what = local_name(constraint.predicate)
    target = ""
    if constraint.target_shape:
        target = f" pointing to a {local_name(constraint.target_shape).removesuffix('Shape').removesuffix('Ref')}"
    elif constraint.values:
        target = " with a value from: " + ", ".join(local_name(v) for v in constraint.values)
    low = constraint.min if constraint.required else 0
    must = "must" if low > 0 else "may"
    sentence = f"Every {subject} {must} have {_count_phrase(low, constraint.max)} {what}{target}"
    return sentence + (", or it fails validation." if low > 0 else ".")


def llm_predicates(profile: Profile) -> set[str]:
    """Predicates the LLM itself produces: the profile's edge labels, text and confidence.

    Everything else (types, source tuples, provenance) is written by the pipeline,
    so its constraints are not the model's business.
    """
    return set(edge_labels(profile).values()) | {CG.text.value, CG.confidence.value}


@cache
def _constraints(shex_files: tuple[Path, ...]) -> list[TripleConstraint]:
    return triple_constraints(load_schema(shex_files))


def cardinality_rules(profile: Profile, classes: Iterable[str]) -> str:
    """Bullet list of the cardinality sentences for these classes' shapes."""
    shapes = {f"{name}Shape" for name in classes}
    wanted = llm_predicates(profile)
    lines = []
    for constraint in _constraints(tuple(profile.shex_files)):
        if local_name(constraint.shape) in shapes and constraint.predicate in wanted:
            lines.append(f"- {cardinality_sentence(constraint)}")
    return "\n".join(dict.fromkeys(lines))


def render(profile: Profile, phase: str, classes: Iterable[str], values: Mapping[str, str]) -> str:
    """The phase template filled with the schema excerpt, cardinality rules and ``values``."""
    path = profile.prompts_dir / f"{phase}.md"
    if not path.is_file():
        raise ProfileError(f"profile {profile.name} has no prompt template {path}")
    classes = list(classes)
    filled = {"schema_excerpt": schema_excerpt(profile, classes), "cardinality_rules": cardinality_rules(profile, classes), **values}
    try:
        return Template(path.read_text(encoding="utf-8")).substitute(filled)
    except KeyError as error:
        raise ProfileError(f"prompt template {path} uses ${error.args[0]}, which phase {phase!r} does not provide") from error
