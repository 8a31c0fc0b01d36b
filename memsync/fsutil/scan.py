"""The scan of a live memory directory: every memory file's bytes, and every skip with why.

Owns walking a directory as SPEC section 2 asks (no symlinks unless asked, no FIFOs or
devices, nothing over the size limit, the client's own folders left alone); which paths are
memories is the model's rule (memsync.model.safety), and every read goes through
memsync.fsutil.reads. May import memsync.model and memsync.fsutil only.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

from memsync.fsutil.reads import NotRegularFileError, TooLargeError, read_regular
from memsync.model.limits import MAX_FOLDER_DEPTH, TEAM_DIR
from memsync.model.safety import (
    CLIENT_DIRS,
    MEMORY_SUFFIX,
    REPOSITORY_FILE_REASON,
    REPOSITORY_FILES,
    Scope,
    Skipped,
    TreeScan,
    content_reason,
    finish_scan,
    is_memory_file,
    needs_verdict,
    size_reason,
    too_deep_reason,
    unsafe_path_reason,
)


def _read(path: str, follow: bool) -> tuple[bytes | None, str | None]:
    """The bytes of PATH, or None and the skip reason in a user's words."""
    try:
        return read_regular(path, follow=follow), None
    except NotRegularFileError:
        return None, "not a regular file"
    except TooLargeError as exc:
        return None, size_reason(exc.size)
    except OSError as exc:
        return None, f"unreadable ({exc.strerror})"


def _walk(
    directory: str, prefix: str, scope: Scope, follow: bool, seen: set[tuple[int, int]]
) -> Iterator[tuple[str, str, str | None]]:
    """Yield (relpath, abspath, early skip reason) for candidate files below DIRECTORY."""
    try:
        with os.scandir(directory) as iterator:
            entries = sorted(iterator, key=lambda e: e.name)
    except OSError as exc:
        yield prefix.rstrip("/") or ".", directory, f"unreadable directory ({exc.strerror})"
        return
    for entry in entries:
        relpath = prefix + entry.name
        if entry.name.startswith(".") or (
            not prefix
            and scope == "private"
            and (entry.name in CLIENT_DIRS or entry.name.casefold() == TEAM_DIR)
        ):
            continue  # git's and the client's own files; Claude Code's team directory
        if entry.is_symlink():
            if not follow:
                if _could_hold_memory(relpath, entry.path, scope):
                    yield relpath, entry.path, "symlink"
                continue
            try:
                info = entry.stat()
            except OSError:
                yield relpath, entry.path, "broken symlink"
                continue
            if stat.S_ISDIR(info.st_mode):
                if relpath.count("/") >= MAX_FOLDER_DEPTH:
                    yield relpath, entry.path, too_deep_reason()
                elif (info.st_dev, info.st_ino) not in seen:
                    seen.add((info.st_dev, info.st_ino))
                    yield from _walk(entry.path, relpath + "/", scope, follow, seen)
                continue
            if relpath.endswith(MEMORY_SUFFIX):
                regular = stat.S_ISREG(info.st_mode)
                yield relpath, entry.path, None if regular else "not a regular file"
            continue
        if entry.is_dir(follow_symlinks=False):
            if relpath.count("/") >= MAX_FOLDER_DEPTH:  # its files: one folder too deep
                yield relpath, entry.path, too_deep_reason()
                continue
            if follow:
                # Links may point back here: remember every directory walked.
                info = entry.stat(follow_symlinks=False)
                if (info.st_dev, info.st_ino) in seen:
                    continue
                seen.add((info.st_dev, info.st_ino))
            # A directory named `x.md` is not a memory: walk into it, never report it.
            yield from _walk(entry.path, relpath + "/", scope, follow, seen)
        elif relpath.endswith(MEMORY_SUFFIX):
            regular = entry.is_file(follow_symlinks=False)
            yield relpath, entry.path, None if regular else "not a regular file"


def _could_hold_memory(relpath: str, abspath: str, scope: Scope) -> bool:
    """A symlink is worth reporting when it stands for a memory file or a folder."""
    if relpath.endswith(MEMORY_SUFFIX):
        return needs_verdict(relpath, scope, repository_root=False)
    return Path(abspath).is_dir()


def memory_names(root: Path, scope: Scope, *, repository_root: bool = False) -> list[str]:
    """The memory files below ROOT a scan would read, by name alone: nothing is read."""
    try:
        info = root.stat()
    except OSError:
        return []
    walked = _walk(os.fspath(root), "", scope, False, {(info.st_dev, info.st_ino)})
    return [
        relpath
        for relpath, _, early in walked
        if early is None and is_memory_file(relpath, scope, repository_root=repository_root)
    ]


def scan_directory(
    root: Path,
    scope: Scope,
    *,
    follow: bool = False,
    repository_root: bool = False,
    live: bool = False,
) -> TreeScan:
    """Read the synced files below ROOT without following symlinks; report every skip. A
    LIVE folder bound to a repository's root reports a memory named like the repository's
    own files (README.md) as skipped: never synced, and it must not go unsaid."""
    good: dict[str, bytes] = {}
    skipped: list[Skipped] = []
    try:
        root_info = root.stat()
    except FileNotFoundError:
        return TreeScan(files={}, skipped=())
    seen = {(root_info.st_dev, root_info.st_ino)}
    for relpath, abspath, early in _walk(os.fspath(root), "", scope, follow, seen):
        if relpath.endswith(MEMORY_SUFFIX) and not needs_verdict(relpath, scope, repository_root):
            if live and relpath in REPOSITORY_FILES:
                skipped.append(Skipped(relpath, REPOSITORY_FILE_REASON))
            continue  # README.md at a checkout's root: not ours, so never reported
        reason = early or unsafe_path_reason(relpath)
        data: bytes | None = None
        if reason is None:
            data, reason = _read(abspath, follow)
        if reason is None and data is not None:
            reason = content_reason(data)
        if reason is None and data is not None:
            good[relpath] = data
        else:
            skipped.append(Skipped(relpath, reason or "unreadable"))
    return finish_scan(good, skipped)
