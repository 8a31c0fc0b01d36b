"""A review whose only change was to the team MEMORY.md (a line retitled), merged and then
reverted before its author pulled it: her pull keeps her line, as for a memory file, and her
plain push (or the session-end hook's) leaves that line out instead of undoing the team's
revert, while her other index lines go out; `push --review` proposes it again (h2).

Real git, as in tests/test_review_heldback.py: alice the author, GitHub's buttons played by
plain git in a third clone, the default branch not protected.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testing.gitrepo import git
from testing.machines import Machine
from testing.memories import write_memory
from testing.reviewteam import Team, bind_team, land_and_revert, review_branch, team_dir

TEAM_LINE = "- [Deploy](deploy.md) — d\n"
HER_LINE = "- [Deploy rules](deploy.md) — never on Friday\n"
ONCALL_LINE = "- [On call](oncall.md) — o\n"


@pytest.fixture
def team(machines: list[Machine], tmp_path: Path) -> Team:
    """alice and bob bound to one team remote, as in tests/test_review_landed.py."""
    return bind_team(machines, tmp_path)


def main_index(remote: Path) -> str:
    """The team folder's MEMORY.md on the remote's main."""
    files = git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()
    (index,) = [p for p in files if p.endswith("MEMORY.md")]
    return git("show", f"main:{index}", cwd=remote)


def retitle_reverted(team: Team, tmp_path: Path, method: str) -> Path:
    """The team has deploy.md; alice's review retitles its line only, the team lands it by
    METHOD and reverts it, she pulls: her live folder."""
    alice, pa, _, _, remote = team
    live = team_dir(alice, pa)
    write_memory(live, "deploy.md", "deploy", "Never on Friday.\n", description="d")
    (live / "MEMORY.md").write_text(TEAM_LINE)
    alice.memsync("push", "--scope", "team", cwd=pa)
    (live / "MEMORY.md").write_text(HER_LINE)
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    land_and_revert(remote, review_branch(remote), tmp_path, method)
    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert "MEMORY.md: the default branch undid your reviewed change" in pulled, pulled
    assert (live / "MEMORY.md").read_text() == HER_LINE, pulled
    return live


@pytest.mark.parametrize("method", ["ff", "squash", "merge"])
def test_a_plain_push_leaves_out_her_reverted_index_line_and_sends_her_new_one(
    team: Team, tmp_path: Path, method: str
) -> None:
    alice, pa, _, _, remote = team
    live = retitle_reverted(team, tmp_path, method)
    shown = alice.memsync("status", "--scope", "team", cwd=pa).stdout
    assert "  reverted   MEMORY.md: the default branch undid your reviewed change" in shown, shown
    write_memory(live, "oncall.md", "oncall", "Rotate.\n", description="o")
    (live / "MEMORY.md").write_text(HER_LINE + ONCALL_LINE)

    pushed = alice.memsync("push", "--scope", "team", cwd=pa).stdout
    assert "held back from the push: MEMORY.md (the default branch undid" in pushed, pushed
    assert main_index(remote) == TEAM_LINE + ONCALL_LINE, pushed  # the team's revert stands
    assert (live / "MEMORY.md").read_text() == HER_LINE + ONCALL_LINE, pushed

    before = git("rev-parse", "main", cwd=remote)
    again = alice.memsync("push", "--scope", "team", cwd=pa).stdout
    assert git("rev-parse", "main", cwd=remote) == before, again  # nothing else to send
    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert (live / "MEMORY.md").read_text() == HER_LINE + ONCALL_LINE, pulled


def test_the_session_end_hook_holds_her_index_line_back(team: Team, tmp_path: Path) -> None:
    alice, pa, _, _, remote = team
    retitle_reverted(team, tmp_path, "squash")
    hook_input = json.dumps({"cwd": str(pa), "hook_event_name": "SessionEnd"})

    out = alice.memsync("push", "--hook", stdin=hook_input, check=False)
    assert out.returncode == 0, (out.stdout, out.stderr)
    assert "held back from the push: MEMORY.md (" in out.stdout + out.stderr, out
    assert main_index(remote) == TEAM_LINE, out


def test_push_review_proposes_her_index_line_again_and_ends_the_hold(
    team: Team, tmp_path: Path
) -> None:
    alice, pa, _, _, remote = team
    live = retitle_reverted(team, tmp_path, "merge")

    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    branch = review_branch(remote)
    changed = git("diff", "--name-only", f"main...{branch}", cwd=remote).split()
    assert [Path(p).name for p in changed] == ["MEMORY.md"], changed
    assert git("show", f"{branch}:{changed[0]}", cwd=remote) == HER_LINE
    shown = alice.memsync("status", "--scope", "team", cwd=pa).stdout
    assert "reverted" not in shown, shown
    (live / "MEMORY.md").write_text(HER_LINE + ONCALL_LINE)
    write_memory(live, "oncall.md", "oncall", "Rotate.\n", description="o")
    pushed = alice.memsync("push", "--scope", "team", cwd=pa).stdout
    assert "held back" not in pushed, pushed
    assert main_index(remote) == HER_LINE + ONCALL_LINE, pushed


def test_a_review_of_a_memory_and_a_retitled_line_holds_both_and_a_later_retitle_waits(
    team: Team, tmp_path: Path
) -> None:
    """The review added deploy.md and retitled x.md's line; squash-merged, reverted. Both are
    held, and retitling x.md's line again before the plain push waits with the held line, as
    an edit of a held memory does."""
    alice, pa, _, _, remote = team
    live = team_dir(alice, pa)
    write_memory(live, "x.md", "x", "X.\n", description="x")
    (live / "MEMORY.md").write_text("- [X](x.md) — x\n")
    alice.memsync("push", "--scope", "team", cwd=pa)
    write_memory(live, "deploy.md", "deploy", "Never.\n", description="d")
    (live / "MEMORY.md").write_text("- [X better](x.md) — x\n- [Deploy](deploy.md) — d\n")
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    land_and_revert(remote, review_branch(remote), tmp_path, "squash")
    alice.memsync("pull", "--scope", "team", cwd=pa)
    shown = alice.memsync("status", "--scope", "team", cwd=pa).stdout
    assert "  reverted   MEMORY.md, deploy.md: the default branch undid" in shown, shown
    (live / "MEMORY.md").write_text("- [Xylophone](x.md) — x\n- [Deploy](deploy.md) — d\n")

    pushed = alice.memsync("push", "--scope", "team", cwd=pa).stdout
    assert "held back from the push: MEMORY.md, deploy.md (" in pushed, pushed
    assert main_index(remote) == "- [X](x.md) — x\n", pushed
    assert (live / "MEMORY.md").read_text().startswith("- [Xylophone](x.md)"), pushed
