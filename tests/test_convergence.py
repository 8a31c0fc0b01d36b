"""Two and three machines editing the same memories converge, keep every edit, no markers."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from testing.gitrepo import make_bare_remote
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory

MARKERS = ("<<<<<<<", ">>>>>>>", "=======")


@pytest.fixture
def pair(machines: list[Machine], tmp_path: Path) -> tuple[Machine, Path, Machine, Path]:
    """Two machines sharing one team store and one private store, synced once."""
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    alice, _, bob = machines
    pa = setup_machine(alice, private, team, "src/api")
    pb = setup_machine(bob, private, team, "projects/acme/api")
    return alice, pa, bob, pb


def team_dir(machine: Machine, project: Path) -> Path:
    return memory_dir(machine, project) / "team"


def converge(*runs: tuple[Machine, Path]) -> None:
    """Sync every machine twice, round-robin: enough for all edits to reach everyone."""
    for _ in range(2):
        for machine, project in runs:
            machine.memsync("sync", cwd=project)


def assert_identical(a: Path, b: Path) -> None:
    files_a = {p.relative_to(a).as_posix(): p.read_bytes() for p in a.rglob("*.md")}
    files_b = {p.relative_to(b).as_posix(): p.read_bytes() for p in b.rglob("*.md")}
    assert files_a == files_b
    for data in files_a.values():
        text = data.decode()
        assert not any(line.startswith(MARKERS) for line in text.splitlines()), text


def seed(
    alice: Machine, pa: Path, bob: Machine, pb: Path, body: str = "Line one.\nLine two.\n"
) -> None:
    write_memory(
        team_dir(alice, pa),
        "policy.md",
        "testing policy",
        body,
        type_="feedback",
        description="integration tests use a real database",
    )
    alice.memsync("push", cwd=pa)
    bob.memsync("pull", cwd=pb)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_description_on_one_side_body_on_the_other(
    pair: tuple[Machine, Path, Machine, Path],
) -> None:
    alice, pa, bob, pb = pair
    seed(alice, pa, bob, pb)
    edit(team_dir(alice, pa) / "policy.md", "use a real database", "hit a real Postgres")
    edit(team_dir(bob, pb) / "policy.md", "Line two.", "Line two, revised.")
    alice.memsync("push", cwd=pa)
    bob.memsync("push", cwd=pb)
    converge((alice, pa), (bob, pb))
    assert_identical(team_dir(alice, pa), team_dir(bob, pb))
    text = (team_dir(alice, pa) / "policy.md").read_text()
    assert "hit a real Postgres" in text and "Line two, revised." in text


def test_the_same_field_on_both_sides_newer_wins(pair: tuple[Machine, Path, Machine, Path]) -> None:
    alice, pa, bob, pb = pair
    seed(alice, pa, bob, pb)
    edit(team_dir(alice, pa) / "policy.md", "use a real database", "alice's wording")
    alice.memsync("push", cwd=pa)
    time.sleep(1.1)  # commit times have one-second resolution
    edit(team_dir(bob, pb) / "policy.md", "use a real database", "bob's wording")
    bob.memsync("push", cwd=pb)
    converge((alice, pa), (bob, pb))
    assert_identical(team_dir(alice, pa), team_dir(bob, pb))
    assert (
        "description: integration tests bob's wording"
        in (team_dir(alice, pa) / "policy.md").read_text()
    )


def test_the_same_body_lines_on_both_sides_keep_both(
    pair: tuple[Machine, Path, Machine, Path],
) -> None:
    alice, pa, bob, pb = pair
    seed(alice, pa, bob, pb)
    edit(team_dir(alice, pa) / "policy.md", "Line two.", "Alice rewrote line two.")
    edit(team_dir(bob, pb) / "policy.md", "Line two.", "Bob rewrote line two.")
    alice.memsync("push", cwd=pa)
    bob.memsync("push", cwd=pb)
    converge((alice, pa), (bob, pb))
    assert_identical(team_dir(alice, pa), team_dir(bob, pb))
    text = (team_dir(bob, pb) / "policy.md").read_text()
    assert "Alice rewrote line two." in text and "Bob rewrote line two." in text


def test_delete_versus_modify_keeps_the_modified_memory(
    pair: tuple[Machine, Path, Machine, Path],
) -> None:
    alice, pa, bob, pb = pair
    seed(alice, pa, bob, pb)
    (team_dir(alice, pa) / "policy.md").unlink()
    alice.memsync("push", cwd=pa)
    edit(team_dir(bob, pb) / "policy.md", "Line one.", "Line one, still true.")
    bob.memsync("push", cwd=pb)
    converge((alice, pa), (bob, pb))
    assert_identical(team_dir(alice, pa), team_dir(bob, pb))
    assert "still true" in (team_dir(alice, pa) / "policy.md").read_text()


def test_different_memories_added_under_one_name_are_both_kept(
    pair: tuple[Machine, Path, Machine, Path],
) -> None:
    alice, pa, bob, pb = pair
    for machine, project, name in ((alice, pa, "deploy freeze"), (bob, pb, "release train")):
        folder = team_dir(machine, project)
        write_memory(folder, "notes.md", name, f"About {name}.\n", type_="project")
        (folder / "MEMORY.md").write_text(f"- [{name}](notes.md) — {name}\n")
        machine.memsync("push", cwd=project)
    converge((alice, pa), (bob, pb))
    folder = team_dir(alice, pa)
    assert_identical(folder, team_dir(bob, pb))
    bodies = sorted(p.read_text() for p in folder.glob("notes*.md"))
    assert len(bodies) == 2
    assert any("About deploy freeze." in b for b in bodies)
    assert any("About release train." in b for b in bodies)
    index = (folder / "MEMORY.md").read_text()
    assert "(notes.md)" in index and "(notes-2.md)" in index


def test_index_lines_added_on_both_sides(pair: tuple[Machine, Path, Machine, Path]) -> None:
    alice, pa, bob, pb = pair
    seed(alice, pa, bob, pb)
    for machine, project, stem in ((alice, pa, "alpha"), (bob, pb, "beta")):
        folder = team_dir(machine, project)
        write_memory(folder, f"{stem}.md", stem, f"{stem} body\n")
        index = folder / "MEMORY.md"
        before = index.read_text() if index.exists() else ""
        index.write_text(before + f"- [{stem}]({stem}.md) — about {stem}\n")
        machine.memsync("push", cwd=project)
    converge((alice, pa), (bob, pb))
    assert_identical(team_dir(alice, pa), team_dir(bob, pb))
    index = (team_dir(alice, pa) / "MEMORY.md").read_text()
    assert index.count("(alpha.md)") == 1 and index.count("(beta.md)") == 1


def test_three_machines_converge(machines: list[Machine], tmp_path: Path) -> None:
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    runs = [
        (m, setup_machine(m, private, team, rel))
        for m, rel in zip(machines, ("a/api", "b/c/api", "api"), strict=True)
    ]
    for i, (machine, project) in enumerate(runs):
        write_memory(
            team_dir(machine, project), f"m{i}.md", f"memory {i}", f"From {machine.name}.\n"
        )
        write_memory(memory_dir(machine, project), f"p{i}.md", f"private {i}", "Mine.\n")
        machine.memsync("push", cwd=project)
    converge(*runs)
    first = runs[0]
    for other in runs[1:]:
        assert_identical(memory_dir(first[0], first[1]), memory_dir(other[0], other[1]))
    assert sorted(p.name for p in team_dir(*first).glob("m*.md")) == ["m0.md", "m1.md", "m2.md"]
