"""Unit tests of the memory merge: frontmatter by field, body by line, add/add, delete/modify."""

from __future__ import annotations

from typing import Any

import yaml

from memsync.merge.diff3 import merge3, merge_text, union
from memsync.merge.memory import FileMerge, free_name, merge_file, merge_memory, merge_text_file
from memsync.model.memory import parse_memory

BASE = (
    b"---\nname: testing policy\ndescription: tests hit a real database\ntype: feedback\n"
    b"tags: [db, tests]\n---\n"
    b"Integration tests must hit a real database.\n"
    b"**Why:** mocked tests passed while the migration failed.\n"
    b"**How to apply:** every test file uses real DB connections.\n"
)


def both_ways(
    base: bytes | None,
    ours: bytes | None,
    theirs: bytes | None,
    t1: int | None = None,
    t2: int | None = None,
) -> FileMerge:
    """Merge both ways round and check the machines agree."""
    one = merge_memory("m.md", base, ours, theirs, ours_time=t1, theirs_time=t2)
    two = merge_memory("m.md", base, theirs, ours, ours_time=t2, theirs_time=t1)
    assert one.content == two.content
    assert dict(one.extra_files) == dict(two.extra_files)
    assert set(one.decisions) == set(two.decisions)
    return one


def fields(result: FileMerge) -> dict[str, Any]:
    assert result.content is not None
    memory = parse_memory(result.content)
    assert memory.problem is None
    return dict(memory.fields)


def body(result: FileMerge) -> str:
    assert result.content is not None
    return parse_memory(result.content).body


def test_description_on_one_side_body_on_the_other() -> None:
    ours = BASE.replace(b"tests hit a real database", b"integration tests use a real DB")
    theirs = BASE.replace(b"every test file", b"every test file and fixture")
    result = both_ways(BASE, ours, theirs, 100, 200)
    assert fields(result)["description"] == "integration tests use a real DB"
    assert "every test file and fixture uses" in body(result)
    assert result.decisions == ()


def test_same_field_on_both_sides_newer_wins_and_loser_is_reported() -> None:
    ours = BASE.replace(b"tests hit a real database", b"ours says so")
    theirs = BASE.replace(b"tests hit a real database", b"theirs says so")
    newer_theirs = both_ways(BASE, ours, theirs, 100, 200)
    assert fields(newer_theirs)["description"] == "theirs says so"
    (decision,) = newer_theirs.decisions
    assert decision.kind == "field-conflict"
    assert decision.field == "description"
    assert (decision.kept, decision.lost) == ("theirs says so", "ours says so")
    newer_ours = both_ways(BASE, ours, theirs, 300, 200)
    assert fields(newer_ours)["description"] == "ours says so"


def test_tie_is_broken_by_content_not_by_side() -> None:
    ours = BASE.replace(b"tests hit a real database", b"alpha")
    theirs = BASE.replace(b"tests hit a real database", b"beta")
    assert both_ways(BASE, ours, theirs).content == both_ways(BASE, ours, theirs, 5, 5).content


def test_winner_keeps_its_own_text_without_requoting() -> None:
    ours = BASE.replace(b"description: tests hit a real database", b"description: 'quoted: yes'")
    theirs = BASE.replace(b"type: feedback", b"type: project")
    result = both_ways(BASE, ours, theirs)
    assert result.content is not None
    assert b"description: 'quoted: yes'\ntype: project\n" in result.content


def test_list_fields_merge_as_sets() -> None:
    ours = BASE.replace(b"[db, tests]", b"[db, tests, ci]")
    theirs = BASE.replace(b"[db, tests]", b"[tests, infra]")
    result = both_ways(BASE, ours, theirs, 1, 2)
    assert set(fields(result)["tags"]) == {"tests", "ci", "infra"}
    assert [d.kind for d in result.decisions] == ["field-list-merged"]
    assert result.content is not None
    assert b"tags: [" in result.content  # flow style kept


def test_block_lists_merge_line_by_line_keeping_style() -> None:
    base = b"---\nname: x\ntags:\n  - a\n  - b\n---\nbody\n"
    ours = base.replace(b"  - b\n", b"  - b\n  - c\n")
    theirs = base.replace(b"  - a\n", b"")
    result = both_ways(base, ours, theirs)
    assert result.content == b"---\nname: x\ntags:\n  - b\n  - c\n---\nbody\n"


def test_field_added_on_both_sides_differently_is_a_conflict() -> None:
    ours = BASE.replace(b"type: feedback\n", b"type: feedback\nowner: ann\n")
    theirs = BASE.replace(b"type: feedback\n", b"type: feedback\nowner: bob\n")
    result = both_ways(BASE, ours, theirs, 2, 1)
    assert fields(result)["owner"] == "ann"
    assert result.decisions[0].lost == "bob"


def test_field_deleted_on_one_side_changed_on_the_other_is_kept() -> None:
    ours = BASE.replace(b"tags: [db, tests]\n", b"")
    theirs = BASE.replace(b"[db, tests]", b"[db]")
    result = both_ways(BASE, ours, theirs)
    assert fields(result)["tags"] == ["db"]
    assert [d.kind for d in result.decisions] == ["field-delete-modify"]


def test_field_deleted_on_one_side_untouched_on_the_other_goes() -> None:
    ours = BASE.replace(b"tags: [db, tests]\n", b"")
    theirs = BASE.replace(b"Integration", b"All integration")
    assert "tags" not in fields(both_ways(BASE, ours, theirs))


def test_same_body_words_changed_on_both_sides_keeps_both_without_markers() -> None:
    ours = BASE.replace(b"while the migration failed", b"while prod broke")
    theirs = BASE.replace(b"while the migration failed", b"while the deploy failed")
    result = both_ways(BASE, ours, theirs, 10, 20)
    text = body(result)
    assert "while prod broke" in text
    assert "while the deploy failed" in text
    assert "<<<<<<<" not in text and "=======" not in text
    # Older change first, then the newer one.
    assert text.index("while prod broke") < text.index("while the deploy failed")
    assert [d.kind for d in result.decisions] == ["body-conflict"]
    assert "same words in body line 2" in result.decisions[0].detail


def test_different_words_of_one_line_changed_on_both_sides_combine() -> None:
    ours = BASE.replace(b"while the migration failed", b"while prod broke")
    theirs = BASE.replace(b"passed while", b"passed but")
    result = both_ways(BASE, ours, theirs, 10, 20)
    assert "**Why:** mocked tests passed but prod broke.\n" in body(result)
    assert result.decisions == ()


def test_both_sides_append_lines() -> None:
    ours = BASE + b"- from ours\n"
    theirs = BASE + b"- from theirs\n"
    text = body(both_ways(BASE, ours, theirs, 1, 2))
    assert text.endswith("- from ours\n- from theirs\n")


def test_the_same_edit_on_both_sides_appears_once() -> None:
    ours = BASE + b"- shared\n- ours only\n"
    theirs = BASE + b"- shared\n- theirs only\n"
    text = body(both_ways(BASE, ours, theirs, 1, 2))
    assert text.count("- shared") == 1
    assert "- ours only" in text and "- theirs only" in text


def test_adjacent_edits_apply_cleanly() -> None:
    ours = BASE.replace(b"Integration tests", b"All integration tests")
    theirs = BASE.replace(b"**Why:**", b"**Why (2024):**")
    result = both_ways(BASE, ours, theirs)
    assert result.decisions == ()
    assert body(result).splitlines()[:2] == [
        "All integration tests must hit a real database.",
        "**Why (2024):** mocked tests passed while the migration failed.",
    ]


def test_delete_versus_modify_keeps_the_modified_file() -> None:
    theirs = BASE.replace(b"real database.", b"real database, always.")
    result = both_ways(BASE, None, theirs)
    assert result.content == theirs
    assert [d.kind for d in result.decisions] == ["delete-modify"]


def test_delete_versus_untouched_deletes() -> None:
    assert both_ways(BASE, None, BASE).content is None


def test_add_add_of_the_same_memory_merges() -> None:
    ours = b"---\nname: Deploy Freeze\ntype: project\n---\nNo deploys on Friday.\n"
    theirs = b"---\nname: deploy  freeze\ndescription: freeze\ntype: project\n---\nAsk ops.\n"
    result = both_ways(None, ours, theirs, 1, 2)
    assert result.extra_files == {}
    assert fields(result)["description"] == "freeze"
    assert "No deploys on Friday." in body(result) and "Ask ops." in body(result)


def test_add_add_of_different_memories_keeps_both() -> None:
    ours = b"---\nname: one\ntype: user\n---\nA\n"
    theirs = b"---\nname: two\ntype: user\n---\nB\n"
    result = both_ways(None, ours, theirs, 5, 9)
    assert result.content == ours  # the older one keeps the name
    assert dict(result.extra_files) == {"m-2.md": theirs}
    assert result.decisions[0].kind == "add-add-renamed"


def test_renamed_copy_avoids_taken_names() -> None:
    ours = b"---\nname: one\n---\nA\n"
    theirs = b"---\nname: two\n---\nB\n"
    result = merge_memory("d/m.md", None, ours, theirs, taken={"d/m-2.md"})
    assert list(result.extra_files) == ["d/m-3.md"]
    assert free_name("x.md", ()) == "x-2.md"
    assert free_name("a/b.txt", lambda p: p == "a/b-2.txt") == "a/b-3.txt"


def test_invalid_memories_merge_line_by_line() -> None:
    base = b"---\nname: [unclosed\n---\none\ntwo\n"
    ours = base.replace(b"one", b"one!")
    theirs = base + b"three\n"
    result = both_ways(base, ours, theirs)
    assert result.content == b"---\nname: [unclosed\n---\none!\ntwo\nthree\n"


def test_files_without_frontmatter_never_lose_a_line() -> None:
    base = b"a\nb\nc\n"
    ours = b"a\nB1\nc\n"
    theirs = b"a\nB2\nc\nd\n"
    result = both_ways(base, ours, theirs)
    assert result.content is not None
    assert set(result.content.decode().splitlines()) == {"a", "B1", "B2", "c", "d"}


def test_frontmatter_that_cannot_be_cut_by_key_falls_back_to_lines() -> None:
    base = b"---\nbase: &x 1\nref: *x\n---\nbody\n"
    ours = base.replace(b"&x 1", b"&x 2")
    theirs = base.replace(b"ref: *x", b"ref: *x\nmore: 3")
    result = both_ways(base, ours, theirs)
    assert fields(result) == {"base": 2, "ref": 2, "more": 3}


def test_crlf_and_bom_are_kept() -> None:
    base = b"\xef\xbb\xbf" + BASE.replace(b"\n", b"\r\n")
    ours = base.replace(b"Integration", b"All integration")
    theirs = base.replace(b"feedback", b"project")
    result = both_ways(base, ours, theirs)
    assert result.content is not None
    assert result.content.startswith(b"\xef\xbb\xbf---\r\n")
    assert b"\n" not in result.content.replace(b"\r\n", b"")
    assert b"All integration" in result.content and b"type: project" in result.content


def test_binary_changed_on_both_sides_keeps_both() -> None:
    result = merge_text_file("img.png", b"\0base", b"\0ours", b"\0theirs", taken=())
    assert {result.content, *result.extra_files.values()} == {b"\0ours", b"\0theirs"}
    assert list(result.extra_files) == ["img-2.png"]


def test_merge_file_dispatches_non_memories_to_text() -> None:
    result = merge_file("notes.txt", b"a\n", b"a\nb\n", b"z\na\n")
    assert result.content == b"z\na\nb\n"


def test_result_is_one_sides_exact_bytes_when_equal() -> None:
    odd = BASE.replace(b"---\nname", b"---  \nname")
    assert merge_memory("m.md", BASE, BASE, odd).content == odd


def test_union_and_merge3_basics() -> None:
    assert union("abc", "axc") == tuple("abxc")
    merged = merge3("abc", "abXc", "abYc", a_first=False)
    assert "".join(merged.items) == "abYXc"
    assert len(merged.conflicts) == 1
    assert merge_text("a\n", "a\nb", "a\nc", a_first=True).text == "a\nb\nc"


def test_yaml_booleans_and_numbers_are_not_confused() -> None:
    base = b"---\nflag: 1\n---\n"
    ours = b"---\nflag: true\n---\n"
    theirs = b"---\nflag: 1\nother: x\n---\n"
    result = both_ways(base, ours, theirs)
    assert yaml.safe_load(result.content.split(b"---")[1]) == {"flag": True, "other": "x"}  # type: ignore[union-attr]
