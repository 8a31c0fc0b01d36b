"""The team renames its default branch on the remote (main -> trunk): memsync follows the
remote's HEAD, takes its unsent commits along, and never re-creates the old branch.

Real git, file:// remotes, two simulated machines.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from testing.gitrepo import git
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory


def _rename_default_branch(remote: Path, old: str, new: str) -> None:
    """What a forge's "rename branch" does to the bare repository."""
    git("branch", "-m", old, new, cwd=remote)
    git("symbolic-ref", "HEAD", f"refs/heads/{new}", cwd=remote)


def _branches(remote: Path) -> list[str]:
    return git("for-each-ref", "--format=%(refname)", "refs/heads", cwd=remote).split()


def test_a_renamed_default_branch_is_followed(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    private, team = remotes
    alice, desk, bob = machines
    pa = setup_machine(alice, private, team, "src/api")
    live = memory_dir(alice, pa) / "team"
    write_memory(live, "a.md", "a", "Deploys on Fridays.\n")
    (live / "MEMORY.md").write_text("- [A](a.md) — a\n", encoding="utf-8")
    alice.memsync("push", "--scope", "team", cwd=pa)
    pb = setup_machine(bob, private, team, "code/api")
    _rename_default_branch(team, "main", "trunk")
    # A session start on a machine that synced before the rename: told in systemMessage.
    hook = json.loads(bob.memsync("pull", "--hook", cwd=pb, stdin="{}").stdout)
    assert "default branch is now trunk (was main" in hook.get("systemMessage", ""), hook
    # Committed locally before the push sees the rename: it must reach trunk too.
    write_memory(live, "b.md", "b", "Staging is shared.\n")
    (live / "MEMORY.md").write_text("- [A](a.md) — a\n- [B](b.md) — b\n", encoding="utf-8")
    pulled = alice.memsync("pull", "--scope", "team", cwd=pa)
    said = pulled.stdout + pulled.stderr
    assert "default branch is now trunk (was main" in said, said  # names both branches
    write_memory(live, "c.md", "c", "Rollbacks need two people.\n")
    with (live / "MEMORY.md").open("a", encoding="utf-8") as out:
        out.write("- [C](c.md) — c\n")
    alice.memsync("push", "--scope", "team", cwd=pa)
    assert _branches(team) == ["refs/heads/trunk"], _branches(team)  # main not re-created
    on_trunk = git("ls-tree", "-r", "--name-only", "trunk", cwd=team).split()
    assert {"a.md", "b.md", "c.md"} <= {Path(p).name for p in on_trunk}, on_trunk
    status = alice.memsync("status", "--scope", "team", cwd=pa).stdout
    assert "trunk" in status, status
    # A teammate who joins after the rename gets every memory.
    pd = setup_machine(desk, private, team, "work/api")
    got = {p.name for p in (memory_dir(desk, pd) / "team").iterdir()}
    assert {"a.md", "b.md", "c.md"} <= got, got


def test_a_rename_onto_a_diverged_local_branch_stops_and_says_how(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    private, team = remotes
    alice = machines[0]
    pa = setup_machine(alice, private, team, "src/api")
    live = memory_dir(alice, pa) / "team"
    write_memory(live, "a.md", "a", "Deploys on Fridays.\n")
    (live / "MEMORY.md").write_text("- [A](a.md) — a\n", encoding="utf-8")
    alice.memsync("push", "--scope", "team", cwd=pa)
    clone = next(
        p for p in alice.home.rglob("stores/*.git") if "team.git" in (p / "config").read_text()
    )
    # This clone already has its own commit on a local branch named like the new default.
    tree = git("rev-parse", "main^{tree}", cwd=clone).strip()
    own = alice.git("commit-tree", tree, "-p", "main", "-m", "own", cwd=clone).strip()
    git("update-ref", "refs/heads/trunk", own, cwd=clone)
    _rename_default_branch(team, "main", "trunk")
    write_memory(live, "b.md", "b", "Staging is shared.\n")
    pushed = alice.memsync("push", "--scope", "team", cwd=pa, check=False)
    said = pushed.stdout + pushed.stderr
    assert pushed.returncode != 0, said
    assert "default branch is now trunk" in said and "will not push to main" in said, said
    assert "git merge main" in said, said
    assert _branches(team) == ["refs/heads/trunk"], _branches(team)


def test_a_head_moved_while_the_old_branch_stays_is_told_not_followed(
    machines: list[Machine], remotes: tuple[Path, Path]
) -> None:
    """The remote's HEAD repointed to trunk while main still exists: memsync keeps syncing
    main, as a git clone keeps its branch (someone may merely have repointed HEAD), and says
    so with the way to move, at most once a day; once main is gone, it follows trunk."""
    private, team = remotes
    alice = machines[0]
    pa = setup_machine(alice, private, team, "src/api")
    live = memory_dir(alice, pa) / "team"
    write_memory(live, "a.md", "a", "Deploys on Fridays.\n")
    (live / "MEMORY.md").write_text("- [A](a.md) — a\n", encoding="utf-8")
    alice.memsync("push", "--scope", "team", cwd=pa)
    git("branch", "trunk", "main", cwd=team)
    git("symbolic-ref", "HEAD", "refs/heads/trunk", cwd=team)
    stamps = list(Path(alice.env["MEMSYNC_HOME"]).rglob("memsync-head-asked"))
    for stamp in stamps:  # the last question is more than a day old
        os.utime(stamp, (time.time() - 2 * 86_400,) * 2)
    write_memory(live, "b.md", "b", "Staging is shared.\n")
    (live / "MEMORY.md").write_text("- [A](a.md) — a\n- [B](b.md) — b\n", encoding="utf-8")
    hook = json.loads(alice.memsync("push", "--hook", cwd=pa, stdin="{}").stdout or "{}")
    said = str(hook.get("systemMessage"))
    assert (
        "remote's default branch is now trunk, but memsync keeps syncing main, "
        "which the remote still has" in said
    ), said
    assert "`git push origin --delete main`" in said
    # Still main: the edit went there, trunk is as it was.
    assert "b.md" in git("ls-tree", "-r", "--name-only", "main", cwd=team)
    assert "b.md" not in git("ls-tree", "-r", "--name-only", "trunk", cwd=team)
    # Asked once a day: the next run says nothing of it.
    again = alice.memsync("pull", "--scope", "team", cwd=pa)
    assert "default branch" not in again.stdout + again.stderr
    # The team moves: main merged into trunk and deleted; memsync follows trunk.
    git("update-ref", "refs/heads/trunk", "refs/heads/main", cwd=team)
    git("update-ref", "-d", "refs/heads/main", cwd=team)
    write_memory(live, "c.md", "c", "Rollbacks need two people.\n")
    with (live / "MEMORY.md").open("a", encoding="utf-8") as out:
        out.write("- [C](c.md) — c\n")
    alice.memsync("push", "--scope", "team", cwd=pa)
    assert _branches(team) == ["refs/heads/trunk"]
    assert "c.md" in git("ls-tree", "-r", "--name-only", "trunk", cwd=team)
