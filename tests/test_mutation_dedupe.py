"""The duplicate decision at its boundaries: survivors of a mutation run (docs/MUTATION.md).

Each case names the rule of `Similarity.is_duplicate` it pins, so a changed constant or a
flipped comparison fails with the reason, not only a wrong count of groups.
"""

from __future__ import annotations

import pytest

from memsync.consolidate.dedupe import similarity
from memsync.consolidate.likeness import PARAPHRASE, SWAP_RATIO, Similarity

T = 0.85  # DEFAULT_THRESHOLD


def sim(**fields: float) -> Similarity:
    """A Similarity of two unrelated 10-word texts, with FIELDS changed."""
    base: dict[str, float] = {"ratio": 0.0, "containment": 0.0, "conflicts": 0}
    base |= {"number_conflicts": 0, "shorter": 10, "longer": 10, **fields}
    return Similarity(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("reason", "case", "threshold", "expected"),
    [
        ("a ratio exactly at the threshold is a near duplicate", sim(ratio=T), T, True),
        ("a ratio just under the threshold is not", sim(ratio=T - 0.01), T, False),
        ("contained at exactly 95% counts", sim(containment=0.95, shorter=10, longer=20), T, True),
        ("contained at 94% does not", sim(containment=0.94, shorter=10, longer=20), T, False),
        ("the container may be exactly twice as long", sim(containment=1.0, longer=20), T, True),
        ("not more than twice as long", sim(containment=1.0, shorter=10, longer=21), T, False),
        (
            "a long text without containment is no duplicate",
            sim(containment=0.5, shorter=10, longer=15),
            T,
            False,
        ),
        (
            "one swapped word per 100 words is an edit",
            sim(ratio=0.99, conflicts=1, shorter=100, longer=100),
            T,
            True,
        ),
        (
            "one swapped word in 99 words is another fact",
            sim(ratio=0.99, conflicts=1, shorter=99, longer=99),
            T,
            False,
        ),
        (
            "the same text with a changed name is a look-alike",
            sim(ratio=0.9, number_conflicts=1, overlap=1.0),
            T,
            False,
        ),
        (
            "a ratio exactly at 0.7 with a change is a look-alike, not a rewording",
            sim(ratio=0.7, conflicts=1, overlap=1.0),
            T,
            False,
        ),
        ("a paraphrase at exactly the overlap bar", sim(ratio=0.3, overlap=PARAPHRASE), T, True),
        ("a paraphrase under the bar", sim(ratio=0.3, overlap=PARAPHRASE - 0.01), T, False),
        (
            "a strict threshold raises the paraphrase bar (threshold - 0.25)",
            sim(ratio=0.3, overlap=0.7),
            1.0,
            False,
        ),
        (
            "swapped names in an aligned rewording ask 0.1 more overlap",
            sim(ratio=SWAP_RATIO, number_conflicts=1, overlap=PARAPHRASE + 0.05),
            T,
            False,
        ),
        (
            "swapped names in an unaligned rewording ask no more",
            sim(ratio=SWAP_RATIO - 0.01, number_conflicts=1, overlap=PARAPHRASE + 0.05),
            T,
            True,
        ),
        (
            "swapped names with overlap above the raised bar are a rewording",
            sim(ratio=SWAP_RATIO, number_conflicts=1, overlap=PARAPHRASE + 0.1),
            T,
            True,
        ),
        ("too short to tell a rewording", sim(ratio=0.3, overlap=1.0, shorter=5), T, False),
        ("facts that differ are never one memory", sim(ratio=1.0, facts_differ=True), T, False),
        ("above 1 only identical memories merge", sim(ratio=1.0), 1.01, False),
        ("far above 1 neither", sim(ratio=1.0, containment=1.0), 1.5, False),
        ("a threshold of exactly 1 still merges identical texts", sim(ratio=1.0), 1.0, True),
        ("an empty body is no duplicate", sim(ratio=1.0, shorter=0), T, False),
        (
            "six words are enough to judge a rewording",
            sim(ratio=0.3, overlap=1.0, shorter=6),
            T,
            True,
        ),
    ],
)
def test_is_duplicate_boundaries(
    reason: str, case: Similarity, threshold: float, expected: bool
) -> None:
    assert case.is_duplicate(threshold) is expected, reason


def test_a_text_inside_one_twice_its_length_is_a_duplicate() -> None:
    short = "Run the linter before every commit on this repository."
    assert similarity(short, short + " Then run the tests.").is_duplicate(T)
    longer = short + " " + " ".join(f"Extra clause number {w}." for w in "abcdefgh")
    found = similarity(short, longer)
    assert found.longer > 2 * found.shorter and not found.is_duplicate(T), found


PLAIN = "Deploys go out on Fridays after the review.\nAlways squash the branch when merging."


@pytest.mark.parametrize(
    "ruled_out",
    [
        "Deploys go out on Fridays after review.\nWe never squash the branch, merge it.",
        # Found by the mutation run: `never` in backticks was no negation, so the two
        # opposite rules merged into one memory (fixed in likeness._SHORT_NEGATIONS).
        "Deploys go out on Fridays after review.\nWe `never` squash the branch, merge it.",
        "Deploys go out on Fridays after review.\nWe `never squash` the branch, merge it.",
    ],
)
def test_a_rule_and_its_negation_stay_two_memories(ruled_out: str) -> None:
    found = similarity(PLAIN, ruled_out)
    assert not found.is_duplicate(T), f"a flipped rule was merged: {found}"
    assert found.number_conflicts or found.facts_differ, "the negation was not seen"
