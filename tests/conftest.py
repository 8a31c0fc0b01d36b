"""Shared fixtures: an isolated HOME and git config, bare remotes, simulated machines."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from memsync.model import claudesettings
from testing.fakegithub import FakeGitHub, serve_fake_github
from testing.gitrepo import TEST_IDENTITY, make_bare_remote, write_git_config
from testing.machines import Machine, make_machine

# In CI the generated cases are derived from each test's name: a run is reproducible and a
# landing never depends on a lucky draw. Locally every run explores new cases.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("thorough", deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
elif os.environ.get("HYPOTHESIS_PROFILE") == "thorough":
    settings.load_profile("thorough")


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own HOME, git config and memsync/Claude directories."""
    home = tmp_path_factory.mktemp("home")
    for key in list(os.environ):
        if key.startswith(("GIT_", "MEMSYNC_", "CLAUDE_")) or key == "GITHUB_TOKEN":
            monkeypatch.delenv(key, raising=False)
    gitconfig = home / ".gitconfig-test"
    write_git_config(gitconfig, *TEST_IDENTITY)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    monkeypatch.setenv("MEMSYNC_HOME", str(home / ".memsync"))
    monkeypatch.setenv("MEMSYNC_CONFIG", str(home / ".memsync-config.yaml"))
    # In-process readers never see this machine's own managed Claude Code settings.
    monkeypatch.setattr(claudesettings, "MANAGED_SETTINGS_DIR", home / "managed-claude-code")
    return home


@pytest.fixture
def bare_remote(tmp_path: Path) -> Path:
    """An empty bare repository to act as a store's remote."""
    return make_bare_remote(tmp_path / "remotes" / "memory.git")


@pytest.fixture
def remotes(tmp_path: Path) -> tuple[Path, Path]:
    """Empty bare remotes for a private and a team store."""
    return (
        make_bare_remote(tmp_path / "remotes" / "private.git"),
        make_bare_remote(tmp_path / "remotes" / "team.git"),
    )


@pytest.fixture
def machines(tmp_path: Path) -> list[Machine]:
    """Three simulated machines (alice-laptop, alice-desktop, bob-laptop)."""
    return [
        make_machine(tmp_path / "machines", n)
        for n in ("alice-laptop", "alice-desktop", "bob-laptop")
    ]


@pytest.fixture
def api() -> Iterator[FakeGitHub]:
    """The GitHub REST endpoints memsync calls, served on loopback (its `url`)."""
    with serve_fake_github() as fake:
        yield fake
