"""`claimgraph serve` from the command line: it says where it listens, reads the token from a file or the
environment, warns about a token on the command line, and refuses a short token before listening."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from serve_support import UPDATE_TOKEN

from claimgraph.cli.main import main


def start(store: Path, *options: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    """A running `claimgraph serve` on a free port and its base URL, read from its first line on stderr."""
    command = [sys.executable, "-m", "claimgraph", "--store", str(store), "serve", "--port", "0", "--quiet", "--workers", "1", *options]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})
    lines = []
    for line in process.stderr:  # type: ignore[union-attr]
        lines.append(line)
        found = re.search(r"at (http://127\.0\.0\.1:\d+):", line)
        if found:
            return process, found.group(1)
    process.wait(timeout=30)
    raise AssertionError(f"serve exited with {process.returncode} before listening: {''.join(lines)}")


def health(base_url: str) -> dict:
    with urllib.request.urlopen(f"{base_url}/health", timeout=30) as response:
        return json.loads(response.read())


def stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    process.wait(timeout=30)


def test_a_token_file_enables_updates_and_the_default_is_read_only(writable_store: Path, tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(UPDATE_TOKEN + "\n", encoding="utf-8")
    process, base_url = start(writable_store, "--update-token-file", str(token_file))
    try:
        assert health(base_url)["updates"] is True
    finally:
        stop(process)
    process, base_url = start(writable_store, env={"CLAIMGRAPH_UPDATE_TOKEN": ""})
    try:
        assert health(base_url)["updates"] is False
    finally:
        stop(process)


def test_a_token_on_the_command_line_works_with_a_warning(writable_store: Path) -> None:
    command = [sys.executable, "-m", "claimgraph", "--store", str(writable_store), "serve", "--port", "0", "--quiet", "--workers", "1",
               "--update-token", UPDATE_TOKEN]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stderr.readline()  # type: ignore[union-attr]
        assert "visible to other users" in first
    finally:
        stop(process)


def test_a_short_token_is_refused_before_listening(writable_store: Path, capsys: object, monkeypatch: object) -> None:
    monkeypatch.setenv("CLAIMGRAPH_UPDATE_TOKEN", "short")  # type: ignore[attr-defined]
    assert main(["--store", str(writable_store), "serve", "--port", "0"]) == 2
    assert "at least 16 characters" in capsys.readouterr().err  # type: ignore[attr-defined]


def test_access_and_connection_options_reach_the_server(writable_store: Path) -> None:
    process, base_url = start(writable_store, "--read-timeout", "5", "--connections", "4", "--allow-host", "claimgraph.internal",
                              "--cors", "https://app.example", env={"CLAIMGRAPH_UPDATE_TOKEN": ""})
    try:
        allowed = urllib.request.Request(f"{base_url}/health", headers={"Host": "claimgraph.internal", "Origin": "https://app.example"})
        with urllib.request.urlopen(allowed, timeout=30) as response:
            assert response.status == 200 and response.headers["Access-Control-Allow-Origin"] == "https://app.example"
        refused = urllib.request.Request(f"{base_url}/health", headers={"Host": "rebind.example"})
        try:
            urllib.request.urlopen(refused, timeout=30)
            raise AssertionError("a foreign Host was answered")
        except urllib.error.HTTPError as error:
            assert error.code == 403
    finally:
        stop(process)


def test_a_non_positive_read_timeout_is_refused(writable_store: Path, capsys: object) -> None:
    assert main(["--store", str(writable_store), "serve", "--port", "0", "--read-timeout", "0"]) == 2
    assert "--read-timeout" in capsys.readouterr().err  # type: ignore[attr-defined]
