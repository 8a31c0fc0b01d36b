"""Running git: a scrubbed environment, timeouts, and errors that quote git."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from memsync.errors import GitError, RemoteTimeoutError, RemoteUnavailableError

DEFAULT_TIMEOUT = 60.0


# Inherited variables that would point git at another repository or change its output.
_SAFE_GIT_VARS = frozenset(
    {"GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS"}
    | {"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"}
    | {"GIT_EXEC_PATH", "GIT_TRACE", "GIT_CURL_VERBOSE", "GIT_SSL_NO_VERIFY", "GIT_SSL_CAINFO"}
)


_UNREACHABLE_HINTS = (
    "could not read from remote repository",
    "could not resolve host",
    "connection refused",
    "connection timed out",
    "operation timed out",
    "network is unreachable",
    "unable to access",
    "does not appear to be a git repository",
    "failed to connect",
    "no route to host",
    "the remote end hung up",
    "connection reset",
    "unable to connect",
    "early eof",
)

# Lines beside git's `fatal:` that name the transport's reason for failing.
_REASON_MARKS = ("ssh:", "errno=", "permission denied", "host key verification failed")


@dataclass(frozen=True)
class GitResult:
    """Exit status and output of one git command."""

    args: tuple[str, ...]
    returncode: int
    stdout: bytes
    stderr: str

    @property
    def text(self) -> str:
        """Standard output decoded as UTF-8."""
        return self.stdout.decode("utf-8", errors="replace")

    @property
    def ok(self) -> bool:
        """Whether git exited with status 0."""
        return self.returncode == 0


def git_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for git: no inherited repository overrides, never a prompt."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in _SAFE_GIT_VARS}
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["GCM_INTERACTIVE"] = "never"
    env["LC_ALL"] = "C"
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes -o ConnectTimeout=10")
    if extra:
        env.update(extra)
    return env


def run_git(
    args: Sequence[str],
    *,
    cwd: Path,
    input_data: bytes | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    check: bool = True,
    env: Mapping[str, str] | None = None,
    network: bool = False,
) -> GitResult:
    """Run `git ARGS` in CWD; raise GitError (or RemoteUnavailableError) when it fails."""
    import subprocess  # not at import: session start's fetches do without it (git.spawn)

    full = ("git", *args)
    try:
        proc = subprocess.run(
            full,
            cwd=cwd,
            input=input_data,
            capture_output=True,
            timeout=timeout,
            env=git_env(env),
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        what = "the remote did not answer" if network else "git did not finish"
        raise RemoteTimeoutError(
            f"git {args[0]}: {what} within {timeout:.0f} s in {cwd}",
            hint="Local state is intact; the next run finishes the work.",
        ) from exc
    except FileNotFoundError as exc:
        raise GitError(
            "git is not installed or not on PATH", hint="Install git 2.30 or newer."
        ) from exc
    result = GitResult(full, proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace"))
    if check and not result.ok:
        raise error_for(result, cwd, network=network)
    return result


def subcommand(args: Sequence[str]) -> str:
    """`git fetch` for `git -c protocol.version=0 fetch -q origin`: what a person would type."""
    words = list(args[1:]) if args and args[0] == "git" else list(args)
    while words and words[0].startswith("-"):
        option = words.pop(0)
        if option in ("-c", "-C") and words:
            words.pop(0)
    return f"git {words[0]}" if words else "git"


def quote_stderr(stderr: str) -> tuple[str, str | None]:
    """(git's error in one line, its `hint:` lines or None), from git's own stderr."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    hints = [line.removeprefix("hint:").strip() for line in lines if line.startswith("hint:")]
    said = [line for line in lines if not line.startswith("hint:")]
    errors = [line for line in said if line.startswith(("fatal:", "error:"))]
    # ssh and git:// say why on a line of their own (`ssh: connect to host … Connection
    # refused`, `…: errno=Connection refused`, `Permission denied (publickey)`): without it
    # the error reads only "Could not read from remote repository".
    reasons = [line for line in said if any(mark in line.lower() for mark in _REASON_MARKS)]
    chosen = [line for line in said if line in errors or line in reasons] if errors else said
    message = "; ".join(
        line.split(":", 1)[1].strip() if line in errors else line for line in chosen
    )
    return message, ("\n".join(f"hint: {h}" for h in hints if h) or None)


def error_for(
    result: GitResult, cwd: Path, *, network: bool = False
) -> GitError | RemoteUnavailableError:
    """Turn a failed git command into an error quoting git's own words (and its hints)."""
    message, hints = quote_stderr(result.stderr)
    message = message or f"exit status {result.returncode}"
    command = subcommand(result.args)
    if network and any(hint in result.stderr.lower() for hint in _UNREACHABLE_HINTS):
        advice = "Local work is kept; run the command again when the remote is back."
        return RemoteUnavailableError(
            f"remote unreachable: {command} said: {message}",
            hint=f"{hints}\n{advice}" if hints else advice,
        )
    return GitError(f"{command} failed in {cwd}: {message}", hint=hints)


def is_repository(path: Path) -> bool:
    """Whether PATH is inside a git repository (a work tree or a bare one)."""
    if not path.is_dir():
        return False
    return run_git(["rev-parse", "--git-dir"], cwd=path, check=False).ok


def config_value(repo: Path, key: str) -> str | None:
    """The value git config gives KEY seen from REPO (local, then global), if set."""
    result = run_git(["config", "--get", key], cwd=repo, check=False)
    value = result.text.strip()
    return value if result.ok and value else None
