"""docs/cli.md says what --help says: regenerate it with ``python -m cogapp -r docs/cli.md``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_cli_reference_matches_the_parser() -> None:
    check = subprocess.run([sys.executable, "-m", "cogapp", "--check", str(REPO / "docs" / "cli.md")], capture_output=True, text=True, cwd=REPO)
    assert check.returncode == 0, "docs/cli.md is out of date: run `python -m cogapp -r docs/cli.md`\n" + check.stdout + check.stderr
