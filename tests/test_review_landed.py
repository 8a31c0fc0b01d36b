"""A review pull request merged by squash or rebase: the author's next pull takes the merged
result as the common version of what was sent (sync/reviewed), as a merge commit always did.

Real git: a bare team remote; alice (the author) and bob (the reviewer) are machines with
their own HOME; GitHub's merge buttons are played by plain git in a third clone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from testing.gitrepo import git
from testing.machines import Machine
from testing.memories import write_memory
from testing.reviewteam import bind_team, review_branch, review_branches, team_dir

PASSWORD_HINT = "The staging password is in the wiki."
DEPLOY = f"Never deploy on Friday.\n{PASSWORD_HINT}\nUse the blue-green script.\n"


@pytest.fixture
def team(machines: list[Machine], tmp_path: Path) -> tuple[Machine, Path, Machine, Path, Path]:
    """alice and bob bound to one team remote: (alice, her project, bob, his, the remote)."""
    return bind_team(machines, tmp_path)


def remote_path(remote: Path, name: str) -> str:
    """The store path of the memory file NAME on REMOTE's main."""
    files = git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()
    (path,) = [p for p in files if p.endswith("/" + name)]
    return path


def reviewer_edits(bob: Machine, remote: Path, branch: str, tmp_path: Path) -> None:
    """bob drops the password hint on the pull request's branch ("Commit suggestion")."""
    work = tmp_path / "bob-review"
    bob.git("clone", "-q", "-b", branch, str(remote), str(work), cwd=tmp_path)
    (memory,) = work.rglob("deploy.md")
    memory.write_text(memory.read_text().replace(PASSWORD_HINT + "\n", ""))
    bob.git("commit", "-qam", "review: drop the password hint", cwd=work)
    bob.git("push", "-q", "origin", branch, cwd=work)


def land(remote: Path, branch: str, method: str, tmp_path: Path) -> None:
    """GitHub's merge button: a teammate's commit reached main meanwhile, then the branch lands
    by METHOD (a squash commit, or its commits rebased as new ones) and is deleted."""
    work = tmp_path / f"github-{method}"
    git("clone", "-q", str(remote), str(work), cwd=tmp_path)
    files = git("ls-tree", "-r", "--name-only", f"origin/{branch}", cwd=work).split()
    (folder,) = [Path(p).parent for p in files if p.endswith("/deploy.md")]
    (work / folder / "oncall.md").write_text(
        "---\nname: on call\ndescription: rota\ntype: project\n---\nRotate weekly.\n"
    )
    git("add", "-A", cwd=work)
    git("commit", "-qm", "a teammate's memory", cwd=work)
    if method == "squash":
        git("merge", "-q", "--squash", f"origin/{branch}", cwd=work)
        git("commit", "-qm", "Memory review (#1)", cwd=work)
    else:  # GitHub's rebase merge writes new commits even where a fast-forward would do
        git("checkout", "-q", "-B", "landing", f"origin/{branch}", cwd=work)
        git("rebase", "-q", "--force-rebase", "main", cwd=work)
        git("checkout", "-q", "main", cwd=work)
        git("merge", "-q", "--ff-only", "landing", cwd=work)
    git("push", "-q", "origin", "main", cwd=work)
    git("push", "-q", "origin", "--delete", branch, cwd=work)


@pytest.mark.parametrize("method", ["squash", "rebase"])
def test_the_reviewers_edit_stays_and_is_not_proposed_again(
    team: tuple[Machine, Path, Machine, Path, Path], tmp_path: Path, method: str
) -> None:
    alice, pa, bob, pb, remote = team
    live = team_dir(alice, pa)
    write_memory(live, "deploy.md", "deploy", DEPLOY, description="deploy rules")
    (live / "MEMORY.md").write_text("- [Deploy](deploy.md) — deploy rules\n")
    out = alice.memsync("push", "--review", "--scope", "team", cwd=pa).stdout
    assert "review: pushed" in out, out
    branch = review_branch(remote)
    reviewer_edits(bob, remote, branch, tmp_path)
    land(remote, branch, method, tmp_path)

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert "kept both" not in pulled, pulled
    deploy = (live / "deploy.md").read_text()
    assert PASSWORD_HINT not in deploy, deploy  # the reviewer's edit, not undone
    assert deploy.endswith("Never deploy on Friday.\nUse the blue-green script.\n"), deploy
    assert (live / "oncall.md").is_file()  # the teammate's memory arrived as well

    # The next review proposes alice's new memory only, never the reviewed one again.
    write_memory(live, "x.md", "x", "X.\n")
    with (live / "MEMORY.md").open("a") as index:
        index.write("- [X](x.md) — x\n")
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    branch = review_branch(remote)
    changed = git("diff", "--name-only", f"main...{branch}", cwd=remote).split()
    assert sorted(Path(p).name for p in changed) == ["MEMORY.md", "x.md"], changed
    sent = git("show", f"{branch}:{remote_path(remote, 'deploy.md')}", cwd=remote)
    assert PASSWORD_HINT not in sent

    bob.memsync("pull", "--scope", "team", cwd=pb)
    assert PASSWORD_HINT not in (team_dir(bob, pb) / "deploy.md").read_text()


def test_the_authors_later_correction_wins_over_the_squash_of_what_was_sent(
    team: tuple[Machine, Path, Machine, Path, Path], tmp_path: Path
) -> None:
    """No reviewer edit: alice corrects a line after sending it; the pull request is squashed
    as it was. Her correction replaces the line, it is not kept beside it."""
    alice, pa, _, _, remote = team
    live = team_dir(alice, pa)
    old, new = "The deploy window is 10:00-12:00 UTC.", "The deploy window is 14:00-16:00 UTC."
    body = f"Deploys run from the release branch.\n{old}\n"
    write_memory(live, "deploy.md", "deploy", body, description="deploy rules")
    (live / "MEMORY.md").write_text("- [Deploy](deploy.md) — deploy rules\n")
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    branch = review_branch(remote)
    (live / "deploy.md").write_text((live / "deploy.md").read_text().replace(old, new))
    alice.memsync("pull", "--scope", "team", cwd=pa)  # commits the correction locally
    land(remote, branch, "squash", tmp_path)

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert "kept both" not in pulled, pulled
    deploy = (live / "deploy.md").read_text()
    assert deploy.endswith(f"Deploys run from the release branch.\n{new}\n"), deploy
    assert old not in deploy

    # What goes to review next is the correction, one line for the other.
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    branch = review_branch(remote)
    diff = git("diff", f"main...{branch}", cwd=remote)
    changed = [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in "+++---"]
    assert changed == [f"-{old}", f"+{new}"], diff


def test_a_review_still_open_is_no_common_version(
    team: tuple[Machine, Path, Machine, Path, Path],
) -> None:
    """The record of what was sent counts only once main took it in: while the pull request
    is open, a teammate's index line and memory merge beside alice's, nothing of hers lost."""
    alice, pa, bob, pb, _ = team
    live = team_dir(alice, pa)
    write_memory(live, "deploy.md", "deploy", DEPLOY, description="deploy rules")
    (live / "MEMORY.md").write_text("- [Deploy](deploy.md) — deploy rules\n")
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    theirs = team_dir(bob, pb)
    bob.memsync("pull", "--scope", "team", cwd=pb)
    write_memory(theirs, "oncall.md", "on call", "Rotate weekly.\n", description="rota")
    (theirs / "MEMORY.md").write_text("- [On call](oncall.md) — rota\n")
    bob.memsync("push", "--scope", "team", cwd=pb)

    alice.memsync("pull", "--scope", "team", cwd=pa)
    assert (live / "deploy.md").read_text().endswith(DEPLOY)
    index = (live / "MEMORY.md").read_text()
    assert "(deploy.md)" in index and "(oncall.md)" in index, index


def test_the_second_open_review_survives_the_first_ones_squash(
    team: tuple[Machine, Path, Machine, Path, Path], tmp_path: Path
) -> None:
    alice, pa, _, _, remote = team
    live = team_dir(alice, pa)
    write_memory(live, "deploy.md", "deploy", "Never deploy on Friday.\n", description="d")
    write_memory(live, "runbook.md", "runbook", "The runbook is in the wiki.\n", description="r")
    (live / "MEMORY.md").write_text("- [Deploy](deploy.md) — d\n- [Runbook](runbook.md) — r\n")
    alice.git("config", "user.name", "alice", cwd=pa)
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    (first,) = review_branches(remote)

    # The next day: a second memory, a second review (its branch holds the first one's too).
    write_memory(live, "pager.md", "pager", "Page the SRE first.\n", description="pager")
    with (live / "MEMORY.md").open("a") as index:
        index.write("- [Pager](pager.md) — pager\n")
    alice.git("config", "user.name", "alice-next-day", cwd=pa)
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    assert len(review_branches(remote)) == 2

    land(remote, first, "squash", tmp_path)  # the first review only
    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert (live / "pager.md").read_text().endswith("Page the SRE first.\n"), pulled
    index = (live / "MEMORY.md").read_text()
    assert "(pager.md)" in index and "(deploy.md)" in index, index  # still under review
    assert (live / "oncall.md").is_file()  # the teammate's memory arrived too


def test_a_teammates_memory_of_the_same_name_is_no_landing_of_the_review(
    team: tuple[Machine, Path, Machine, Path, Path],
) -> None:
    """bob writes his own deploy memory (same name, type, description: most of a short memory's
    lines) and index line while alice's review is open: his commit did not take her review in,
    so her text is merged with his, not replaced by it."""
    alice, pa, bob, pb, _ = team
    live, theirs = team_dir(alice, pa), team_dir(bob, pb)
    bob.memsync("pull", "--scope", "team", cwd=pb)
    for where, body in ((live, "Never deploy on Friday.\n"), (theirs, "Two approvals.\n")):
        write_memory(where, "deploy.md", "deploy", body, description="deploy rules")
        (where / "MEMORY.md").write_text("- [Deploy](deploy.md) — deploy rules\n")
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    bob.memsync("push", "--scope", "team", cwd=pb)

    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    deploy = (live / "deploy.md").read_text()
    assert "Never deploy on Friday." in deploy, pulled  # hers, still under review
    assert "Two approvals." in deploy, pulled  # and his
