"""Phase prompts rendered from template files, with schema excerpts generated from the .shex files.

A template (``prompts/<profile>/<phase>.md``) uses ``$name`` placeholders
(string.Template). Two are always available: ``$schema_excerpt`` (the ShExC text
of the shapes in play, quoted from the profile's .shex files) and
``$cardinality_rules`` (one sentence per constraint, derived from the parsed
schema), so changing a cardinality in the .shex changes the prompt.

The JSON schema a phase's reply should follow (sent as ``response_format``
where the endpoint takes structured output) comes from
``prompts/<profile>/replies.json``: its ``@name`` strings are filled with the
profile's node types and edge labels and with the facets the shapes put on
``cg:text`` and ``cg:confidence``, so the shapes stay the one source.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

from claimgraph.errors import ProfileError
from claimgraph.llm.client import ReplySchema
from claimgraph.profile.manifest import Profile
from claimgraph.profile.ontology import edge_labels
from claimgraph.profile.schema import UNBOUNDED, TripleConstraint, load_schema, triple_constraints
from claimgraph.rdf.vocab import CG, local_name

REPLY_SCHEMAS = "replies.json"

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
def _schema(shex_files: tuple[Path, ...]) -> Any:
    """The parsed ShEx schema of these files (parsing takes seconds: once per process)."""
    return load_schema(shex_files)


@cache
def _constraints(shex_files: tuple[Path, ...]) -> list[TripleConstraint]:
    return triple_constraints(_schema(shex_files))


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


# ---------------------------------------------------------------- reply schemas


@cache
def _facets(shex_files: tuple[Path, ...], shapes: frozenset[str]) -> dict[str, dict[str, Any]]:
    """JSON-schema facets of cg:text and cg:confidence in these shapes (local names), from the ShEx node constraints."""
    from ShExJSG import ShExJ

    schema = _schema(shex_files)
    labeled: dict[str, object] = {}
    found: dict[str, dict[str, Any]] = {"text": {"type": "string"}, "confidence": {"type": "number"}}

    def collect(expr: object) -> None:
        if isinstance(expr, (ShExJ.EachOf, ShExJ.OneOf)):
            if expr.id is not None:
                labeled[str(expr.id)] = expr
            for child in expr.expressions:
                collect(child)

    def walk(expr: object, seen: frozenset[str]) -> None:
        if isinstance(expr, ShExJ.TripleConstraint) and isinstance(expr.valueExpr, ShExJ.NodeConstraint):
            name = {CG.text.value: "text", CG.confidence.value: "confidence"}.get(str(expr.predicate))
            if name is not None:
                _tighten(found[name], expr.valueExpr)
        elif isinstance(expr, (ShExJ.EachOf, ShExJ.OneOf)):
            for child in expr.expressions:
                walk(child, seen)
        elif isinstance(expr, str) and expr in labeled and expr not in seen:
            walk(labeled[expr], seen | {expr})

    for shape in schema.shapes:
        collect(getattr(shape, "expression", None))
    for shape in schema.shapes:
        if local_name(str(shape.id)) in shapes:
            walk(getattr(shape, "expression", None), frozenset())
    return found


def _tighten(facets: dict[str, Any], constraint: Any) -> None:
    """Narrow JSON-schema facets by one ShEx node constraint (the strictest of several wins)."""
    if constraint.minlength is not None:
        facets["minLength"] = max(facets.get("minLength", 0), int(constraint.minlength))
    if constraint.mininclusive is not None:
        facets["minimum"] = max(facets.get("minimum", float("-inf")), float(str(constraint.mininclusive)))
    if constraint.maxinclusive is not None:
        facets["maximum"] = min(facets.get("maximum", float("inf")), float(str(constraint.maxinclusive)))


def _expand(value: Any, fill: Mapping[str, Any], where: Path) -> Any:
    if isinstance(value, str) and value.startswith("@"):
        if value[1:] not in fill:
            raise ProfileError(f"{where}: {value!r} names no definition and no derived value (known: {', '.join(sorted(fill))})")
        return _expand(fill[value[1:]], fill, where)
    if isinstance(value, dict):
        return {key: _expand(item, fill, where) for key, item in value.items()}
    if isinstance(value, list):
        return [_expand(item, fill, where) for item in value]
    return value


@cache
def _schema_file(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ProfileError(f"{path}: cannot read the reply schemas: {error}") from error
    if not isinstance(data, dict) or not isinstance(data.get("phases"), dict):
        raise ProfileError(f"{path}: expected an object with a \"phases\" object")
    return data


def reply_schema(profile: Profile, phase: str, classes: Iterable[str], labels: Iterable[str]) -> ReplySchema | None:
    """The JSON schema of a phase's reply, filled from the profile; None when the profile gives none for the phase."""
    path = profile.prompts_dir / REPLY_SCHEMAS
    if not path.is_file():
        return None
    data = _schema_file(path)
    if phase not in data["phases"]:
        return None
    classes = list(classes)
    facets = _facets(tuple(profile.shex_files), frozenset(f"{name}Shape" for name in classes))
    fill = {**data.get("definitions", {}), "node_types": classes, "edge_labels": list(labels), **facets}
    return ReplySchema(phase, _expand(data["phases"][phase], fill, path))


def template_hash(profile: Profile, phase: str, with_reprompt: bool = False) -> str:
    """Hash of what shapes a phase's prompts: the system prompt, the phase template and its ``<phase>-*.md``
    fragments (and the re-prompt's), the reply schemas and the profile's shapes (quoted into the prompt)."""
    import hashlib

    folder = profile.prompts_dir
    names = ["system.md", f"{phase}.md", *(["reprompt.md"] if with_reprompt else []), REPLY_SCHEMAS]
    parts = sorted(folder.glob(f"{phase}-*.md"))  # fragments of the phase's prompt, e.g. reasoning-sources-viewpoints.md
    digest = hashlib.sha256()
    for path in [*(folder / name for name in names), *parts, *profile.shex_files]:
        digest.update(path.name.encode("utf-8") + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()[:16]
