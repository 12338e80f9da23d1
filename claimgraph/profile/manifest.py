"""Profile manifests: ``profiles/<name>.toml`` and the asset files it names.

A profile bundles the ontology, shapes, prompts, aliases, repairs, rules and
merge policies of one kind of graph; adding a profile means adding files, not
Python. What the ontology declares (edge labels, merge policies, families) is
read by ``claimgraph.profile.ontology``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from claimgraph.assets import asset_path, asset_root
from claimgraph.errors import AssetNotFoundError, ProfileError
from claimgraph.profile.ontology import edge_label_key, edge_labels

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
    extraction: str = "discourse"

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
        aliases={edge_label_key(raw): target for raw, target in _string_table(manifest, data, "aliases").items()},
        repair_names=tuple(_string_list(manifest, data, "repairs", required=False)),
        rule_names=tuple(_string_list(manifest, data, "rules", required=False)),
        shape_overrides=_string_table(manifest, data, "shapes"),
        extraction=str(data.get("extraction", "discourse")),
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
    if not isinstance(value, list) or (not value and required) or not all(isinstance(item, str) for item in value):
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
