"""The git merge driver on disk: `memsync merge-file %O %A %B --path %P` merges into %A.

The scaffold's `.gitattributes` names it for `*.md` files in a team repository; the merge
of a memory or an index is `memsync.merge.driver` (pure). A `.md` file that is not a memory
(`CONTRIBUTING.md`, `.github/*.md`) gets git's own text merge, conflict markers included.
Writes go through the one atomic writer.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path

from memsync.errors import UsageError
from memsync.fsutil.atomic import atomic_write
from memsync.merge.driver import copy_entry, merge_for_driver
from memsync.merge.memory import MergeDecision, is_index_path
from memsync.model.limits import INDEX_NAME


@dataclass(frozen=True)
class Copy:
    """A memory the driver wrote beside the merged one, and the index line it needs."""

    path: str  # in the repository
    index: str  # the MEMORY.md that should list it
    line: str


@dataclass(frozen=True)
class DriverResult:
    """What the driver wrote: the merged file, extra copies it created, its decisions.

    `conflicts` counts the conflicts git's text merge marked in a file that is not a memory
    (None: git could not merge it as text and OURS is unchanged).
    """

    path: str
    copies: tuple[Copy, ...]
    decisions: tuple[MergeDecision, ...]
    conflicts: int | None = 0
    undecodable: str | None = None  # which index version is not UTF-8, and where

    @property
    def finished(self) -> bool:
        """Whether git may record the result: no conflict, no copy git does not know of.

        A driver cannot stage a file: were it to exit 0, git would commit the merge
        without the copy and without its index line.
        """
        return self.conflicts == 0 and not self.copies and self.undecodable is None

    def messages(self) -> list[str]:
        """One short line per decision, then what to do when the merge is not finished."""
        from memsync.sync.storemerge import describe

        # The values too (kept, lost), as sync says them: a line the merge took out is quoted.
        lines = [f"memsync: {describe(d)}" for d in self.decisions]
        if self.copies:
            names = " ".join(c.path for c in self.copies)
            lines.append(
                f"memsync: {self.path}: the merge is left unfinished, so that git does not "
                f"commit it without {names}; to finish it:"
            )
            lines.append(f"memsync:   git add {self.path} {names}")
            for copy in self.copies:
                lines.append(
                    f"memsync:   add `{copy.line}` to {copy.index}, then `git add {copy.index}`"
                )
            lines.append("memsync:   git commit (in a rebase or cherry-pick: its --continue)")
        if self.undecodable is not None:
            lines.append(
                f"memsync: {self.path}: {self.undecodable}: kept our version as it is (a merge "
                f"would lose every byte it cannot read); save it as UTF-8, put in what the "
                f"other side changed, then `git add {self.path}` and `git commit`"
            )
        if self.conflicts is None:
            lines.append(
                f"memsync: {self.path}: not a memory, and git cannot merge it as text: kept "
                f"our version; put in what the other side changed, then "
                f"`git add {self.path}` and `git commit`"
            )
        elif self.conflicts:
            lines.append(
                f"memsync: {self.path}: not a memory, so git's text merge: {self.conflicts} "
                f"conflict(s) marked in the file; resolve them, then `git add {self.path}` "
                f"and `git commit`"
            )
        return lines


def index_for(root: Path, path: str) -> str:
    """The MEMORY.md that lists PATH: the nearest one above it in the work tree ROOT."""
    folder = posixpath.dirname(path)
    while folder and not (root / folder / INDEX_NAME).exists():
        folder = posixpath.dirname(folder)
    if not (root / folder / INDEX_NAME).exists():
        folder = posixpath.dirname(path)  # none yet: the one its folder would have
    return posixpath.join(folder, INDEX_NAME)


def run_merge_driver(
    base: Path,
    ours: Path,
    theirs: Path,
    path: str | None,
    *,
    worktree: Path | None = None,
    marker_size: int = 7,
) -> DriverResult:
    """Merge the three versions, write the result into OURS; copies go next to PATH."""
    name = path or ours.name
    root = worktree or Path.cwd()  # git runs drivers at the top of the work tree
    from memsync.model.safety import is_memory_file, unsafe_path_reason

    reason = unsafe_path_reason(name)
    if reason is not None:  # git passes the path in the repository: never `..`, never absolute
        raise UsageError(f"--path {name!r}: {reason}; pass the file's path in the repository")
    if not is_memory_file(name, "team", repository_root=True):
        from memsync import git

        conflicts = git.merge_text(ours, base, theirs, marker_size=marker_size, cwd=root)
        return DriverResult(name, (), (), conflicts)
    versions = base.read_bytes(), ours.read_bytes(), theirs.read_bytes()
    gone: frozenset[str] = frozenset()
    if is_index_path(name) and (undecodable := _undecodable(versions[1], versions[2])):
        return DriverResult(name, (), (), undecodable=undecodable)
    if is_index_path(name):  # its entries of memories the merge deletes go, as in sync's merge
        from memsync.team.mergegone import merge_deletes

        gone = merge_deletes(root, name, versions[1], versions[2])
    merged = merge_for_driver(name, *versions, taken=lambda p: (root / p).exists(), gone=gone)
    # Git reads %A once the driver exits: replacing it whole is what it sees.
    atomic_write(ours, merged.content if merged.content is not None else b"", keep_mode=True)
    copies = []
    for extra, data in sorted(merged.extra_files.items()):
        atomic_write(root / extra, data)
        index = index_for(root, extra)
        copies.append(Copy(extra, index, copy_entry(index, extra, data)))
    return DriverResult(name, tuple(copies), merged.decisions)


def _undecodable(ours: bytes, theirs: bytes) -> str | None:
    """Which of the two index versions a merge would write is not UTF-8, and where."""
    from memsync.model.safety import undecodable_versions

    found = undecodable_versions(ours, theirs)
    return found[0] if found else None
