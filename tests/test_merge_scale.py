"""Merges of large memories: a re-wrapped 250 KB paragraph, and the diff that makes it fast."""

from __future__ import annotations

import itertools
import os
import random
import textwrap
from collections.abc import Hashable, Sequence
from difflib import SequenceMatcher

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memsync.merge.matching import opcodes
from memsync.merge.memory import merge_memory
from memsync.merge.words import tokenize

EXAMPLES = 3000 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 300
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
HEAD = "---\nname: big\ndescription: big notes\nmetadata:\n  type: project\n---\n\n"
COMMON = "the a of to and in is that for it on with as was be by this are we you not or at"


def rewrapped(size: int) -> tuple[bytes, bytes, bytes, bytes]:
    """(base, ours, theirs, expected): ours re-wraps the paragraph, theirs adds one word.

    Half the words are common ones, half from 2,000 terms: every token repeats, the worst
    case for a diff that looks at each place an item occurs (the review's bug 5).
    """
    rng = random.Random(2)
    words: list[str] = []
    while len(words) * 6 < size:  # a word and its space: 6 characters on average
        words.append(
            rng.choice(COMMON.split()) if rng.random() < 0.5 else f"term{rng.randrange(2000)}"
        )
    words.insert(len(words) // 2, "lighthouse")  # where theirs adds its word
    text = " ".join(words)
    base = HEAD + "\n".join(textwrap.wrap(text, 100)) + "\n"
    ours = HEAD + "\n".join(textwrap.wrap(text, 72)) + "\n"
    theirs = base.replace("lighthouse", "lighthouse EDITED")
    at = ours.index("lighthouse") + len("lighthouse ")  # after the space or line break
    expected = ours[:at] + "EDITED " + ours[at:]
    return base.encode(), ours.encode(), theirs.encode(), expected.encode()


@pytest.mark.parametrize("size", [40_000, 245_000])
def test_a_large_rewrapped_memory_merges_with_the_other_sides_word(size: int) -> None:
    # Review bug 5: difflib over every token took minutes here, past every hook's deadline.
    base, ours, theirs, expected = rewrapped(size)
    assert len(base) < 250_000  # the largest memory memsync syncs
    one = merge_memory("big.md", base, ours, theirs, ours_time=1, theirs_time=2)
    two = merge_memory("big.md", base, theirs, ours, ours_time=2, theirs_time=1)
    assert one.content == two.content == expected
    assert one.decisions == two.decisions == ()


def apply(
    a: Sequence[Hashable], b: Sequence[Hashable], ops: list[tuple[str, int, int, int, int]]
) -> list[Hashable]:
    """B rebuilt from A and OPS, checking that the opcodes tile both sequences."""
    out: list[Hashable] = []
    i = j = 0
    tags = [op[0] for op in ops]
    assert ("equal", "equal") not in itertools.pairwise(tags)  # as difflib: joined
    for tag, i1, i2, j1, j2 in ops:
        assert (i1, j1) == (i, j)
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2]
            out += a[i1:i2]
        else:
            assert (
                tag == {(1, 1): "replace", (1, 0): "delete", (0, 1): "insert"}[(i2 > i1, j2 > j1)]
            )
            out += b[j1:j2]
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))
    return out


# Small alphabets: items repeat, so unique single items are rare and longer runs anchor.
SEQ = st.lists(st.integers(0, 3) | st.integers(0, 40), max_size=120)


# Tokens as the word merge sees them: words and the white space between (blank items).
TOKENS = st.lists(st.sampled_from(["the", "a", "log", "ok", " ", "\n", "  "]), max_size=120)


@SETTINGS
@given(st.tuples(SEQ, SEQ) | st.tuples(TOKENS, TOKENS), st.sampled_from([0, 10, 200]))
def test_the_anchored_diff_turns_one_sequence_into_the_other(
    pair: tuple[list[Hashable], list[Hashable]], budget: int
) -> None:
    a, b = pair
    assert apply(a, b, opcodes(a, b, budget)) == b
    assert opcodes(a, tuple(b), budget) == opcodes(a, b, budget)  # callers mix the two


@SETTINGS
@given(SEQ, SEQ)
def test_the_diff_is_difflibs_within_the_budget(a: list[int], b: list[int]) -> None:
    expected = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    assert opcodes(a, b, budget=len(a) * len(b)) == expected


@SETTINGS
@given(SEQ, SEQ, st.lists(st.integers(100, 140), min_size=1, max_size=30))
def test_the_anchored_diff_keeps_what_both_share_around_an_edit(
    head: list[int], tail: list[int], edit: list[int]
) -> None:
    # One side's one edit between common runs: only the edit is a change, however repetitive.
    a, b = head + tail, head + edit + tail
    changed = [op for op in opcodes(a, b, budget=0) if op[0] != "equal"]
    assert sum(j2 - j1 for _, _, _, j1, j2 in changed) == len(edit)


def test_a_rewrap_of_repeating_text_matches_every_word_where_it_is() -> None:
    # Three copies of one 600-word passage, wrapped at 80 and at 100 columns: no run of
    # tokens is unique on both sides but where the line breaks happen to agree, and anchoring
    # on those matched the second copy of one side with the first of the other, which put a
    # word the other side added into the wrong copy. Words are matched before white space.
    passage = [f"w{(n * 7_919) % 601}" for n in range(600)]
    text = " ".join(passage * 3)
    a = list(tokenize("\n".join(textwrap.wrap(text, 80))))
    b = list(tokenize("\n".join(textwrap.wrap(text, 100))))
    ops = opcodes(a, b, budget=0)
    assert apply(a, b, ops) == b
    for tag, i1, i2, j1, j2 in ops:
        assert tag == "equal" or all(t.isspace() for t in (*a[i1:i2], *b[j1:j2])), (tag, i1)


def test_a_word_added_at_a_line_end_stays_an_insertion_before_the_break() -> None:
    # The other side of a re-wrap replaces that line break by a space: an insertion beside
    # the break merges, a replacement of it would collide (both versions kept).
    a = tokenize("alpha beta\ngamma delta")
    b = tokenize("alpha beta NEW\ngamma delta")
    assert [op for op in opcodes(a, b, budget=0) if op[0] != "equal"] == [("insert", 3, 3, 3, 5)]


def test_words_that_match_nowhere_are_one_replacement() -> None:
    # No word is unique on either side and difflib's work over them is past the budget:
    # a coarse diff (one replacement), never a wrong one, and never minutes of difflib.
    a = ["x", " ", "y", " "] * 50
    b = ["y", " ", "x", " "] * 50
    assert opcodes(a, b, budget=0) == [("replace", 0, 200, 0, 200)]


def test_within_the_budget_difflib_runs_without_its_popularity_heuristic() -> None:
    # autojunk would make the diff of one memory depend on its length (200 items and up).
    rng = random.Random(1)
    while True:
        a = [
            rng.choice("ab") if rng.random() < 0.05 else str(rng.randrange(400)) for _ in range(210)
        ]
        b = list(a)
        for _ in range(5):
            b.insert(rng.randrange(len(b)), "a")
        junked = SequenceMatcher(None, a, b, autojunk=True).get_opcodes()
        if junked != SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            break
    assert opcodes(a, b) == SequenceMatcher(None, a, b, autojunk=False).get_opcodes() != junked
