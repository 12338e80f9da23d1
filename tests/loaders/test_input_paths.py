"""What a batch reads: links are not followed unless asked, names that are not UTF-8 or hold control characters."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest
from pyoxigraph import Literal

from claimgraph.cli.main import main
from claimgraph.errors import LoaderError
from claimgraph.loaders import find_inputs, load_document
from claimgraph.store import EmbeddedStore

PAPER = "# A paper\n\nMoss grows in shade. Light limits its growth.\n"
SECRET = "root:x:0:0:the secret line:/root:/bin/bash\n"


def ingest(store: Path, *paths: Path) -> tuple[int, str, str]:
    """``claimgraph ingest`` without an LLM: exit code, standard output, standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--store", str(store), "ingest", "--no-canonicalize", "--no-extract", "--no-validate", *map(str, paths)])
    return code, out.getvalue(), err.getvalue()


def stored_texts(store: Path) -> set[str]:
    with EmbeddedStore(store, read_only=True) as opened:
        return {q.object.value for q in opened.quads() if isinstance(q.object, Literal)}


def test_a_link_inside_a_folder_is_refused_by_name_and_its_target_is_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "passwd.txt"
    secret.write_text(SECRET, encoding="utf-8")
    folder = tmp_path / "papers"
    (folder / "nested").mkdir(parents=True)
    (folder / "good.md").write_text(PAPER, encoding="utf-8")
    (folder / "stolen.txt").symlink_to(secret)
    (folder / "nested" / "linked-folder").symlink_to(tmp_path, target_is_directory=True)
    code, _, err = ingest(tmp_path / "store", folder)
    assert code == 1
    refused = [line for line in err.splitlines() if line.startswith("failed: ")]
    assert refused == [f"failed: {folder / 'nested' / 'linked-folder'}: is a symbolic link; links are not followed "
                       "(give the file it points to, or pass --follow-symlinks)",
                       f"failed: {folder / 'stolen.txt'}: is a symbolic link; links are not followed "
                       "(give the file it points to, or pass --follow-symlinks)"]
    texts = stored_texts(tmp_path / "store")
    assert "Moss grows in shade." in texts and not any("secret line" in text for text in texts)


def test_a_link_given_as_a_path_is_refused_unless_links_are_followed(tmp_path: Path) -> None:
    target = tmp_path / "real.md"
    target.write_text(PAPER, encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    assert list(find_inputs([link])) == [link]
    with pytest.raises(LoaderError, match=r"link\.md: is a symbolic link; links are not followed"):
        load_document(link)
    assert load_document(link, follow_symlinks=True).source == str(link)
    assert list(find_inputs([tmp_path], follow_symlinks=True)) == [link, target]


def test_a_file_name_that_is_not_utf8_is_one_failed_file_shown_with_escapes(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "good.md").write_text(PAPER, encoding="utf-8")
    with open(os.fsencode(folder) + b"/caf\xe9.md", "w", encoding="utf-8") as handle:
        handle.write(PAPER.replace("Moss", "Fern"))
    code, _, err = ingest(tmp_path / "store", folder)
    assert code == 1, err
    (line,) = [line for line in err.splitlines() if line.startswith("failed: ")]
    assert line.startswith(f"failed: {folder}/caf\\xe9.md: its name is not valid UTF-8")
    assert "Moss grows in shade." in stored_texts(tmp_path / "store")


def test_control_characters_in_a_file_name_are_escaped_and_cannot_forge_a_line(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "good.md").write_text(PAPER, encoding="utf-8")
    forged = folder / "x.md\nfailed: forged line \x1b[2J\x1b[31m.md"
    forged.write_text("   \n", encoding="utf-8")  # blank: refused, so its name is printed
    code, out, err = ingest(tmp_path / "store", folder)
    assert code == 1
    assert "\x1b" not in err and "\x1b" not in out
    (line,) = [line for line in err.splitlines() if "failed: " in line]
    assert line == f"failed: {folder}/x.md\\nfailed: forged line \\x1b[2J\\x1b[31m.md: file is empty (nothing but whitespace)"


def test_ingest_refuses_a_linked_file_by_name_unless_asked_to_follow_links(tmp_path: Path, capsys) -> None:
    source = tmp_path / "paper.md"
    source.write_text(PAPER, encoding="utf-8")
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "linked.md").symlink_to(source)
    store = str(tmp_path / "store")
    base = ["--store", store, "ingest", "--no-canonicalize", "--no-extract"]
    assert main([*base, str(folder)]) == 1
    assert "linked.md" in capsys.readouterr().err
    assert main([*base, "--follow-symlinks", str(folder)]) == 0
    assert "Moss grows in shade." in stored_texts(Path(store))
