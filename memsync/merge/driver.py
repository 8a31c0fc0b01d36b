"""The git merge driver: `memsync merge-file %O %A %B --path %P` merges one file into %A."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memsync.merge.memory import MergeDecision, is_index_path, merge_file


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
    """Merge the three versions, write the result into OURS; copies go next to PATH.

    Git gives an empty base for files added on both sides, so an empty base counts as none.
    Git gives no commit times to a driver: conflicting fields are settled by content alone.
    """
    from memsync.merge.index import merge_index

    name = path or ours.name
    base_data = base.read_bytes() or None
    ours_data, theirs_data = ours.read_bytes(), theirs.read_bytes()
    root = worktree or Path.cwd()  # git runs drivers at the top of the work tree
    if is_index_path(name):
        merged = merge_index(base_data, ours_data, theirs_data, path=name)
    else:
        merged = merge_file(
            name, base_data, ours_data, theirs_data, taken=lambda p: (root / p).exists()
        )
    ours.write_bytes(merged.content if merged.content is not None else b"")
    written = []
    for extra, data in sorted(merged.extra_files.items()):
        target = root / extra
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written.append(target)
    return DriverResult(name, tuple(written), merged.decisions)
