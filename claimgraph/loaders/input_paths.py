"""Which files a batch ingests, and what is wrong with a path that is not a file to load.

``find_inputs`` never raises: a path it cannot expand (missing, a folder with
nothing to load, a broken link) is passed on as it is, so ``load_document``
reports it as that item's failure and the rest of the batch goes on.

Symbolic links are not followed unless the caller asks (``follow_symlinks``):
a link inside a folder could lead anywhere (``/etc/passwd``, another user's
files), and what is loaded is stored, served and sent to the LLM endpoint. A
link found while walking a folder is passed on for ``load_document`` to refuse
by name, and so is a link given as a path. A file whose name is not valid
UTF-8 is refused too: the store keeps names as UTF-8 text.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from claimgraph.errors import LoaderError
from claimgraph.loaders.text_input import os_problem

SKIPPED_NAMES = frozenset({"readme.md"})
FOLLOW_FLAG = "--follow-symlinks"


def _is_candidate(path: Path, suffixes: frozenset[str]) -> bool:
    """A supported file name that is not a folder (broken links and FIFOs count: loading them says why not)."""
    return path.suffix.lower() in suffixes and path.name.lower() not in SKIPPED_NAMES and not path.is_dir()


def _walk(folder: Path, follow_symlinks: bool) -> Iterator[Path]:
    """Every entry under ``folder``; without ``follow_symlinks``, links (to files or folders) are yielded, not entered."""
    for root, folders, files in os.walk(folder, followlinks=follow_symlinks):
        base = Path(root)
        yield from (base / name for name in files)
        for name in folders:
            if not follow_symlinks and (base / name).is_symlink():
                yield base / name


def _found(folder: Path, suffixes: frozenset[str], follow_symlinks: bool) -> list[Path]:
    """The supported files in a folder, sorted; without ``follow_symlinks`` every link found, for refusal by name."""
    found = [path for path in _walk(folder, follow_symlinks)
             if (not follow_symlinks and path.is_symlink()) or _is_candidate(path, suffixes)]
    return sorted(found)


def find_inputs(paths: Iterable[Path], suffixes: Iterable[str], follow_symlinks: bool = False) -> Iterator[Path]:
    """Each path given that is not a folder, and the supported files (and links) inside each folder given (sorted).

    A folder holding no supported file is yielded itself, for ``load_document`` to say so.
    """
    wanted = frozenset(suffixes)
    for path in paths:
        if not path.is_dir() or (path.is_symlink() and not follow_symlinks):
            yield path
            continue
        found = _found(path, wanted, follow_symlinks)
        yield from found if found else [path]


def check_name(path: Path) -> None:
    """Refuse a path whose name is not valid UTF-8 (Python holds its bytes as lone surrogates)."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError as error:
        raise LoaderError(path, "its name is not valid UTF-8 (the bytes that are not are shown as \\x escapes); "
                                "rename the file") from error


def check_input_path(path: Path, suffixes: Iterable[str], follow_symlinks: bool = False) -> None:
    """Refuse, by name, a path that does not lead to a regular file, or is a symbolic link not to be followed."""
    check_name(path)
    if not follow_symlinks and path.is_symlink():
        raise LoaderError(path, f"is a symbolic link; links are not followed (give the file it points to, or pass {FOLLOW_FLAG})")
    try:
        info = os.stat(path)
    except OSError as error:
        raise LoaderError(path, os_problem(error)) from error
    if stat.S_ISDIR(info.st_mode):
        wanted = frozenset(suffixes)
        if not _found(path, wanted, follow_symlinks):
            known = ", ".join(sorted(wanted))
            raise LoaderError(path, f"is a folder with no supported input file in it (known file types: {known})")
        raise LoaderError(path, "is a folder, not a file; give the folder to the ingest command to load the files in it")
    if not stat.S_ISREG(info.st_mode):
        raise LoaderError(path, "is not a regular file (a FIFO, socket or device); give a saved file")
