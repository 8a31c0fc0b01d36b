"""Shared fixtures: an isolated HOME and git config, bare remotes, simulated machines."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import settings

# In CI the generated cases are derived from each test's name: a run is reproducible and a
# landing never depends on a lucky draw. Locally every run explores new cases.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("thorough", deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
elif os.environ.get("HYPOTHESIS_PROFILE") == "thorough":
    settings.load_profile("thorough")

TEST_IDENTITY = ("Memsync Tester", "tester@example.invalid")
# Subprocesses import the package from this checkout, installed or not.
SOURCE_ROOT = str(Path(__file__).resolve().parent.parent)


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


def _write_git_config(path: Path, name: str, email: str) -> None:
    path.write_text(
        f"[user]\n\tname = {name}\n\temail = {email}\n"
        "[init]\n\tdefaultBranch = main\n"
        '[protocol "file"]\n\tallow = always\n'
        "[commit]\n\tgpgsign = false\n",
        encoding="utf-8",
    )


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own HOME, git config and memsync/Claude directories."""
    home = tmp_path_factory.mktemp("home")
    for key in list(os.environ):
        if key.startswith(("GIT_", "MEMSYNC_", "CLAUDE_")) or key == "GITHUB_TOKEN":
            monkeypatch.delenv(key, raising=False)
    gitconfig = home / ".gitconfig-test"
    _write_git_config(gitconfig, *TEST_IDENTITY)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    monkeypatch.setenv("MEMSYNC_HOME", str(home / ".memsync"))
    monkeypatch.setenv("MEMSYNC_CONFIG", str(home / ".memsync-config.yaml"))
    return home


def make_bare_remote(path: Path) -> Path:
    """Create an empty bare repository with `main` as its default branch."""
    path.parent.mkdir(parents=True, exist_ok=True)
    git("init", "-q", "--bare", "-b", "main", str(path), cwd=path.parent)
    return path


@pytest.fixture
def bare_remote(tmp_path: Path) -> Path:
    """An empty bare repository to act as a store's remote."""
    return make_bare_remote(tmp_path / "remotes" / "memory.git")


@dataclass
class Machine:
    """A simulated computer: its own HOME, Claude dir, memsync dirs and git identity."""

    name: str
    home: Path
    env: dict[str, str] = field(default_factory=dict)

    @property
    def claude_dir(self) -> Path:
        """This machine's `CLAUDE_CONFIG_DIR`."""
        return Path(self.env["CLAUDE_CONFIG_DIR"])

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        """Make this machine's environment the process environment for a while."""
        saved = dict(os.environ)
        os.environ.update(self.env)
        try:
            yield
        finally:
            os.environ.clear()
            os.environ.update(saved)

    def git(self, *args: str, cwd: Path) -> str:
        """Run git as this machine."""
        return git(*args, cwd=cwd, env={**os.environ, **self.env})

    def checkout_project(self, origin: str, relpath: str = "src/project") -> Path:
        """A code repository at RELPATH under this machine's HOME with the given origin."""
        root = self.home / relpath
        root.mkdir(parents=True)
        self.git("init", "-q", str(root), cwd=self.home)
        self.git("remote", "add", "origin", origin, cwd=root)
        return root

    def memsync(
        self, *args: str, cwd: Path | None = None, stdin: str | None = None, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """Run the real `memsync` entry point as a subprocess on this machine."""
        proc = subprocess.run(
            [sys.executable, "-m", "memsync", *args],
            cwd=cwd or self.home,
            env={**os.environ, **self.env, "PYTHONPATH": _pythonpath()},
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if check and proc.returncode != 0:
            raise AssertionError(
                f"[{self.name}] memsync {' '.join(args)} exited {proc.returncode}\n"
                f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
            )
        return proc


def _pythonpath() -> str:
    existing = os.environ.get("PYTHONPATH")
    return SOURCE_ROOT + (os.pathsep + existing if existing else "")


def make_machine(base: Path, name: str) -> Machine:
    """Create a machine rooted at BASE/NAME with its own identity and directories."""
    home = base / name
    home.mkdir(parents=True)
    gitconfig = home / ".gitconfig"
    _write_git_config(gitconfig, f"{name} user", f"{name}@example.invalid")
    env = {
        "HOME": str(home),
        "USERPROFILE": str(home),
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "GIT_CONFIG_NOSYSTEM": "1",
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "MEMSYNC_HOME": str(home / ".memsync"),
        "MEMSYNC_CONFIG": str(home / ".config" / "memsync" / "config.yaml"),
        "MEMSYNC_HOSTNAME": name,
    }
    return Machine(name=name, home=home, env=env)


@pytest.fixture
def machines(tmp_path: Path) -> list[Machine]:
    """Three simulated machines (alice-laptop, alice-desktop, bob-laptop)."""
    return [
        make_machine(tmp_path / "machines", n)
        for n in ("alice-laptop", "alice-desktop", "bob-laptop")
    ]


def write_memory(
    directory: Path,
    filename: str,
    name: str,
    body: str,
    *,
    type_: str = "project",
    description: str | None = None,
) -> Path:
    """Write a well-formed memory file and return its path."""
    path = directory / filename
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"---\nname: {name}\ndescription: {description or name}\ntype: {type_}\n---\n{body}",
        encoding="utf-8",
    )
    return path
