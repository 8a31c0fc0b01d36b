"""A review merged by a true fast-forward (`git merge --ff-only`: no merge commit, the default
branch's tip becomes what was sent) and then reverted before the author pulled it: her
memories stay with her, as for a squash or a merge commit (tests/test_review_revert.py).

Real git, as in tests/test_review_revert.py: alice the author, bob the reviewer, GitHub's
buttons played by plain git in a third clone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from testing.gitrepo import git
from testing.hookprobe import bindings_of
from testing.machines import Machine
from testing.memories import write_memory
from testing.reviewteam import (
    DEPLOY,
    Team,
    bind_team,
    github,
    records,
    review_branch,
    send_deploy,
    team_dir,
)


@pytest.fixture
def team(machines: list[Machine], tmp_path: Path) -> Team:
    """alice and bob bound to one team remote, as in tests/test_review_landed.py."""
    return bind_team(machines, tmp_path)


def fast_forward(remote: Path, branch: str, tmp_path: Path) -> tuple[Path, str]:
    """`git merge --ff-only` of the review branch into main, the branch deleted: the clone it
    was done in and the commits that landed, as a range for `git revert`."""
    work = github(remote, tmp_path, "github-ff")
    old = git("rev-parse", "HEAD", cwd=work).strip()
    git("merge", "-q", "--ff-only", f"origin/{branch}", cwd=work)
    git("push", "-q", "origin", "main", f":refs/heads/{branch}", cwd=work)
    return work, f"{old}..{git('rev-parse', 'HEAD', cwd=work).strip()}"


def revert_range(work: Path, commits: str) -> None:
    """`git revert` of COMMITS on WORK's main, pushed (GitHub's "Revert" button)."""
    git("revert", "--no-edit", commits, cwd=work)
    git("push", "-q", "origin", "main", cwd=work)


def test_a_fast_forward_reverted_before_the_author_pulled_it_keeps_her_memory(
    team: Team, tmp_path: Path
) -> None:
    alice, pa, _, _, remote = team
    live = send_deploy(alice, pa)
    work, landed = fast_forward(remote, review_branch(remote), tmp_path)
    assert len(git("rev-list", "--parents", "-n1", "main", cwd=remote).split()) == 2  # no merge
    revert_range(work, landed)

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert (live / "deploy.md").is_file(), pulled
    assert (live / "deploy.md").read_text().endswith(DEPLOY), pulled
    assert "(deploy.md)" in (live / "MEMORY.md").read_text(), pulled
    assert "deploy.md: the default branch undid your reviewed change" in pulled, pulled
    files = git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()
    assert not [f for f in files if f.endswith("deploy.md")], files

    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    changed = git("diff", "--name-only", f"main...{review_branch(remote)}", cwd=remote).split()
    assert sorted(Path(p).name for p in changed) == ["MEMORY.md", "deploy.md"], changed


def test_a_fast_forward_reverted_after_an_edit_of_hers_keeps_her_later_text(
    team: Team, tmp_path: Path
) -> None:
    """She edits the memory she sent before pulling (her branch is ahead of what was sent):
    the revert leaves her later text whole."""
    alice, pa, _, _, remote = team
    live = send_deploy(alice, pa)
    work, landed = fast_forward(remote, review_branch(remote), tmp_path)
    revert_range(work, landed)
    memory = live / "deploy.md"
    memory.write_text(memory.read_text() + "Tag every release.\n")

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout  # commits it, then merges
    assert memory.read_text().endswith(DEPLOY + "Tag every release.\n"), pulled
    assert "(deploy.md)" in (live / "MEMORY.md").read_text(), pulled
    assert "deploy.md: the default branch undid your reviewed change" in pulled, pulled


def test_a_fast_forward_not_reverted_drops_its_record_and_a_later_revert_is_a_deletion(
    team: Team, tmp_path: Path
) -> None:
    """Guard: a fast-forward the team kept is done with once her branch has a commit after it;
    a revert after that is a teammate's deletion like any other."""
    alice, pa, bob, pb, remote = team
    live = send_deploy(alice, pa)
    work, landed = fast_forward(remote, review_branch(remote), tmp_path)
    write_memory(team_dir(bob, pb), "oncall.md", "on call", "Rotate weekly.\n")
    bob.memsync("push", "--scope", "team", cwd=pb)

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert "undid" not in pulled, pulled
    assert (live / "oncall.md").is_file() and (live / "deploy.md").is_file(), pulled
    (clone,) = [b.clone_dir for b in bindings_of(alice, pa) if b.scope == "team"]
    heads = git("rev-parse", "main", "origin/main", cwd=clone).split()
    assert heads[0] == heads[1], pulled  # a plain fast-forward, no merge commit of memsync's

    git("pull", "-q", cwd=work)
    revert_range(work, landed)
    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert not (live / "deploy.md").exists(), pulled
    assert "- deploy.md" in pulled, pulled
    assert "undid" not in pulled, pulled
    assert records(alice, pa) == []
    (clone,) = [b.clone_dir for b in bindings_of(alice, pa) if b.scope == "team"]
    assert git("for-each-ref", "refs/memsync/review-forks", cwd=clone) == ""  # gone with it
