"""Inline YAML comments the real client folds into a value (F4).

Claude Code 2.1.330's first stamp of a private memory reads a plain top-level value with an
inline comment (`description: How we deploy  # kept short`) up to the end of the line and
writes it back quoted, comment and all (`description: "How we deploy  # kept short"`); a
nested value loses its comment, a team file keeps it (seen with the real binary: the texts
below are what it wrote). YAML reads the comment as a comment, so the fold looked like an
edit of the value: against a real edit on the other machine it was "both sides changed",
and when the fold was newer the real edit lost.
"""

from __future__ import annotations

import pytest

from memsync.merge.fields import merge_frontmatter, parses_as_mapping
from memsync.merge.memory import merge_memory
from memsync.model.memory import parse_yaml_mapping

BASE = (
    "---\nname: plain\ndescription: How we deploy  # kept short for the index\n"
    "type: project\n---\n\nBody one.\n"
)
# What `claude` wrote after an Edit of the body on the machine that had BASE.
FOLDED = (
    "---\nname: plain\n"
    'description: "How we deploy  # kept short for the index"\n'
    "metadata:\n  node_type: memory\n  type: project\n"
    "  originSessionId: 293901bf-db52-42d0-9b09-5ef9e1e2d73d\n"
    "  modified: 2026-11-27T04:47:17.315Z\n---\n\nBody two.\n"
)


def _description(text: bytes) -> object:
    front = text.decode().split("---\n")[1]
    fields, problem, _, _ = parse_yaml_mapping(front)
    assert problem is None, front
    return fields["description"]


@pytest.mark.parametrize(("fold_time", "edit_time"), [(9, 1), (1, 9)])
def test_a_folded_comment_is_not_an_edit_of_the_value(fold_time: int, edit_time: int) -> None:
    edited = BASE.replace("How we deploy  #", "How we ship  #")
    for ours, theirs, times in (
        (FOLDED, edited, (fold_time, edit_time)),
        (edited, FOLDED, (edit_time, fold_time)),
    ):
        merged = merge_memory(
            "plain.md",
            BASE.encode(),
            ours.encode(),
            theirs.encode(),
            ours_time=times[0],
            theirs_time=times[1],
        )
        assert merged.content is not None
        assert not merged.decisions, merged.decisions  # was: both sides changed `description`
        assert _description(merged.content) == "How we ship"
        assert "Body two." in merged.content.decode()


def test_a_folded_comment_against_a_dropped_one_is_no_conflict() -> None:
    # The other machine's writer dropped the comment: neither changed the value.
    base, folded = BASE.split("---\n")[1], FOLDED.split("---\n")[1]
    dropped = base.replace("  # kept short for the index", "")
    for a, b in ((folded, dropped), (dropped, folded)):
        one = merge_frontmatter(base, a, b, a_time=1, b_time=2, a_first=True)
        assert one is not None and parses_as_mapping(one.text)
        assert not one.outcomes, one.outcomes


def test_a_value_that_only_looks_like_a_fold_is_still_an_edit() -> None:
    # A hash inside a word is no comment: "C# here" is the value, and a change of it counts.
    base = "name: n\ndescription: Use C# here\ntype: project\n"
    edit = "name: n\ndescription: Use F# here\ntype: project\n"
    other = "name: n\ndescription: Use C# there\ntype: project\n"
    merged = merge_frontmatter(base, edit, other, a_time=1, b_time=2, a_first=True)
    assert merged is not None
    assert [o.kind for o in merged.outcomes] == ["field-conflict"]


STAMP = (
    "  originSessionId: d51cd0ee-c026-4495-9453-16b85975417c\n  modified: 2026-11-27T05:08:45Z\n"
)


def _merged_both_ways(base: str, fold: str, edit: str) -> list[bytes]:
    out = []
    for ours, theirs in ((fold, edit), (edit, fold)):
        for times in ((1, 9), (9, 1)):
            merged = merge_memory(
                "t.md",
                base.encode(),
                ours.encode(),
                theirs.encode(),
                ours_time=times[0],
                theirs_time=times[1],
            )
            assert merged.content is not None
            assert not merged.decisions, merged.decisions
            out.append(merged.content)
    return out


def test_a_type_comment_folded_into_the_moved_type_loses_to_a_real_type_change() -> None:
    # The first stamp moves `type` into `metadata` and folds its comment in (real client).
    base = "---\nname: t\ndescription: d\ntype: project  # was feedback\n---\n\nBody one.\n"
    fold = (
        "---\nname: t\ndescription: d\nmetadata:\n  node_type: memory\n"
        '  type: "project  # was feedback"\n' + STAMP + "---\n\nBody two.\n"
    )
    edit = base.replace("type: project  #", "type: feedback  #")
    for content in _merged_both_ways(base, fold, edit):
        front = parse_yaml_mapping(content.decode().split("---\n")[1])[0]
        assert front["metadata"]["type"] == "feedback", content  # type: ignore[index]
        assert "type" not in front


def test_a_name_slugged_with_its_comment_loses_to_a_real_rename() -> None:
    # `name: Legacy Name  # old title` becomes `legacy-name-old-title` (real client).
    base = "---\nname: Legacy Name  # old title\ndescription: d\ntype: project\n---\n\nBody one.\n"
    fold = (
        "---\nname: legacy-name-old-title\ndescription: d\nmetadata:\n  node_type: memory\n"
        "  type: project\n" + STAMP + "---\n\nBody two.\n"
    )
    edit = base.replace("Legacy Name", "Deploy Runbook")
    for content in _merged_both_ways(base, fold, edit):
        front = parse_yaml_mapping(content.decode().split("---\n")[1])[0]
        assert front["name"] == "Deploy Runbook", content
