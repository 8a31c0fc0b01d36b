"""An index entry deleted on one machine and only moved on the other (same words elsewhere):
the line came back, unsaid, when the merge read the move as an insertion. A move is no edit
of the words: the deletion wins, as against a line left alone, and the report quotes the line.
Also: a place both sides changed that holds only such an entry gets one report, not two."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memsync.sync.storemerge import describe
from testing.gitrepo import git
from testing.indexmerge import index_both_ways
from testing.machines import Machine, shared_index

INDEX = (
    "# Memory\n\n- [New](new.md) — the new memory\n- [Old](old.md) — old hook\n- [Z](z.md) — z\n"
)
OLD = "- [Old](old.md) — old hook"
DROPPED = INDEX.replace(OLD + "\n", "")
UP = "# Memory\n\n- [Old](old.md) — old hook\n- [New](new.md) — the new memory\n- [Z](z.md) — z\n"
DOWN = "# Memory\n\n- [New](new.md) — the new memory\n- [Z](z.md) — z\n- [Old](old.md) — old hook\n"
UNDER = DROPPED + "\n## Other\n\n- [Old](old.md) — old hook\n"
WENT = "deleted on one side and only moved on the other; the deletion won"
LINKED = (
    "deleted on one side, where another line names its memory, and only moved on the other;"
    " kept that line"
)


@pytest.mark.parametrize(
    ("moved", "expected"),
    [(UP, DROPPED), (DOWN, DROPPED), (UNDER, DROPPED + "\n## Other\n\n")],
    ids=["up", "down", "under-another-heading"],
)
@pytest.mark.parametrize("gone", [(), ("old.md",)])
def test_a_line_deleted_on_one_side_and_only_moved_on_the_other_goes_and_is_said(
    moved: str, expected: str, gone: tuple[str, ...]
) -> None:
    result = index_both_ways(INDEX, DROPPED, moved, gone=gone)
    assert result.content is not None
    assert result.content.decode() == expected
    (decision,) = result.decisions
    assert (decision.kind, decision.field, decision.kept, decision.lost, decision.detail) == (
        "index-entry-deleted",
        "old.md",
        None,
        OLD,
        WENT,
    )
    assert describe(decision) == f'MEMORY.md (old.md): {WENT}; kept (none), lost "{OLD}"'


def test_a_line_left_in_place_while_others_were_added_is_untouched_and_goes_unsaid() -> None:
    # Bob added an entry and a heading above the line and deleted another: no move of it.
    other = INDEX.replace("- [New](new.md) — the new memory\n", "## Added\n\n- [A](a.md) — a\n")
    result = index_both_ways(INDEX, DROPPED, other)
    assert result.content is not None
    assert result.content.decode() == other.replace(OLD + "\n", "")
    assert result.decisions == ()


@pytest.mark.parametrize("moved", [UP, DOWN])
def test_a_line_commented_out_on_one_side_and_only_moved_stays_a_comment(moved: str) -> None:
    commented = INDEX.replace(OLD, f"<!-- {OLD} -->")
    result = index_both_ways(INDEX, commented, moved)
    assert result.content is not None
    text = result.content.decode()
    # Before: the moved line came back live beside the comment.
    assert f"<!-- {OLD} -->" in text and f"\n{OLD}\n" not in text
    (decision,) = result.decisions
    assert (decision.kind, decision.kept, decision.lost, decision.detail) == (
        "index-entry-commented",
        f"<!-- {OLD} -->",
        None,
        "commented out on one side and only moved on the other; kept it commented out",
    )


@pytest.mark.parametrize(
    "reshaped",
    [INDEX.replace("- [Old]", "1. [Old]"), INDEX.replace("- [Old](old.md)", "- **[Old](old.md)**")],
)
@pytest.mark.parametrize("reworded", [False, True])
def test_a_reshaped_line_moved_on_the_other_side_gets_one_report(
    reshaped: str, reworded: bool
) -> None:
    # Bob moved the line next to alice's reshape of it: both changed that place, and the one
    # line of it is the entry's own report's (it said "kept both sides' lines" as well).
    words = "bob's hook" if reworded else "old hook"
    moved = UP.replace("old hook", words)
    result = index_both_ways(INDEX, reshaped, moved)
    assert result.content is not None
    assert result.content.decode() == reshaped
    kept = next(ln for ln in reshaped.splitlines() if "(old.md)" in ln)
    (decision,) = result.decisions
    assert (decision.kind, decision.kept, decision.lost) == (
        "index-entry-deleted",
        kept,
        f"- [Old](old.md) — {words}",
    )
    changed = "deleted on one side, where another line names its memory, and changed on"
    assert decision.detail == (f"{changed} the other; kept that line" if reworded else LINKED)


def test_a_place_both_changed_still_names_its_other_lines() -> None:
    # Bob moved the line and added one beside alice's reshape: the added line is reported.
    reshaped = INDEX.replace("- [Old]", "1. [Old]")
    moved = UP.replace("- [Z]", "- [Add](add.md) — added\n- [Z]")
    result = index_both_ways(INDEX, reshaped, moved.replace("- [New]", "- [B](b.md) — b\n- [New]"))
    assert [(d.kind, d.kept) for d in result.decisions] == [
        ("index-lines-combined", "- [Add](add.md) — added"),
        ("index-entry-deleted", "1. [Old](old.md) — old hook"),
    ]


def _race(
    machines: list[Machine], tmp_path: Path, dropper_first: bool, alice_index: str, bob_index: str
) -> tuple[str, Path, Path, Path]:
    """Alice (her session shown the index) writes ALICE_INDEX, bob BOB_INDEX; one pushes, the
    other syncs, the first pulls. The sync's output, both memory folders and the remote."""
    alice, pa, live_a, bob, pb, live_b = shared_index(machines, tmp_path, INDEX, "new", "old", "z")
    alice.memsync("pull", "--hook", stdin=json.dumps({"cwd": str(pa), "source": "startup"}))
    (live_a / "MEMORY.md").write_text(alice_index, encoding="utf-8")
    (live_b / "MEMORY.md").write_text(bob_index, encoding="utf-8")
    first, second = ((alice, pa), (bob, pb)) if dropper_first else ((bob, pb), (alice, pa))
    first[0].memsync("push", cwd=first[1])
    synced = second[0].memsync("sync", cwd=second[1])
    first[0].memsync("pull", cwd=first[1])
    return synced.stdout, live_a, live_b, tmp_path / "remotes" / "private.git"


@pytest.mark.parametrize("dropper_first", [True, False])
def test_two_machines_a_line_dropped_and_moved_stays_dropped_and_is_said(
    machines: list[Machine], tmp_path: Path, dropper_first: bool
) -> None:
    out, live_a, live_b, remote = _race(machines, tmp_path, dropper_first, DROPPED, UP)
    report = f'MEMORY.md (acme-api/old.md): {WENT}; kept (none), lost "{OLD}"'
    assert f"merge: {report}" in out, out
    for live in (live_a, live_b):
        assert (live / "MEMORY.md").read_text(encoding="utf-8") == DROPPED
        assert (live / "old.md").is_file()
    trailers = git("log", "--format=%(trailers:key=Memsync-Decision,valueonly)", cwd=remote)
    assert f"{report.replace('MEMORY.md', 'acme-api/MEMORY.md', 1)}\n" in trailers, trailers


@pytest.mark.parametrize("dropper_first", [True, False])
def test_two_machines_a_bolded_line_moved_and_reworded_gets_one_report(
    machines: list[Machine], tmp_path: Path, dropper_first: bool
) -> None:
    bold = INDEX.replace("- [Old](old.md)", "- **[Old](old.md)**")
    moved = UP.replace("old hook", "bob's hook")
    out, live_a, live_b, remote = _race(machines, tmp_path, dropper_first, bold, moved)
    merges = [ln.strip() for ln in out.splitlines() if ln.strip().startswith("merge: ")]
    assert merges == [
        "merge: MEMORY.md (acme-api/old.md): deleted on one side, where another line names its"
        " memory, and changed on the other; kept that line;"
        ' kept "- **[Old](old.md)** — old hook", lost "- [Old](old.md) — bob\'s hook"'
    ], out
    for live in (live_a, live_b):
        assert (live / "MEMORY.md").read_text(encoding="utf-8") == bold
    trailers = git("log", "--format=%(trailers:key=Memsync-Decision,valueonly)", cwd=remote)
    assert "kept both sides' lines" not in trailers, trailers
    assert trailers.count("(acme-api/old.md)") == 1, trailers
