"""The exception hierarchy; each class carries the exit code of SPEC section 7."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Process exit codes, as promised by SPEC section 7."""

    OK = 0
    NEEDS_USER = 1
    USAGE = 2
    REMOTE_UNAVAILABLE = 3
    LOCKED = 4


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


class LockHeldError(MemsyncError):
    """Another memsync process holds the store lock."""

    exit_code = ExitCode.LOCKED


class UnsafeStateError(MemsyncError):
    """The clone is in a state memsync will not touch (mid-merge, detached, foreign changes)."""

    exit_code = ExitCode.LOCKED
