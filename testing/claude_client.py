"""The real Claude Code client for tests: the pinned npm package, installed once and cached.

`claude_binary()` installs `@anthropic-ai/claude-code@<version>` with npm under a cache
directory shared by every test run (and every xdist worker: a file lock makes one of them
install while the others wait), then returns the native binary. The version is the pin unless
`$MEMSYNC_CLAUDE_CODE_VERSION` names another (to run the suite against a newer release).
`run_claude()` runs one non-interactive session against a Messages API stand-in, the way
CLAUDE-CODE.md says.
"""

from __future__ import annotations

import contextlib
import os
import platform
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

CLAUDE_CODE_VERSION = "2.1.330"
VERSION_ENV = "MEMSYNC_CLAUDE_CODE_VERSION"
INSTALL_TIMEOUT = 600
SESSION_TIMEOUT = 120


class ClientUnavailable(Exception):
    """The pinned client cannot be installed here; the message says why."""


def client_version() -> str:
    """The Claude Code version to test: $MEMSYNC_CLAUDE_CODE_VERSION, else the pin."""
    chosen = os.environ.get(VERSION_ENV, "").strip() or CLAUDE_CODE_VERSION
    # An exact release only: a tag like `latest` would be cached under its name and go stale.
    if not re.fullmatch(r"\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?", chosen):
        raise ClientUnavailable(f"{VERSION_ENV}={chosen!r} is not an exact version like 2.1.330")
    return chosen


def package(version: str) -> str:
    """The npm package spec of one client version."""
    return f"@anthropic-ai/claude-code@{version}"


def cache_root() -> Path:
    """Where installs are kept across runs: $MEMSYNC_TEST_CACHE, else ~/.cache/memsync-tests."""
    configured = os.environ.get("MEMSYNC_TEST_CACHE")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memsync-tests"


def _platform_package() -> str:
    system = {"darwin": "darwin", "linux": "linux", "win32": "win32"}.get(sys.platform, "")
    machine = platform.machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine)
    return f"@anthropic-ai/claude-code-{system}-{arch}"


def _binary_in(prefix: Path) -> Path | None:
    modules = prefix / "node_modules"
    exe = "claude.exe" if sys.platform == "win32" else "claude"
    # The platform package holds the native binary itself; the wrapper's bin/claude.exe is a
    # placeholder until its postinstall copies the binary over it (npm may skip that script).
    for candidate in (modules / _platform_package() / exe, modules / ".bin" / "claude"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


@contextlib.contextmanager
def _install_lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as handle:
        if os.name == "nt":
            yield
            return
        import fcntl

        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def claude_binary(root: Path | None = None) -> Path:
    """The chosen client's native binary (client_version()), npm-installed into the cache once."""
    version = client_version()
    spec = package(version)
    prefix = (root or cache_root()) / f"claude-code-{version}"
    found = _binary_in(prefix)
    if found:
        return found
    npm = shutil.which("npm")
    if npm is None:
        raise ClientUnavailable(f"npm is not installed: cannot install {spec}")
    with _install_lock(prefix.parent / f".{prefix.name}.lock"):
        found = _binary_in(prefix)  # another worker may have installed it meanwhile
        if found:
            return found
        prefix.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(
            [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", spec],
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            check=False,
        )
        found = _binary_in(prefix)
        if proc.returncode != 0 or found is None:
            raise ClientUnavailable(
                f"npm install {spec} failed (exit {proc.returncode}):\n{proc.stderr[-2000:]}"
            )
        return found


@dataclass(frozen=True)
class ClaudeRun:
    """One finished `claude -p` session: exit status, output and its debug log."""

    returncode: int
    stdout: str
    stderr: str
    debug_log: str

    def hook_outputs(self, event: str = "SessionStart") -> list[str]:
        """Debug-log lines where the client reports what a hook of EVENT printed."""
        return [line for line in self.debug_log.splitlines() if f"Hook {event}" in line]


def client_env(machine_env: Mapping[str, str], base_url: str) -> dict[str, str]:
    """The environment of one session: the machine's, the stand-in, no network, no updates."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ANTHROPIC_", "CLAUDE_", "MEMSYNC_", "GIT_"))
    }
    env.update(machine_env)
    env.update(
        {
            "ANTHROPIC_BASE_URL": base_url,
            "ANTHROPIC_API_KEY": "stand-in-key",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "NO_PROXY": "127.0.0.1,localhost",
        }
    )
    return env


def run_claude(
    binary: Path,
    project: Path,
    env: Mapping[str, str],
    prompt: str,
    debug_file: Path,
    *,
    tools: str = "Write Edit Read",
    args: Sequence[str] = (),
) -> ClaudeRun:
    """Run one `claude -p PROMPT` session in PROJECT (ARGS: more options, `--continue`);
    the caller checks the outcome."""
    debug_file.unlink(missing_ok=True)  # the client appends; one log per session
    proc = subprocess.run(
        [
            str(binary),
            *args,
            "-p",
            prompt,
            "--allowedTools",
            tools,
            "--debug-file",
            str(debug_file),
        ],
        cwd=project,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=SESSION_TIMEOUT,
        check=False,
    )
    log = debug_file.read_text(encoding="utf-8", errors="replace") if debug_file.exists() else ""
    return ClaudeRun(proc.returncode, proc.stdout, proc.stderr, log)
