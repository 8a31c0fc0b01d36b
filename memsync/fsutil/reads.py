"""Safe reads: only regular files, never blocking on a FIFO or device, never past a limit.

A named pipe called `x.md` must not hang any command: the file is opened non-blocking
(opening a FIFO for reading otherwise waits for a writer), checked with fstat to be a
regular file, and read in one bounded call. Symlinks are not followed unless asked
(SPEC section 2: memsync never syncs symlinks).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from memsync.model.limits import MAX_MEMORY_BYTES

_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class NotRegularFileError(OSError):
    """The path is not a regular file (a FIFO, device, socket, directory or symlink)."""


class TooLargeError(OSError):
    """The file holds more bytes than the limit; SIZE is how many were seen."""

    def __init__(self, path: Path | str, size: int, limit: int) -> None:
        super().__init__(f"{os.fspath(path)}: over {limit:,} bytes")
        self.size = size


def read_regular(path: Path | str, *, follow: bool = False, limit: int = MAX_MEMORY_BYTES) -> bytes:
    """The bytes of the regular file PATH; raises OSError (NotRegularFileError) otherwise."""
    fd = os.open(path, _FLAGS if follow else _FLAGS | _NOFOLLOW)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFileError(f"{os.fspath(path)}: not a regular file")
        if info.st_size > limit:
            raise TooLargeError(path, info.st_size, limit)
        # One read sized from fstat: a buffer of the limit per file would dominate a scan.
        data = os.read(fd, info.st_size + 1)
        if len(data) > limit:
            raise TooLargeError(path, len(data), limit)
        # A file that grew since fstat: read the rest up to the limit.
        while len(data) == info.st_size + 1 and (more := os.read(fd, limit + 1 - len(data))):
            data += more
            if len(data) > limit:
                raise TooLargeError(path, len(data), limit)
        return data
    finally:
        os.close(fd)


def read_regular_or_none(path: Path | str, *, limit: int = MAX_MEMORY_BYTES) -> bytes | None:
    """Like read_regular, but None for anything that is not a readable regular file."""
    try:
        return read_regular(path, limit=limit)
    except OSError:
        return None


# Why a path through a symlink is refused, in every message that names one (SPEC section 2).
NEVER_THROUGH_LINKS = "memsync never reads or writes through a symlink"


def contained(root: Path, relpath: str) -> Path | None:
    """ROOT/RELPATH when no existing component of it is a symlink or escapes ROOT."""
    current = root
    for part in relpath.split("/"):
        if part in ("", ".", ".."):
            return None
        current = current / part
        try:
            if current.is_symlink():
                return None
        except OSError:
            # A name the file system cannot hold cannot be a link either; writing it fails
            # later and is reported with the reason.
            continue
    return current


def linked_part(root: Path, relpath: str) -> str | None:
    """The first component of RELPATH below ROOT (`a`, `a/b`, ...) that `contained` refuses
    (a symlink, `..`), to name in a message; None when ROOT/RELPATH is contained."""
    parts = relpath.split("/")
    for end in range(1, len(parts) + 1):
        part = "/".join(parts[:end])
        if contained(root, part) is None:
            return part
    return None
