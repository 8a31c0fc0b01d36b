"""The duplicate decision at its boundaries: survivors of a mutation run (docs/MUTATION.md).

Each case names the rule of `Similarity.is_duplicate` it pins, so a changed constant or a
flipped comparison fails with the reason, not only a wrong count of groups.
"""

from __future__ import annotations

import pytest

from memsync.consolidate.dedupe import Candidate, _complete_linkage, find_duplicates, similarity
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


NOT_DUPLICATE = sim(ratio=0.5)


def linkage(
    scored: dict[tuple[int, int], float],
    cross: dict[tuple[int, int], float | Similarity | None],
    size: int,
) -> tuple[list[tuple[list[int], float]], list[tuple[int, int]]]:
    """`_complete_linkage` over a made-up folder: SCORED pairs found by the search, CROSS pairs
    answered on demand (a ratio: a near duplicate that similar; None: not a duplicate)."""
    asked: list[tuple[int, int]] = []

    def check(a: int, b: int) -> Similarity | None:
        asked.append((a, b))
        found = cross[(a, b)]
        if isinstance(found, Similarity):
            return found
        return NOT_DUPLICATE if found is None else sim(ratio=found)

    ranked = [(-score, a, b) for (a, b), score in scored.items()]
    return _complete_linkage(ranked, size=size, check=check, threshold=T), asked


def test_four_memories_join_when_every_cross_pair_is_a_duplicate() -> None:
    groups, asked = linkage(
        {(0, 1): 0.99, (2, 3): 0.97, (1, 2): 0.9},
        # (0, 2) is a paraphrase: few words in order, most terms shared; it scores its overlap.
        {(0, 2): sim(ratio=0.5, overlap=0.88), (0, 3): 0.95, (1, 3): 0.93},
        size=5,
    )
    # The reported similarity is the least similar pair of the group, a checked cross pair.
    assert groups == [([0, 1, 2, 3], 0.88), ([4], 1.0)]
    # Pairs the search scored are not checked again; cross pairs are asked as (low, high).
    assert sorted(asked) == [(0, 2), (0, 3), (1, 3)]


def test_one_cross_pair_that_is_no_duplicate_keeps_two_groups() -> None:
    groups, asked = linkage(
        {(0, 1): 0.99, (2, 3): 0.97, (1, 2): 0.9},
        {(0, 2): 0.95, (0, 3): None, (1, 3): 0.95},
        size=4,
    )
    assert groups == [([0, 1], 0.99), ([2, 3], 0.97)], "a chain joined past a non-duplicate"
    assert (0, 3) in asked


def test_the_most_similar_pair_joins_first() -> None:
    # 1 is like 0 and more like 2, but 0 and 2 are no duplicates: 1 goes with 2.
    groups, _ = linkage({(0, 1): 0.9, (1, 2): 0.99}, {(0, 2): None}, size=3)
    assert groups == [([0], 1.0), ([1, 2], 0.99)]


@pytest.mark.parametrize(
    ("reason", "scored", "cross"),
    [
        (
            "the first pair's group holds the lowest pair",
            {(0, 1): 0.99, (1, 2): 0.95, (3, 4): 0.93, (2, 3): 0.9},
            {(0, 2): 0.86, (0, 3): 0.9, (0, 4): 0.9, (1, 3): 0.9, (1, 4): 0.9, (2, 4): 0.9},
        ),
        (
            "the second pair's group holds the lowest pair",
            {(3, 4): 0.99, (2, 3): 0.95, (0, 1): 0.93, (1, 2): 0.9},
            {(2, 4): 0.86, (0, 2): 0.9, (0, 3): 0.9, (0, 4): 0.9, (1, 3): 0.9, (1, 4): 0.9},
        ),
    ],
)
def test_joining_two_groups_keeps_the_lower_floor_of_either(
    reason: str, scored: dict[tuple[int, int], float], cross: dict[tuple[int, int], float]
) -> None:
    groups, _ = linkage(scored, cross, size=5)
    assert groups == [([0, 1, 2, 3, 4], 0.86)], reason


def test_reported_similarity_of_exact_and_near_groups() -> None:
    body = "The staging database resets every night at two, so never keep test data there.\n"
    other = "Release trains leave on Tuesdays; the owner of each train signs the notes.\n"
    exact = find_duplicates(
        [
            Candidate("a.md", "project", body),
            Candidate("b.md", "project", body.upper()),
            Candidate("c.md", "project", other),
        ]
    )
    assert [(g.kind, g.members, g.similarity) for g in exact] == [("exact", ("a.md", "b.md"), 1.0)]
    longer = body.replace("there.", "there, ask the data team first.")
    near = find_duplicates(
        [
            Candidate("a.md", "project", body),
            Candidate("b.md", "project", longer),
            Candidate("c.md", "project", other),
        ]
    )
    pair = similarity(body, longer)
    assert [(g.kind, g.members) for g in near] == [("near", ("a.md", "b.md"))]
    # The report shows this number ("near (0.89)"): the pair's ratio or term overlap.
    assert near[0].similarity == pytest.approx(max(pair.ratio, pair.overlap))
    assert T <= near[0].similarity < 1.0


_CLAUSE = (
    "Every deploy of the billing service starts from a clean checkout of the release branch, "
    "runs the full suite, builds the container image, pushes it to the registry, waits for the "
    "canary to report healthy for ten minutes, and only then promotes the image to every region. "
)
# 156 words: long enough for one substituted content word (`shorter // 100`), not two.
LONG = _CLAUSE * 3 + "The on-call engineer watches the dashboards during the rollout."


@pytest.mark.parametrize(
    ("reason", "first", "second", "expected"),
    [
        ("one word swapped in 156 is an edit", LONG, LONG.replace("dashboards", "graphs"), True),
        (
            "two words swapped in 156 are two facts",
            LONG,
            LONG.replace("dashboards", "graphs").replace("on-call engineer", "on-call person"),
            False,
        ),
        (
            "a word swapped for a name is another fact, however long the text",
            LONG,
            LONG.replace("dashboards", "`grafana_board`"),
            False,
        ),
        (
            "a number written out in words is a swapped word, not another number",
            LONG.replace("dashboards", "2 dashboards"),
            LONG.replace("dashboards", "two dashboards"),
            True,
        ),
    ],
)
def test_substitutions_in_a_long_memory(
    reason: str, first: str, second: str, expected: bool
) -> None:
    for a, b in ((first, second), (second, first)):
        assert similarity(a, b).is_duplicate(T) is expected, reason


def test_typos_count_as_matched_words() -> None:
    found = similarity(
        "Enable tracing before you profile the billing service.",
        "Enable tarcing before you profiel the billing service.",
    )
    assert (found.ratio, found.containment, found.conflicts) == (1.0, 1.0, 0), found
