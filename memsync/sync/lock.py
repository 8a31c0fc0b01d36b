"""One memsync process per store: an exclusive lock file naming its holder."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memsync.errors import LockHeldError
from memsync.fsutil.reads import read_regular

# A holder on another host cannot be probed; after this long its lock is presumed dead.
FOREIGN_STALE_SECONDS = 6 * 3600
# A holder starts before it takes the lock; this much later is still it (clocks adjust).
_START_SLACK = 60.0
# No run holds a lock this long: only a lock older than this may name a reused pid.
_REUSE_AGE = 15 * 60.0
# A lock file is one short JSON object; anything longer is not one.
_MAX_LOCK_BYTES = 4096
_LATEST_SINCE = 2.0**33


def this_host() -> str:
    """This machine's name as lock files record it (`socket.gethostname`)."""
    # uname gives the same name without importing the socket module on every hook run.
    uname = getattr(os, "uname", None)
    if uname is not None:
        return str(uname().nodename)
    import socket  # pragma: no cover - Windows

    return socket.gethostname()  # pragma: no cover - Windows


@dataclass(frozen=True)
class LockHolder:
    """Who holds a lock, as written in the lock file."""

    pid: int
    host: str
    command: str
    since: float

    def describe(self) -> str:
        """A human description of the holder."""
        started = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.since))
        return f"pid {self.pid} on {self.host} ({self.command}, since {started})"


def pid_alive(pid: int) -> bool:
    """Whether process PID exists on this machine (never signals it, on any OS)."""
    if pid <= 0 or pid >= 2**31:
        return False
    if os.name == "nt":  # pragma: no cover - exercised on Windows CI only
        import ctypes

        handle = ctypes.windll.kernel32.OpenProcess(0x1000, False, pid)  # type: ignore[attr-defined]
        if not handle:
            return False
        ctypes.windll.kernel32.CloseHandle(handle)  # type: ignore[attr-defined]
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def read_holder(path: Path) -> LockHolder | None:
    """The holder recorded in lock file PATH, or None when absent, unreadable or damaged."""
    try:
        # Never a blocking open: a FIFO at the lock's path would hang every command.
        data = json.loads(read_regular(path, limit=_MAX_LOCK_BYTES).decode("utf-8"))
        holder = LockHolder(
            int(data["pid"]), str(data["host"]), str(data["command"]), float(data["since"])
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    # A time no clock shows (NaN, infinite, past year 2242) is no lock memsync wrote.
    return holder if 0 <= holder.since < _LATEST_SINCE else None


def _is_stale(path: Path, holder: LockHolder | None) -> bool:
    if holder is None:
        # Half-written by a process killed between create and write: stale after a moment.
        try:
            return time.time() - path.stat().st_mtime > 5
        except OSError:
            return True
    if holder.host == this_host():
        if not pid_alive(holder.pid):
            return True
        # Only an old lock: a clock stepped forward (NTP at boot on a board without a clock)
        # moves the start times /proc reports, and must not hand a live holder's store over.
        old = time.time() - holder.since > _REUSE_AGE
        return old and _started_after(holder.pid, holder.since)
    return time.time() - holder.since > FOREIGN_STALE_SECONDS


def _started_after(pid: int, since: float) -> bool:
    """Whether process PID started after SINCE, so it cannot be the one that took the lock then:
    after a power loss the recorded pid is often some other process's (Linux only)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
        boot = next(
            float(line.split()[1])
            for line in Path("/proc/stat").read_text(encoding="ascii").splitlines()
            if line.startswith("btime ")
        )
        ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22, `starttime`
    except (OSError, ValueError, IndexError, StopIteration):
        return False  # not Linux, or the process just ended: pid_alive decides
    return boot + ticks / os.sysconf("SC_CLK_TCK") > since + _START_SLACK


@contextlib.contextmanager
def store_lock(path: Path, *, timeout: float, command: str, store: str) -> Iterator[None]:
    """Hold the lock at PATH for the duration; wait up to TIMEOUT, take over dead holders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    me = LockHolder(os.getpid(), this_host(), command, time.time())
    payload = json.dumps(vars(me)).encode()
    deadline = time.monotonic() + timeout
    while True:
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            holder = read_holder(path)
            if _is_stale(path, holder):
                _break_stale(path, holder)
                continue
            if time.monotonic() >= deadline:
                who = holder.describe() if holder else "another process"
                raise LockHeldError(
                    f"the {store} store is busy: locked by {who}",
                    hint=f"Wait for it to finish; if that process is gone, delete {path}.",
                ) from None
            import random  # only when we have to wait

            time.sleep(random.uniform(0.05, 0.2))
            continue
        try:
            os.write(fd, payload)
        except OSError as exc:  # a full disk: no empty lock left behind, and the path named
            os.close(fd)
            with contextlib.suppress(OSError):
                path.unlink()
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        os.close(fd)
        break
    try:
        yield
    finally:
        if read_holder(path) == me:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def _break_stale(path: Path, holder: LockHolder | None) -> None:
    # Rename first so two processes breaking the same stale lock cannot both win.
    grave = path.with_name(f"{path.name}.stale-{os.getpid()}")
    try:
        path.rename(grave)
    except OSError:
        return
    if read_holder(grave) != holder:
        # Someone re-acquired between our read and rename: put their lock back.
        with contextlib.suppress(OSError):
            grave.rename(path)
        return
    with contextlib.suppress(OSError):
        if grave.is_dir() and not grave.is_symlink():
            grave.rmdir()  # an empty folder where the lock goes; a full one stays, renamed
        else:
            grave.unlink()
