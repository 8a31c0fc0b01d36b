"""An index entry commented out on one machine while the other changed it: the change goes
into the comment and the report says so (it was dropped without a word: the merge saw the
entry gone on one side and unchanged in shape on the other)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memsync.merge.index import merge_index
from memsync.merge.memory import FileMerge
from testing.machines import Machine, shared_index

INDEX = "# Memory\n\n- [New](new.md) — the new memory\n- [Old](old.md) — old hook\n"
ONE_LINE = INDEX.replace("- [Old](old.md) — old hook", "<!-- - [Old](old.md) — old hook -->")
WRAPPED = INDEX.replace("- [Old](old.md) — old hook\n", "<!--\n- [Old](old.md) — old hook\n-->\n")
EDITED = INDEX.replace("old hook", "bob's new hook")


def both_ways(base: str, ours: str, theirs: str, times: tuple[int, int] = (1, 2)) -> FileMerge:
    one = merge_index(
        base.encode(), ours.encode(), theirs.encode(), ours_time=times[0], theirs_time=times[1]
    )
    two = merge_index(
        base.encode(), theirs.encode(), ours.encode(), ours_time=times[1], theirs_time=times[0]
    )
    assert one.content == two.content and set(one.decisions) == set(two.decisions)
    return one


@pytest.mark.parametrize(
    "commented",
    [
        ONE_LINE,
        WRAPPED,
        INDEX.replace(
            "- [Old](old.md) — old hook\n", "<!-- retired:\n- [Old](old.md) — old hook -->\n"
        ),
        INDEX.replace("- [New]", "<!--\n- [New]") + "-->\n",  # two entries in one comment
    ],
)
def test_the_other_side_s_change_goes_into_the_comment(commented: str) -> None:
    result = both_ways(INDEX, commented, EDITED)
    assert result.content is not None
    assert result.content.decode() == commented.replace("old hook", "bob's new hook")
    (decision,) = result.decisions
    assert (decision.kind, decision.field, decision.lost) == (
        "index-entry-commented",
        "old.md",
        None,
    )
    assert "bob's new hook" in str(decision.kept)
    assert decision.detail == (
        "one side commented out the index entry, the other changed it;"
        " kept it commented out, with the change"
    )


def test_an_index_in_a_folder_names_itself_and_the_memory_by_store_path() -> None:
    result = merge_index(
        INDEX.encode(), ONE_LINE.encode(), EDITED.encode(), path="team/acme/MEMORY.md"
    )
    assert result.content == ONE_LINE.replace("old hook", "bob's new hook").encode()
    (decision,) = result.decisions
    assert (decision.path, decision.kind, decision.field) == (
        "team/acme/MEMORY.md",
        "index-entry-commented",
        "team/acme/old.md",
    )


def test_a_title_change_goes_into_the_comment_too() -> None:
    edited = INDEX.replace("[Old]", "[Older]")
    result = both_ways(INDEX, WRAPPED, edited)
    assert result.content is not None
    assert result.content.decode() == WRAPPED.replace("[Old]", "[Older]")


@pytest.mark.parametrize(
    ("commenter_time", "kept", "lost"), [(9, "retired", "bob's"), (1, "bob's", "retired")]
)
def test_both_changed_the_words_the_newer_words_stay_commented(
    commenter_time: int, kept: str, lost: str
) -> None:
    reworded = ONE_LINE.replace("old hook", "retired hook")
    result = both_ways(INDEX, reworded, EDITED, times=(commenter_time, 5))
    assert result.content is not None
    text = result.content.decode()
    assert f"<!-- - [Old](old.md) — {kept} " in text and f"{lost} " not in text
    assert "\n- [Old]" not in text  # still commented out
    (decision,) = result.decisions
    assert decision.kind == "index-entry-commented" and f"{lost} " in str(decision.lost)
    assert decision.detail.endswith("kept it commented out, with the newer words")


def test_an_older_comment_keeps_its_words_beside_a_dropped_line() -> None:
    # A comment already in the common version is no side's new choice: it keeps its words.
    # The live line dropped on one side and reworded on the other is no comment's: it stays
    # with the new words (its memory stays), as tests/test_merge_dropped_entry.py has it.
    base = INDEX + "<!-- - [Old](old.md) — an older note -->\n"
    dropped = base.replace("- [Old](old.md) — old hook\n", "")
    edited = base.replace("old hook", "bob's new hook")
    result = both_ways(base, dropped, edited)
    assert result.content is not None
    assert result.content.decode() == edited
    assert [d.kind for d in result.decisions] == ["index-entry-deleted"]
    # Gone with its memory, the live line goes and the old comment stays as it was.
    went = merge_index(base.encode(), dropped.encode(), edited.encode(), gone={"old.md"})
    assert went.content == dropped.encode()
    assert [(d.kind, d.lost) for d in went.decisions] == [
        ("index-entry-deleted", "- [Old](old.md) — bob's new hook")
    ]
    # Unchanged on the other side: nothing to carry.
    assert both_ways(INDEX, ONE_LINE, INDEX.replace("the new memory", "x")).decisions == ()


@pytest.mark.parametrize(("commented", "commenter_first"), [(ONE_LINE, True), (WRAPPED, False)])
def test_two_machines_keep_the_comment_and_the_new_wording(
    machines: list[Machine], tmp_path: Path, commented: str, commenter_first: bool
) -> None:
    alice, pa, live_a, bob, pb, live_b = shared_index(machines, tmp_path, INDEX, "new", "old")
    (live_a / "MEMORY.md").write_text(commented, encoding="utf-8")
    (live_b / "MEMORY.md").write_text(EDITED, encoding="utf-8")
    # Bob edits the memory file too: that edit is merged as any other.
    old = (live_b / "old.md").read_text(encoding="utf-8")
    (live_b / "old.md").write_text(old.replace("Body of old.", "Body of old, bob."), "utf-8")
    first, second = ((alice, pa), (bob, pb)) if commenter_first else ((bob, pb), (alice, pa))
    first[0].memsync("push", cwd=first[1])
    synced = second[0].memsync("sync", cwd=second[1])
    assert (
        "merge: MEMORY.md (acme-api/old.md): one side commented out the index entry,"
        " the other changed it; kept it commented out, with the change"
    ) in synced.stdout, synced.stdout
    first[0].memsync("pull", cwd=first[1])
    expected = commented.replace("old hook", "bob's new hook")
    for live in (live_a, live_b):
        assert (live / "MEMORY.md").read_text(encoding="utf-8") == expected
        assert "Body of old, bob." in (live / "old.md").read_text(encoding="utf-8")
