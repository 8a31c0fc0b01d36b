"""Properties of the memory merge over generated edits (HYPOTHESIS_PROFILE=thorough: thousands)."""

from __future__ import annotations

import os
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memsync.merge.diff3 import merge3, merge_text
from memsync.merge.fields import parses_as_mapping
from memsync.merge.memory import FileMerge, merge_memory
from memsync.model.memory import split_frontmatter
from testing import diffs

EXAMPLES = 3000 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 300
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
MARKERS = ("<<<<<<<", ">>>>>>>", "=======", "|||||||")

WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta", "", "- item", "**Why:** x", "  indent"])
LINE = st.one_of(WORDS, st.text("abcxyz :-#'\"", max_size=12))
VALUE = st.one_of(
    st.sampled_from(["x", "y", "'quoted: z'", '"dq"', "1", "true", "null", "[a, b]", "[b, c]"]),
    st.lists(st.sampled_from("abcd"), max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
    st.lists(st.sampled_from("abcd"), min_size=1, max_size=3).map(
        lambda xs: "".join(f"\n  - {x}" for x in xs)
    ),
)
KEYS = ["name", "description", "type", "tags", "owner"]


@st.composite
def frontmatter(draw: st.DrawFn) -> str:
    keys = draw(st.lists(st.sampled_from(KEYS), unique=True, max_size=5))
    lines = [f"{key}: {draw(VALUE)}".replace(": \n", ":\n") for key in keys]
    if draw(st.booleans()) and lines:
        lines.insert(draw(st.integers(0, len(lines))), "# a comment")
    return "".join(line + "\n" for line in lines)


@st.composite
def document(draw: st.DrawFn) -> str:
    body = "".join(line + "\n" for line in draw(st.lists(LINE, max_size=8)))
    kind = draw(st.sampled_from(["memory", "memory", "memory", "plain", "broken"]))
    if kind == "plain":
        return body
    if kind == "broken":
        return f"---\nname: [unclosed\n---\n{body}"
    return f"---\n{draw(frontmatter())}---\n{body}"


@st.composite
def edit(draw: st.DrawFn, text: str) -> str:
    """TEXT with a few random line edits (so sides overlap the base and each other)."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "field"]))
        pos = draw(st.integers(0, max(len(lines) - 1, 0)))
        if op == "insert":
            lines.insert(pos, draw(LINE))
        elif op == "delete" and lines:
            del lines[pos]
        elif op == "replace" and lines:
            lines[pos] = draw(LINE)
        elif op == "field" and lines and ":" in lines[pos] and lines[pos] != "---":
            key = lines[pos].split(":", 1)[0]
            lines[pos] = f"{key}: {draw(VALUE)}".replace(": \n", ":\n")
    return "\n".join(lines)


@st.composite
def triple(draw: st.DrawFn) -> tuple[bytes | None, bytes | None, bytes | None]:
    base = draw(st.one_of(st.none(), document()))
    sides: list[bytes | None] = []
    for _ in range(2):
        how = draw(st.sampled_from(["edit", "edit", "edit", "same", "fresh", "deleted"]))
        if base is None or how == "fresh":
            sides.append(draw(document()).encode())
        elif how == "same":
            sides.append(base.encode())
        elif how == "deleted":
            sides.append(None)
        else:
            sides.append(draw(edit(base)).encode())
    return (None if base is None else base.encode(), sides[0], sides[1])


TIMES = st.one_of(st.none(), st.integers(0, 3))


def _texts(result: FileMerge) -> list[str]:
    out = [] if result.content is None else [result.content.decode()]
    return out + [v.decode() for v in result.extra_files.values()]


def _body_words(text: str | None, whole: bool) -> Counter[str]:
    if text is None:
        return Counter()
    return Counter(re.findall(r"\w+", text if whole else split_frontmatter(text)[1]))


def _valid(text: str | None) -> bool:
    if text is None:
        return False
    fm, _, problem = split_frontmatter(text)
    return problem is None and fm is not None and parses_as_mapping(fm)


@pytest.mark.parametrize("diff", diffs.DIFFS)
@SETTINGS
@given(triple(), TIMES, TIMES)
def test_symmetric(
    diff: str, files: tuple[bytes | None, ...], t1: int | None, t2: int | None
) -> None:
    with diffs.using(diff):
        base, ours, theirs = files
        one = merge_memory("m.md", base, ours, theirs, ours_time=t1, theirs_time=t2)
        two = merge_memory("m.md", base, theirs, ours, ours_time=t2, theirs_time=t1)
        assert one.content == two.content
        assert dict(one.extra_files) == dict(two.extra_files)
        assert set(one.decisions) == set(two.decisions)


@pytest.mark.parametrize("diff", diffs.DIFFS)
@SETTINGS
@given(triple(), TIMES, TIMES)
def test_identities(
    diff: str, files: tuple[bytes | None, ...], t1: int | None, t2: int | None
) -> None:
    with diffs.using(diff):
        base, x, _ = files
        assert merge_memory("m.md", base, x, x, ours_time=t1, theirs_time=t2).content == x
        assert merge_memory("m.md", base, base, x, ours_time=t1, theirs_time=t2).content == x
        assert merge_memory("m.md", base, x, base, ours_time=t1, theirs_time=t2).content == x


@pytest.mark.parametrize("diff", diffs.DIFFS)
@SETTINGS
@given(triple(), TIMES, TIMES)
# Found by this test: one side deleted a line break, the other inserted a word beside it, and
# the word merge glued `alpha` and `beta` into `alphabeta`.
@example(
    (
        b"---\nname: [unclosed\n---\n\n",
        b"---\nname: [unclosed\n---\nbeta\n\n",
        b"---\nname: [unclosed\nalpha\n",
    ),
    None,
    None,
)
@example((b"x\nA\n\n", b"x\nA\nbeta\n\n", b"x\nalpha\n"), None, None)
def test_no_markers_and_no_lost_words(
    diff: str, files: tuple[bytes | None, ...], t1: int | None, t2: int | None
) -> None:
    with diffs.using(diff):
        base, ours, theirs = files
        result = merge_memory("m.md", base, ours, theirs, ours_time=t1, theirs_time=t2)
        texts = _texts(result)
        assert not any(marker in text for text in texts for marker in MARKERS)
        dec = [None if x is None else x.decode() for x in files]
        # Frontmatter may lose a field conflict (reported); body words never get lost (lines
        # both sides changed are merged by words, so a line may be combined with the other's).
        whole = not all(t is None or split_frontmatter(t)[0] is not None for t in dec[1:])
        merged: set[str] = set()
        for text in texts:
            merged |= set(_body_words(text, whole))
        base_words = _body_words(dec[0], whole)
        for mine, other in ((dec[1], dec[2]), (dec[2], dec[1])):
            if mine is None:
                continue
            if other is None and dec[0] is not None and result.content is None:
                continue  # deleted on one side, untouched on the other
            # A word may go only when the other side deleted (an occurrence of) it from the base.
            for word in set(_body_words(mine, whole)) - merged:
                assert base_words[word] > _body_words(other, whole)[word], word


@SETTINGS
@given(triple(), TIMES, TIMES)
def test_frontmatter_parses_when_both_sides_did(
    files: tuple[bytes | None, ...], t1: int | None, t2: int | None
) -> None:
    base, ours, theirs = files
    if ours is None or theirs is None or not (_valid(ours.decode()) and _valid(theirs.decode())):
        return
    result = merge_memory("m.md", base, ours, theirs, ours_time=t1, theirs_time=t2)
    for text in _texts(result):
        assert _valid(text), text


SEQ = st.lists(st.integers(0, 5), max_size=10)


@pytest.mark.parametrize("diff", diffs.DIFFS)
@SETTINGS
@given(SEQ, SEQ, SEQ, st.booleans())
def test_merge3_sequences(
    diff: str, base: list[int], a: list[int], b: list[int], a_first: bool
) -> None:
    with diffs.using(diff):
        merged = merge3(base, a, b, a_first=a_first)
        assert merged.items == merge3(base, b, a, a_first=not a_first).items
        assert merge3(base, a, a, a_first=a_first).items == tuple(a)
        assert merge3(base, base, a, a_first=a_first).items == tuple(a)
        for mine, other in ((a, b), (b, a)):
            for item in set(mine) - set(merged.items):
                assert base.count(item) > other.count(item)


def test_a_blank_line_added_at_the_end_survives_a_merge() -> None:
    # Found by the property above: a trailing empty line merged into "no final newline".
    result = merge_memory("m.md", b"---\n---\n", b"---\n\n---\n", b"---")
    assert result.content is not None
    assert result.content.decode().split("\n").count("") >= 1
    assert merge_text("a\nb\n", "a\n\nb\n", "a", a_first=True).text == "a\n\n"
