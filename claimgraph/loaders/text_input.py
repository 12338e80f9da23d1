"""Reading one input file: its bytes within a size limit, and its text under one encoding policy.

Encoding policy for text, Markdown and JSON files:

- UTF-8, with or without a byte-order mark (BOM): read;
- UTF-16 with a BOM (either byte order): decoded, since the BOM says what it is;
- UTF-16 without a BOM, UTF-32, Latin-1 and other 8-bit encodings: refused,
  with the offset of the first byte that is not UTF-8; guessing an encoding
  would silently change the text;
- NUL characters: refused (a binary file, or UTF-16/32 saved without a BOM).

XML files are read as bytes: the XML parser honours their encoding declaration.
"""

from __future__ import annotations

import codecs
import errno
import os
import re
import stat
from pathlib import Path
from typing import BinaryIO

from claimgraph.errors import LoaderError
from claimgraph.loaders.limits import limit_error, max_input_bytes

_UTF32_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_BLANK = re.compile(rb"\s*")
_VISIBLE = re.compile(r"\S")
_OS_PROBLEMS = {
    errno.ENOENT: "does not exist",
    errno.ELOOP: "is a symbolic link loop (it, or a link it goes through, points back to itself)",
    errno.EACCES: "cannot be read: permission denied",
    errno.EPERM: "cannot be read: operation not permitted",
    errno.ENOTDIR: "does not exist (a part of its path is a file, not a folder)",
    errno.ENAMETOOLONG: "cannot be opened: the path is too long",
}


def os_problem(error: OSError) -> str:
    """What an OSError from opening or reading an input says, in words a user can act on."""
    return _OS_PROBLEMS.get(error.errno or 0, f"cannot be read: {error.strerror or error}")


def read_bytes(path: Path, max_bytes: int | None = None, limit_name: str = "MAX_INPUT_BYTES") -> bytes:
    """The file's bytes; refused when it is not a regular file, over ``max_bytes``, or blank.

    ``max_bytes`` None is the input-size limit in force (``claimgraph.loaders.limits.max_input_bytes``).

    The file is opened once, non-blocking (a FIFO cannot hang the batch), and
    its size is checked on that open file before anything is read.
    """
    limit = max_input_bytes() if max_bytes is None else max_bytes
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise LoaderError(path, os_problem(error)) from error
    with os.fdopen(descriptor, "rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISDIR(info.st_mode):
            raise LoaderError(path, "is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise LoaderError(path, "is not a regular file (a FIFO, socket or device); give a saved file")
        if info.st_size > limit:
            raise limit_error(path, f"file is {info.st_size:,} bytes", limit_name, limit)
        try:
            data = _read_at_most(handle, info.st_size, limit)
        except OSError as error:
            raise LoaderError(path, os_problem(error)) from error
    if len(data) > limit:
        raise limit_error(path, f"file is more than {limit:,} bytes", limit_name, limit)
    if _BLANK.fullmatch(data):
        raise LoaderError(path, "file is empty (nothing but whitespace)")
    return data


def _read_at_most(handle: BinaryIO, expected: int, max_bytes: int) -> bytes:
    """Up to ``max_bytes + 1`` bytes: the stated size in one read, the rest (a growing or /proc file) after."""
    data = handle.read(min(expected, max_bytes) + 1)
    if len(data) <= expected:
        return data
    return data + handle.read(max_bytes + 1 - len(data))


def read_text(path: Path, max_bytes: int | None = None, limit_name: str = "MAX_INPUT_BYTES") -> str:
    """The file's text under the module's encoding policy."""
    return decode_text(path, read_bytes(path, max_bytes, limit_name))


def decode_text(path: Path, data: bytes) -> str:
    if data.startswith(_UTF32_BOMS):
        raise LoaderError(path, "is UTF-32 (it starts with a UTF-32 byte-order mark); convert it to UTF-8")
    if data.startswith(_UTF16_BOMS):
        text = _decode(path, data, "utf-16", "UTF-16")
    else:
        _refuse_nul_bytes(path, data)
        text = _decode(path, data, "utf-8-sig", "UTF-8")
    nul = text.find("\x00")
    if nul >= 0:
        raise LoaderError(path, f"contains a NUL character (character {nul}); a binary file?")
    if not _VISIBLE.search(text):
        raise LoaderError(path, "file is empty (nothing but whitespace)")
    return text


def _decode(path: Path, data: bytes, codec: str, name: str) -> str:
    try:
        return data.decode(codec)
    except UnicodeDecodeError as error:
        raise LoaderError(
            path, f"not {name} (invalid byte 0x{data[error.start]:02x} at offset {error.start}); convert it to UTF-8"
        ) from error


def _refuse_nul_bytes(path: Path, data: bytes) -> None:
    """NUL bytes: UTF-16 without its BOM when they fill every other byte, else a binary file."""
    nul = data.find(b"\x00")
    if nul < 0:
        return
    half = len(data) // 2
    if half and max(data[0::2].count(0), data[1::2].count(0)) > half // 2:
        raise LoaderError(path, "looks like UTF-16 without a byte-order mark; save it as UTF-8 (or UTF-16 with a BOM)")
    raise LoaderError(path, f"contains a NUL byte at offset {nul}; a binary file?")
