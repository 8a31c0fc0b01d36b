"""The git merge driver on disk: `memsync merge-file %O %A %B --path %P` merges into %A.

The scaffold's `.gitattributes` names it for memory files in a team repository; the merge
itself is `memsync.merge.driver` (pure). Writes go through the one atomic writer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memsync.errors import UsageError
from memsync.fsutil.atomic import atomic_write
from memsync.merge.driver import merge_for_driver
from memsync.merge.memory import MergeDecision


@dataclass(frozen=True)
class DriverResult:
    """What the driver wrote: the merged file, extra copies it created, its decisions."""

    path: str
    extra_files: tuple[Path, ...]
    decisions: tuple[MergeDecision, ...]

    def messages(self) -> list[str]:
        """One short line per decision, for stderr."""
        lines = [f"memsync: {self.path}: {d.detail}" for d in self.decisions]
        lines += [
            f"memsync: kept the other version as {p} (untracked: `git add` it)"
            for p in self.extra_files
        ]
        return lines


def run_merge_driver(
    base: Path, ours: Path, theirs: Path, path: str | None, *, worktree: Path | None = None
) -> DriverResult:
    """Merge the three versions, write the result into OURS; copies go next to PATH."""
    name = path or ours.name
    root = worktree or Path.cwd()  # git runs drivers at the top of the work tree
    from memsync.model.safety import unsafe_path_reason

    reason = unsafe_path_reason(name)
    if reason is not None:  # git passes the path in the repository: never `..`, never absolute
        raise UsageError(f"--path {name!r}: {reason}; pass the file's path in the repository")
    merged = merge_for_driver(
        name,
        base.read_bytes(),
        ours.read_bytes(),
        theirs.read_bytes(),
        taken=lambda p: (root / p).exists(),
    )
    # Git reads %A once the driver exits: replacing it whole is what it sees.
    atomic_write(ours, merged.content if merged.content is not None else b"", keep_mode=True)
    written = []
    for extra, data in sorted(merged.extra_files.items()):
        target = root / extra
        atomic_write(target, data)
        written.append(target)
    return DriverResult(name, tuple(written), merged.decisions)
