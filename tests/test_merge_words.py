"""Word-level merge inside lines both sides changed: unit cases and generated prose edits."""

from __future__ import annotations

import os
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memsync.merge.memory import FileMerge, merge_memory
from memsync.merge.words import merge_words, tokenize
from testing import diffs

EXAMPLES = 2000 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 250
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
MARKERS = ("<<<<<<<", ">>>>>>>", "=======", "|||||||")
HEAD = "---\nname: setup\ndescription: how to set up\nmetadata:\n  type: project\n---\n"


def body(data: bytes | None) -> str:
    assert data is not None
    return data.decode().split("---\n", 2)[-1]


def test_tokens_keep_code_spans_links_and_spacing_intact() -> None:
    text = "run `pnpm install --frozen-lockfile`, see [the docs](https://x.dev/a_(b)) or <https://y.dev>."
    tokens = tokenize(text)
    assert "".join(tokens) == text
    assert "`pnpm install --frozen-lockfile`" in tokens
    assert "[the docs](https://x.dev/a_(b))" in tokens
    assert "<https://y.dev>" in tokens
    assert tokenize("see https://x.dev/path. Then [[ci-runner]]!") == (
        "see", " ", "https://x.dev/path", ".", " ", "Then", " ", "[[ci-runner]]", "!"
    )  # fmt: skip


def test_issue_15_two_edits_of_one_sentence_give_one_sentence() -> None:
    base = (HEAD + "Setup: run `pnpm install`.\nThen start the dev server.\n").encode()
    ours = base.replace(b"`pnpm install`", b"`pnpm install --frozen-lockfile`")
    theirs = base.replace(b"install`.", b"install`. Node 22 is required.")
    for result in (merged(base, ours, theirs, 1, 2), merged(base, theirs, ours, 2, 1)):
        assert body(result.content) == (
            "Setup: run `pnpm install --frozen-lockfile`. Node 22 is required.\n"
            "Then start the dev server.\n"
        )
        assert result.decisions == ()


def test_same_words_changed_differently_keep_both_versions_older_first() -> None:
    base = (HEAD + "Deploy on Friday after the standup.\n").encode()
    ours = base.replace(b"Friday", b"Monday")
    theirs = base.replace(b"Friday", b"Thursday").replace(b"standup", b"standup call")
    one = merged(base, ours, theirs, 5, 9)
    assert one.content == merged(base, theirs, ours, 9, 5).content
    # Each version carries the other side's edit that did combine (" call").
    assert body(one.content) == (
        "Deploy on Monday after the standup call.\nDeploy on Thursday after the standup call.\n"
    )
    [decision] = one.decisions
    assert decision.kind == "body-conflict"
    assert decision.detail.startswith("both sides changed the same words in body line 1")
    newer_first = merged(base, ours, theirs, 9, 5)
    assert body(newer_first.content).startswith("Deploy on Thursday")


def test_a_change_that_holds_the_other_wins_without_a_report() -> None:
    base = (HEAD + "Deploy on Friday.\n").encode()
    ours = base.replace(b"Friday", b"Monday")
    theirs = base.replace(b"Friday", b"Monday morning")
    result = merged(base, ours, theirs, 1, 2)
    assert body(result.content) == "Deploy on Monday morning.\n"
    assert result.decisions == ()


def test_sentences_appended_to_one_line_on_both_sides_are_both_kept_in_it() -> None:
    base = (HEAD + "Use pnpm.\n").encode()
    ours = base.replace(b"pnpm.", b"pnpm. Run the tests first.")
    theirs = base.replace(b"pnpm.", b"pnpm. Node 22 is required.")
    result = merged(base, ours, theirs, 1, 2)
    assert body(result.content) == "Use pnpm. Run the tests first. Node 22 is required.\n"


def test_words_typed_into_one_empty_line_stay_two_lines() -> None:
    base = (HEAD + "a\n\nb\n").encode()
    ours, theirs = base.replace(b"\n\n", b"\nrun\n"), base.replace(b"\n\n", b"\nNode\n")
    result = merged(base, ours, theirs, 1, 2)
    assert body(result.content) == "a\nrun\nNode\nb\n"
    assert [d.kind for d in result.decisions] == ["body-conflict"]


def test_code_blocks_keep_the_line_rule() -> None:
    base = (HEAD + "Build:\n```sh\nmake build\n```\n").encode()
    ours = base.replace(b"make build", b"make build -j4")
    theirs = base.replace(b"make build", b"make all build")
    result = merged(base, ours, theirs, 1, 2)
    assert body(result.content) == "Build:\n```sh\nmake build -j4\nmake all build\n```\n"
    assert "same body line 3" in result.decisions[0].detail


def test_merge_words_reports_only_colliding_words() -> None:
    assert merge_words(["a b c"], ["a X c"], ["a b Y"]) == (("a X Y",), None)
    lines, level = merge_words(["a b c"], ["a X c"], ["a Y c"])
    assert (lines, level) == (("a X c", "a Y c"), "words")


VOCAB = [
    "run", "`pnpm install`", "`pnpm ci`", "[docs](https://example.com/a)", "[[ci-runner]]",
    "Node", "22", "is", "required", "the", "tests", "must", "pass", "before", "merging",
    "**Why:**", "https://example.com/x", "—", "pnpm-lock.yaml", "don't",
]  # fmt: skip
WORD = st.sampled_from(VOCAB)


@st.composite
def sentence(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORD, min_size=1, max_size=7))
    return " ".join(words) + draw(st.sampled_from([".", "", "!", ":"]))


@st.composite
def prose(draw: st.DrawFn) -> str:
    """A memory body: paragraphs of sentences, list items, blank lines, now and then code."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["para", "para", "item", "blank", "code"]))
        if kind == "para":
            lines.append(" ".join(draw(st.lists(sentence(), min_size=1, max_size=3))))
        elif kind == "item":
            lines.append("- " + draw(sentence()))
        elif kind == "blank":
            lines.append("")
        else:
            lines += ["```sh", draw(sentence()), "```"]
    return "\n".join(lines) + "\n"


@st.composite
def edited(draw: st.DrawFn, body: str) -> str:
    """BODY with a few edits inside its lines (words replaced, inserted, deleted, appended)."""
    lines = body.split("\n")
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, max(len(lines) - 2, 0)))
        words = lines[i].split(" ") if lines[i] else []
        op = draw(st.sampled_from(["replace", "insert", "delete", "append", "line"]))
        if op == "replace" and words:
            words[draw(st.integers(0, len(words) - 1))] = draw(WORD)
        elif op == "insert":
            words.insert(draw(st.integers(0, len(words))), draw(WORD))
        elif op == "delete" and words:
            del words[draw(st.integers(0, len(words) - 1))]
        elif op == "append":
            words.append(draw(sentence()))
        elif op == "line":
            lines.insert(i, draw(sentence()))
            continue
        lines[i] = " ".join(words)
    return "\n".join(lines)


@st.composite
def triple(draw: st.DrawFn) -> tuple[bytes, bytes, bytes]:
    base = draw(prose())
    return tuple((HEAD + text).encode() for text in (base, draw(edited(base)), draw(edited(base))))  # type: ignore[return-value]


TIMES = st.one_of(st.none(), st.integers(0, 3))


def words(data: bytes | None) -> Counter[str]:
    return Counter(re.findall(r"\w+", (data or b"").decode().split("---\n", 2)[-1]))


def merged(base: bytes, ours: bytes, theirs: bytes, t1: int | None, t2: int | None) -> FileMerge:
    return merge_memory("m.md", base, ours, theirs, ours_time=t1, theirs_time=t2)


@pytest.mark.parametrize("diff", diffs.DIFFS)
@SETTINGS
@given(triple(), TIMES, TIMES)
def test_prose_merge_is_symmetric(
    diff: str, files: tuple[bytes, bytes, bytes], t1: int | None, t2: int | None
) -> None:
    with diffs.using(diff):
        base, ours, theirs = files
        one, two = merged(base, ours, theirs, t1, t2), merged(base, theirs, ours, t2, t1)
        assert one.content == two.content
        assert set(one.decisions) == set(two.decisions)


@pytest.mark.parametrize("diff", diffs.DIFFS)
@SETTINGS
@given(triple(), TIMES, TIMES)
def test_prose_identities(
    diff: str, files: tuple[bytes, bytes, bytes], t1: int | None, t2: int | None
) -> None:
    with diffs.using(diff):
        base, x, _ = files
        assert merged(base, x, x, t1, t2).content == x
        assert merged(base, base, x, t1, t2).content == x
        assert merged(base, x, base, t1, t2).content == x


@pytest.mark.parametrize("diff", diffs.DIFFS)
@SETTINGS
@given(triple(), TIMES, TIMES)
def test_prose_no_markers_and_no_word_lost(
    diff: str, files: tuple[bytes, bytes, bytes], t1: int | None, t2: int | None
) -> None:
    with diffs.using(diff):
        base, ours, theirs = files
        result = merged(base, ours, theirs, t1, t2)
        assert result.content is not None
        assert not any(marker.encode() in result.content for marker in MARKERS)
        kept = words(result.content)
        for mine, other in ((ours, theirs), (theirs, ours)):
            # A word may go only when the other side deleted (an occurrence of) it.
            for word in set(words(mine)) - set(kept):
                assert words(base)[word] > words(other)[word], word


@st.composite
def anchored_triple(draw: st.DrawFn) -> tuple[bytes, bytes, bytes]:
    """Lines of distinct words; each side edits its own words, an unchanged word between.

    Such edits have one alignment. Without an unchanged word between two sides' edits (or
    with only repeated words as anchors) the diff of a merge result against the base cannot
    tell which words each side changed, as in any diff3, and a re-merge may differ.
    """
    pool = [f"w{i}" for i in range(40)] + [f"`c{i}`" for i in range(5)]
    pool += [f"[l{i}](t{i}.md)" for i in range(5)]
    used = draw(st.lists(st.sampled_from(pool), unique=True, min_size=9, max_size=27))
    rows = [used[i : i + 9] for i in range(0, len(used) - 8, 9)]
    texts = ["".join(" ".join(row) + "\n" for row in rows)]
    for side, positions in (("a", (7, 3)), ("b", (5, 1))):
        words = [list(row) for row in rows]
        fresh = iter(f"{side}{i}" for i in range(20))
        for row in words:
            for at in positions:  # from the end, so earlier positions stay put
                op = draw(st.sampled_from(["keep", "replace", "insert", "delete", "two"]))
                if op == "replace":
                    row[at] = next(fresh)
                elif op == "insert":
                    row.insert(at, next(fresh))
                elif op == "delete":
                    del row[at]
                elif op == "two":
                    row[at : at + 1] = [next(fresh), next(fresh)]
        texts.append("".join(" ".join(row) + "\n" for row in words))
    return tuple((HEAD + text).encode() for text in texts)  # type: ignore[return-value]


@pytest.mark.parametrize("diff", diffs.DIFFS)
@SETTINGS
@given(anchored_triple(), TIMES, TIMES)
def test_prose_remerge_is_idempotent(
    diff: str, files: tuple[bytes, bytes, bytes], t1: int | None, t2: int | None
) -> None:
    with diffs.using(diff):
        base, ours, theirs = files
        result = merged(base, ours, theirs, t1, t2)
        assert result.content is not None
        assert merged(ours, result.content, result.content, t1, t2).content == result.content
        assert result.decisions == ()
        # Merging the result again with either side changes nothing.
        assert merged(base, result.content, ours, t1, t2).content == result.content
        assert merged(base, result.content, theirs, t1, t2).content == result.content
        assert merged(ours, result.content, result.content, t1, t2).content == result.content


def test_a_long_paragraph_re_wrapped_merges_with_a_word_added_elsewhere() -> None:
    """A merge review: a 40 KB memory re-wrapped on one machine and one word added on the
    other took 44 s at 30 KB (253 s at 76 KB), so every hook gave up at its limit."""
    import textwrap

    # 6,000 words drawn from 2,000 (as prose repeats its words; no line repeats another).
    words = [f"w{(n * 7_919) % 2_003}" for n in range(6_000)]
    text = " ".join(words)
    base = "\n".join(textwrap.wrap(text, 80)) + "\n"
    wrapped = "\n".join(textwrap.wrap(text, 100)) + "\n"
    at = base.index(" ", len(base) // 2)
    added = base[:at] + " NEWWORD" + base[at:]
    mine, theirs, other = ((HEAD + t).encode() for t in (base, wrapped, added))
    result = merged(mine, theirs, other, 1, 2)
    merged_words = body(result.content).split()
    assert merged_words == (added.split()), "every word, in order, the new one included"
    assert body(result.content).count("\n") == wrapped.count("\n")  # the re-wrap kept
    assert result.decisions == ()
