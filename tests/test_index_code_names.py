"""A memory the index names only in code (`` see `deploy.md` ``) counts as indexed for the
merge, as consolidate and check count it (`model.indexrefs`): a merge of two machines' edits
adds no second line for it. Real git, two machines, real `memsync` processes."""

from __future__ import annotations

from pathlib import Path

from testing.gitrepo import git
from testing.machines import Machine, shared_index
from testing.memories import write_memory

INDEX = "# Memory\n\n- [New](new.md) — the new memory\n- [Old](old.md) — old hook\n"
NAMED = "Before a release, read `deploy.md`."


def test_a_memory_from_another_machine_named_only_in_code_gets_no_second_line(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice, pa, live_a, bob, pb, live_b = shared_index(machines, tmp_path, INDEX, "new", "old")
    write_memory(live_a, "deploy.md", "deploy", "Staging first.\n")
    (live_a / "MEMORY.md").write_text(INDEX + "- [Deploy](deploy.md) — staging first\n", "utf-8")
    alice.memsync("push", cwd=pa)
    bob.memsync("pull", cwd=pb)  # deploy.md arrives
    # Bob's index names it in code only; alice meanwhile rewords another entry.
    (live_b / "MEMORY.md").write_text(f"{INDEX}\n{NAMED}\n", encoding="utf-8")
    reworded = INDEX.replace("the new memory", "the newer memory")
    (live_a / "MEMORY.md").write_text(reworded + "- [Deploy](deploy.md) — staging first\n", "utf-8")
    alice.memsync("push", cwd=pa)
    out = bob.memsync("sync", cwd=pb).stdout
    expected = f"{reworded}\n{NAMED}\n"
    remote = tmp_path / "remotes" / "private.git"
    assert git("show", "main:acme-api/MEMORY.md", cwd=remote) == expected
    assert (live_b / "MEMORY.md").read_text(encoding="utf-8") == expected
    assert "kept the MEMORY.md line" not in out, out


def test_an_entry_one_machine_turned_into_a_name_in_code_is_not_put_back_by_the_merge(
    machines: list[Machine], tmp_path: Path
) -> None:
    """Alice replaces old.md's entry by a line naming it in code; bob rewords the entry."""
    alice, pa, live_a, bob, pb, live_b = shared_index(machines, tmp_path, INDEX, "new", "old")
    named = "Old: see `old.md`."
    mine = INDEX.replace("- [Old](old.md) — old hook", named)
    (live_a / "MEMORY.md").write_text(mine, encoding="utf-8")
    (live_b / "MEMORY.md").write_text(INDEX.replace("old hook", "bob's hook"), encoding="utf-8")
    alice.memsync("push", cwd=pa)
    out = bob.memsync("sync", cwd=pb).stdout
    alice.memsync("pull", cwd=pa)
    for live in (live_a, live_b):
        assert (live / "MEMORY.md").read_text(encoding="utf-8") == mine
    said = " ".join(out.split())
    assert (
        "merge: MEMORY.md (acme-api/old.md): deleted on one side, where another line names"
        f' its memory, and changed on the other; kept that line; kept "{named}", lost'
        ' "- [Old](old.md) — bob\'s hook"'
    ) in said, out
