"""What a consolidation pass would change: the typed plan that `engine` makes and applies.

A `Plan` holds one `FolderPlan` per memory folder: each date rewritten, duplicates merged,
files archived and the new index, with the original bytes' digests so `apply_plan` can
refuse a file that changed after planning. The report renders it (`consolidate.report`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from memsync.consolidate.dedupe import DEFAULT_THRESHOLD
from memsync.consolidate.indexfit import IndexRebuild
from memsync.consolidate.versions import MergeChange


@dataclass(frozen=True)
class Options:
    """How the pass runs."""

    threshold: float = DEFAULT_THRESHOLD
    allow_archive: str = "project-reference"  # "project-reference" | "all" | "none"
    # A live memory folder is outside git; its store clone (and the folder's path in it)
    # holds its history, so blame still dates each line (SPEC section 5). One per live folder
    # (resolved): the live folder's `team/` is synced by another store than the folder.
    histories: tuple[tuple[Path, tuple[Path, str]], ...] = ()
    # The store checkout's scope when known (`check`'s rule); else a `team/` folder is team.
    scope: str | None = None


@dataclass(frozen=True)
class DateChange:
    """One relative date rewritten."""

    path: str
    line: int  # 1-based line in the file
    old: str
    new: str
    value: str
    written: str  # ISO date the line was written
    source: str  # "git blame" | "frontmatter <field>" | "file modification time"


@dataclass(frozen=True)
class ArchiveMove:
    """A memory moved out of the index into `archive/`."""

    path: str
    destination: str
    type: str
    updated: str  # ISO date of its last update


@dataclass(frozen=True)
class FolderPlan:
    """Everything the pass will do in one memory folder."""

    root: Path
    label: str
    dates: tuple[DateChange, ...] = ()
    merges: tuple[MergeChange, ...] = ()
    archives: tuple[ArchiveMove, ...] = ()
    retired: tuple[tuple[str, str], ...] = ()  # (merged-away file, its place in archive/)
    index: IndexRebuild | None = None
    index_changed: bool = False
    writes: dict[str, bytes] = field(default_factory=dict)
    # The modification time a memory rewritten keeps (SPEC 1: it tells when it was written).
    times: dict[str, float] = field(default_factory=dict)
    moves: tuple[tuple[str, str], ...] = ()  # (from, to): renamed unchanged
    deletes: tuple[str, ...] = ()
    originals: dict[str, bytes | None] = field(default_factory=dict)  # digests; None: absent
    skipped: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    repaired: tuple[str, ...] = ()  # memsync's own files made valid (what was done, per file)

    @property
    def unreadable(self) -> tuple[str, ...]:
        """The skipped files and sub-folders (`dir/`) that could not be read, with why."""
        from memsync.consolidate.folder import UNREADABLE

        return tuple(s for s in self.skipped if s.partition(": ")[2].startswith(UNREADABLE))

    @property
    def changed(self) -> bool:
        """Whether applying this plan changes any file."""
        return bool(self.writes or self.moves or self.deletes)


@dataclass(frozen=True)
class Plan:
    """The plan for every folder of one run."""

    folders: tuple[FolderPlan, ...]
    dry_run: bool = False

    @property
    def changed(self) -> bool:
        """Whether any folder changes."""
        return any(f.changed for f in self.folders)


# --- planning ---
