"""A `git daemon` on loopback serving bare repositories (push enabled); stops by itself."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from benchmarks.harness.machines import base_env


def available() -> bool:
    """Whether this git has `git daemon` (some distributions package it apart)."""
    exec_path = subprocess.run(
        ["git", "--exec-path"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return bool(exec_path) and (Path(exec_path) / "git-daemon").exists()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_listening(port: int, timeout: float = 10.0) -> bool:
    """Whether something accepts connections on 127.0.0.1:PORT within TIMEOUT."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.5)
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.02)
    return False


class GitDaemon:
    """`git daemon --export-all --enable=receive-pack` for BASE on 127.0.0.1."""

    def __init__(self, base: Path, *, lifetime: float = 3600.0, max_connections: int = 200) -> None:
        self.base = base
        self.lifetime = lifetime
        self.max_connections = max_connections
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = base / "daemon.log"
        self._timer: threading.Timer | None = None

    def start(self) -> GitDaemon:
        """Start the daemon on a free port and wait until it accepts connections."""
        for _ in range(5):
            port = free_port()
            # `timeout` ends the daemon even if the harness itself is killed (where it exists:
            # macOS has none; there the harness's own timer below stops it).
            watchdog = (
                ["timeout", "--signal=TERM", str(int(self.lifetime))]
                if shutil.which("timeout")
                else []
            )
            args = [
                *watchdog,
                "git",
                "daemon",
                "--reuseaddr",
                f"--base-path={self.base}",
                "--export-all",
                "--enable=receive-pack",
                "--listen=127.0.0.1",
                f"--port={port}",
                f"--max-connections={self.max_connections}",
                "--informative-errors",
                "--timeout=120",
                "--init-timeout=30",
                str(self.base),
            ]
            env = base_env()
            env["GIT_CONFIG_NOSYSTEM"] = "1"
            env["GIT_CONFIG_GLOBAL"] = os.devnull
            with open(self.log, "ab") as log:
                self.proc = subprocess.Popen(
                    args, stdout=log, stderr=log, env=env, start_new_session=True
                )
            if wait_listening(port, 5.0):
                self.port = port
                self._timer = threading.Timer(self.lifetime, self.stop)
                self._timer.daemon = True
                self._timer.start()
                return self
            self.stop()
        raise RuntimeError(f"git daemon did not start; see {self.log}")

    def url(self, name: str) -> str:
        """git:// URL of repository NAME below the base path."""
        return f"git://127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """Stop the daemon and every connection child it forked."""
        if self._timer is not None:
            self._timer.cancel()
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=5)
        self.proc = None

    def __enter__(self) -> GitDaemon:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def git_daemon(base: Path, lifetime: float = 3600.0) -> Iterator[GitDaemon]:
    """A running daemon for the duration of the block."""
    daemon = GitDaemon(base, lifetime=lifetime).start()
    try:
        yield daemon
    finally:
        daemon.stop()
