"""An index entry leaves only with its memory (SPEC section 4). Claude Code 2.1.330 lets the
model Write a whole MEMORY.md it never Read: the private index it injected before the
SessionStart pull, or `team/MEMORY.md`, which the model saw only in the hook's context (both
checked with the real client; tests/realclient has the private case end to end). A rewrite
that keeps only the model's own line must not take teammates' memories out of the index."""

from __future__ import annotations

import json
from pathlib import Path

from testing.gitrepo import git, make_bare_remote
from testing.machines import Machine, memory_dir, setup_machine
from testing.memories import write_memory


def test_a_team_index_rewritten_with_one_line_keeps_the_teammates_entries(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice, bob = machines[0], machines[1]
    team = make_bare_remote(tmp_path / "remotes" / "team.git")
    a_project = setup_machine(alice, make_bare_remote(tmp_path / "remotes" / "a.git"), team, "a")
    a_team = memory_dir(alice, a_project) / "team"
    for name in ("policy", "ci"):
        write_memory(a_team, f"{name}.md", name, f"Fact {name}.\n")
    policy, ci = "- [Policy](policy.md) — real db", "- [CI](ci.md) — self-hosted"
    (a_team / "MEMORY.md").write_text(f"{policy}\n{ci}\n", encoding="utf-8")
    alice.memsync("push", "--scope", "team", cwd=a_project)
    b_project = setup_machine(bob, make_bare_remote(tmp_path / "remotes" / "b.git"), team, "b")
    b_team = memory_dir(bob, b_project) / "team"
    # Bob's session: a new team memory, and the index Written with only its line.
    write_memory(b_team, "deploys.md", "deploys", "Staging first.\n")
    deploys = "- [Deploys](deploys.md) — staging first"
    (b_team / "MEMORY.md").write_text(deploys + "\n", encoding="utf-8")
    result = bob.memsync("push", "--scope", "team", cwd=b_project)
    pushed = git("show", "main:acme-api/MEMORY.md", cwd=team)
    assert pushed == f"{deploys}\n{policy}\n{ci}\n"
    assert (b_team / "MEMORY.md").read_text(encoding="utf-8") == pushed
    out = " ".join((result.stdout + result.stderr).split())
    assert 'kept the MEMORY.md line(s) of "policy.md", "ci.md": the memory is still there' in out
    # A memory deleted with its line leaves the index: only a line alone is put back.
    (b_team / "ci.md").unlink()
    (b_team / "MEMORY.md").write_text(f"{deploys}\n", encoding="utf-8")
    bob.memsync("push", "--scope", "team", cwd=b_project)
    assert git("show", "main:acme-api/MEMORY.md", cwd=team) == f"{deploys}\n{policy}\n"


def test_an_index_written_before_the_pull_does_not_bring_back_a_deleted_memorys_line(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice, bob = machines[0], machines[1]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    a_project = setup_machine(alice, private, None, "a")
    b_project = setup_machine(bob, private, None, "b")
    a_live, b_live = memory_dir(alice, a_project), memory_dir(bob, b_project)
    one, two = "- [One](one.md) — first", "- [Two](two.md) — second"
    for name in ("one", "two"):
        write_memory(a_live, f"{name}.md", name, f"Fact {name}.\n")
    (a_live / "MEMORY.md").write_text(f"{one}\n{two}\n", encoding="utf-8")
    alice.memsync("push", cwd=a_project)
    bob.memsync("pull", cwd=b_project)
    # Alice deletes `two`; Bob's session start pulls that, but his model had loaded the index
    # before the pull and Writes it back with `two` and its own new line.
    (a_live / "two.md").unlink()
    (a_live / "MEMORY.md").write_text(f"{one}\n", encoding="utf-8")
    alice.memsync("push", cwd=a_project)
    bob.memsync("pull", cwd=b_project)
    assert not (b_live / "two.md").exists()
    write_memory(b_live, "three.md", "three", "Fact three.\n")
    three = "- [Three](three.md) — third"
    (b_live / "MEMORY.md").write_text(f"{one}\n{two}\n{three}\n", encoding="utf-8")
    result = bob.memsync("push", cwd=b_project)
    pushed = git("show", "main:acme-api/MEMORY.md", cwd=private)
    assert pushed == f"{one}\n{three}\n"
    assert (b_live / "MEMORY.md").read_text(encoding="utf-8") == pushed
    out = " ".join((result.stdout + result.stderr).split())
    assert 'dropped the MEMORY.md line(s) of "two.md": that memory was deleted' in out, out
    # A line added for a memory that never existed is the person's, and stays (check flags it).
    (b_live / "MEMORY.md").write_text(f"{pushed}- [Soon](soon.md) — to write\n", encoding="utf-8")
    bob.memsync("push", cwd=b_project, check=False)
    assert "soon.md" in (b_live / "MEMORY.md").read_text(encoding="utf-8")


def test_an_index_line_edited_by_hand_before_a_session_start_is_not_undone(
    machines: list[Machine], tmp_path: Path
) -> None:
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    project = setup_machine(alice, private, None, "a")
    live = memory_dir(alice, project)
    write_memory(live, "one.md", "one", "Fact one.\n")
    (live / "MEMORY.md").write_text("- [One](one.md) — first\n", encoding="utf-8")
    alice.memsync("push", cwd=project)
    # Edited by hand, not yet synced; then a session starts (its hook keeps the index the
    # client loaded, and commits the pending edit before it pulls).
    mine = "- [One](one.md) — first, edited by hand\n"
    (live / "MEMORY.md").write_text(mine, encoding="utf-8")
    hook_input = json.dumps({"cwd": str(project), "source": "startup"})
    alice.memsync("pull", "--hook", stdin=hook_input)
    assert (live / "MEMORY.md").read_text(encoding="utf-8") == mine
    alice.memsync("push", cwd=project)
    assert git("show", "main:acme-api/MEMORY.md", cwd=private) == mine


def test_an_entry_the_session_saw_and_dropped_stays_dropped(
    machines: list[Machine], tmp_path: Path
) -> None:
    # Claude Code asks the model to "merge or drop stale entries" when MEMORY.md nears its
    # limits: an entry the session was shown and dropped is its choice, the file kept or not.
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    project = setup_machine(alice, private, None, "a")
    live = memory_dir(alice, project)
    one, stale = "- [One](one.md) — first", "- [Stale](stale.md) — old news"
    for name in ("one", "stale"):
        write_memory(live, f"{name}.md", name, f"Fact {name}.\n")
    (live / "MEMORY.md").write_text(f"{one}\n{stale}\n", encoding="utf-8")
    alice.memsync("push", cwd=project)
    hook_input = json.dumps({"cwd": str(project), "source": "startup"})
    alice.memsync("pull", "--hook", stdin=hook_input)  # the session starts: it loads both
    (live / "MEMORY.md").write_text(f"{one}\n", encoding="utf-8")
    result = alice.memsync("push", cwd=project)
    assert git("show", "main:acme-api/MEMORY.md", cwd=private) == f"{one}\n"
    assert "kept the MEMORY.md line" not in result.stdout + result.stderr


def test_an_index_line_reshaped_by_hand_is_not_put_back_beside_itself(
    machines: list[Machine], tmp_path: Path
) -> None:
    # A person (or a model) who numbers the list, bolds a title or percent-encodes a name
    # still links every memory: no entry was dropped, so none is put back as a second line.
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    project = setup_machine(alice, private, None, "a")
    live = memory_dir(alice, project)
    for name in ("one", "two", "three"):
        write_memory(live, f"{name}.md", name, f"Fact {name}.\n")
    lines = ["- [One](one.md) — first", "- [Two](two.md) — second", "- [Three](three.md) — third"]
    (live / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    alice.memsync("push", cwd=project)
    mine = "1. [One](one.md) — first\n2. **[Two](two.md)** — second\n- [Three](three%2Emd)\n"
    (live / "MEMORY.md").write_text(mine, encoding="utf-8")
    result = alice.memsync("push", cwd=project)
    assert git("show", "main:acme-api/MEMORY.md", cwd=private) == mine
    assert (live / "MEMORY.md").read_text(encoding="utf-8") == mine
    assert "kept the MEMORY.md line" not in result.stdout + result.stderr


def test_a_line_set_back_by_hand_twice_after_the_pull_changed_it_goes_out(
    machines: list[Machine], tmp_path: Path
) -> None:
    # The note says "edit the line again to change it": the second time the person writes the
    # old text, it is their edit, not the session's stale rewrite, and it is pushed.
    alice, bob = machines[0], machines[1]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    a_project = setup_machine(alice, private, None, "a")
    b_project = setup_machine(bob, private, None, "b")
    a_live, b_live = memory_dir(alice, a_project), memory_dir(bob, b_project)
    write_memory(a_live, "one.md", "one", "Fact one.\n")
    old, new = "- [One](one.md) — first\n", "- [One](one.md) — first, pnpm only\n"
    (a_live / "MEMORY.md").write_text(old, encoding="utf-8")
    alice.memsync("push", cwd=a_project)
    bob.memsync("pull", cwd=b_project)
    hook_input = json.dumps({"cwd": str(b_project), "source": "startup"})
    bob.memsync("pull", "--hook", stdin=hook_input)  # Bob's session loads the old line
    (a_live / "MEMORY.md").write_text(new, encoding="utf-8")
    alice.memsync("push", cwd=a_project)
    bob.memsync("pull", cwd=b_project)
    (b_live / "MEMORY.md").write_text(old, encoding="utf-8")
    first = bob.memsync("push", cwd=b_project)
    assert git("show", "main:acme-api/MEMORY.md", cwd=private) == new  # read as stale, told
    assert 'kept the pulled MEMORY.md line(s) of "one.md"' in " ".join(first.stdout.split())
    (b_live / "MEMORY.md").write_text(old, encoding="utf-8")
    second = bob.memsync("push", cwd=b_project)
    assert git("show", "main:acme-api/MEMORY.md", cwd=private) == old
    assert (b_live / "MEMORY.md").read_text(encoding="utf-8") == old
    assert "kept the pulled" not in second.stdout + second.stderr


def test_a_session_started_with_an_edit_still_to_push_keeps_the_pulled_retitle(
    machines: list[Machine], tmp_path: Path
) -> None:
    # The last session end could not push (offline): the next start commits that edit before
    # it pulls. The index the client loaded is still known, so its stale rewrite neither
    # reverts the line the pull retitled nor undoes the edit that waited.
    alice, bob = machines[0], machines[1]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    a_project = setup_machine(alice, private, None, "a")
    b_project = setup_machine(bob, private, None, "b")
    a_live, b_live = memory_dir(alice, a_project), memory_dir(bob, b_project)
    write_memory(a_live, "one.md", "one", "Fact one.\n")
    old, new = "- [One](one.md) — first", "- [One](one.md) — first, pnpm only"
    (a_live / "MEMORY.md").write_text(f"{old}\n", encoding="utf-8")
    alice.memsync("push", cwd=a_project)
    bob.memsync("pull", cwd=b_project)
    write_memory(b_live, "two.md", "two", "Fact two.\n")  # not pushed: the remote was down
    two = "- [Two](two.md) — second, by hand"
    (b_live / "MEMORY.md").write_text(f"{old}\n{two}\n", encoding="utf-8")
    (a_live / "MEMORY.md").write_text(f"{new}\n", encoding="utf-8")
    alice.memsync("push", cwd=a_project)
    hook_input = json.dumps({"cwd": str(b_project), "source": "startup"})
    bob.memsync("pull", "--hook", stdin=hook_input)  # loads `old` and `two`, then pulls
    assert (b_live / "MEMORY.md").read_text(encoding="utf-8") == f"{new}\n{two}\n"
    write_memory(b_live, "three.md", "three", "Fact three.\n")
    three = "- [Three](three.md) — third"
    (b_live / "MEMORY.md").write_text(f"{old}\n{two}\n{three}\n", encoding="utf-8")
    result = bob.memsync("push", cwd=b_project)
    assert git("show", "main:acme-api/MEMORY.md", cwd=private) == f"{new}\n{two}\n{three}\n"
    assert 'kept the pulled MEMORY.md line(s) of "one.md"' in " ".join(result.stdout.split())


def test_a_first_entry_put_back_takes_its_place_before_the_next(
    machines: list[Machine], tmp_path: Path
) -> None:
    # An entry with none of its predecessors left goes before the entry that followed it,
    # not to the end of the index (which Claude Code cuts first).
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    project = setup_machine(alice, private, None, "a")
    live = memory_dir(alice, project)
    for name in ("one", "two", "three"):
        write_memory(live, f"{name}.md", name, f"Fact {name}.\n")
    one, two, three = "- [One](one.md) — 1", "- [Two](two.md) — 2", "- [Three](three.md) — 3"
    (live / "MEMORY.md").write_text(f"# Index\n{one}\n{two}\n{three}\n", encoding="utf-8")
    alice.memsync("push", cwd=project)
    (live / "MEMORY.md").write_text(f"# Index\n{three}\n", encoding="utf-8")
    alice.memsync("push", cwd=project)
    expected = f"# Index\n{one}\n{two}\n{three}\n"
    assert git("show", "main:acme-api/MEMORY.md", cwd=private) == expected


def test_an_index_deleted_while_its_memories_stay_keeps_their_entries(
    machines: list[Machine], tmp_path: Path
) -> None:
    # Deleting MEMORY.md pushed a deletion: every machine's index went, every memory in it
    # invisible to every session. Only entries of memories deleted too may leave.
    alice = machines[0]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    project = setup_machine(alice, private, None, "a")
    live = memory_dir(alice, project)
    for name in ("one", "two"):
        write_memory(live, f"{name}.md", name, f"Fact {name}.\n")
    one, two = "- [One](one.md) — first", "- [Two](two.md) — second"
    (live / "MEMORY.md").write_text(f"{one}\n{two}\n", encoding="utf-8")
    alice.memsync("push", cwd=project)
    hook_input = json.dumps({"cwd": str(project), "source": "startup"})
    alice.memsync("pull", "--hook", stdin=hook_input)  # a session that loaded both lines
    (live / "MEMORY.md").unlink()
    (live / "two.md").unlink()
    result = alice.memsync("push", cwd=project)
    assert git("show", "main:acme-api/MEMORY.md", cwd=private) == f"{one}\n"
    assert (live / "MEMORY.md").read_text(encoding="utf-8") == f"{one}\n"
    out = " ".join((result.stdout + result.stderr).split())
    assert 'kept the MEMORY.md line(s) of "one.md": the memory is still there' in out
    # With every memory gone, the index goes too.
    (live / "MEMORY.md").unlink()
    (live / "one.md").unlink()
    alice.memsync("push", cwd=project)
    assert "acme-api/MEMORY.md" not in git("ls-tree", "-r", "--name-only", "main", cwd=private)


def test_two_sessions_at_once_keep_the_lines_the_earlier_ones_pull_brought(
    machines: list[Machine], tmp_path: Path
) -> None:
    # Session 1 loads the index, its start pulls `four`; session 2 starts and loads `four`
    # too. Session 1's model then Writes the index it loaded: `four` must stay indexed,
    # although the later start was shown it.
    alice, bob = machines[0], machines[1]
    private = make_bare_remote(tmp_path / "remotes" / "private.git")
    a_project = setup_machine(alice, private, None, "a")
    b_project = setup_machine(bob, private, None, "b")
    a_live, b_live = memory_dir(alice, a_project), memory_dir(bob, b_project)
    one, four = "- [One](one.md) — first", "- [Four](four.md) — fourth"
    write_memory(a_live, "one.md", "one", "Fact one.\n")
    (a_live / "MEMORY.md").write_text(f"{one}\n", encoding="utf-8")
    alice.memsync("push", cwd=a_project)
    bob.memsync("pull", cwd=b_project)
    write_memory(a_live, "four.md", "four", "Fact four.\n")
    (a_live / "MEMORY.md").write_text(f"{one}\n{four}\n", encoding="utf-8")
    alice.memsync("push", cwd=a_project)
    hook_input = json.dumps({"cwd": str(b_project), "source": "startup"})
    bob.memsync("pull", "--hook", stdin=hook_input)  # session 1: loads `one`, pulls `four`
    bob.memsync("pull", "--hook", stdin=hook_input)  # session 2: loads `one`, `four`
    write_memory(b_live, "five.md", "five", "Fact five.\n")
    five = "- [Five](five.md) — fifth"
    (b_live / "MEMORY.md").write_text(f"{one}\n{five}\n", encoding="utf-8")  # session 1's Write
    bob.memsync("push", "--hook", stdin=hook_input)  # session 1 ends
    assert git("show", "main:acme-api/MEMORY.md", cwd=private) == f"{one}\n{four}\n{five}\n"
    # Session 2 ends after a compaction of what it was shown: with no loaded copy left, the
    # entry is put back (nothing lost; the person is told).
    (b_live / "MEMORY.md").write_text(f"{one}\n{five}\n", encoding="utf-8")
    result = bob.memsync("push", cwd=b_project)
    assert 'kept the MEMORY.md line(s) of "four.md"' in " ".join(result.stdout.split())
