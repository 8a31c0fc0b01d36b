"""A plain push after a pull that kept the author's reverted review: the team undid a reviewed
change, so her plain `push` (and the session-end hook's) leaves those memories out, says so,
and still sends her other edits; `push --review` proposes them again and ends the hold, as
deleting them does (sync/heldreview).

Real git, as in tests/test_review_revert.py: alice the author, bob a teammate, GitHub's
buttons played by plain git in a third clone, the default branch not protected.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testing.gitrepo import git
from testing.hookprobe import bindings_of
from testing.machines import Machine, setup_machine
from testing.memories import write_memory
from testing.reviewteam import (
    DEPLOY,
    Team,
    bind_team,
    github,
    land_and_revert,
    review_branch,
    send_deploy,
    team_dir,
)

METHODS = ["ff", "squash", "merge"]


@pytest.fixture
def team(machines: list[Machine], tmp_path: Path) -> Team:
    """alice and bob bound to one team remote, as in tests/test_review_landed.py."""
    return bind_team(machines, tmp_path)


def on_main(remote: Path) -> list[str]:
    """The file names on the remote's main."""
    return [Path(p).name for p in git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()]


def main_index(remote: Path) -> str:
    """The team folder's MEMORY.md on the remote's main."""
    files = git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()
    (index,) = [p for p in files if p.endswith("MEMORY.md")]
    return git("show", f"main:{index}", cwd=remote)


def kept_after_revert(team: Team, tmp_path: Path, method: str) -> Path:
    """alice's review landed by METHOD and reverted; her pull kept it: her live folder."""
    alice, pa, _, _, remote = team
    live = send_deploy(alice, pa)
    land_and_revert(remote, review_branch(remote), tmp_path, method)
    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert "deploy.md: the default branch undid your reviewed change" in pulled, pulled
    return live


def add_oncall(live: Path) -> None:
    """An unrelated new memory of hers, with its index line."""
    write_memory(live, "oncall.md", "on call", "Rotate weekly.\n", description="on call")
    index = live / "MEMORY.md"
    index.write_text(index.read_text() + "- [On call](oncall.md) — on call\n")


def held_record(machine: Machine, project: Path) -> Path:
    """Where MACHINE's team clone records the files held back."""
    (clone,) = [b.clone_dir for b in bindings_of(machine, project) if b.scope == "team"]
    return clone / "memsync-held-reviews"


@pytest.mark.parametrize("method", METHODS)
def test_a_plain_push_after_the_kept_revert_sends_her_other_edits_not_the_reverted_ones(
    team: Team, tmp_path: Path, method: str
) -> None:
    alice, pa, bob, pb, remote = team
    live = kept_after_revert(team, tmp_path, method)
    add_oncall(live)

    pushed = alice.memsync("push", "--scope", "team", cwd=pa).stdout
    assert "held back from the push: deploy.md (" in pushed, pushed
    assert "`memsync push --review` proposes it again" in pushed, pushed
    assert "deploy.md" not in on_main(remote), pushed  # the team's revert stands
    assert "oncall.md" in on_main(remote), pushed  # her other edit went out
    assert "(oncall.md)" in main_index(remote) and "(deploy.md)" not in main_index(remote)
    assert (live / "deploy.md").read_text().endswith(DEPLOY), pushed  # still hers
    assert "(deploy.md)" in (live / "MEMORY.md").read_text(), pushed
    assert "(oncall.md)" in (live / "MEMORY.md").read_text(), pushed

    bob.memsync("pull", "--scope", "team", cwd=pb)
    assert (team_dir(bob, pb) / "oncall.md").is_file()
    assert not (team_dir(bob, pb) / "deploy.md").exists()

    before = git("rev-parse", "main", cwd=remote)
    again = alice.memsync("push", "--scope", "team", cwd=pa).stdout
    assert git("rev-parse", "main", cwd=remote) == before, again  # nothing else to send
    assert "held back for review: `memsync push --review` proposes them" in again, again
    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert (live / "deploy.md").is_file() and "- deploy.md" not in pulled, pulled


def test_the_session_end_hook_holds_them_back_and_succeeds(team: Team, tmp_path: Path) -> None:
    alice, pa, _, _, remote = team
    live = kept_after_revert(team, tmp_path, "ff")
    add_oncall(live)
    hook_input = json.dumps({"cwd": str(pa), "hook_event_name": "SessionEnd"})

    out = alice.memsync("push", "--hook", stdin=hook_input, check=False)
    assert out.returncode == 0, (out.stdout, out.stderr)
    assert "held back from the push: deploy.md (" in out.stdout + out.stderr, out
    assert "deploy.md" not in on_main(remote), out
    assert "oncall.md" in on_main(remote), out
    assert (live / "deploy.md").is_file(), out


def test_push_review_proposes_them_again_and_ends_the_hold(team: Team, tmp_path: Path) -> None:
    alice, pa, _, _, remote = team
    live = kept_after_revert(team, tmp_path, "squash")
    assert held_record(alice, pa).is_file()

    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    changed = git("diff", "--name-only", f"main...{review_branch(remote)}", cwd=remote).split()
    assert sorted(Path(p).name for p in changed) == ["MEMORY.md", "deploy.md"], changed
    assert not held_record(alice, pa).exists()
    add_oncall(live)
    pushed = alice.memsync("push", "--scope", "team", cwd=pa).stdout
    assert "held back" not in pushed, pushed


def test_deleting_a_held_memory_ends_the_hold(team: Team, tmp_path: Path) -> None:
    alice, pa, _, _, remote = team
    live = kept_after_revert(team, tmp_path, "merge")
    (live / "deploy.md").unlink()
    (live / "MEMORY.md").write_text("")
    add_oncall(live)

    pushed = alice.memsync("push", "--scope", "team", cwd=pa).stdout
    assert "held back" not in pushed, pushed
    assert not held_record(alice, pa).exists(), pushed
    assert "oncall.md" in on_main(remote) and "deploy.md" not in on_main(remote), pushed


def test_an_edit_of_a_team_memory_the_team_reverted_stays_here_when_the_remote_moved(
    team: Team, tmp_path: Path
) -> None:
    """The review changed a memory the team had; the squash is reverted and bob pushes before
    alice's plain push: the team's text stays on main, hers here, her other edit goes out."""
    alice, pa, bob, pb, remote = team
    live = team_dir(alice, pa)
    write_memory(live, "deploy.md", "deploy", "Deploy window 10:00-12:00.\n", description="d")
    (live / "MEMORY.md").write_text("- [Deploy](deploy.md) — d\n")
    alice.memsync("push", "--scope", "team", cwd=pa)
    memory = live / "deploy.md"
    memory.write_text(memory.read_text().replace("10:00-12:00", "14:00-16:00"))
    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    land_and_revert(remote, review_branch(remote), tmp_path, "squash")
    pulled = alice.memsync("pull", "--scope", "team", cwd=pa).stdout
    assert "deploy.md: the default branch undid your reviewed change" in pulled, pulled
    bob.memsync("pull", "--scope", "team", cwd=pb)
    write_memory(team_dir(bob, pb), "tone.md", "tone", "Short answers.\n")
    bob.memsync("push", "--scope", "team", cwd=pb)
    add_oncall(live)

    pushed = alice.memsync("push", "--scope", "team", cwd=pa).stdout
    assert "held back from the push: deploy.md (" in pushed, pushed
    files = git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()
    (deploy,) = [p for p in files if p.endswith("/deploy.md")]
    assert "10:00-12:00" in git("show", f"main:{deploy}", cwd=remote), pushed
    assert {"oncall.md", "tone.md"} <= set(on_main(remote)), pushed
    assert "14:00-16:00" in memory.read_text(), pushed
    assert (live / "tone.md").is_file(), pushed


def test_status_names_the_memories_held_back_until_push_review(team: Team, tmp_path: Path) -> None:
    alice, pa, _, _, _ = team
    kept_after_revert(team, tmp_path, "squash")

    shown = alice.memsync("status", "--scope", "team", cwd=pa).stdout
    assert (
        "  reverted   deploy.md: the default branch undid your reviewed change; kept here, left "
        "out of plain pushes; `memsync push --review` proposes them again\n"
    ) in shown, shown
    (team_status,) = json.loads(alice.memsync("status", "--scope", "team", "--json", cwd=pa).stdout)
    assert team_status["held_for_review"] == ["deploy.md"]

    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    (team_status,) = json.loads(alice.memsync("status", "--scope", "team", "--json", cwd=pa).stdout)
    assert team_status["held_for_review"] == []
    assert "reverted" not in alice.memsync("status", "--scope", "team", cwd=pa).stdout


def test_another_projects_review_push_in_the_same_clone_keeps_her_hold(
    team: Team, tmp_path: Path
) -> None:
    """Two of alice's projects share the team store's clone (a folder each): her web project's
    `push --review` ended api's hold too, so api's next plain push sent deploy.md to main,
    undoing the team's revert, and api's status no longer named it."""
    alice, pa, _, _, remote = team
    live = kept_after_revert(team, tmp_path, "ff")
    private = tmp_path / "remotes" / "private.git"
    pw = setup_machine(alice, private, remote, "src/web", origin="git@github.com:Acme/Web.git")
    web = team_dir(alice, pw)
    write_memory(web, "web.md", "web", "Web note.\n", description="web")
    (web / "MEMORY.md").write_text("- [Web](web.md) — web\n")
    alice.memsync("push", "--review", "--scope", "team", cwd=pw)

    shown = alice.memsync("status", "--scope", "team", cwd=pa).stdout
    assert "  reverted   deploy.md: the default branch undid" in shown, shown
    add_oncall(live)
    pushed = alice.memsync("push", "--scope", "team", cwd=pa).stdout
    assert "held back from the push: deploy.md (" in pushed, pushed
    assert "deploy.md" not in on_main(remote), pushed  # the team's revert stands
    assert "oncall.md" in on_main(remote), pushed
    assert (live / "deploy.md").read_text().endswith(DEPLOY), pushed


def test_project_move_refuses_while_memories_are_held_back(team: Team, tmp_path: Path) -> None:
    """`project move` pushes the whole branch: it sent the held memory to the default branch
    in the new folder, undoing the team's revert, unsaid (and left the hold on the old path)."""
    alice, pa, _, _, remote = team
    live = kept_after_revert(team, tmp_path, "squash")
    add_oncall(live)

    moved = alice.memsync("project", "move", "api2", "--scope", "team", cwd=pa, check=False)
    said = " ".join((moved.stdout + moved.stderr).split())
    assert moved.returncode == 1, said
    assert "holds deploy.md back for review" in said, said
    assert "nothing was moved" in said and "memsync push --review" in said, said
    files = git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()
    assert not [p for p in files if p.startswith("api2/")], files
    assert "deploy.md" not in on_main(remote) and "oncall.md" in on_main(remote), files
    assert (live / "deploy.md").read_text().endswith(DEPLOY), said

    alice.memsync("push", "--review", "--scope", "team", cwd=pa)
    alice.memsync("project", "move", "api2", "--scope", "team", cwd=pa)
    assert "api2/oncall.md" in git("ls-tree", "-r", "--name-only", "main", cwd=remote)


def test_status_drops_a_held_memory_the_team_put_back_as_she_has_it(
    team: Team, tmp_path: Path
) -> None:
    """The team reverts its revert and she pulls: status kept saying `reverted deploy.md …
    left out of plain pushes` until her next push pruned the record."""
    alice, pa, _, _, remote = team
    kept_after_revert(team, tmp_path, "squash")
    work = github(remote, tmp_path, "github-again")
    git("revert", "--no-edit", "HEAD", cwd=work)
    git("push", "-q", "origin", "main", cwd=work)
    alice.memsync("pull", "--scope", "team", cwd=pa)

    shown = alice.memsync("status", "--scope", "team", cwd=pa).stdout
    assert "reverted" not in shown, shown
    (team_status,) = json.loads(alice.memsync("status", "--scope", "team", "--json", cwd=pa).stdout)
    assert team_status["held_for_review"] == [], team_status
