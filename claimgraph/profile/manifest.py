"""Profiles: the ontology, shapes, prompts, aliases, repairs, rules and merge policies of one kind of graph.

A profile is the manifest ``profiles/<name>.toml`` plus the asset files it names;
adding a profile means adding files, not Python. Merge policies and edge labels
are read from the ontology (``cg:mergePolicy`` and ``skos:notation``), so the
ontology stays the single source of truth.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

import rdflib

from claimgraph.assets import asset_path, asset_root
from claimgraph.errors import AssetNotFoundError, ProfileError
from claimgraph.rdf.vocab import CG

MergePolicy = Literal["aggressive", "cautious", "never"]
MERGE_POLICIES: tuple[MergePolicy, ...] = ("aggressive", "cautious", "never")

_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


@dataclass(frozen=True)
class Profile:
    """A loaded profile manifest; asset paths are resolved and known to exist (except repairs, prompts)."""

    name: str
    description: str
    manifest: Path
    ontology_files: tuple[Path, ...]
    shex_files: tuple[Path, ...]
    prompts_dir: Path
    aliases: dict[str, str] = field(hash=False)
    repair_names: tuple[str, ...]
    rule_names: tuple[str, ...]
    shape_overrides: dict[str, str] = field(hash=False)

    @property
    def repair_files(self) -> list[Path]:
        """The repair scripts that exist, in manifest order."""
        folder = asset_root() / "sparql" / "repair"
        return [folder / f"{name}.ru" for name in self.repair_names if (folder / f"{name}.ru").is_file()]

    @property
    def missing_repairs(self) -> list[str]:
        folder = asset_root() / "sparql" / "repair"
        return [name for name in self.repair_names if not (folder / f"{name}.ru").is_file()]

    @property
    def rule_files(self) -> list[Path]:
        return [asset_path("sparql", "rules", f"{name}.rq") for name in self.rule_names]

    def shex_text(self) -> str:
        return "\n".join(path.read_text(encoding="utf-8") for path in self.shex_files)


def list_profiles() -> list[str]:
    """Names of the shipped profiles."""
    return sorted(path.stem for path in asset_path("profiles").glob("*.toml"))


@cache
def load_profile(name: str) -> Profile:
    """The profile ``profiles/<name>.toml``, checked for missing files and inconsistent aliases."""
    if not _NAME.match(name):
        raise ProfileError(f"profile name {name!r} must be lowercase letters, digits, '-' or '_'")
    try:
        manifest = asset_path("profiles", f"{name}.toml")
    except AssetNotFoundError:
        known = ", ".join(list_profiles()) or "none"
        raise ProfileError(f"no profile named {name!r} (profiles/{name}.toml); known profiles: {known}") from None
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"{manifest}: not valid TOML: {error}") from error
    profile = Profile(
        name=name,
        description=str(data.get("description", "")),
        manifest=manifest,
        ontology_files=tuple(_asset_files(manifest, data, "ontology")),
        shex_files=tuple(_asset_files(manifest, data, "shex")),
        prompts_dir=asset_root() / str(data.get("prompts", f"prompts/{name}")),
        aliases={normalize_label(raw): target for raw, target in _string_table(manifest, data, "aliases").items()},
        repair_names=tuple(_string_list(manifest, data, "repairs", required=False)),
        rule_names=tuple(_string_list(manifest, data, "rules", required=False)),
        shape_overrides=_string_table(manifest, data, "shapes"),
    )
    if data.get("name", name) != name:
        raise ProfileError(f"{manifest}: name = {data['name']!r} does not match the file name {name!r}")
    for rule in profile.rule_names:
        if not (asset_root() / "sparql" / "rules" / f"{rule}.rq").is_file():
            raise ProfileError(f"{manifest}: rule {rule!r} has no file sparql/rules/{rule}.rq")
    labels = edge_labels(profile)
    unknown = sorted(target for target in set(profile.aliases.values()) if target not in labels)
    if unknown:
        raise ProfileError(
            f"{manifest}: [aliases] map to unknown edge labels {unknown}; "
            f"edge labels (skos:notation in the ontology): {sorted(labels)}"
        )
    return profile


def _string_list(manifest: Path, data: dict[str, Any], key: str, required: bool = True) -> list[str]:
    value = data.get(key)
    if value is None and not required:
        return []
    if not isinstance(value, list) or not value and required or not all(isinstance(item, str) for item in value):
        raise ProfileError(f"{manifest}: {key} must be a {'non-empty ' if required else ''}list of strings")
    return value


def _string_table(manifest: Path, data: dict[str, Any], key: str) -> dict[str, str]:
    table = data.get(key, {})
    if not isinstance(table, dict) or not all(isinstance(value, str) for value in table.values()):
        raise ProfileError(f"{manifest}: [{key}] must be a table of strings")
    return dict(table)


def _asset_files(manifest: Path, data: dict[str, Any], key: str) -> list[Path]:
    paths = []
    for relative in _string_list(manifest, data, key):
        path = asset_root() / relative
        if not path.is_file():
            raise ProfileError(f"{manifest}: {key} file {relative} does not exist (looked in {asset_root()})")
        paths.append(path)
    return paths


@cache
def ontology_graph(profile: Profile) -> rdflib.Graph:
    """The union of the profile's ontology files."""
    graph = rdflib.Graph()
    for path in profile.ontology_files:
        try:
            graph.parse(path, format="turtle")
        except Exception as error:  # rdflib raises parser-specific types
            raise ProfileError(f"{path}: cannot parse the ontology: {error}") from error
    return graph


def _select(profile: Profile, query: str) -> list[tuple[str, str]]:
    rows = ontology_graph(profile).query(query, initNs={"cg": rdflib.Namespace(str(CG))})
    return [(str(row[0]), str(row[1])) for row in rows]  # type: ignore[index]


def merge_policy(profile: Profile) -> dict[str, MergePolicy]:
    """Class IRI -> merge policy, from the ``cg:mergePolicy`` annotations of the ontology."""
    return dict(_merge_policy(profile))


@cache
def _merge_policy(profile: Profile) -> dict[str, MergePolicy]:
    rows = _select(profile, "SELECT ?class ?policy WHERE { ?class cg:mergePolicy ?policy }")
    policies: dict[str, MergePolicy] = {}
    for cls, policy_iri in rows:
        policy = policy_iri.removeprefix(str(CG))
        if policy not in MERGE_POLICIES:
            raise ProfileError(f"{cls} has cg:mergePolicy {policy_iri}; expected one of cg:{', cg:'.join(MERGE_POLICIES)}")
        if policies.setdefault(cls, policy) != policy:  # type: ignore[arg-type]
            raise ProfileError(f"{cls} has two merge policies in profile {profile.name}")
    return policies


def edge_labels(profile: Profile) -> dict[str, str]:
    """Canonical edge label -> property IRI, from ``skos:notation`` on object properties."""
    return dict(_edge_labels(profile))


@cache
def _edge_labels(profile: Profile) -> dict[str, str]:
    rows = _select(
        profile,
        "PREFIX skos: <http://www.w3.org/2004/02/skos/core#> "
        "PREFIX owl: <http://www.w3.org/2002/07/owl#> "
        "SELECT ?label ?property WHERE { ?property a owl:ObjectProperty ; skos:notation ?label }",
    )
    return dict(rows)


def normalize_label(raw: str) -> str:
    """Lower case; runs of spaces, underscores and dashes become one dash."""
    return re.sub(r"[\s_-]+", "-", raw.strip().lower()).strip("-")


def canonical_edge_label(profile: Profile, raw: str) -> str | None:
    """The canonical edge label of a raw label (exact, case/spacing variant or alias), else None."""
    label = normalize_label(raw)
    label = profile.aliases.get(label, label)
    return label if label in _edge_labels(profile) else None


def extracted_classes(profile: Profile) -> list[str]:
    """IRIs of the classes the LLM extracts (``cg:extractedClass true`` in the ontology), sorted."""
    return list(_extracted_classes(profile))


@cache
def _extracted_classes(profile: Profile) -> tuple[str, ...]:
    rows = _select(profile, "SELECT ?class ?flag WHERE { ?class cg:extractedClass ?flag }")
    return tuple(sorted(cls for cls, flag in rows if flag == "true"))


def extracted_class_names(profile: Profile) -> list[str]:
    """Local names of the extracted classes (``Association``, ``Claim`` ...), as prompts and replies use them."""
    return [cls.removeprefix(str(CG)) for cls in extracted_classes(profile)]
