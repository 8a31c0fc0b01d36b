"""One store's run: what it binds, its limits, what it has found, and its read of the live folder.

Split out of `memsync.sync.engine`, which drives the run. May import the model, the fs and
git boundaries and the other `memsync.sync` modules it names; never the engine.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from memsync.config import Settings
from memsync.errors import RemoteTimeoutError, RemoteUnavailableError, UserMessageError
from memsync.sync import store
from memsync.sync.binding import Binding
from memsync.sync.deadline import Deadline
from memsync.sync.manifest import Manifest, binding_manifest
from memsync.sync.report import StoreReport


@dataclass
class StoreRun:
    """One store's sync in progress: what it binds, its limits and what it has found."""

    binding: Binding
    settings: Settings
    deadline: Deadline
    manifest: Manifest
    manifest_file: Path
    message: str | None = None
    review_branch: str | None = None
    live: dict[str, bytes] = field(default_factory=dict)
    # Local edits handed to the merge: the store holds them now, even those it already had.
    merged_local: frozenset[str] = frozenset()
    # What the manifest said of the files `_commit_local` recorded as synced: put back when a
    # secret drops the commits that held them (their edits are then pending again).
    recorded_over: dict[str, str | None] = field(default_factory=dict)
    held: dict[str, tuple[str, ...]] = field(default_factory=dict)  # see sync/holdback
    # Live files the scan would not read (not UTF-8, too large, a symlink, a case twin…):
    # there, not deleted, so a synced one keeps its last good version in the store.
    unreadable: frozenset[str] = frozenset()
    report: StoreReport = field(default_factory=lambda: StoreReport("", ""))

    def note(self, **changes: object) -> None:
        self.report = replace(self.report, **changes)  # type: ignore[arg-type]

    def went_offline(self, error: RemoteUnavailableError) -> None:
        """The remote was not reached (ERROR says why); a run out of time is counted, so the
        person hears of runs that never finish (`store.note_timeout`)."""
        binding = self.binding
        timeouts = store.note_timeout(binding) if isinstance(error, RemoteTimeoutError) else 0
        since = store.last_fetch(binding)
        self.note(offline=error.message, unreachable_since=since, timeouts=timeouts)

    def network_time(self) -> float:
        """Seconds one network operation may take: the setting, within the deadline."""
        return self.deadline.remaining(self.settings.network_timeout)


def start_run(binding: Binding, settings: Settings, deadline: Deadline) -> StoreRun:
    """A run of BINDING's store with its manifest loaded and an empty report."""
    manifest, path = binding_manifest(binding)
    run = StoreRun(binding, settings, deadline, manifest, path)
    run.report = StoreReport(binding.scope, binding.store.name, live_dir=str(binding.live_dir))
    if manifest.previous is not None and manifest.previous.damaged:
        note = (
            f"memsync's record of what it last synced was unreadable ({path}); merged the "
            "memory folder with the store against the store's last version here, and wrote "
            "a new record"
        )
        run.note(notes=(*run.report.notes, note))
    return run


def folder_blocked(folder: Path) -> UserMessageError | None:
    """The error when something other than a folder stands where FOLDER (a memory folder) or
    one of its parents should be: memsync could neither read nor write it. None otherwise."""
    import os

    for candidate in (folder, *folder.parents):
        if os.path.lexists(candidate):
            if candidate.is_dir():
                return None
            what = f"{folder} is" if candidate == folder else f"{folder} lies inside {candidate},"
            return UserMessageError(
                f"the memory folder {what} a file, not a folder; memsync left it untouched",
                hint=f"Rename or move {candidate} out of the way, or point Claude Code at another "
                "folder (CLAUDE_CONFIG_DIR, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE); then run "
                "`memsync pull`: the store still has every memory already synced.",
            )
    return None


def scan_live(run: StoreRun) -> None:
    """Read the live folder into RUN: its memory files, and those the scan skipped."""
    from memsync.fsutil.scan import scan_directory

    blocked = folder_blocked(run.binding.live_dir)
    if blocked is not None:
        raise blocked
    if not run.binding.live_dir.is_dir():
        run.live = {}
        if run.manifest.files:
            # The whole folder gone (a reset, a restore without ~/.claude) says nothing about
            # any one memory: read as deleting them all it would empty every machine. The
            # folder is written again from the store instead.
            run.manifest = replace(run.manifest, files={}, clean=False)
            note = (
                f"the memory folder was missing; restored it from the store: {run.binding.live_dir}"
            )
            run.note(notes=(*run.report.notes, note))
        return
    scan = scan_directory(
        run.binding.live_dir, run.binding.scope, repository_root=not run.binding.prefix, live=True
    )
    run.live = {p: d for p, d in scan.files.items() if store.is_memory_file(run.binding, p)}
    if scan.skipped:
        run.unreadable = frozenset(skipped.path for skipped in scan.skipped)
        run.note(skipped=run.report.skipped + scan.skipped)


def without_unread_deletions(
    changes: Mapping[str, bytes | None], skipped: Collection[str]
) -> dict[str, bytes | None]:
    """CHANGES less the deletions of files the scan skipped, or that lie in a folder it
    skipped (`.`: the whole folder): they are there, held back, not deleted. One rule for
    what push commits and what `status` and `diff` say it would."""

    def unread(path: str) -> bool:
        return path in skipped or "." in skipped or any(path.startswith(s + "/") for s in skipped)

    return {p: d for p, d in changes.items() if d is not None or not unread(p)}
