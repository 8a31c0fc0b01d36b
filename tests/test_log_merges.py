"""`memsync log` and merges: a merge lists what it brought in (its changes against its first
parent), marked as a merge; a merge that changed none of the project's memories is not shown."""

from __future__ import annotations

import json
from pathlib import Path

from memsync import git as gitcmd
from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory


def _log(machine: Machine, project: Path, *args: str) -> list[dict[str, object]]:
    entries = json.loads(machine.memsync("log", "--json", *args, cwd=project).stdout)
    assert isinstance(entries, list)
    return entries


def test_a_merge_lists_the_memories_it_brought_in(machines: list[Machine], tmp_path: Path) -> None:
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    alice, _, bob = machines
    pa = setup_machine(alice, private, None, "src/api")
    pb = setup_machine(bob, private, None, "projects/api")
    write_memory(memory_dir(alice, pa), "a.md", "a", "A\n")
    alice.memsync("push", cwd=pa)
    bob.memsync("pull", cwd=pb)
    write_memory(memory_dir(bob, pb), "b.md", "b", "B\n")
    write_memory(memory_dir(alice, pa), "c.md", "c", "C\n")
    alice.memsync("push", cwd=pa)
    bob.memsync("push", cwd=pb)  # commits b.md, then merges Alice's c.md in
    merges = [e for e in _log(bob, pb) if e["merge"]]
    assert [(e["subject"], e["files"]) for e in merges] == [
        ("memsync: merge private changes on bob-laptop", [["A", "c.md"]])
    ]
    text = bob.memsync("log", cwd=pb).stdout
    shown = text.split("memsync: merge private changes on bob-laptop\n", 1)[1]
    assert shown.startswith("      brought in by the merge:\n      + c.md\n"), text
    # Asked about one memory, the commit that made the change is the one listed (git leaves
    # out a merge that took the memory as one side had it).
    assert [(e["merge"], e["files"]) for e in _log(bob, pb, "c.md")] == [(False, [["A", "c.md"]])]


def test_a_merge_that_changed_nothing_is_no_change(tmp_path: Path) -> None:
    repo = tmp_path / "store"
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    (repo / "a.md").write_text("A\n")
    git("add", "a.md", cwd=repo)
    git("commit", "-q", "-m", "add a", cwd=repo)
    git("checkout", "-q", "-b", "side", cwd=repo)
    (repo / "b.md").write_text("B\n")
    git("add", "b.md", cwd=repo)
    git("commit", "-q", "-m", "add b", cwd=repo)
    git("checkout", "-q", "main", cwd=repo)
    git("merge", "-q", "--no-ff", "-m", "merge b", "side", cwd=repo)
    (repo / "c.md").write_text("C\n")
    git("add", "c.md", cwd=repo)
    git("commit", "-q", "-m", "add c", cwd=repo)
    git("checkout", "-q", "-b", "other", "side", cwd=repo)
    (repo / "d.md").write_text("D\n")
    git("add", "d.md", cwd=repo)
    git("commit", "-q", "-m", "add d", cwd=repo)
    git("checkout", "-q", "main", cwd=repo)
    git("merge", "-q", "--no-ff", "-s", "ours", "-m", "merge side's d away", "other", cwd=repo)
    found = {e.subject: (e.merge, e.files) for e in gitcmd.log_entries(repo, "main", [], 20)}
    assert found["merge b"] == (True, ())  # as git log says it
    listed = gitcmd.log_entries(repo, "main", [], 20, merge_files=True)
    found = {e.subject: (e.merge, e.files) for e in listed}
    assert found["merge b"] == (True, (("A", "b.md"),))
    assert found["merge side's d away"] == (True, ())
    assert found["add c"] == (False, (("A", "c.md"),))


def test_log_leaves_out_a_merge_that_changed_nothing(
    machines: list[Machine], tmp_path: Path
) -> None:
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    alice = machines[0]
    project = alice.checkout_project("git@github.com:Acme/API.git", "src/api")
    # A team store of this project alone (`--subdir .`): its log is of the whole repository.
    args = ["--private", str(private), "--team", str(team), "--subdir", ".", "--no-hooks"]
    alice.memsync("init", *args, cwd=project)
    shared = memory_dir(alice, project) / "team"
    for name in ("a", "b"):
        write_memory(shared, f"{name}.md", name, f"{name}.\n")
        alice.memsync("push", "--scope", "team", cwd=project)
    # A merge whose tree is its first parent's (the other side's change was there already).
    clone = next(
        p for p in alice.home.rglob("stores/*.git") if "team.git" in (p / "config").read_text()
    )
    tree, parent = (
        git("rev-parse", f"main^{{{k}}}", cwd=clone).strip() for k in ("tree", "commit")
    )
    side = git("commit-tree", tree, "-p", "main~1", "-m", "side", cwd=clone).strip()
    merge = git(
        "commit-tree", tree, "-p", parent, "-p", side, "-m", "empty merge", cwd=clone
    ).strip()
    git("update-ref", "refs/heads/main", merge, cwd=clone)
    subjects = [e["subject"] for e in _log(alice, project, "--scope", "team")]
    assert "side" in subjects and "empty merge" not in subjects
    assert "empty merge" not in alice.memsync("log", "--scope", "team", cwd=project).stdout
