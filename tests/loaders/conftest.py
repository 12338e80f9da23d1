from __future__ import annotations

import json
from pathlib import Path

import pytest

SAMPLE_PAPERS = ["s41467-025-55907-w", "s41467-025-56034-2", "s41467-025-56871-1", "s41467-025-56283-1"]
SYNTHETIC_PAPERS = ["synth-0001", "synth-0004", "synth-0007"]


@pytest.fixture(params=[*(f"synthetic:{name}" for name in SYNTHETIC_PAPERS), *(f"real:{name}" for name in SAMPLE_PAPERS)])
def arche_paper(request: pytest.FixtureRequest) -> tuple[Path, dict]:
    """One ARCHE-format paper and its JSON: papers of the generated corpus always, real ones when the corpus is there."""
    corpus, name = request.param.split(":")
    folder = request.getfixturevalue("synthetic_arche_dir" if corpus == "synthetic" else "arche_dir")
    path = folder / f"{name}.json"
    return path, json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def write(tmp_path: Path):
    """Write a file under tmp_path (text or bytes) and return its path."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return _write
