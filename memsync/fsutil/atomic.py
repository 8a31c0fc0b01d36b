"""The one atomic file writer: readers see the old file or the new one, never half of one.

Every file memsync writes (live memories, indexes, the manifest, the config file and its
cache, Claude Code's settings.json) goes through `atomic_write` or, for many files at once,
`stage` + `commit_staged`. The temporary file sits beside its target (a rename is atomic
only within one file system) and is named `.<name>.memsync-<pid>.tmp`: a dot name that
Claude Code's own scan skips, and whose PID lets a later run sweep what a killed process
left (`TEMPORARY_NAME`).
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable
from pathlib import Path

# `.<target name>.memsync-<pid>.tmp`; group 1 is the PID of the writer.
TEMPORARY_NAME = re.compile(r"^\..+\.memsync-(\d+)\.tmp$")


def temporary_path(path: Path) -> Path:
    """The staging file beside PATH that this process uses."""
    return path.with_name(f".{path.name}.memsync-{os.getpid()}.tmp")


def stage(path: Path, data: bytes, *, durable: bool = True, mode: int | None = None) -> Path:
    """Write DATA to PATH's staging file (fsynced when DURABLE, chmod MODE); returns it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_path(path)
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError) and exc.filename is None:
            # A write or flush names no file: the message must say which one (disk full).
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise
    return tmp


def commit_staged(tmp: Path, path: Path) -> None:
    """Rename a staged file over PATH; the staging file is gone either way."""
    try:
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def replace_if(tmp: Path, path: Path, unchanged: Callable[[Path], bool] | None) -> bool:
    """Move staged TMP to PATH only if PATH still holds what the caller saw; False if not.

    UNCHANGED tells whether a file holds that content; None: PATH must not exist. Another
    writer's file is never replaced: PATH is moved aside and checked there, and TMP is linked
    in only where nothing has appeared since, so a write racing this one wins. TMP is gone
    either way."""
    aside = temporary_path(path.with_name(path.name + ".old"))
    try:
        if unchanged is None:
            return _place(tmp, path)
        try:
            os.rename(path, aside)
        except FileNotFoundError:
            return False  # deleted since it was read: a deletion is an edit too
        if not unchanged(aside):
            _place(aside, path)  # theirs goes back, unless an even newer one is there
            return False
        return _place(tmp, path)
    finally:
        for leftover in (tmp, aside):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()


def remove_if(path: Path, unchanged: Callable[[Path], bool]) -> bool:
    """Delete PATH only if it still holds what the caller saw (UNCHANGED); False if not."""
    aside = temporary_path(path.with_name(path.name + ".old"))
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        return True  # already gone
    try:
        if unchanged(aside):
            return True
        _place(aside, path)  # edited meanwhile: it stays
        return False
    finally:
        with contextlib.suppress(FileNotFoundError):
            aside.unlink()


def _place(source: Path, path: Path) -> bool:
    """Give SOURCE's file the name PATH unless PATH exists (a hard link cannot overwrite)."""
    try:
        os.link(source, path, follow_symlinks=False)
        return True
    except FileExistsError:
        return False
    except (OSError, NotImplementedError):
        # No hard links on this file system (or no link without following one, as on some
        # platforms): check, then rename, as close together as can be.
        if os.path.lexists(path):
            return False
        os.replace(source, path)
        return True


def atomic_write(
    path: Path,
    data: bytes,
    *,
    durable: bool = True,
    keep_mode: bool = False,
    mtime_ns: int | None = None,
) -> None:
    """Replace PATH with DATA atomically (KEEP_MODE: keep an existing file's permissions).

    MTIME_NS, when given, is the new file's modification time (set before the rename, so no
    reader sees it with another): a file's time is when it was written (SPEC section 1).
    """
    mode = None
    if keep_mode:
        with contextlib.suppress(FileNotFoundError):
            mode = path.stat().st_mode & 0o7777
    tmp = stage(path, data, durable=durable, mode=mode)
    if mtime_ns is not None:
        try:
            os.utime(tmp, ns=(time.time_ns(), mtime_ns))
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            raise
    commit_staged(tmp, path)


def atomic_write_text(path: Path, text: str, *, durable: bool = True) -> None:
    """`atomic_write` of TEXT as UTF-8, newlines kept as given."""
    atomic_write(path, text.encode("utf-8"), durable=durable)
