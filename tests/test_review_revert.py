"""A review merged with a merge commit, then reverted by the team before the author pulled
it: her memories stay with her, as for a squash (tests/test_review_records.py), and a
revert of her own plain push never loses an edit she made after it.

Real git, as in tests/test_review_records.py: alice the author, bob the reviewer, GitHub's
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


def merge_commit(remote: Path, branch: str, tmp_path: Path) -> Path:
    """GitHub's "Create a merge commit", the branch deleted: the clone it was pressed in."""
    work = github(remote, tmp_path, "github-merge")
    git("merge", "-q", "--no-ff", "-m", "Merge pull request #1", f"origin/{branch}", cwd=work)
    git("push", "-q", "origin", "main", f":refs/heads/{branch}", cwd=work)
    return work


def revert_merge(work: Path) -> None:
    """GitHub's "Revert" button on the merge commit at WORK's main (`git revert -m 1`)."""
    git("revert", "--no-edit", "-m", "1", "HEAD", cwd=work)
    git("push", "-q", "origin", "main", cwd=work)


def merge_and_revert(remote: Path, branch: str, tmp_path: Path) -> None:
    """A merge commit, then its revert, both before the author pulls."""
    revert_merge(merge_commit(remote, branch, tmp_path))


def test_a_merge_commit_reverted_before_the_author_pulled_it_keeps_her_memory(
    team: Team, tmp_path: Path
) -> None:
    alice, pa, _, _, remote = team
    live = send_deploy(alice, pa)
    merge_and_revert(remote, review_branch(remote), tmp_path)

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


def test_the_authors_edit_after_sending_stays_whole_when_the_merge_is_reverted(
    team: Team, tmp_path: Path
) -> None:
    """deploy.md is the team's; alice changes its window for review, then (before pulling)
    its branch. The team merges and reverts her review: both her lines stay, not the team's
    old window beside her new branch line."""
    alice, pa, _, _, remote = team
    live = team_dir(alice, pa)
    old = "Deploy window 10:00-12:00.\nDeploy from main.\n"
    write_memory(live, "deploy.md", "deploy", old, description="deploy rules")
    (live / "MEMORY.md").write_text("- [Deploy](deploy.md) — deploy rules\n")
    alice.memsync("push", "--scope", "team", cwd=pa)
    memory = live / "deploy.md"
    memory.write_text(memory.read_text().replace("10:00-12:00", "14:00-16:00"))
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    branch = review_branch(remote)
    memory.write_text(memory.read_text().replace("from main", "from release"))
    alice.memsync("pull", "--scope", "team", cwd=pa)  # commits the later edit locally
    merge_and_revert(remote, branch, tmp_path)

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    text = memory.read_text()
    assert text.endswith("Deploy window 14:00-16:00.\nDeploy from release.\n"), (pulled, text)
    assert "10:00" not in text, pulled
    assert "deploy.md: the default branch undid your reviewed change" in pulled, pulled


def test_a_merge_commit_not_reverted_stays_a_fast_forward_and_drops_its_record(
    team: Team, tmp_path: Path
) -> None:
    alice, pa, bob, pb, remote = team
    live = send_deploy(alice, pa)
    merge_commit(remote, review_branch(remote), tmp_path)

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert "undid" not in pulled, pulled
    assert (live / "deploy.md").read_text().endswith(DEPLOY), pulled
    (clone,) = [b.clone_dir for b in bindings_of(alice, pa) if b.scope == "team"]
    heads = git("rev-parse", "main", "origin/main", cwd=clone).split()
    assert heads[0] == heads[1] == git("rev-parse", "main", cwd=remote).strip(), pulled

    assert records(alice, pa) != []  # kept until her branch holds the merge: this pull's
    write_memory(team_dir(bob, pb), "oncall.md", "on call", "Rotate weekly.\n")
    bob.memsync("push", "--scope", "team", cwd=pb)
    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout  # a fast-forward again
    assert (live / "oncall.md").is_file(), pulled
    assert records(alice, pa) == []


def test_a_revert_after_the_author_pulled_the_merge_is_a_teammates_deletion(
    team: Team, tmp_path: Path
) -> None:
    alice, pa, _, _, remote = team
    live = send_deploy(alice, pa)
    branch = review_branch(remote)
    work = merge_commit(remote, branch, tmp_path)
    alice.memsync("pull", "--scope", "team", cwd=pa)
    revert_merge(work)

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert not (live / "deploy.md").exists(), pulled
    assert "- deploy.md" in pulled, pulled


def revert_her_merge(remote: Path, tmp_path: Path) -> None:
    """A teammate reverts alice's merge commit on main against bob's side (`git revert -m`
    with the parent that does not hold her memory): the team's newer intent."""
    work = github(remote, tmp_path, "teammate-revert")
    mine = [n for n in (1, 2) if "deploy.md" in git("ls-tree", "-r", f"HEAD^{n}", cwd=work)]
    (theirs,) = {1, 2} - set(mine)
    git("revert", "--no-edit", "-m", str(theirs), "HEAD", cwd=work)
    git("push", "-q", "origin", "main", cwd=work)


def test_a_revert_of_the_authors_own_merge_keeps_the_edits_she_made_after_it(
    team: Team, tmp_path: Path
) -> None:
    """No review: alice pushes a new memory and a change to the team's one, merged with bob's
    push (a merge commit of hers). A teammate reverts that merge; before pulling, alice edits
    both again. Her later edits are never lost (SPEC §4: changed here, deleted or changed
    there); what she did not touch since follows the team's revert."""
    alice, pa, bob, pb, remote = team
    live = team_dir(alice, pa)
    write_memory(live, "window.md", "window", "Deploy window 10:00-12:00.\n")
    write_memory(live, "tone.md", "tone", "Short answers.\n")
    alice.memsync("push", "--scope", "team", cwd=pa)
    bob.memsync("pull", "--scope", "team", cwd=pb)
    write_memory(team_dir(bob, pb), "oncall.md", "on call", "Rotate weekly.\n")
    bob.memsync("push", "--scope", "team", cwd=pb)
    write_memory(live, "deploy.md", "deploy", DEPLOY, description="deploy rules")
    window = live / "window.md"
    window.write_text(window.read_text().replace("10:00-12:00", "14:00-16:00"))
    (live / "tone.md").write_text((live / "tone.md").read_text() + "No emojis.\n")
    out = alice.memsync("push", "--scope", "team", cwd=pa).stdout
    assert len(git("rev-list", "--parents", "-n1", "main", cwd=remote).split()) == 3, out
    revert_her_merge(remote, tmp_path)
    (live / "deploy.md").write_text((live / "deploy.md").read_text() + "Tag every release.\n")
    window.write_text(window.read_text().replace("14:00-16:00", "15:00-17:00"))

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert (live / "deploy.md").read_text().endswith(DEPLOY + "Tag every release.\n"), pulled
    assert "deploy.md: deleted on one side and changed on the other; kept the changed" in pulled
    assert "15:00-17:00" in window.read_text(), (pulled, window.read_text())
    assert "No emojis." not in (live / "tone.md").read_text(), pulled  # the team's revert
    assert "undid" not in pulled, pulled  # no review: nothing of hers was waiting for one


def test_a_fast_forward_without_review_records_reads_none(team: Team, tmp_path: Path) -> None:
    """The check for a reverted merge costs a plain fast-forward no git command: with no
    record of a review push, no git process looks for one."""
    alice, pa, bob, pb, _ = team
    write_memory(team_dir(bob, pb), "oncall.md", "on call", "Rotate weekly.\n")
    bob.memsync("push", "--scope", "team", cwd=pb)
    trace = tmp_path / "trace"
    alice.env["GIT_TRACE"] = str(trace)
    try:
        pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    finally:
        alice.env.pop("GIT_TRACE", None)
    assert (team_dir(alice, pa) / "oncall.md").is_file(), pulled
    commands = [line for line in trace.read_text().splitlines() if "trace: built-in:" in line]
    assert commands, trace.read_text()
    assert not [c for c in commands if "refs/memsync/reviews" in c], commands
    assert not [c for c in commands if "--ancestry-path" in c], commands


def test_a_file_the_reviewer_took_out_before_the_merge_commit_goes(
    team: Team, tmp_path: Path
) -> None:
    """bob removes deploy.md on the pull request's branch, then merges it with a merge commit:
    that is the reviewer's change, not the default branch undoing hers. It goes, unsaid."""
    alice, pa, _, _, remote = team
    live = send_deploy(alice, pa)
    branch = review_branch(remote)
    work = github(remote, tmp_path, "github-merge")
    git("checkout", "-q", branch, cwd=work)
    (path,) = [p for p in git("ls-files", cwd=work).split() if p.endswith("/deploy.md")]
    git("rm", "-q", path, cwd=work)
    git("commit", "-qm", "review: not a team memory", cwd=work)
    git("checkout", "-q", "main", cwd=work)
    git("merge", "-q", "--no-ff", "-m", "Merge pull request #1", branch, cwd=work)
    git("push", "-q", "origin", "main", f":refs/heads/{branch}", cwd=work)

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert not (live / "deploy.md").exists(), pulled
    assert "undid" not in pulled, pulled


def test_a_reverted_merge_commit_after_the_author_merged_a_teammates_push_keeps_hers(
    team: Team, tmp_path: Path
) -> None:
    """Between her review push and the merge, alice's pull merged bob's push with a memory of
    hers: her branch is no ancestor of main, two common ancestors (criss-cross)."""
    alice, pa, bob, pb, remote = team
    live = send_deploy(alice, pa)
    branch = review_branch(remote)
    write_memory(team_dir(bob, pb), "oncall.md", "on call", "Rotate weekly.\n")
    bob.memsync("push", "--scope", "team", cwd=pb)
    write_memory(live, "notes.md", "notes", "Hers, unsent.\n")
    alice.memsync("pull", "--scope", "team", cwd=pa)
    merge_and_revert(remote, branch, tmp_path)

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert (live / "deploy.md").read_text().endswith(DEPLOY), pulled
    assert "(deploy.md)" in (live / "MEMORY.md").read_text(), pulled
    assert "deploy.md: the default branch undid your reviewed change" in pulled, pulled
    assert (live / "oncall.md").is_file() and (live / "notes.md").is_file(), pulled
