"""Applying a consolidation plan: every write checked against what was planned, and each
memory rewritten keeping when it was written.

A memory's modification time is part of its meaning (SPEC section 1: Claude Code ranks recall
by it and calls a file older than a day "N days old"), and section 4 dates a commit by it. Making
a six-week-old memory's "yesterday" absolute, or merging an older version into it, says nothing
new: the rewritten file keeps the time it had (`FolderPlan.times`), so the next push commits it
authored then, and every other machine's pull gives it that time, not the day of the run.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from memsync.consolidate.plan import FolderPlan, Plan
from memsync.consolidate.problems import links_in_the_way
from memsync.errors import UserMessageError
from memsync.model.limits import INDEX_NAME


def digest(data: bytes) -> bytes:
    """What apply compares a file against: a digest, so a plan does not hold every file twice."""
    return hashlib.blake2b(data, digest_size=16).digest()


def apply_plan(plan: Plan) -> None:
    """Write the plan to disk; refuse when a file changed since it was planned."""
    for folder in plan.folders:
        touched = (*folder.writes, *(p for move in folder.moves for p in move), *folder.deletes)
        if linked := links_in_the_way(folder.root, tuple(touched)):
            raise UserMessageError(f"nothing was written: {linked[0]}")
        for rel, expected in folder.originals.items():
            current = _original_bytes(folder.root, rel)
            if (None if current is None else digest(current)) != expected:
                raise UserMessageError(
                    f"{folder.root / rel} changed while consolidating; nothing was written there",
                    hint="Run `memsync consolidate` again.",
                )
    for folder in plan.folders:
        for rel, data in sorted(folder.writes.items()):
            if rel != INDEX_NAME:
                _write(folder, rel, data)
        for source, destination in folder.moves:
            target = folder.root / destination
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(folder.root / source, target)  # a rename keeps the file's time
            _prune_empty(folder.root, (folder.root / source).parent)
        for rel in folder.deletes:
            target = folder.root / rel
            if target.is_file():
                target.unlink()
                _prune_empty(folder.root, target.parent)
        if INDEX_NAME in folder.writes:
            _write(folder, INDEX_NAME, folder.writes[INDEX_NAME])


def _write(folder: FolderPlan, rel: str, data: bytes) -> None:
    """Write DATA at REL, with the modification time the plan keeps for it, if any."""
    from memsync.fsutil.atomic import atomic_write

    when = folder.times.get(rel)
    # Set on the staged file before the rename: no reader (the client writing meanwhile
    # included) ever sees the new text with another time, nor the old time on newer text.
    atomic_write(folder.root / rel, data, mtime_ns=None if when is None else int(when * 1e9))


def _original_bytes(root: Path, rel: str) -> bytes | None:
    path = root / rel
    return path.read_bytes() if path.is_file() else None


def _prune_empty(root: Path, directory: Path) -> None:
    while directory != root and root in directory.parents and not any(directory.iterdir()):
        directory.rmdir()
        directory = directory.parent
