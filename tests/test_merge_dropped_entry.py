"""An index entry deleted outright on one machine (the line removed, not commented) and
reworded on the other: the rewording went, unsaid. Now the changed line stays while its memory
does, as a changed file stays against a deletion, and the report says so; a line whose memory
is gone goes with it, and the report quotes its new words in full."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsync.merge.memory import FileMerge
from memsync.sync.storemerge import describe
from testing.gitrepo import git
from testing.indexmerge import index_both_ways
from testing.machines import Machine, shared_index

INDEX = "# Memory\n\n- [New](new.md) — the new memory\n- [Old](old.md) — old hook\n"
DROPPED = INDEX.replace("- [Old](old.md) — old hook\n", "")
EDITED = INDEX.replace("old hook", "bob's new hook")
KEPT = "deleted on one side and changed on the other; kept the changed index entry"
GONE = (
    "deleted on one side with its memory and changed on the other; the entry went with its memory"
)


@pytest.mark.parametrize(
    "edited",
    [
        EDITED,
        INDEX.replace("[Old]", "[Older]"),
        # The editing side also moved it first: it stays where that side put it.
        "# Memory\n\n- [Old](old.md) — bob's new hook\n- [New](new.md) — the new memory\n",
    ],
)
def test_a_changed_entry_deleted_on_the_other_side_stays_and_is_reported(edited: str) -> None:
    result = index_both_ways(INDEX, DROPPED, edited)
    assert result.content is not None
    assert result.content.decode() == edited
    (decision,) = result.decisions
    assert (decision.kind, decision.field, decision.lost, decision.detail) == (
        "index-entry-deleted",
        "old.md",
        None,
        KEPT,
    )
    assert decision.kept == next(ln for ln in edited.splitlines() if "(old.md)" in ln)


def test_the_kept_line_takes_its_place_among_other_changes() -> None:
    base = INDEX + "- [Third](third.md) — third\n"
    dropped = base.replace("- [Old](old.md) — old hook\n", "").replace("third\n", "3rd\n")
    edited = base.replace("old hook", "bob's new hook").replace("# Memory", "# Notes")
    result = index_both_ways(base, dropped, edited)
    assert result.content is not None
    assert result.content.decode() == (
        "# Notes\n\n- [New](new.md) — the new memory\n- [Old](old.md) — bob's new hook\n"
        "- [Third](third.md) — 3rd\n"
    )


def test_a_changed_entry_whose_memory_is_gone_goes_and_its_words_are_reported() -> None:
    long_hook = "bob's new hook, " + "with many more words than a report line shows " * 3
    edited = INDEX.replace("old hook", long_hook.strip())
    result = index_both_ways(INDEX, DROPPED, edited, gone={"old.md"})
    assert result.content is not None
    assert result.content.decode() == DROPPED
    (decision,) = result.decisions
    assert (decision.kind, decision.field, decision.kept, decision.detail) == (
        "index-entry-deleted",
        "old.md",
        None,
        GONE,
    )
    assert decision.lost == f"- [Old](old.md) — {long_hook.strip()}"
    # The report line quotes the words in full, not cut at 48 characters as other values are.
    assert json.dumps(decision.lost, ensure_ascii=False) in describe(decision)


@pytest.mark.parametrize(
    ("reshaped", "linking"),
    [
        (INDEX.replace("- [Old]", "1. [Old]"), "1. [Old](old.md) — old hook"),
        (INDEX.replace("- [Old](old.md)", "- **[Old](old.md)**"), "- **[Old](old.md)** — old hook"),
        (
            "# Memory\n\n- [New](new.md) — the new memory, see [Old](old.md)\n",
            "- [New](new.md) — the new memory, see [Old](old.md)",
        ),
        # named in code on a line that is no entry, as consolidate and check count it
        (INDEX.replace("- [Old](old.md) — old hook", "Old: see `old.md`."), "Old: see `old.md`."),
    ],
)
@pytest.mark.parametrize("moved", [False, True])
def test_an_entry_reshaped_on_one_side_is_not_put_back_beside_itself(
    reshaped: str, linking: str, moved: bool
) -> None:
    # A line that still links to the memory in another shape indexes it (as push's keep of
    # dropped lines reads it): a second line would index it twice. The new words are quoted.
    edited = EDITED
    if moved:  # the rewording side moved it too: the merge takes it as an insertion
        edited = edited.replace("- [Old](old.md) — bob's new hook\n", "")
        edited = edited.replace("- [New]", "- [Old](old.md) — bob's new hook\n- [New]")
    _assert_linked(index_both_ways(INDEX, reshaped, edited), reshaped, linking)


def test_one_of_two_duplicate_entries_dropped_and_the_other_reworded_stays_one() -> None:
    twice = INDEX + "- [Old](old.md) — old hook\n"
    edited = INDEX + "- [Old](old.md) — bob's new hook\n"
    _assert_linked(index_both_ways(twice, INDEX, edited), INDEX, "- [Old](old.md) — old hook")


def _assert_linked(result: FileMerge, expected: str, linking: str) -> None:
    assert result.content is not None
    assert result.content.decode() == expected
    decision = next(d for d in result.decisions if d.kind == "index-entry-deleted")
    assert (decision.kept, decision.lost) == (linking, "- [Old](old.md) — bob's new hook")
    assert decision.detail == (
        "deleted on one side, where another line names its memory, and changed on the"
        " other; kept that line"
    )


def test_an_untouched_entry_deleted_on_one_side_still_goes_unsaid() -> None:
    other = INDEX.replace("the new memory", "the newer memory")
    result = index_both_ways(INDEX, DROPPED, other)
    assert result.content is not None
    assert result.content.decode() == DROPPED.replace("the new memory", "the newer memory")
    assert result.decisions == ()
    assert index_both_ways(INDEX, DROPPED, other, gone={"old.md"}).decisions == ()


def _race(
    machines: list[Machine],
    tmp_path: Path,
    dropper_first: bool,
    *,
    shown: bool,
    delete: bool,
    bob_body: bool = False,
) -> tuple[str, Path, Path]:
    """Alice drops old.md's line (her session shown it, or with old.md deleted), bob rewords
    it (and edits old.md); one pushes, the other syncs, the first pulls. The sync's output
    and both memory folders."""
    alice, pa, live_a, bob, pb, live_b = shared_index(machines, tmp_path, INDEX, "new", "old")
    if shown:  # the SessionStart pull: push's keep of dropped lines leaves its choice alone
        hook_input = json.dumps({"cwd": str(pa), "source": "startup"})
        alice.memsync("pull", "--hook", stdin=hook_input)
    if delete:
        (live_a / "old.md").unlink()
    (live_a / "MEMORY.md").write_text(DROPPED, encoding="utf-8")
    (live_b / "MEMORY.md").write_text(EDITED, encoding="utf-8")
    if bob_body:
        old = (live_b / "old.md").read_text(encoding="utf-8")
        (live_b / "old.md").write_text(old.replace("Body of old.", "Body of old, bob."), "utf-8")
    first, second = ((alice, pa), (bob, pb)) if dropper_first else ((bob, pb), (alice, pa))
    first[0].memsync("push", cwd=first[1])
    synced = second[0].memsync("sync", cwd=second[1])
    first[0].memsync("pull", cwd=first[1])
    return synced.stdout, live_a, live_b


@pytest.mark.parametrize("dropper_first", [True, False])
def test_two_machines_keep_the_reworded_line_the_other_dropped(
    machines: list[Machine], tmp_path: Path, dropper_first: bool
) -> None:
    # Alice's session was shown the entry and dropped it as stale (the client's "drop stale
    # entries"); old.md stays.
    out, *lives = _race(machines, tmp_path, dropper_first, shown=True, delete=False)
    assert f"merge: MEMORY.md (acme-api/old.md): {KEPT}" in out, out
    for live in lives:
        assert (live / "MEMORY.md").read_text(encoding="utf-8") == EDITED
        assert (live / "old.md").is_file()


@pytest.mark.parametrize("dropper_first", [True, False])
def test_two_machines_drop_the_line_of_a_deleted_memory_and_quote_its_words(
    machines: list[Machine], tmp_path: Path, dropper_first: bool
) -> None:
    out, *lives = _race(machines, tmp_path, dropper_first, shown=False, delete=True)
    words = "- [Old](old.md) — bob's new hook"
    report = f'MEMORY.md (acme-api/old.md): {GONE}; kept (none), lost "{words}"'
    assert f"merge: {report}" in out, out
    for live in lives:
        assert (live / "MEMORY.md").read_text(encoding="utf-8") == DROPPED
        assert not (live / "old.md").exists()
    remote = tmp_path / "remotes" / "private.git"
    trailers = git("log", "--format=%(trailers:key=Memsync-Decision,valueonly)", cwd=remote)
    assert f"{report.replace('MEMORY.md', 'acme-api/MEMORY.md', 1)}\n" in trailers, trailers


@pytest.mark.parametrize("dropper_first", [True, False])
def test_a_memory_deleted_on_one_machine_and_changed_on_the_other_keeps_its_new_line(
    machines: list[Machine], tmp_path: Path, dropper_first: bool
) -> None:
    out, *lives = _race(machines, tmp_path, dropper_first, shown=False, delete=True, bob_body=True)
    assert "deleted on one side and changed on the other; kept the changed file" in out, out
    assert f"merge: MEMORY.md (acme-api/old.md): {KEPT}" in out, out
    for live in lives:
        assert (live / "MEMORY.md").read_text(encoding="utf-8") == EDITED
        assert "Body of old, bob." in (live / "old.md").read_text(encoding="utf-8")


def _entries(*names: str) -> str:
    return "# Memory\n\n" + "".join(f"- [{n}]({n.lower()}.md) — {n} hook\n" for n in names)


@pytest.mark.parametrize(
    ("base", "dropped", "expected"),
    [
        # after its nearest neighbour above that is still there (C went: B's, not A's)
        (
            _entries("A", "B", "C", "Old", "D"),
            _entries("A", "B", "D"),
            _entries("A", "B", "Old", "D"),
        ),
        # the first entry: before the one that followed it
        (_entries("Old", "A", "B"), _entries("A", "B"), _entries("Old", "A", "B")),
        # two reworded entries in a row keep their order
        (_entries("A", "Old", "Two", "B"), _entries("A", "B"), _entries("A", "Old", "Two", "B")),
    ],
)
def test_a_kept_line_goes_back_beside_its_neighbours(
    base: str, dropped: str, expected: str
) -> None:
    edited = base.replace("Old hook", "bob's new hook").replace("Two hook", "bob's two")
    result = index_both_ways(base, dropped, edited)
    assert result.content is not None
    assert result.content.decode() == expected.replace("Old hook", "bob's new hook").replace(
        "Two hook", "bob's two"
    )
    assert {d.detail for d in result.decisions} == {KEPT}


def test_an_index_in_a_folder_reads_the_deleting_side_s_links_from_that_folder() -> None:
    # `1. [Old](old.md)` in team/acme/MEMORY.md links team/acme/old.md: it indexes the memory.
    reshaped = INDEX.replace("- [Old]", "1. [Old]")
    result = index_both_ways(INDEX, reshaped, EDITED, path="team/acme/MEMORY.md")
    assert result.content is not None
    assert result.content.decode() == reshaped
    (decision,) = result.decisions
    assert (decision.path, decision.field, decision.kept) == (
        "team/acme/MEMORY.md",
        "team/acme/old.md",
        "1. [Old](old.md) — old hook",
    )
    kept = index_both_ways(INDEX, DROPPED, EDITED, path="team/acme/MEMORY.md").decisions
    assert [(d.path, d.detail) for d in kept] == [("team/acme/MEMORY.md", KEPT)]
