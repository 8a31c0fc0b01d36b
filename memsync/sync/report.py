"""What one pull or push did for one store (`StoreReport`), and the exit code of a run.

Everything that describes a run's outcome reads this record: the summary lines
(`sync.outcome`), the hook protocol (`sync.hookmode`), `--json`, and the exit code, ranked
by `errors.PRECEDENCE` so a problem that needs the person outranks an unreachable remote.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from memsync.errors import ExitCode, most_urgent
from memsync.model.safety import Skipped

if TYPE_CHECKING:
    from memsync.check.findings import Finding

# The reason of a file the memory folder would not take (disk full, read-only, a folder in
# the way): synced, but not written here (sync/livefiles).
UNWRITTEN = "cannot write it here"
# What a push of a clone two projects share says of the other project's files it sent.
SENT_ELSEWHERE = "pushed from other folders of this store (committed there, not yet pushed)"


@dataclass(frozen=True)
class StoreReport:
    """What one pull or push did for one binding."""

    scope: str
    store: str
    committed: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()
    # The part of `updated` that did not exist in the live directory before (shown as `+`).
    created: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    kept_local: tuple[str, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    blocked: tuple[Finding, ...] = ()
    warnings: tuple[Finding, ...] = ()
    # Secrets and `type: user` memories this pull brought from the team remote (sync.arrived).
    arrived: tuple[Finding, ...] = ()
    decisions: tuple[str, ...] = ()  # merge decisions (`memsync log` has both versions)
    notes: tuple[str, ...] = ()  # what else the run had to do (history rebuilt, content dropped)
    pushed: bool = False
    # Memory files (relative to the binding's folder) the push changed on the remote.
    sent: tuple[str, ...] = ()
    # Memory files of the store's other folders (repository paths) the push sent with them:
    # committed there by another project sharing the store's clone, not pushed yet.
    sent_elsewhere: tuple[str, ...] = ()
    # Commits of the local branch the remote does not have after this run.
    ahead: int = 0
    push_attempts: int = 0
    offline: str | None = None
    review_branch: str | None = None
    # Files of a review the default branch undid that a plain push left out (sync/heldreview).
    held_review: tuple[str, ...] = ()
    error: str | None = None
    error_code: int = 0
    live_dir: str = ""  # the live directory this binding writes
    unreachable_since: float | None = None  # offline: when the remote last answered a fetch
    # Runs in a row, this one included, that ran out of time before the remote answered
    # (0: this one did not); `sync.store.note_timeout` keeps the count.
    timeouts: int = 0

    @property
    def unwritten(self) -> tuple[Skipped, ...]:
        """Files the memory folder refused: in the store, not (yet) in the folder."""
        return tuple(s for s in self.skipped if s.reason.startswith(UNWRITTEN))

    @property
    def changed_live(self) -> tuple[str, ...]:
        """Live files this run wrote or deleted."""
        return self.updated + self.deleted


def exit_code(reports: list[StoreReport]) -> ExitCode:
    """The command's exit code, ranked by errors.PRECEDENCE (needs-you before offline)."""
    codes = {r.error_code for r in reports if r.error_code}
    if any(r.blocked for r in reports):
        codes.add(ExitCode.NEEDS_USER)
    if any(r.offline for r in reports):
        codes.add(ExitCode.REMOTE_UNAVAILABLE)
    return most_urgent(codes)
