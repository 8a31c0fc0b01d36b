"""Writes into Claude Code's live memory directories: atomic, contained, never over a new edit."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Set
from dataclasses import dataclass
from pathlib import Path

from memsync.gitcmd import blob_sha


@dataclass(frozen=True)
class LiveOutcome:
    """What a materialization did, and the manifest it leaves."""

    written: tuple[str, ...]
    deleted: tuple[str, ...]
    kept: tuple[str, ...]
    manifest: dict[str, str]


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None


def contained(root: Path, relpath: str) -> Path | None:
    """ROOT/RELPATH when no existing component of it is a symlink or escapes ROOT."""
    current = root
    for part in relpath.split("/"):
        if part in ("", ".", ".."):
            return None
        current = current / part
        if current.is_symlink():
            return None
    return current


def atomic_write(path: Path, data: bytes) -> None:
    """Replace PATH with DATA so readers see the old or the new file, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.memsync-{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


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
) -> LiveOutcome:
    """Make LIVE_DIR hold TARGET, except for PENDING edits and files changed since SNAPSHOT."""
    written: list[str] = []
    deleted: list[str] = []
    kept: list[str] = []
    manifest: dict[str, str] = {}
    for path in sorted(set(target) | set(snapshot) | set(base)):
        want = target.get(path)
        have = snapshot.get(path)
        if path in pending:
            kept.append(path)
            if path in base:
                manifest[path] = base[path]
            continue
        if want is not None and have == want:
            manifest[path] = blob_sha(want)
            continue
        if want is None and have is None:
            continue
        location = contained(live_dir, path)
        if location is None or _read(location) != have:
            # Edited (or replaced by a symlink) since we looked: the next run merges it.
            kept.append(path)
            if path in base:
                manifest[path] = base[path]
            continue
        if want is None:
            with contextlib.suppress(FileNotFoundError):
                location.unlink()
            _prune_empty_dirs(live_dir, location.parent)
            deleted.append(path)
        else:
            atomic_write(location, want)
            manifest[path] = blob_sha(want)
            written.append(path)
    return LiveOutcome(tuple(written), tuple(deleted), tuple(kept), manifest)
