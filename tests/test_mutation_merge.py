"""The merge at its boundaries: survivors of the mutation runs on memsync/merge (docs/MUTATION.md).

Each case names the rule it pins (where a final newline comes from, when two hunks collide,
which version of a flag wins), so a flipped comparison fails with the reason.
"""

from __future__ import annotations

import pytest

from memsync.merge.diff3 import join_lines, merge3, merge3_flag, merge_text, split_lines, union
from memsync.merge.fields import merge_frontmatter
from memsync.merge.nesting import later_timestamp, slug, split_nested
from memsync.merge.words import merge_words, prose_resolver


@pytest.mark.parametrize(
    ("reason", "base", "a", "b", "merged"),
    [
        ("a deletion of every line meets an appended line", "a\nb\n", "", "a\nb\nc", "c"),
        ("the same, the other side first", "a\nb\n", "a\nb\nc", "", "c"),
        ("the same, the line with its newline", "a\nb\n", "", "a\nb\nc\n", "c\n"),
        ("both added to an empty file: either newline ends it", "", "x\n", "y", "x\ny\n"),
        ("the same with the newline on the other side", "", "x", "y\n", "x\ny\n"),
        ("one side added a last line: its newline, not the base's", "", "", "y", "y"),
        ("an added blank last line is kept though the other side dropped the newline",
         "a\nb\n", "a\nb\n\n", "x\nb", "x\nb\n\n"),
        ("one side added the final newline, the other edited a line", "a\nb", "a\nb\n", "x\nb",
         "x\nb\n"),
        ("one side removed the final newline, the other edited a line", "a\nb\n", "a\nb",
         "x\nb\n", "x\nb"),
        ("each side deleted the line the other kept: nothing is left", "x\ny\n", "y\n", "x\n", ""),
    ],
)  # fmt: skip
def test_final_newline_and_empty_results(
    reason: str, base: str, a: str, b: str, merged: str
) -> None:
    assert merge_text(base, a, b, a_first=True).text == merged, reason
    assert merge_text(base, b, a, a_first=False).text == merged, f"{reason} (other side first)"


@pytest.mark.parametrize(
    ("base", "a", "b", "expected"),
    [
        (False, False, False, False),
        (False, True, False, True),  # A changed it
        (False, False, True, True),  # B changed it
        (False, True, True, True),  # both, the same way
        (True, True, True, True),
        (True, False, True, False),
        (True, True, False, False),
        (True, False, False, False),
    ],
)
def test_a_flag_changed_on_one_side_takes_that_change(
    base: bool, a: bool, b: bool, expected: bool
) -> None:
    assert merge3_flag(base, a, b) is expected


@pytest.mark.parametrize(
    ("text", "lines", "final_newline"),
    [
        ("", [], False),
        ("one two\nthree four", ["one two", "three four"], False),
        ("one two\n\n", ["one two", ""], True),
        ("\n", [""], True),
    ],
)
def test_lines_split_on_newlines_only_and_join_back(
    text: str, lines: list[str], final_newline: bool
) -> None:
    assert split_lines(text) == (lines, final_newline)
    assert join_lines(lines, final_newline) == text


def test_union_keeps_every_item_of_both_sides() -> None:
    assert union(["a", "c"], ["a", "b", "c"]) == ("a", "b", "c")  # SECOND's insertion
    assert union([], [""]) == ("",)
    assert union(["a", "x", "c"], ["a", "y", "c"]) == ("a", "x", "y", "c")  # FIRST's first
    assert union(["a", "b"], ["a"]) == ("a", "b")


BASE = ("0", "1", "2", "3")


@pytest.mark.parametrize(
    ("reason", "a", "b", "items", "collided"),
    [
        (
            "an insertion at the start of the other side's replaced range applies first",
            ("0", "X", "1", "2", "3"),
            ("0", "Y", "Z", "3"),
            ("0", "X", "Y", "Z", "3"),
            False,
        ),
        (
            "an insertion at the end of the other side's replaced range applies after it",
            ("0", "1", "2", "X", "3"),
            ("0", "Y", "Z", "3"),
            ("0", "Y", "Z", "X", "3"),
            False,
        ),
        (
            "an insertion inside the other side's replaced range collides",
            ("0", "1", "X", "2", "3"),
            ("0", "Y", "Z", "3"),
            ("0", "1", "X", "2", "Y", "Z", "3"),
            True,
        ),
        (
            "replacements of adjacent ranges both apply",
            ("0", "Y", "2", "3"),
            ("0", "1", "Z", "3"),
            ("0", "Y", "Z", "3"),
            False,
        ),
        (
            "two insertions at one point collide",
            ("0", "1", "2", "X", "3"),
            ("0", "1", "2", "Y", "3"),
            ("0", "1", "2", "X", "Y", "3"),
            True,
        ),
    ],
)
def test_when_two_sides_changes_collide(
    reason: str,
    a: tuple[str, ...],
    b: tuple[str, ...],
    items: tuple[str, ...],
    collided: bool,
) -> None:
    one = merge3(BASE, a, b, a_first=True)
    two = merge3(BASE, b, a, a_first=False)
    assert one.items == two.items == items, reason
    assert bool(one.conflicts) is bool(two.conflicts) is collided, reason


def test_a_metadata_block_made_for_the_base_takes_the_narrower_sides_indent() -> None:
    """The base has `type` at the top; one side moved it into `metadata` indented by four,
    the other made `metadata` indented by two: whichever side runs the merge, one text."""
    base = "name: n\ndescription: d\ntype: user\n"
    moved = "name: n\ndescription: d\nmetadata:\n    type: user\n"
    other = "name: n\ndescription: d\nmetadata:\n  node_type: memory\n"
    one = merge_frontmatter(base, moved, other, a_time=None, b_time=None, a_first=True)
    two = merge_frontmatter(base, other, moved, a_time=None, b_time=None, a_first=False)
    assert one is not None and two is not None
    assert one.text == two.text
    # Against a base aligned with two spaces, the four-space side changed the indent.
    assert one.text == "name: n\ndescription: d\nmetadata:\n    node_type: memory\n"


def _glue(item: str) -> bool:
    return item.isspace()


@pytest.mark.parametrize(
    ("reason", "sides", "items", "collided"),
    [
        (
            "an insertion the other side's replacement ends with, at that point, is not doubled",
            ((" ",), (" ", "c"), ("c",)),
            ("c",),
            False,
        ),
        (
            "an insertion the other side's replacement begins with is not doubled",
            ((" ",), ("x",), ("x", " ")),
            ("x",),
            False,
        ),
        (
            "an insertion that only repeats the glue between is the side's own: kept",
            (("x", " ", "b"), ("y", " ", "b"), ("x", " ", " ", "b")),
            ("y", " ", " ", "b"),
            False,
        ),
        (
            "an insertion a word away from the other side's change is not held by it: kept",
            (("x", "a", "y"), ("x", "a", "b", "a", "y"), ("b", "a", "z")),
            ("b", "a", "b", "a", "z"),
            False,
        ),
        (
            "changes glued by spaces are one change on either side",
            (("a", " "), ("a",), (" ", " ")),
            ("a", " ", " "),
            True,
        ),
        (
            "glue joins a side's changes when only glue of the base lies between them",
            (("", " ", " "), ("", " ", "a", " "), ("c", "", "b", " ")),
            ("c", "", "b", " ", "a", " "),
            True,
        ),
    ],
)
def test_insertions_held_by_the_other_side_and_glued_changes(
    reason: str,
    sides: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]],
    items: tuple[str, ...],
    collided: bool,
) -> None:
    base, a, b = sides
    one = merge3(base, a, b, a_first=True, glue=_glue)
    two = merge3(base, b, a, a_first=False, glue=_glue)
    assert one.items == two.items == items, reason
    assert bool(one.conflicts) is bool(two.conflicts) is collided, reason


# A long memory: 130 bullets with blank lines between (over 200 lines, where difflib's
# autojunk heuristic would start treating the blank line as noise; the merge turns it off).
LONG = [line for n in range(130) for line in (f"- fact {n}", "")]


def test_a_long_memory_with_blank_lines_merges_edits_at_both_ends() -> None:
    a = [*LONG[:10], "- fact 5 rewritten", *LONG[10:]]
    b = [line for line in LONG if line != "- fact 120"]
    merged = merge3(LONG, a, b, a_first=True)
    assert merged.conflicts == ()
    assert list(merged.items) == [line for line in a if line != "- fact 120"]


def prose(base: str, a: str, b: str) -> tuple[str, tuple[str, ...]]:
    """The line-then-word merge of A and B, checked to be the same from either side."""
    one = merge_text(base, a, b, a_first=True, resolver=prose_resolver)
    two = merge_text(base, b, a, a_first=False, resolver=prose_resolver)
    assert one.text == two.text
    assert [c.level for c in one.conflicts] == [c.level for c in two.conflicts]
    return one.text, tuple(c.level for c in one.conflicts)


SETUP = "Setup: run pnpm.\nEnd.\n"


@pytest.mark.parametrize(
    ("reason", "base", "a", "b", "merged", "levels"),
    [
        (
            "an appended sentence the other side's longer append starts with is not repeated",
            SETUP,
            SETUP.replace("pnpm.", "pnpm. Node 22 is required."),
            SETUP.replace("pnpm.", "pnpm. Node 22 is required. Use nvm."),
            SETUP.replace("pnpm.", "pnpm. Node 22 is required. Use nvm."),
            (),
        ),
        (
            "an appended sentence the other side's longer append ends with is not repeated",
            SETUP,
            SETUP.replace("pnpm.", "pnpm. Use nvm."),
            SETUP.replace("pnpm.", "pnpm. Node 22. Use nvm."),
            SETUP.replace("pnpm.", "pnpm. Node 22. Use nvm."),
            (),
        ),
        (
            "the same words changed differently keep both whole versions, never a mix",
            "Run on staging.\n",
            "Run on the staging.\n",
            "Run the tests first.\n",
            "Run on the staging.\nRun the tests first.\n",
            ("words",),
        ),
        (
            "a line emptied on one side and edited on the other keeps both, reported",
            "Intro.\nDeploy now.\nEnd.\n",
            "Intro.\n\nEnd.\n",
            "Intro.\nDeploy later.\nEnd.\n",
            "Intro.\n\nDeploy later.\nEnd.\n",
            ("words",),
        ),
        (
            "a line deleted on one side and edited on the other keeps the edit, reported",
            "Title\nOld line.\n",
            "Title\nNew line.\n",
            "Title\n",
            "Title\nNew line.\n",
            ("lines",),
        ),
        (
            "a blank line deleted on one side and written on the other keeps the text, reported",
            "Title\n\n",
            "Title\n",
            "Title\nAdded line.\n",
            "Title\nAdded line.\n",
            ("lines",),
        ),
        (
            "prose after a code block still merges by words",
            "```\nmake test\n```\nRun the tests on Friday.\n",
            "```\nmake test\n```\nRun the tests on Monday.\n",
            "```\nmake check\n```\nRun all the tests on Friday.\n",
            "```\nmake check\n```\nRun all the tests on Monday.\n",
            (),
        ),
    ],
)
def test_prose_merge_cases(  # noqa: PLR0917
    reason: str, base: str, a: str, b: str, merged: str, levels: tuple[str, ...]
) -> None:
    assert prose(base, a, b) == (merged, levels), reason


def test_a_word_merged_region_comes_back_one_item_per_line() -> None:
    merged = merge_words(
        ["Deploy on Friday.", "Ask ops."],
        ["Deploy on Monday.", "Ask ops."],
        ["Deploy on Friday.", "Ask the lead."],
    )
    assert merged == (("Deploy on Monday.", "Ask the lead."), None)


def fields_both_ways(base: str | None, a: str, b: str) -> tuple[str, list[str]]:
    """The field merge of A (older) and B, the same text whichever side runs it."""
    one = merge_frontmatter(base, a, b, a_time=1, b_time=2, a_first=True)
    two = merge_frontmatter(base, b, a, a_time=2, b_time=1, a_first=False)
    assert one is not None and two is not None
    assert one.text == two.text
    return one.text, [f"{o.kind} {o.key}: {o.detail}" for o in one.outcomes]


@pytest.mark.parametrize(
    ("reason", "base", "a", "b", "merged", "detail"),
    [
        (
            "an item both sides removed stays removed; both additions kept, in order",
            "tags: [a, b, c]\n",
            "tags: [b, c, x]\n",
            "tags: [b, c, y]\n",
            "tags: [b, c, x, y]\n",
            "(added x, y) (removed a)",
        ),
        (
            "each side's removal is honoured",
            "tags: [a, b]\n",
            "tags: [x, b]\n",
            "tags: [a, y]\n",
            "tags: [x, y]\n",
            "(added x, y) (removed a, b)",
        ),
        (
            "a block list whose line merge collides is written afresh, block style",
            "tags:\n  - a\n  - b\n",
            "tags:\n  - b\n  - x\n",
            "tags:\n  - b\n  - y\n",
            "tags:\n- b\n- x\n- y\n",
            "(added x, y) (removed a)",
        ),
        (
            "a list with no base merges as the union, numbers and booleans kept as typed",
            None,
            "tags: [x, 1]\n",
            "tags: [y, true]\n",
            "tags: [x, 1, y, true]\n",
            "(added x, 1, y, true)",
        ),
    ],
)
def test_list_fields_merge_as_sets_and_say_what_changed(  # noqa: PLR0917
    reason: str, base: str | None, a: str, b: str, merged: str, detail: str
) -> None:
    head = "name: n\n"
    text, outcomes = fields_both_ways(None if base is None else head + base, head + a, head + b)
    assert text == head + merged, reason
    assert outcomes == [
        f"field-list-merged tags: both sides changed list `tags`; merged as a set {detail}"
    ]


@pytest.mark.parametrize(
    ("reason", "a", "b", "later"),
    [
        ("a stamp without a zone is UTC", "2026-03-01T09:00:00", "2026-03-01T10:00:00+00:00", 1),
        (
            "the later instant, whatever the zone",
            "2026-03-01T11:00:00+01:00",
            "2026-03-01T09:30:00Z",
            0,
        ),
        (
            "one instant, two spellings: the larger text",
            "2026-03-01T09:00:00Z",
            "2026-03-01T10:00:00+01:00",
            1,
        ),
        ("stamps that are no dates: the larger text", "yesterday", "today", 0),
    ],
)
def test_later_timestamp(reason: str, a: str, b: str, later: int) -> None:
    assert later_timestamp(a, b) == (a, b)[later], reason
    assert later_timestamp(b, a) == (a, b)[later], f"{reason} (other order)"


def test_slug_trims_only_dashes() -> None:
    assert slug("Xenon Setup X") == "xenon-setup-x"
    assert slug("  --Legacy Name!! ") == "legacy-name"


def test_a_nested_block_renders_its_blank_lines_without_indent() -> None:
    block = split_nested("metadata:\n  a: 1\n\n  b: 2\n", "metadata")
    assert block is not None
    assert (block.indent, block.inner) == ("  ", "a: 1\n\nb: 2\n")
    assert block.render(block.inner) == "metadata:\n  a: 1\n\n  b: 2\n"


def test_sides_indenting_metadata_by_three_and_four_keep_the_wider_edit() -> None:
    """The base (no `metadata`) is aligned with the narrower indent, three: against it the
    four-space side changed the indent, so its frame wins, from either side."""
    base = "name: n\ndescription: d\ntype: user\n"
    three = "name: n\ndescription: d\nmetadata:\n   type: user\n"
    four = "name: n\ndescription: d\nmetadata:\n    node_type: memory\n"
    text, outcomes = fields_both_ways(base, three, four)
    assert (text, outcomes) == ("name: n\ndescription: d\nmetadata:\n    node_type: memory\n", [])


HEAD_FIELDS = "name: n\ndescription: d\n"


@pytest.mark.parametrize(
    ("reason", "base", "a", "b", "merged", "details"),
    [
        (
            "trailing comments added on both sides: the older side's first, from either side",
            HEAD_FIELDS,
            HEAD_FIELDS + "# from a\n",
            HEAD_FIELDS + "# from b\n",
            HEAD_FIELDS + "# from a\n# from b\n",
            [],
        ),
        (
            "a trailing comment one side removed stays removed",
            HEAD_FIELDS + "# old note\n",
            HEAD_FIELDS,
            "name: n\ndescription: e\n# old note\n",
            "name: n\ndescription: e\n",
            [],
        ),
        (
            "a list turned into a scalar on one side and extended on the other: a conflict",
            HEAD_FIELDS + "tags: [a]\n",
            HEAD_FIELDS + "tags: none\n",
            HEAD_FIELDS + "tags: [a, b]\n",
            HEAD_FIELDS + "tags: [a, b]\n",
            ["both sides changed `tags`; kept the newer change"],
        ),
        (
            "a mapping turned into a scalar on one side and edited on the other: a conflict",
            HEAD_FIELDS + "metadata:\n  type: user\n",
            HEAD_FIELDS + "metadata: gone\n",
            HEAD_FIELDS + "metadata:\n  type: project\n",
            HEAD_FIELDS + "metadata:\n  type: project\n",
            ["both sides changed `metadata`; kept the newer change"],
        ),
        (
            "both sides set one value, quoted differently: no conflict, the newer spelling",
            HEAD_FIELDS + "type: user\n",
            HEAD_FIELDS + "type: 'project'\n",
            HEAD_FIELDS + 'type: "project"\n',
            HEAD_FIELDS + 'type: "project"\n',
            [],
        ),
        (
            "keys added to `metadata` on both sides: the older side's first, from either side",
            HEAD_FIELDS + "metadata:\n  type: user\n",
            HEAD_FIELDS + "metadata:\n  type: user\n  x: 1\n",
            HEAD_FIELDS + "metadata:\n  type: user\n  y: 2\n",
            HEAD_FIELDS + "metadata:\n  type: user\n  x: 1\n  y: 2\n",
            [],
        ),
    ],
)
def test_field_merge_tails_types_and_nested_order(  # noqa: PLR0917
    reason: str, base: str, a: str, b: str, merged: str, details: list[str]
) -> None:
    text, outcomes = fields_both_ways(base, a, b)
    assert text == merged, reason
    assert [o.split(": ", 1)[1] for o in outcomes] == details, reason
