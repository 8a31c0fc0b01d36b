"""Git for tests: run it, read raw output, make bare remotes, write an isolated git config."""

from __future__ import annotations

import subprocess
from pathlib import Path

TEST_IDENTITY = ("Memsync Tester", "tester@example.invalid")


def git(*args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run git in a test and return its stdout; fail the test on error."""
    proc = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed in {cwd}:\n{proc.stderr}")
    return proc.stdout


def git_bytes(*args: str, cwd: Path) -> bytes:
    """Run git and return its raw stdout (no newline translation)."""
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    if proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed in {cwd}:\n{proc.stderr!r}")
    return proc.stdout


def write_git_config(path: Path, name: str, email: str) -> None:
    """Write a git config with identity NAME <EMAIL>, `main` default branch, file:// on."""
    path.write_text(
        f"[user]\n\tname = {name}\n\temail = {email}\n"
        "[init]\n\tdefaultBranch = main\n"
        '[protocol "file"]\n\tallow = always\n'
        "[commit]\n\tgpgsign = false\n",
        encoding="utf-8",
    )


def make_bare_remote(path: Path) -> Path:
    """Create an empty bare repository with `main` as its default branch."""
    path.parent.mkdir(parents=True, exist_ok=True)
    git("init", "-q", "--bare", "-b", "main", str(path), cwd=path.parent)
    return path


def remote_head(remote: Path, branch: str = "main") -> str:
    """The commit BRANCH points at in the bare repository REMOTE."""
    return git("rev-parse", f"refs/heads/{branch}", cwd=remote).strip()
