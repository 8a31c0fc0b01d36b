"""What a consolidation plan could not do, in the words its report gives.

Owns the problem sentences of a folder's plan; imports only memsync.model and memsync.fsutil.
"""

from __future__ import annotations

import stat
from collections.abc import Sequence
from pathlib import Path

from memsync.fsutil.reads import NEVER_THROUGH_LINKS, linked_part
from memsync.model.index import IndexSize
from memsync.model.limits import ARCHIVE_DIR, INDEX_NAME
from memsync.model.safety import PERSONAL_ADVICE


def _listed(items: Sequence[str]) -> str:
    """The first five of ITEMS, and how many more."""
    return ", ".join(items[:5]) + (f" and {len(items) - 5} more" if len(items) > 5 else "")


def over_limit(size: IndexSize, allow_archive: str) -> str:
    """The index still does not fit, and archiving would not have made it."""
    more = (
        "" if allow_archive == "all" else " (`--allow-archive all` may archive user and feedback)"
    )
    return (
        f"{INDEX_NAME} is over Claude Code's limits ({size.lines} lines, {size.chars:,} "
        f"characters) and archiving the memories it may move would not make it fit, so none "
        f"was moved{more}"
    )


def left_out(paths: Sequence[str], may_archive_more: bool) -> str:
    """PATHS got no index line: the index has no room left."""
    shown = _listed(paths)
    more = " (`--allow-archive all` may archive older user and feedback memories)"
    return (
        f"{len(paths)} {'file' if len(paths) == 1 else 'files'} got no line in {INDEX_NAME}, "
        f"which has no room left within Claude Code's limits: {shown}; they stay in the folder"
        f"{more if may_archive_more else ''}"
    )


def shallow_clone(repo: Path, lines: Sequence[str]) -> str:
    """REPO is shallow and LINES (`a.md:3`) were blamed on a commit whose parents it cut: they
    may be older than it, so no write day is known (an import review: `git clone --depth 1`
    dated last month's "yesterday" two days ago)."""
    return (
        f"{repo} is a shallow clone: {_unknown_days(lines, 'its oldest commit')}; fetch the "
        "whole history (`git fetch --unshallow`, or `fetch-depth: 0` for actions/checkout)"
    )


def grafted_cut(repo: Path, lines: Sequence[str]) -> str:
    """REPO's history is cut by `git replace --graft` (a commit given no parents) and LINES
    were blamed on the cut commit: as with a shallow clone, they may be older than it."""
    return (
        f"{repo}'s history is cut by `git replace --graft`: "
        f"{_unknown_days(lines, 'the commit it made a root')}; remove the replacement "
        "(`git replace -d <commit>`) to date them from the whole history"
    )


def _unknown_days(lines: Sequence[str], oldest: str) -> str:
    many = len(lines) != 1
    return (
        f"{len(lines)} {'lines' if many else 'line'} with a relative date "
        f"{'are' if many else 'is'} as old as {oldest} or older, so when "
        f"{'they were' if many else 'it was'} written is unknown and "
        f"{'their dates were' if many else 'its dates were'} left as written: {_listed(lines)}"
    )


def personal_in_team_folder(paths: Sequence[str]) -> str:
    """PATHS are `type: user` memories in a team folder: never indexed there (SPEC section 2)."""
    shown = _listed(paths)
    return (
        f"{shown}: `type: user` {PERSONAL_ADVICE} (not added to the team {INDEX_NAME}; "
        "`memsync check` reports it as user-in-team)"
    )


def links_in_the_way(root: Path, relpaths: tuple[str, ...]) -> list[str]:
    """What to tell the person of each of RELPATHS (files consolidation reads or writes in
    ROOT) that is or lies below a symlink (memsync never reads or writes through one), or is
    not the kind of thing it writes there (a folder or FIFO named `MEMORY.md`)."""
    found = {
        part: "folder" if part != rel or part == ARCHIVE_DIR else "file"
        for rel in relpaths
        if (part := linked_part(root, rel)) is not None
    }
    told = [
        f"{root / part} is a symlink; {NEVER_THROUGH_LINKS}: replace it by a regular {kind} "
        "(or remove it), then consolidate again"
        for part, kind in found.items()
    ]
    for rel in () if found else relpaths:
        try:
            mode = stat.S_IFMT((root / rel).lstat().st_mode)
        except OSError:  # absent (or unreadable, which the write will name)
            continue
        kind = {stat.S_IFDIR: "a folder", stat.S_IFREG: "a file"}.get(mode, "a FIFO")
        wanted = "a folder" if rel == ARCHIVE_DIR else "a file"
        if kind != wanted:
            told.append(
                f"{root / rel} is {kind} where consolidation keeps {wanted}:"
                " rename or move it, then consolidate again"
            )
    return told


def not_utf8(path: Path, reason: str) -> str:
    """PATH, a file consolidation rewrites, is not UTF-8 (REASON says where)."""
    return (
        f"{path} is {reason}: memsync never syncs it, and rewriting it would lose what it "
        "cannot read; save it as UTF-8, then consolidate again"
    )
