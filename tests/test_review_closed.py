"""A review pull request closed without merging, its branch kept (GitHub's default): git
cannot tell it from an open one, so `memsync status` says so on its `review` line and names
the one step that ends it: with the branch deleted, status counts the commits as not pushed again
and the next pull with new commits drops the records (h2).

Real git, as in tests/test_review_records.py: alice the author, GitHub's buttons played by
plain git on the bare remote.
"""

from __future__ import annotations

import json
from pathlib import Path

from testing.gitrepo import git
from testing.machines import Machine
from testing.memories import write_memory
from testing.reviewteam import bind_team, records, review_branch, send_deploy, team_dir


def test_status_says_what_ends_a_review_closed_with_its_branch_kept(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice, pa, bob, pb, remote = bind_team(machines, tmp_path)
    send_deploy(alice, pa)
    branch = review_branch(remote)
    write_memory(team_dir(bob, pb), "tone.md", "tone", "Short answers.\n")
    bob.memsync("push", "--scope", "team", cwd=pb)  # main moves on; the pull request is closed
    alice.memsync("pull", "--scope", "team", cwd=pa)

    shown = alice.memsync("status", "--scope", "team", cwd=pa).stdout
    assert (
        f"  review     1 commit(s) in review on {branch}; shared when the pull request is merged"
        " (git cannot tell a closed one: if it was closed unmerged, delete its branch and they"
        " count as not pushed)\n"
    ) in shown, shown
    assert records(alice, pa) != []

    git("branch", "-D", branch, cwd=remote)  # GitHub's "Delete branch" on the closed one
    alice.memsync("pull", "--scope", "team", cwd=pa)
    shown = alice.memsync("status", "--scope", "team", cwd=pa).stdout
    assert "  review " not in shown, shown
    assert "commits    2 ahead, 0 behind (as of the last fetch); run `memsync push`\n" in shown
    (status,) = json.loads(alice.memsync("status", "--scope", "team", "--json", cwd=pa).stdout)
    assert status["in_review"] == 0, status
    write_memory(team_dir(bob, pb), "oncall.md", "on call", "Rotate weekly.\n")
    bob.memsync("push", "--scope", "team", cwd=pb)
    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout  # one with new commits
    assert records(alice, pa) == [], pulled
