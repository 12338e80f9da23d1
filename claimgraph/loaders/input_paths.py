"""Which files a batch ingests, and what is wrong with a path that is not a file to load.

``find_inputs`` never raises: a path it cannot expand (missing, a folder with
nothing to load, a broken link) is passed on as it is, so ``load_document``
reports it as that item's failure and the rest of the batch goes on.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from claimgraph.errors import LoaderError
from claimgraph.loaders.text_input import os_problem

SKIPPED_NAMES = frozenset({"readme.md"})


def _is_candidate(path: Path, suffixes: frozenset[str]) -> bool:
    """A supported file name that is not a folder (broken links and FIFOs count: loading them says why not)."""
    return path.suffix.lower() in suffixes and path.name.lower() not in SKIPPED_NAMES and not path.is_dir()


def find_inputs(paths: Iterable[Path], suffixes: Iterable[str]) -> Iterator[Path]:
    """Each path given that is not a folder, and the supported files inside each folder given (sorted).

    A folder holding no supported file is yielded itself, for ``load_document`` to say so.
    """
    wanted = frozenset(suffixes)
    for path in paths:
        if not path.is_dir():
            yield path
            continue
        found = [child for child in sorted(path.rglob("*")) if _is_candidate(child, wanted)]
        yield from found if found else [path]


def check_input_path(path: Path, suffixes: Iterable[str]) -> None:
    """Refuse, by name, a path that does not lead to a regular file."""
    try:
        info = os.stat(path)
    except OSError as error:
        raise LoaderError(path, os_problem(error)) from error
    if stat.S_ISDIR(info.st_mode):
        wanted = frozenset(suffixes)
        if not any(_is_candidate(child, wanted) for child in path.rglob("*")):
            known = ", ".join(sorted(wanted))
            raise LoaderError(path, f"is a folder with no supported input file in it (known file types: {known})")
        raise LoaderError(path, "is a folder, not a file; give the folder to the ingest command to load the files in it")
    if not stat.S_ISREG(info.st_mode):
        raise LoaderError(path, "is not a regular file (a FIFO, socket or device); give a saved file")
