"""The field merge over the client's nested format: metadata key by key, stamps, first stamps."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memsync.merge.fields import merge_frontmatter, parses_as_mapping
from memsync.merge.memory import merge_memory
from memsync.merge.nesting import align_layouts, later_timestamp, slug, split_nested
from memsync.model.memory import memory_type, parse_memory, parse_yaml_mapping

EXAMPLES = 2000 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 200
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def both_ways(
    base: str | None, a: str, b: str, a_time: int | None = 1, b_time: int | None = 2
) -> tuple[str, set[str]]:
    """The merge of A and B, checked to be the same whichever side runs it."""
    one = merge_frontmatter(base, a, b, a_time=a_time, b_time=b_time, a_first=True)
    two = merge_frontmatter(base, b, a, a_time=b_time, b_time=a_time, a_first=False)
    assert one is not None and two is not None
    assert one.text == two.text
    assert {o.key for o in one.outcomes} == {o.key for o in two.outcomes}
    assert parses_as_mapping(one.text), one.text
    return one.text, {f"{o.kind}:{o.key}" for o in one.outcomes}


def values(text: str) -> dict[str, object]:
    fields, problem, _, _ = parse_yaml_mapping(text)
    assert problem is None
    return fields


STAMPED = (
    "name: deploys\n"
    "description: how we deploy\n"
    "metadata:\n"
    "  node_type: memory\n"
    "  type: project\n"
    "  originSessionId: 0c0ce226-8cc6-483f-81e8-1d606d5cee99\n"
    "  modified: 2026-03-01T09:00:00.000Z\n"
)


def test_type_on_one_machine_and_a_modified_bump_on_the_other_keep_both() -> None:
    a = STAMPED.replace("type: project", "type: reference").replace(
        "09:00:00.000Z", "10:00:00.000Z"
    )
    b = STAMPED.replace("09:00:00.000Z", "11:30:00.000Z")
    text, outcomes = both_ways(STAMPED, a, b, a_time=100, b_time=200)
    meta = values(text)["metadata"]
    assert isinstance(meta, dict)
    assert meta["type"] == "reference"  # A's real edit survives B's newer bump
    assert meta["modified"] == "2026-03-01T11:30:00.000Z"  # the later stamp
    assert outcomes == set()  # neither is a conflict


def test_team_layout_with_adjacent_type_and_modified_lines() -> None:
    base = "name: n\ndescription: d\nmetadata:\n  type: project\n  modified: 2026-01-01T00:00:00Z\n"
    a = base.replace("type: project", "type: feedback").replace("01T00", "02T00")
    b = base.replace("01T00", "03T00")
    text, outcomes = both_ways(base, a, b, a_time=5, b_time=9)
    assert text == base.replace("type: project", "type: feedback").replace("01T00", "03T00")
    assert outcomes == set()


def test_top_level_modified_of_team_files_takes_the_later_stamp() -> None:
    base = "name: n\ntype: project\nmodified: 2026-01-01T00:00:00.000Z\n"
    a = base.replace("01T00", "05T00")
    b = base.replace("01T00", "03T00").replace("name: n", "name: m")
    text, outcomes = both_ways(base, a, b, a_time=1, b_time=9)
    assert values(text) == {"name": "m", "type": "project", "modified": "2026-01-05T00:00:00.000Z"}
    assert outcomes == set()


def test_origin_session_keeps_the_base_else_the_smaller() -> None:
    base = "name: n\nmetadata:\n  type: project\n"
    a = base + "  originSessionId: bbbb\n"
    b = base + "  originSessionId: aaaa\n"
    text, outcomes = both_ways(base, a, b)
    assert values(text)["metadata"] == {"type": "project", "originSessionId": "aaaa"}
    assert outcomes == set()
    with_base = base + "  originSessionId: cccc\n"
    text, outcomes = both_ways(with_base, a, b)
    assert values(text)["metadata"] == {"type": "project", "originSessionId": "cccc"}
    assert outcomes == set()


def test_a_real_conflict_inside_metadata_names_the_nested_key() -> None:
    a = STAMPED.replace("type: project", "type: reference")
    b = STAMPED.replace("type: project", "type: feedback")
    text, outcomes = both_ways(STAMPED, a, b, a_time=1, b_time=2)
    assert values(text)["metadata"]["type"] == "feedback"  # type: ignore[index]
    assert outcomes == {"field-conflict:metadata.type"}


OLD = (
    "name: Deploy Notes\n"
    "description: how we deploy\n"
    "type: project\n"
    "# owner of the pipeline\n"
    "owner: ops\n"
)
FIRST_STAMP = (
    "name: deploy-notes\n"
    "description: how we deploy\n"
    "metadata:\n"
    "  node_type: memory\n"
    "  type: project\n"
    "  owner: ops\n"
    "  originSessionId: 5f9cd984-deab-4896-af33-f1948fe62b31\n"
    "  modified: 2026-03-02T08:00:00.000Z\n"
)


@pytest.mark.parametrize(("stamp_time", "edit_time"), [(9, 1), (1, 9)])
def test_the_clients_first_stamp_never_beats_a_real_edit(stamp_time: int, edit_time: int) -> None:
    edit = OLD.replace("type: project", "type: feedback").replace(
        "description: how we deploy", "description: how we deploy, now with canaries"
    )
    edit = edit.replace("name: Deploy Notes", "name: Deploy Runbook")
    text, outcomes = both_ways(OLD, FIRST_STAMP, edit, a_time=stamp_time, b_time=edit_time)
    fields = values(text)
    assert fields["name"] == "Deploy Runbook"  # a slug is formatting, a rename is an edit
    assert fields["description"] == "how we deploy, now with canaries"
    assert memory_type(fields) == ("feedback", ("metadata", "type"))
    assert "type" not in fields  # one `type`, where the client put it
    meta = fields["metadata"]
    assert isinstance(meta, dict)
    assert meta["owner"] == "ops" and meta["node_type"] == "memory"
    assert meta["originSessionId"] == "5f9cd984-deab-4896-af33-f1948fe62b31"
    assert outcomes == set()
    assert "description: how we deploy, now with canaries\n" in text  # the editor's own line


def test_first_stamp_alone_is_taken_whole() -> None:
    text, outcomes = both_ways(OLD, FIRST_STAMP, OLD)
    assert text == FIRST_STAMP and outcomes == set()


def test_align_layouts_moves_keys_only_where_another_version_moved_them() -> None:
    base, stamped, edit = align_layouts([OLD, FIRST_STAMP, OLD.replace("ops", "sre")])
    assert base is not None and edit is not None and stamped == FIRST_STAMP
    assert values(edit)["metadata"] == {"type": "project", "owner": "sre"}
    assert "  # owner of the pipeline\n  owner: sre\n" in edit
    assert align_layouts([None, OLD, OLD]) == [None, OLD, OLD]
    flow = "name: n\nmetadata: {type: project}\ntype: user\nx: 1\n"
    assert align_layouts([flow, FIRST_STAMP, "name: n\nowner: a\n"])[0] == flow


def test_split_nested_refuses_what_is_not_a_plain_block() -> None:
    assert split_nested("metadata: {type: x}\n", "metadata") is None
    assert split_nested("metadata: &m\n  type: x\n", "metadata") is None
    assert split_nested("metadata:\n", "metadata") is None
    block = split_nested("# c\nmetadata: \n    type: x\n\n    y: 1\n", "metadata")
    assert block is not None
    assert (block.head, block.indent, block.inner) == (
        "# c\nmetadata: \n",
        "    ",
        "type: x\n\ny: 1\n",
    )
    assert block.render("type: z\n") == "# c\nmetadata: \n    type: z\n"


def test_helpers() -> None:
    assert slug("Legacy Name") == "legacy-name"
    assert slug("  API -- Keys! ") == "api-keys"
    assert later_timestamp("2026-03-01T10:00:00+02:00", "2026-03-01T09:00:00Z") == (
        "2026-03-01T09:00:00Z"
    )
    assert later_timestamp("2026-03-01", "not a date") == "not a date"


def test_whole_files_from_two_machines_converge_with_both_edits() -> None:
    body = "Deploys go through the pipeline.\n\nRollback with `make rollback`.\n"
    base = f"---\n{STAMPED}---\n\n{body}".encode()
    a = base.replace(b"type: project", b"type: reference").replace(b"T09:00", b"T10:00")
    b = base.replace(b"make rollback", b"make undo").replace(b"T09:00", b"T11:00")
    one = merge_memory("deploys.md", base, a, b, ours_time=100, theirs_time=200)
    two = merge_memory("deploys.md", base, b, a, ours_time=200, theirs_time=100)
    assert one.content == two.content and one.content is not None
    merged = parse_memory(one.content)
    assert merged.type == "reference" and "make undo" in merged.body
    assert merged.modified == "2026-03-01T11:00:00.000Z"
    assert not one.decisions


# --- properties ---

TYPES = st.sampled_from(["user", "feedback", "project", "reference"])
STAMPS = st.sampled_from(
    ["2026-03-01T09:00:00.000Z", "2026-03-02T09:00:00.000Z", "2026-03-01T09:00:00+01:00"]
)
SESSIONS = st.sampled_from(["aaaa", "bbbb", "cccc"])


@st.composite
def nested_frontmatter(draw: st.DrawFn) -> str:
    lines = ["name: n", f"description: {draw(st.sampled_from(['d', 'e', 'use: x']))}"]
    if draw(st.booleans()):
        lines.append(f"type: {draw(TYPES)}")
    meta: list[str] = []
    if draw(st.booleans()):
        meta.append("node_type: memory")
    if draw(st.booleans()):
        meta.append(f"type: {draw(TYPES)}")
    if draw(st.booleans()):
        meta.append(f"originSessionId: {draw(SESSIONS)}")
    if draw(st.booleans()):
        meta.append(f"modified: {draw(STAMPS)}")
    if draw(st.booleans()):
        meta.append(f"tags: [{', '.join(draw(st.lists(st.sampled_from('abc'), max_size=3)))}]")
    if meta:
        indent = draw(st.sampled_from(["  ", "    "]))
        lines.append(draw(st.sampled_from(["metadata:", "metadata: "])))
        lines += [indent + line for line in draw(st.permutations(meta))]
    return "".join(line + "\n" for line in lines)


TIMES = st.one_of(st.none(), st.integers(0, 3))


@SETTINGS
@given(
    st.one_of(st.none(), nested_frontmatter()),
    nested_frontmatter(),
    nested_frontmatter(),
    TIMES,
    TIMES,
)
# Found by random profiles: the base's `type` moved into a `metadata` block created with the
# first side's indent, so whichever side ran the merge decided which side "changed" it.
@example(
    "name: n\ndescription: d\ntype: user\n",
    "name: n\ndescription: d\nmetadata:\n    type: user\n",
    "name: n\ndescription: d\nmetadata:\n  node_type: memory\n",
    None,
    None,
)
@example(
    "name: n\ndescription: d\ntype: user\n",
    "name: n\ndescription: d\nmetadata:\n  tags: []\n",
    "name: n\ndescription: d\nmetadata:\n    type: user\n",
    None,
    None,
)
def test_nested_merge_is_symmetric_and_valid(
    base: str | None, a: str, b: str, ta: int | None, tb: int | None
) -> None:
    both_ways(base, a, b, ta, tb)


@SETTINGS
@given(st.one_of(st.none(), nested_frontmatter()), nested_frontmatter(), TIMES, TIMES)
def test_nested_merge_identities_and_idempotence(
    base: str | None, x: str, ta: int | None, tb: int | None
) -> None:
    same = merge_frontmatter(base, x, x, a_time=ta, b_time=tb, a_first=True)
    assert same is not None and same.text == x and not same.outcomes
    if base is not None:
        for a, b in ((base, x), (x, base)):
            one = merge_frontmatter(base, a, b, a_time=ta, b_time=tb, a_first=True)
            assert one is not None and values(one.text) == values(x)
            again = merge_frontmatter(base, one.text, b, a_time=ta, b_time=tb, a_first=True)
            assert again is not None and values(again.text) == values(one.text)


def test_a_tie_says_both_changed_at_the_same_time_and_how_one_was_kept() -> None:
    """i1: a tie read `both sides changed `description`; kept the same time, tie broken by
    content` in the hook's merge line."""
    base, a, b = ("name: n\ndescription: " + d + "\n" for d in ("base", "day A", "day B"))
    merged = merge_frontmatter(base, a, b, a_time=5, b_time=5, a_first=True)
    assert merged is not None
    (outcome,) = merged.outcomes
    assert outcome.detail == (
        "both sides changed `description` at the same time; kept one by its text (every "
        "machine keeps the same one)"
    )
