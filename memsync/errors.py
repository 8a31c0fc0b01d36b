"""The exception hierarchy; each class carries the exit code of SPEC section 7.

Base layer: imported by every other package, so it imports nothing of memsync's.
"""

from __future__ import annotations

import errno
from collections.abc import Iterable
from enum import IntEnum


class ExitCode(IntEnum):
    """Process exit codes, as promised by SPEC section 7 (and docs/CONTRACT.md)."""

    OK = 0
    NEEDS_USER = 1
    USAGE = 2
    REMOTE_UNAVAILABLE = 3
    LOCKED = 4
    # A bug in memsync: BSD sysexits' EX_SOFTWARE, so scripts can tell it from "needs you".
    INTERNAL = 70
    # Ctrl-C: 128 + SIGINT, as shells report an interrupted command.
    INTERRUPTED = 130


# When several stores end differently, the code the person should hear about first:
# something only they can fix, then a bad command line, then a store they must wait for
# (locked, then offline: an offline store fixes itself on the next run).
PRECEDENCE: tuple[ExitCode, ...] = (
    ExitCode.INTERNAL,
    ExitCode.NEEDS_USER,
    ExitCode.USAGE,
    ExitCode.LOCKED,
    ExitCode.REMOTE_UNAVAILABLE,
)


def most_urgent(codes: Iterable[int]) -> ExitCode:
    """The one exit code for a run whose parts ended with CODES (OK when all did)."""
    present = set(codes)
    for code in PRECEDENCE:
        if code in present:
            return code
    return ExitCode.OK


class MemsyncError(Exception):
    """Base of every error memsync expects; printed without a traceback."""

    exit_code: ExitCode = ExitCode.NEEDS_USER

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if self.hint is None else f"{self.message}\n{self.hint}"


class UserMessageError(MemsyncError):
    """Something the user must fix: validation errors, secrets, a refused merge."""


class UsageError(MemsyncError):
    """The command line or the configuration does not make sense."""

    exit_code = ExitCode.USAGE


class ProjectNotConfiguredError(UsageError):
    """The project has no memsync configuration yet (hooks stay silent about it)."""


class GitError(UserMessageError):
    """A git command failed for a reason the user can act on."""


class RemoteUnavailableError(MemsyncError):
    """The remote could not be reached or timed out; local state is intact."""

    exit_code = ExitCode.REMOTE_UNAVAILABLE


class RemoteTimeoutError(RemoteUnavailableError):
    """The remote did not answer within the time allowed (a hook's limit, `network_timeout`):
    slow, or sending more than the time allows (`sync.store.note_timeout` counts these)."""


class LockHeldError(MemsyncError):
    """Another memsync process holds the store lock."""

    exit_code = ExitCode.LOCKED


class UnsafeStateError(MemsyncError):
    """The clone is in a state memsync will not touch (mid-merge, detached, foreign changes)."""

    exit_code = ExitCode.LOCKED


# OS errors a person can act on, by errno: what happened and what to do.
_OS_ADVICE = {
    errno.ENOSPC: ("the disk is full", "Free some space, then run the command again."),
    errno.EROFS: (
        "the file system is read-only",
        "Remount it writable, or point memsync elsewhere (MEMSYNC_HOME, CLAUDE_CONFIG_DIR).",
    ),
    errno.EACCES: ("permission denied", "Check the owner and permissions of that path."),
    errno.EPERM: ("operation not permitted", "Check the owner and permissions of that path."),
    errno.EDQUOT: ("the disk quota is exceeded", "Free some space, then run the command again."),
    errno.EFBIG: (
        "a file would pass the file size limit",
        "Raise the limit (`ulimit -f unlimited` in the shell that runs memsync), then run the "
        "command again.",
    ),
}


def os_error(exc: OSError) -> MemsyncError | None:
    """A MemsyncError for an OS error the person can fix (disk full, read-only, denied)."""
    advice = _OS_ADVICE.get(exc.errno) if exc.errno is not None else None
    if advice is None:
        return None
    what, hint = advice
    where = f" at {exc.filename}" if exc.filename else ""
    return UserMessageError(
        f"{what}{where} ({exc.strerror or exc}); the stores keep everything already committed",
        hint=hint,
    )
