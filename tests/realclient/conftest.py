"""Fixtures of the real-client suite: the pinned Claude Code binary and machines running it."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from testing.claude_client import ClientUnavailable, claude_binary, client_version
from testing.claude_sites import Site
from testing.gitrepo import make_bare_remote
from testing.machines import Machine, make_machine
from testing.messages_api import MessagesStandIn

ORIGIN = "git@github.com:acme/api.git"


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    """The pinned client (or $MEMSYNC_CLAUDE_CODE_VERSION's), installed once per cache;
    skipped only where npm is missing."""
    try:
        version = client_version()
    except ClientUnavailable as exc:
        pytest.fail(str(exc))
    in_ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    if shutil.which("npm") is None and not in_ci:
        pytest.skip(f"npm is not installed: the real Claude Code {version} is needed")
    try:
        return claude_binary()
    except ClientUnavailable as exc:
        pytest.fail(f"cannot install Claude Code {version}: {exc}")


@pytest.fixture
def remotes(tmp_path: Path) -> tuple[Path, Path]:
    """An empty private and an empty team remote (bare repositories, used over file://)."""
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    return private, team


SiteFactory = Callable[[str], Site]


@pytest.fixture
def site(tmp_path: Path, claude_bin: Path, remotes: tuple[str, str]) -> Iterator[SiteFactory]:
    """Make a machine: the project checked out at its own path, `memsync init`, a stand-in."""
    apis: list[MessagesStandIn] = []
    count = 0

    def make(name: str) -> Site:
        nonlocal count
        count += 1
        machine: Machine = make_machine(tmp_path / "machines", name)
        # `memsync init` writes the hook command it finds on PATH: this tree's memsync.
        bindir = os.path.dirname(sys.executable)
        machine.env["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")
        project = machine.checkout_project(ORIGIN, f"work{count}/api")
        api = MessagesStandIn().start()
        apis.append(api)
        made = Site(machine, project, api, claude_bin)
        private, team = remotes
        machine.memsync("init", "--private", private.as_uri(), "--team", team.as_uri(), cwd=project)
        return made

    yield make
    for api in apis:
        api.stop()
