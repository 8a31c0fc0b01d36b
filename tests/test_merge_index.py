"""The MEMORY.md merge: by entry keyed on link target, other lines three-way, no duplicates."""

from __future__ import annotations

import os
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from memsync.merge.index import IndexEnsure, merge_index, retarget
from memsync.merge.memory import FileMerge
from memsync.model.index import parse_index

EXAMPLES = 3000 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 300

BASE = (
    "# Memory index\n\n"
    "- [Testing policy](testing-policy.md) — tests hit a real database\n"
    "- [Deploy freeze](deploy-freeze.md) — no deploys on Fridays\n"
).encode()


def both_ways(
    base: bytes | None, ours: bytes | None, theirs: bytes | None, **kw: object
) -> FileMerge:
    swap = {"ours_time": "theirs_time", "theirs_time": "ours_time"}
    swap |= {"ours_renames": "theirs_renames", "theirs_renames": "ours_renames"}
    swapped = {swap.get(k, k): v for k, v in kw.items()}
    one = merge_index(base, ours, theirs, **kw)  # type: ignore[arg-type]
    two = merge_index(base, theirs, ours, **swapped)  # type: ignore[arg-type]
    assert one.content == two.content
    assert set(one.decisions) == set(two.decisions)
    return one


def lines(result: FileMerge) -> list[str]:
    assert result.content is not None
    return result.content.decode().splitlines()


def test_entries_added_on_both_sides_are_all_kept_once() -> None:
    ours = BASE + "- [Ports](ports.md) — dev ports\n".encode()
    theirs = BASE + "- [Oncall](oncall.md) — on call\n- [Ports](ports.md) — dev ports\n".encode()
    out = lines(both_ways(BASE, ours, theirs, ours_time=1, theirs_time=2))
    assert out[:4] == lines(FileMerge("", BASE))
    assert sorted(out[4:]) == [
        "- [Oncall](oncall.md) — on call",
        "- [Ports](ports.md) — dev ports",
    ]


def test_entry_removed_on_one_side_hook_changed_on_the_other() -> None:
    ours = BASE.replace(
        "- [Deploy freeze](deploy-freeze.md) — no deploys on Fridays\n".encode(), b""
    )
    theirs = BASE.replace(b"tests hit a real database", b"tests use the real DB")
    out = lines(both_ways(BASE, ours, theirs))
    assert out[2:] == ["- [Testing policy](testing-policy.md) — tests use the real DB"]


def test_same_entry_changed_on_both_sides_newer_wins() -> None:
    ours = BASE.replace(b"no deploys on Fridays", b"ours hook")
    theirs = BASE.replace(b"no deploys on Fridays", b"theirs hook")
    result = both_ways(BASE, ours, theirs, ours_time=9, theirs_time=3)
    assert "- [Deploy freeze](deploy-freeze.md) — ours hook" in lines(result)
    assert not any("theirs hook" in line for line in lines(result))
    (decision,) = result.decisions
    assert decision.kind == "index-entry-conflict" and decision.field == "deploy-freeze.md"
    assert decision.lost is not None and "theirs hook" in decision.lost


def test_entry_moved_on_one_side_and_edited_on_the_other() -> None:
    moved = (
        BASE.replace(
            b"- [Testing policy](testing-policy.md) \xe2\x80\x94 tests hit a real database\n", b""
        )
        + "- [Testing policy](testing-policy.md) — tests hit a real database\n".encode()
    )
    edited = BASE.replace(b"tests hit a real database", b"edited")
    out = lines(both_ways(BASE, moved, edited))
    assert out[2:] == [
        "- [Deploy freeze](deploy-freeze.md) — no deploys on Fridays",
        "- [Testing policy](testing-policy.md) — edited",
    ]


def test_prose_lines_merge_three_way() -> None:
    ours = BASE.replace(b"# Memory index\n", b"# Memory index\nIntro from ours.\n")
    theirs = BASE + b"\n## Team\n"
    out = lines(both_ways(BASE, ours, theirs))
    assert out[1] == "Intro from ours." and out[-1] == "## Team"


def test_gone_and_ensure_and_renames() -> None:
    ours = BASE + "- [Ports](ports.md) — ours ports\n".encode()
    theirs = BASE + "- [Ports](ports.md) — theirs ports\n".encode()
    result = merge_index(
        BASE,
        ours,
        theirs,
        ours_time=1,
        theirs_time=2,
        theirs_renames={"ports.md": "ports-2.md"},
        gone={"deploy-freeze.md"},
        ensure=[IndexEnsure("new.md", "- [New](new.md) — n", after=("testing-policy.md",))],
    )
    assert lines(result)[2:] == [
        "- [Testing policy](testing-policy.md) — tests hit a real database",
        "- [New](new.md) — n",
        "- [Ports](ports.md) — ours ports",
        "- [Ports](ports-2.md) — theirs ports",
    ]


def test_subfolder_index_resolves_targets_relative_to_its_folder() -> None:
    base = b"- [A](a.md)\n"
    result = merge_index(
        base, base, base + b"- [B](./b.md)\n", path="team/MEMORY.md", gone={"team/a.md"}
    )
    assert lines(result) == ["- [B](./b.md)"]


def test_delete_versus_modify_keeps_the_index() -> None:
    theirs = BASE + b"- [X](x.md)\n"
    assert both_ways(BASE, None, theirs).content == theirs
    assert both_ways(BASE, None, BASE).content is None


def test_retarget_keeps_the_rest_of_the_line() -> None:
    assert retarget("- [T \\](x)](a.md#top) — h", "b.md") == "- [T \\](x)](b.md) — h"


ENTRY = st.sampled_from([f"- [{c}]({c}.md) — {h}" for c in "abcde" for h in ("one", "two")])
LINE = st.one_of(ENTRY, ENTRY, st.sampled_from(["", "# Index", "## Team", "prose"]))
DOC = st.lists(LINE, max_size=8).map(lambda xs: "".join(x + "\n" for x in xs).encode())


TIME = st.one_of(st.none(), st.integers(0, 2))


@settings(max_examples=EXAMPLES, deadline=None)
@given(DOC, DOC, DOC, TIME, TIME)
def test_index_properties(
    base: bytes, ours: bytes, theirs: bytes, t1: int | None, t2: int | None
) -> None:
    result = both_ways(base, ours, theirs, ours_time=t1, theirs_time=t2)
    assert merge_index(base, ours, ours).content == ours
    assert merge_index(base, base, ours).content == ours
    assert result.content is not None
    targets = Counter(parse_index(result.content).targets)
    # An entry both sides have survives.
    for target in set(parse_index(ours).targets) & set(parse_index(theirs).targets):
        assert targets[target] >= 1
    # Never more copies of an entry than some side had.
    most = Counter(parse_index(ours).targets) | Counter(parse_index(theirs).targets)
    assert all(targets[t] <= most[t] for t in targets)


def test_a_tie_says_both_changed_at_the_same_time_and_how_one_was_kept() -> None:
    """i1: a tie read `kept the same time, tie broken by content` in the hook's line."""
    ours = BASE.replace(b"no deploys on Fridays", b"ours hook")
    theirs = BASE.replace(b"no deploys on Fridays", b"theirs hook")
    (decision,) = both_ways(BASE, ours, theirs, ours_time=5, theirs_time=5).decisions
    assert decision.detail == (
        "both sides changed the index entry for deploy-freeze.md at the same time; kept one by "
        "its text (every machine keeps the same one)"
    )
    (newer,) = both_ways(BASE, ours, theirs, ours_time=9, theirs_time=3).decisions
    assert newer.detail.endswith("deploy-freeze.md; kept the newer change")
