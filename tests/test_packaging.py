"""The wheel carries the data assets: an installed claimgraph works away from the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def dependency_paths() -> list[str]:
    """The site-packages folders this interpreter imports the dependencies from (inside a virtualenv too)."""
    return [path for path in sys.path if path.rstrip("/").endswith(("site-packages", "dist-packages"))]


@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding only the built claimgraph wheel; the dependencies come from this interpreter's site-packages.

    A venv created with ``system_site_packages`` would see the base interpreter, not the virtualenv the tests run in,
    so the dependency folders are added with a .pth file instead (their own .pth files, such as an editable
    claimgraph, are not processed: the wheel is what gets imported).
    """
    root = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(root / "dist"), str(REPO)],
        capture_output=True, text=True, timeout=600,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = (root / "dist").glob("claimgraph-*.whl")
    env_dir = root / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    site_dir = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              capture_output=True, text=True, check=True).stdout.strip()
    (Path(site_dir) / "claimgraph-test-dependencies.pth").write_text("\n".join(dependency_paths()) + "\n", encoding="utf-8")
    install = subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "-q", str(wheel)], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr
    return env_dir


def run_installed(env_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": "", "HF_HUB_OFFLINE": "1"}
    return subprocess.run([str(env_dir / "bin" / "claimgraph"), *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


def test_installed_wheel_finds_its_assets_outside_the_checkout(installed_wheel: Path, tmp_path: Path) -> None:
    probe = subprocess.run(
        [str(installed_wheel / "bin" / "python"), "-c", "from claimgraph.assets import asset_root; print(asset_root())"],
        capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": ""},
    )
    assert probe.returncode == 0, probe.stderr
    assert "_assets" in probe.stdout and str(REPO) not in probe.stdout


def test_installed_wheel_ingests_and_validates_the_bundled_example(installed_wheel: Path, tmp_path: Path) -> None:
    example = REPO / "examples" / "papers" / "synthetic-arche-ripples.json"
    store = str(tmp_path / "store")
    ingest = run_installed(installed_wheel, "--store", store, "ingest", str(example), cwd=tmp_path)
    assert ingest.returncode == 0, ingest.stdout + ingest.stderr
    validate = run_installed(installed_wheel, "--store", store, "validate", cwd=tmp_path)
    assert validate.returncode == 0, validate.stdout + validate.stderr
    assert "synthetic-ripples" in validate.stdout
