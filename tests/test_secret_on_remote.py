"""A secret already on the team remote (pushed before memsync, or by another tool): the
person can fix it. Real git, file:// remotes, simulated machines."""

from __future__ import annotations

import random
import string
from pathlib import Path

from testing.gitrepo import git
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory

TOKEN = "ghp_" + "".join(random.Random(7).choices(string.ascii_letters + string.digits, k=36))


def _plant(remote: Path, tmp_path: Path, name: str, text: str) -> None:
    """Another tool commits TEXT into NAME on the team remote."""
    hand = tmp_path / "hand"
    git("clone", "-q", str(remote), str(hand), cwd=tmp_path)
    git("config", "user.name", "Hand", cwd=hand)
    git("config", "user.email", "hand@example.com", cwd=hand)
    path = next(hand.rglob(name))
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")
    git("commit", "-qam", "by hand", cwd=hand)
    git("push", "-q", "origin", "HEAD", cwd=hand)


def _remote_file(remote: Path, name: str) -> str:
    paths = git("ls-tree", "-r", "--name-only", "main", cwd=remote).split()
    return git("show", "main:" + next(p for p in paths if p.endswith(name)), cwd=remote)


def test_a_secret_already_on_the_remote_is_named_and_its_removal_pushed(
    machines: list[Machine], remotes: tuple[Path, Path], tmp_path: Path
) -> None:
    """A later edit of a team memory whose secret reached the remote without memsync was
    blocked with the fix of a new secret ("remove the credential … then run memsync push"),
    which the person had not added and could not see was already out. Now the push names
    file and line, says it is on the remote already and how to remove it; the edit that
    removes it goes out."""
    private, team = remotes
    alice = machines[0]
    pa = setup_machine(alice, private, team, "src/api")
    live = memory_dir(alice, pa) / "team"
    write_memory(live, "deploy.md", "deploy", "Deploys go through staging.\n")
    (live / "MEMORY.md").write_text("- [Deploy](deploy.md) — staging\n", encoding="utf-8")
    alice.memsync("push", "--scope", "team", cwd=pa)
    _plant(team, tmp_path, "deploy.md", f"The CI token is {TOKEN}\n")
    alice.memsync("pull", "--scope", "team", cwd=pa)
    planted = _remote_file(team, "deploy.md")
    text = (live / "deploy.md").read_text(encoding="utf-8")
    (live / "deploy.md").write_text(text.replace("staging", "staging first"), encoding="utf-8")
    pushed = alice.memsync("push", "--scope", "team", cwd=pa, check=False)
    said = pushed.stdout + pushed.stderr
    assert pushed.returncode == 1, said
    assert "deploy.md:7: possible secret (github-pat): ghp_…" in said, said
    assert "(already on the remote)" in said
    assert (
        "It is on the remote already" in said and "rotate the secret, then delete that line" in said
    )
    assert TOKEN not in said
    status = alice.memsync("status", "--scope", "team", cwd=pa, check=False).stdout
    assert "(already on the remote)" in status and "It is on the remote already" in status
    hook = alice.memsync("push", "--hook", cwd=pa, stdin="{}").stdout
    assert "deploy.md:7" in hook and "It is on the remote already" in hook, hook
    assert _remote_file(team, "deploy.md") == planted  # nothing went out meanwhile
    # The edit that removes the secret goes out, with the other edit.
    text = (live / "deploy.md").read_text(encoding="utf-8")
    (live / "deploy.md").write_text(
        text.replace(f"The CI token is {TOKEN}\n", ""), encoding="utf-8"
    )
    removed = alice.memsync("push", "--scope", "team", cwd=pa)
    assert "pushed: deploy.md" in removed.stdout, removed.stdout
    on_remote = _remote_file(team, "deploy.md")
    assert TOKEN not in on_remote and "Deploys go through staging first." in on_remote
