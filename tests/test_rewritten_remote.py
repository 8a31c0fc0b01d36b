"""A remote whose history someone else rewrote: a purge is followed (tests/test_quickpull.py,
docs/SECRETS.md), a history without this project's memories at all is not.

Real git, file:// remotes, two simulated machines.
"""

from __future__ import annotations

import json
from pathlib import Path

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine, memory_dir, remote_files, setup_machine
from testing.memories import write_memory


def _force_push_unrelated(tmp: Path, remote: Path) -> None:
    """Someone force-pushes another repository's history (a wrong remote, a wrong branch)."""
    work = tmp / "unrelated"
    git("init", "-q", "-b", "main", str(work), cwd=tmp)
    (work / "README.md").write_text("another project\n")
    git("add", "README.md", cwd=work)
    git("commit", "-q", "-m", "unrelated root", cwd=work)
    git("push", "-q", "--force", str(remote), "main:main", cwd=work)


def _two_memories_on_two_machines(
    alice: Machine, bob: Machine, tmp: Path, name: str, body: str
) -> tuple[Path, Path, Path, Path, Path]:
    """Alice pushes `deploy.md` and NAME.md (BODY) to a new private store; bob sets up. The
    remote, and each machine's project and memory folder."""
    remote = make_bare_remote(tmp / "remotes" / "private.git")
    pa = setup_machine(alice, remote, None, "src/api")
    live_a = memory_dir(alice, pa)
    write_memory(live_a, "deploy.md", "deploy", "Deploys go out on Fridays.\n")
    write_memory(live_a, f"{name}.md", name, body)
    alice.memsync("push", cwd=pa)
    pb = setup_machine(bob, remote, None, "work/api")
    return remote, pa, live_a, pb, memory_dir(bob, pb)


def test_a_rewrite_without_this_projects_memories_is_not_followed(
    machines: list[Machine], tmp_path: Path
) -> None:
    """h3: an unrelated history force-pushed over the private store deleted every memory of
    alice's and bob's folders at their next session start, said only as `the history was
    rewritten … (no unpushed local edits to re-apply)`; the old commits were unreachable."""
    alice, bob = machines[0], machines[2]
    remote, pa, live_a, pb, live_b = _two_memories_on_two_machines(
        alice, bob, tmp_path, "second", "The staging database is reset nightly.\n"
    )
    _force_push_unrelated(tmp_path, remote)

    hook = alice.memsync("pull", "--hook", cwd=pa, stdin=json.dumps({"cwd": str(pa)}))
    message = json.loads(hook.stdout)["systemMessage"]
    assert "Traceback" not in hook.stderr
    said = (
        "memsync: private: the private store's history was rewritten on the remote and holds "
        "none of this project's memories (folder acme-api): memsync did not follow it and "
        "changed nothing here"
    )
    assert said in message, message
    assert "git -C " in message and "push --force origin main" in message, message
    for machine, project, live in ((alice, pa, live_a), (bob, pb, live_b)):
        done = machine.memsync("sync", cwd=project, check=False)
        assert done.returncode == 4, done.stderr
        assert said.removeprefix("memsync: private: ") in done.stderr, done.stderr
        assert f"move {live} away" in done.stderr, done.stderr
        assert "Fridays" in (live / "deploy.md").read_text()
        assert "nightly" in (live / "second.md").read_text()
    assert remote_files(remote) == ["README.md"]  # nothing pushed over it either

    # A mistake: the history put back as the hint says, every machine syncs again.
    clone = next((alice.home / ".memsync" / "stores").glob("private-*.git"))
    git("-C", str(clone), "push", "-q", "--force", "origin", "main", cwd=tmp_path)
    bob.memsync("sync", cwd=pb)
    alice.memsync("sync", cwd=pa)
    assert "nightly" in (live_b / "second.md").read_text()
    assert any(f.endswith("/second.md") for f in remote_files(remote))


def test_a_rewrite_without_the_project_is_followed_once_its_folder_is_moved_away(
    machines: list[Machine], tmp_path: Path
) -> None:
    """The project's memories removed from the store on purpose: the person moves the folder
    away as told, and the next run follows the new history."""
    alice = machines[0]
    remote = make_bare_remote(tmp_path / "remotes" / "private.git")
    pa = setup_machine(alice, remote, None, "src/api")
    live = memory_dir(alice, pa)
    write_memory(live, "deploy.md", "deploy", "Deploys go out on Fridays.\n")
    alice.memsync("push", cwd=pa)
    _force_push_unrelated(tmp_path, remote)
    assert alice.memsync("sync", cwd=pa, check=False).returncode == 4
    live.rename(tmp_path / "kept-memory")
    done = alice.memsync("sync", cwd=pa)
    assert "history was rewritten on the remote: rebuilt" in done.stdout, done.stdout
    assert "Fridays" in (tmp_path / "kept-memory" / "deploy.md").read_text()


def _purge(tmp: Path, remote: Path, name: str) -> None:
    """An admin rewrites the history without the memory NAME (one new root) and force-pushes."""
    work = tmp / "admin"
    git("clone", "-q", str(remote), str(work), cwd=tmp)
    git("rm", "-q", f"acme-api/{name}", cwd=work)
    git("commit", "-q", "-m", "purge", cwd=work)
    tree = git("rev-parse", "HEAD^{tree}", cwd=work).strip()
    root = git("commit-tree", tree, "-m", "history purged", cwd=work).strip()
    git("push", "-q", "--force", "origin", f"{root}:main", cwd=work)


def test_a_purge_names_the_memories_it_removes_and_where_the_old_history_is(
    machines: list[Machine], tmp_path: Path
) -> None:
    """i1: a purge of one memory of two was followed, its note said only `rebuilt on the new
    history (no unpushed local edits to re-apply)`: the hook (the person's only view) did not
    say which memory left the folder, nor that the old history can still be read here."""
    alice, bob = machines[0], machines[2]
    remote, pa, live_a, pb, live_b = _two_memories_on_two_machines(
        alice, bob, tmp_path, "leak", "The staging password is hunter2.\n"
    )
    _purge(tmp_path, remote, "leak.md")

    hook = alice.memsync("pull", "--hook", cwd=pa, stdin=json.dumps({"cwd": str(pa)}))
    message = json.loads(hook.stdout)["systemMessage"]
    said = (
        "the private store's history was rewritten on the remote: rebuilt on the new history "
        "(no unpushed local edits to re-apply); the old commits are never pushed; the new "
        'history drops 1 memory, removed from this machine: "leak.md" (the old history stays '
        "in this machine's clone until git's next cleanup: `git -C "
    )
    assert f"memsync: private: {said}" in message, message
    assert not (live_a / "leak.md").exists() and (live_a / "deploy.md").exists()
    # The command the note gives reads the removed memory back.
    command = message.split("`")[-2].split()
    assert command[:2] == ["git", "-C"] and command[3] == "show", command
    assert command[4].endswith(":acme-api/leak.md"), command
    assert "hunter2" in git(*command[1:], cwd=tmp_path)

    done = bob.memsync("sync", cwd=pb)
    assert "  - leak.md" in done.stdout, done.stdout
    assert f"  note: {said}" in done.stdout, done.stdout
    assert not (live_b / "leak.md").exists()
