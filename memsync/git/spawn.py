"""A git process started in the background, collected later with a deadline.

Session start's fetches run while the hook imports the rest of itself. Where the platform
has `posix_spawn`, they start without the `subprocess` module: it and what it imports are a
twentieth of a session start's instructions, and a fetch only needs git started, its
standard error collected and a deadline kept. Elsewhere (Windows) `subprocess` does it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    import subprocess

# The read end of a pipe gives no more than this per read; git's stderr is short.
_CHUNK = 65536


class Background:
    """A running git: its standard output is discarded, its standard error kept."""

    __slots__ = ("_err", "_pid", "_popen")

    def __init__(self, pid: int, err: int, popen: subprocess.Popen[bytes] | None = None) -> None:
        self._pid = pid
        self._err = err
        self._popen = popen

    def running(self) -> bool:
        """Whether git has not been collected yet (a collected process is reaped)."""
        if self._popen is not None:
            return self._popen.poll() is None
        try:
            os.kill(self._pid, 0)
        except ProcessLookupError:
            return False
        return True

    def collect(self, timeout: float | None) -> tuple[int, bytes] | None:
        """Wait for git to end: its exit status and stderr, or None (killed) at TIMEOUT."""
        if self._popen is not None:
            return _collect_popen(self._popen, timeout)
        import select
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        chunks: list[bytes] = []
        try:
            while True:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    self._kill()
                    return None
                ready, _, _ = select.select([self._err], [], [], left)
                if not ready:
                    continue
                chunk = os.read(self._err, _CHUNK)
                if not chunk:
                    break  # git and every process it started closed stderr: it is ending
                chunks.append(chunk)
        finally:
            os.close(self._err)
        _, status = os.waitpid(self._pid, 0)
        return os.waitstatus_to_exitcode(status), b"".join(chunks)

    def _kill(self) -> None:
        # Not reaped yet, so the pid is still ours even if git has just exited.
        os.kill(self._pid, 9)  # SIGKILL, as subprocess's kill() sends
        os.waitpid(self._pid, 0)


def start_git(args: Sequence[str], cwd: Path, env: Mapping[str, str]) -> Background:
    """Start `git ARGS` in CWD with ENV, stdin from the null device; OSError if it cannot."""
    if not hasattr(os, "posix_spawnp"):
        return _start_popen(args, cwd, env)
    # posix_spawn cannot change directory before Python 3.13's chdir action; git can.
    # Python ignores SIGPIPE and the child inherits that; git restores the default itself.
    argv = ["git", "-C", str(cwd), *args]
    read_end, write_end = os.pipe()  # neither end is inherited except as the child's fd 2
    null = os.open(os.devnull, os.O_RDWR)
    try:
        actions = [
            (os.POSIX_SPAWN_DUP2, null, 0),
            (os.POSIX_SPAWN_DUP2, null, 1),
            (os.POSIX_SPAWN_DUP2, write_end, 2),
        ]
        pid = os.posix_spawnp("git", argv, env, file_actions=actions)
    except OSError:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)
        os.close(null)
    return Background(pid, read_end)


def _start_popen(args: Sequence[str], cwd: Path, env: Mapping[str, str]) -> Background:
    import subprocess

    popen = subprocess.Popen(
        ["git", *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    return Background(popen.pid, -1, popen)


def _collect_popen(
    popen: subprocess.Popen[bytes], timeout: float | None
) -> tuple[int, bytes] | None:
    import subprocess

    try:
        _, err = popen.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        popen.kill()
        popen.communicate()
        return None
    return popen.returncode, err
