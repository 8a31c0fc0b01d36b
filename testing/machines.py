"""Simulated machines: each its own HOME, git identity, Claude Code and memsync directories."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from testing.gitrepo import git, make_bare_remote, write_git_config
from testing.memories import write_memory

# Subprocesses import the package from this checkout, installed or not.
SOURCE_ROOT = str(Path(__file__).resolve().parent.parent)
ORIGIN = "git@github.com:Acme/API.git"


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
    write_git_config(gitconfig, f"{name} user", f"{name}@example.invalid")
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


def memory_dir(machine: Machine, project: Path) -> Path:
    """The Claude Code memory directory of PROJECT on MACHINE."""
    out = machine.memsync("status", "--json", cwd=project)
    data = json.loads(out.stdout)
    return Path(next(s["live_dir"] for s in data if s["scope"] == "private"))


def setup_machine(
    machine: Machine, private: Path, team: Path | None, relpath: str, origin: str = ORIGIN
) -> Path:
    """Check the project out at RELPATH and run `memsync init` against the remotes."""
    project = machine.checkout_project(origin, relpath)
    args = ["init", "--private", str(private), "--no-hooks"]
    if team is not None:
        args += ["--team", str(team)]
    machine.memsync(*args, cwd=project)
    return project


def shared_index(
    machines: list[Machine], tmp_path: Path, index: str, *names: str
) -> tuple[Machine, Path, Path, Machine, Path, Path]:
    """Alice pushes the memories NAMES (`Body of <name>.`, described `<name> now`) and the
    MEMORY.md INDEX to a new private store; bob pulls them. Each machine, its project and its
    memory folder."""
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    alice, _, bob = machines
    pa = setup_machine(alice, private, None, "src/api")
    pb = setup_machine(bob, private, None, "projects/api")
    live_a = memory_dir(alice, pa)
    for name in names:
        write_memory(live_a, f"{name}.md", name, f"Body of {name}.\n", description=f"{name} now")
    (live_a / "MEMORY.md").write_text(index, encoding="utf-8")
    alice.memsync("push", cwd=pa)
    bob.memsync("pull", cwd=pb)
    return alice, pa, live_a, bob, pb, memory_dir(bob, pb)


def remote_files(remote: Path) -> list[str]:
    """Every file path on REMOTE's main branch."""
    return git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()


def installed(
    machine: Machine, *args: str, cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the `memsync` console script installed next to this interpreter (STDIN as input)."""
    exe = shutil.which("memsync", path=str(Path(sys.executable).parent))
    assert exe is not None, "the memsync console script is not installed in this environment"
    return subprocess.run(
        [exe, *args],
        cwd=cwd,
        env={**os.environ, **machine.env},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
