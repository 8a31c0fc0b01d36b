"""A team bound for review tests: alice (the author) and bob (the reviewer) on one team
remote, each machine with its own HOME, and the review branches on that remote."""

from __future__ import annotations

import os
from pathlib import Path

from testing.fakegithub import TOKEN, FakeGitHub
from testing.gitrepo import git, make_bare_remote
from testing.hookprobe import bindings_of
from testing.machines import ORIGIN, Machine, memory_dir, setup_machine
from testing.memories import write_memory

Team = tuple[Machine, Path, Machine, Path, Path]
DEPLOY = "Never deploy on Friday.\nUse the blue-green script.\n"


def bind_team(machines: list[Machine], tmp_path: Path) -> Team:
    """alice and bob bound to one team remote: (alice, her project, bob, his, the remote)."""
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    remote = make_bare_remote(tmp_path / "remotes" / "team.git")
    alice, _, bob = machines
    pa = setup_machine(alice, private, remote, "src/api")
    pb = setup_machine(bob, private, remote, "code/api")
    return alice, pa, bob, pb, remote


GITHUB_TEAM = "git@github.com:acme/team-memory.git"


def bind_github_team(machines: list[Machine], tmp_path: Path, api: FakeGitHub) -> Team:
    """bind_team with the team remote behind a GitHub URL (git reaches the bare remote through
    `insteadOf`) and the API stand-in API with its token on both machines; gh not logged in."""
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    remote = make_bare_remote(tmp_path / "remotes" / "team.git")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "gh").write_text("#!/bin/sh\nexit 1\n")  # a real gh (GitHub's runners) stays out
    (bindir / "gh").chmod(0o755)
    alice, _, bob = machines
    projects = []
    for machine, relpath in ((alice, "src/api"), (bob, "code/api")):
        with open(machine.env["GIT_CONFIG_GLOBAL"], "a", encoding="utf-8") as config:
            config.write(f'[url "{remote.as_uri()}"]\n\tinsteadOf = {GITHUB_TEAM}\n')
        path = f"{bindir}{os.pathsep}{os.environ['PATH']}"
        machine.env.update(PATH=path, GITHUB_API_URL=api.url, GITHUB_TOKEN=TOKEN)
        project = machine.checkout_project(ORIGIN, relpath)
        init = ["init", "--private", str(private), "--team", GITHUB_TEAM, "--no-hooks"]
        machine.memsync(*init, cwd=project)
        projects.append(project)
    return alice, projects[0], bob, projects[1], remote


def team_dir(machine: Machine, project: Path) -> Path:
    """MACHINE's live team memory folder of PROJECT."""
    return memory_dir(machine, project) / "team"


def review_branches(remote: Path) -> list[str]:
    """The review branches on REMOTE."""
    refs = git("for-each-ref", "--format=%(refname:short)", "refs/heads/memsync", cwd=remote)
    return refs.split()


def review_branch(remote: Path) -> str:
    """The one review branch on REMOTE."""
    (branch,) = review_branches(remote)
    return branch


def github(remote: Path, tmp_path: Path, name: str) -> Path:
    """A fresh clone of REMOTE where GitHub's buttons are pressed."""
    work = tmp_path / name
    git("clone", "-q", str(remote), str(work), cwd=tmp_path)
    return work


def send_deploy(alice: Machine, pa: Path) -> Path:
    """alice sends a new memory `deploy.md` (DEPLOY) and its index for review: her folder."""
    live = team_dir(alice, pa)
    write_memory(live, "deploy.md", "deploy", DEPLOY, description="deploy rules")
    (live / "MEMORY.md").write_text("- [Deploy](deploy.md) — deploy rules\n")
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    return live


def records(machine: Machine, project: Path) -> list[str]:
    """The review records in MACHINE's team clone."""
    (clone,) = [b.clone_dir for b in bindings_of(machine, project) if b.scope == "team"]
    return git("for-each-ref", "--format=%(refname)", "refs/memsync/reviews", cwd=clone).split()


def land_and_revert(remote: Path, branch: str, tmp_path: Path, method: str) -> None:
    """BRANCH merged into main by METHOD (`ff`: `git merge --ff-only`, `squash`, `merge`: a
    merge commit), the branch deleted, then the landing reverted (GitHub's "Revert" button),
    all before the author pulls."""
    work = github(remote, tmp_path, f"github-{method}")
    old = git("rev-parse", "HEAD", cwd=work).strip()
    if method == "squash":
        git("merge", "-q", "--squash", f"origin/{branch}", cwd=work)
        git("commit", "-qm", "Memory review (#1)", cwd=work)
    else:
        how = "--ff-only" if method == "ff" else "--no-ff"
        git("merge", "-q", how, "-m", "Merge pull request #1", f"origin/{branch}", cwd=work)
    git("push", "-q", "origin", "main", f":refs/heads/{branch}", cwd=work)
    if method == "merge":
        git("revert", "--no-edit", "-m", "1", "HEAD", cwd=work)
    else:
        git("revert", "--no-edit", f"{old}..HEAD", cwd=work)
    git("push", "-q", "origin", "main", cwd=work)
