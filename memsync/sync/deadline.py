"""An absolute time limit for the network and lock waits of one command or hook run."""

from __future__ import annotations

import time
from dataclasses import dataclass

from memsync import git
from memsync.errors import RemoteTimeoutError


@dataclass(frozen=True)
class Deadline:
    """An absolute time limit for network and lock waits (None = only git's defaults)."""

    at: float | None = None

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """A deadline SECONDS from now."""
        return cls(None if seconds is None else time.monotonic() + seconds)

    def remaining(self, cap: float = git.DEFAULT_TIMEOUT) -> float:
        """Seconds left, at most CAP; raises when the time is up."""
        if self.at is None:
            return cap
        left = self.at - time.monotonic()
        if left <= 0:
            raise RemoteTimeoutError(
                "memsync ran out of time", hint="Local work is kept; the next run finishes it."
            )
        return min(cap, left)

    def left(self, cap: float = git.DEFAULT_TIMEOUT) -> float:
        """Seconds left, at most CAP, 0 when the time is up (for a wait that may be skipped)."""
        if self.at is None:
            return cap
        return max(0.0, min(cap, self.at - time.monotonic()))


def backoff(losses: int, attempt_seconds: float) -> float:
    """Seconds to wait after the LOSSES-th lost push race (full jitter, doubling window).

    The window is measured in attempts (fetch, merge, push): pushers that lost together
    spread over twice as many attempt slots each time, so a crowd of N thins out in about
    log2(N) rounds instead of colliding again and again.
    """
    slot = min(max(attempt_seconds, 0.05), 5.0)
    import random

    return random.uniform(0, slot * 2 ** min(losses, 4))
