"""A folder of recorded reasoning-graph responses: ``<model>/<paper-id>.<dot|xml|plist|json|txt>``.

Each model folder is one archive (PEARL's five 70-paper model archives are five
such folders). A file whose name or place does not fit is reported by name and
left out; the rest of the archive is scored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from claimgraph.errors import ClaimgraphError

SUFFIXES = (".dot", ".xml", ".plist", ".json", ".txt")
_MODEL = re.compile(r"^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,63}$")


class ArchiveError(ClaimgraphError):
    """The archive folder cannot be read (missing, not a folder, no model folder)."""


@dataclass(frozen=True)
class Recorded:
    """One recorded response: the model that wrote it, the paper it is for, the file."""

    model: str
    paper_id: str
    path: Path


@dataclass
class Archive:
    responses: list[Recorded]
    problems: list[str]

    @property
    def models(self) -> list[str]:
        return sorted({item.model for item in self.responses})


def read_archive(root: Path, papers: set[str] | None = None, models: set[str] | None = None) -> Archive:
    """The responses under ``root`` (only the given papers and models when named), in model then paper order."""
    if not root.is_dir():
        raise ArchiveError(f"{root}: not a folder of <model>/<paper-id>.<dot|xml|plist|json> responses")
    responses: list[Recorded] = []
    problems: list[str] = []
    for folder in sorted(root.iterdir()):
        if not folder.is_dir():
            problems.append(f"{folder}: not a model folder (responses go in <model>/<paper-id>.<ext>); skipped")
            continue
        if not _MODEL.match(folder.name):
            problems.append(f"{folder}: a model folder name uses letters, digits, '.', '_', '~' or '-'; skipped")
            continue
        if models is not None and folder.name not in models:
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix.lower() not in SUFFIXES or not path.is_file():
                problems.append(f"{path}: not a response file ({', '.join(SUFFIXES)}); skipped")
                continue
            if papers is None or path.stem in papers:
                responses.append(Recorded(folder.name, path.stem, path))
    if not responses and not problems:
        raise ArchiveError(f"{root}: no <model>/<paper-id>.<ext> response found")
    return Archive(responses, problems)
