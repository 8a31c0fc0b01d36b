"""Writes into Claude Code's live memory directories: atomic, contained, never over a new edit."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass
from pathlib import Path

from memsync.fsutil.atomic import TEMPORARY_NAME, remove_if, replace_if, stage
from memsync.fsutil.reads import contained
from memsync.git import blob_sha
from memsync.sync.report import UNWRITTEN


@dataclass(frozen=True)
class LiveOutcome:
    """What a materialization did, and the manifest it leaves."""

    written: tuple[str, ...]
    deleted: tuple[str, ...]
    kept: tuple[str, ...]
    manifest: dict[str, str]
    # Files the file system refused (a folder in the way, a name too long): (path, reason).
    failed: tuple[tuple[str, str], ...] = ()


def _read(path: Path) -> bytes | None:
    from memsync.fsutil.reads import read_regular

    try:
        return read_regular(path)
    except OSError:
        # Missing, a folder, a name too long to exist: nothing memsync wrote is there.
        return None


# Present in a live directory while memsync writes there: a run killed meanwhile leaves it,
# and the next run then sweeps the temporary files it left (they would litter for good).
WRITING_MARK = ".memsync-writing"


def _sweep_temporary_files(live_dir: Path) -> None:
    """Remove the temporary files of dead memsync processes below LIVE_DIR."""
    from memsync.model.limits import MAX_FOLDER_DEPTH
    from memsync.sync.lock import pid_alive

    top = os.fspath(live_dir).rstrip(os.sep).count(os.sep)
    for current, dirs, files in os.walk(live_dir):
        deep = current.count(os.sep) - top >= MAX_FOLDER_DEPTH  # os.walk recurses
        dirs[:] = [] if deep else [d for d in dirs if not os.path.islink(os.path.join(current, d))]
        for name in files:
            match = TEMPORARY_NAME.match(name)
            pid = int(match.group(1)) if match else 0
            if match and pid != os.getpid() and not pid_alive(pid):
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(current, name))


# Above this many files one `sync()` flushes them all: an fsync per file costs a journal
# commit each (1,000 memories took 2 s of fsync and 1.5 s of renames).
_BATCH = 8


# When a file was written, for its modification time: (relative path, content) -> unix time.
TimeOf = Callable[[str, bytes], "float | None"]


# A file to write: (relative path, where, new content, the content it must still have).
_Write = tuple[str, Path, bytes, "bytes | None"]


def _write_all(
    writes: list[_Write], time_of: TimeOf | None = None
) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """Atomically replace every file of WRITES that still holds what was read: stage all,
    flush once, then swap each in. Returns the files written, those an edit made meanwhile
    kept (it wins) and those the file system refused."""
    batch = len(writes) > _BATCH and hasattr(os, "sync")
    staged: list[tuple[str, Path, Path, bytes | None]] = []
    failed: list[tuple[str, str]] = []
    for path, location, data, have in writes:
        try:
            if location.is_dir() and not location.is_symlink():
                raise IsADirectoryError(21, "a folder of that name is in the way")
            tmp = stage(location, data, durable=not batch)
            staged.append((path, location, tmp, have))
            when = time_of(path, data) if time_of else None
            if when is not None:
                # Dated before the rename: no reader ever sees the file with the pull's time.
                os.utime(tmp, (time.time(), when))
        except OSError as exc:
            # One file the file system will not take must not stop the others (or every
            # later run): report it and leave it out of the manifest so it is tried again.
            failed.append((path, f"{UNWRITTEN}: {exc.strerror or exc}"))
    if batch and staged:
        os.sync()
    done: list[str] = []
    raced: list[str] = []
    for path, location, tmp, have in staged:
        # Checked again at the swap itself: a session writing memories while this pull
        # stages hundreds of files must never have its edit replaced (the first check
        # happened before the staging and the flush).
        unchanged = None if have is None else _holds(have)
        try:
            (done if replace_if(tmp, location, unchanged) else raced).append(path)
        except OSError as exc:
            failed.append((path, f"{UNWRITTEN}: {exc.strerror or exc}"))
    return done, raced, failed


def _holds(content: bytes) -> Callable[[Path], bool]:
    return lambda file: _read(file) == content


def _prune_empty_dirs(root: Path, start: Path) -> None:
    current = start
    while current != root and root in current.parents:
        try:
            current.rmdir()
        except OSError:
            return
        current = current.parent


def write_live(
    live_dir: Path,
    target: Mapping[str, bytes],
    snapshot: Mapping[str, bytes],
    base: Mapping[str, str],
    pending: Set[str],
    *,
    time_of: TimeOf | None = None,
) -> LiveOutcome:
    """Make LIVE_DIR hold TARGET, except for PENDING edits and files changed since SNAPSHOT.

    TIME_OF gives each written file its modification time (None: the time of writing).
    """
    written: list[str] = []
    deleted: list[str] = []
    kept: list[str] = []
    failed: list[tuple[str, str]] = []
    manifest: dict[str, str] = {}
    writes: list[_Write] = []
    for path in sorted(set(target) | set(snapshot) | set(base)):
        want = target.get(path)
        have = snapshot.get(path)
        # Already in sync, pending or not: a crash between the commit and the manifest save
        # leaves such files, and forgetting them would undo a later local deletion.
        if want is not None and have == want:
            manifest[path] = blob_sha(want)
            continue
        if want is None and have is None:
            continue
        if path in pending:
            kept.append(path)
            if path in base:
                manifest[path] = base[path]
            continue
        location = contained(live_dir, path)
        if location is None or _read(location) != have:
            # Edited (or replaced by a symlink) since we looked: the next run merges it.
            kept.append(path)
            if path in base:
                manifest[path] = base[path]
            continue
        if want is None:
            removed: bool | None = None  # None: the file system refused
            try:
                removed = have is None or remove_if(location, _holds(have))
            except OSError as exc:  # a read-only folder: the file stays, tried again next run
                failed.append((path, f"{UNWRITTEN}: {exc.strerror or exc}"))
            if not removed:
                if removed is False:
                    kept.append(path)  # edited between the look and the deletion
                if path in base:
                    manifest[path] = base[path]
                continue
            _prune_empty_dirs(live_dir, location.parent)
            deleted.append(path)
        else:
            writes.append((path, location, want, have))
    mark = live_dir / WRITING_MARK
    if mark.exists():
        _sweep_temporary_files(live_dir)
    if writes:
        # A folder that takes no file (chmod a-w, read-only) takes no mark either: each file
        # is then refused and reported on its own, and the push before this still counts.
        with contextlib.suppress(OSError):
            live_dir.mkdir(parents=True, exist_ok=True)
            mark.write_text(str(os.getpid()), encoding="ascii")
    # Deletions first: a folder `x.md/` the store replaced by a file `x.md` must be gone
    # before the file is written.
    done, raced, failures = _write_all(writes, time_of)
    failed.extend(failures)
    for path in raced:  # edited while the pull wrote: the next run merges it
        kept.append(path)
        if path in base:
            manifest[path] = base[path]
    contents = {path: data for path, _, data, _ in writes}
    for path in done:
        manifest[path] = blob_sha(contents[path])
        written.append(path)
    with contextlib.suppress(FileNotFoundError):
        mark.unlink()
    return LiveOutcome(tuple(written), tuple(deleted), tuple(kept), manifest, tuple(failed))
