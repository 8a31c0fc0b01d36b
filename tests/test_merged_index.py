"""What a push says of an index's size is said of the index it pushes, as merged (a review:
a 199-line team index merged with a teammate's 4 new lines went out with 203, while the push
warned of "199 lines, 99 %")."""

from __future__ import annotations

from pathlib import Path

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory


def _add(live: Path, names: list[str]) -> None:
    index = live / "MEMORY.md"
    lines = index.read_text(encoding="utf-8") if index.exists() else ""
    for name in names:
        write_memory(live, f"{name}.md", name, f"Fact {name}.\n")
        lines += f"- [{name}]({name}.md) — memory {name}\n"
    index.write_text(lines, encoding="utf-8")


def test_a_push_tells_the_size_of_the_index_it_pushes_not_of_the_edit(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice, bob = machines[0], machines[1]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    a_project = setup_machine(alice, private, team, "src/api")
    a_team = memory_dir(alice, a_project) / "team"
    _add(a_team, [f"m{i}" for i in range(195)])
    alice.memsync("push", "--scope", "team", cwd=a_project)
    b_project = setup_machine(bob, make_bare_remote(tmp_path / "remotes" / "b.git"), team, "w/api")
    b_team = memory_dir(bob, b_project) / "team"
    _add(a_team, [f"a{i}" for i in range(4)])  # alice: 199 lines
    alice.memsync("push", "--scope", "team", cwd=a_project)
    _add(b_team, [f"b{i}" for i in range(4)])  # bob, meanwhile: 199 lines too
    result = bob.memsync("sync", "--scope", "team", cwd=b_project, check=False)
    out = " ".join((result.stdout + result.stderr).split())
    pushed = git("show", "main:acme-api/MEMORY.md", cwd=team)
    assert len(pushed.splitlines()) == 203
    assert "index has 203 lines: Claude Code loads only the first 200" in out, out
    assert "invisible: run `memsync consolidate`" in out
    assert "199 lines, 99 %" not in out, out
