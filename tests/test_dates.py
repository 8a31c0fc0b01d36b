"""Relative dates: the labelled corpus, protected Markdown regions, semantics, idempotence."""

from __future__ import annotations

import itertools
from datetime import date
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memsync.consolidate.dates import (
    find_relative_dates,
    parse_number,
    resolve,
    resolve_relative_dates,
)

CORPUS = Path(__file__).parent / "data" / "dates" / "sentences.tsv"
THURSDAY = date(2026, 3, 5)


def _rows() -> list[tuple[str, date, str, str, str]]:
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        ident, source, written, text, exprs, expected, *_ = line.split("\t")
        rows.append((f"{source}-{ident}", date.fromisoformat(written), text, exprs, expected))
    return rows


ROWS = _rows()


def test_corpus_is_large_enough() -> None:
    assert len(ROWS) >= 150
    assert sum(1 for r in ROWS if not r[3]) >= 50
    assert {r[0].split("-")[0] for r in ROWS} >= {"memsync", "duckling", "dateparser", "holdout"}


@pytest.mark.parametrize(("ident", "written", "text", "exprs", "expected"), ROWS)
def test_corpus_sentence(ident: str, written: date, text: str, exprs: str, expected: str) -> None:
    new, replacements = resolve_relative_dates(text, written)
    assert new == expected
    found = "|".join(f"{r.old}={r.value}" for r in replacements)
    assert found == exprs


def test_idempotent_on_corpus() -> None:
    for _, written, text, _, _ in ROWS:
        once, _ = resolve_relative_dates(text, written)
        twice, replacements = resolve_relative_dates(once, date(2030, 1, 1))
        assert twice == once
        assert replacements == []


MARKDOWN = """---
name: deploy notes
description: we deployed yesterday
type: project
updated: yesterday
---
We deployed yesterday.

```bash
git log --since=yesterday
```

    indented code says yesterday

Run `deploy --when tomorrow` or see [the plan](plans/next-week.md) and
https://example.com/today and <https://example.com/tomorrow>.
[ref]: https://example.com/last-week
<!-- reviewed yesterday -->
~~~
tomorrow
~~~
"""


def test_protected_regions_are_left_alone() -> None:
    new, replacements = resolve_relative_dates(MARKDOWN, THURSDAY)
    assert [r.old for r in replacements] == ["yesterday", "yesterday"]
    assert "description: we deployed on 2026-03-04\n" in new
    assert "updated: yesterday\n" in new  # other frontmatter values are not prose
    assert "We deployed on 2026-03-04.\n" in new
    for kept in (
        "git log --since=yesterday",
        "    indented code says yesterday",
        "`deploy --when tomorrow`",
        "(plans/next-week.md)",
        "https://example.com/today",
        "<https://example.com/tomorrow>",
        "[ref]: https://example.com/last-week",
        "<!-- reviewed yesterday -->",
        "~~~\ntomorrow\n~~~",
    ):
        assert kept in new


def test_unclosed_fence_protects_the_rest() -> None:
    text = "Fixed yesterday.\n```\nyesterday\n"
    new, _ = resolve_relative_dates(text, THURSDAY)
    assert new == "Fixed on 2026-03-04.\n```\nyesterday\n"


def test_frontmatter_keys_untouched_and_a_quoted_description_is_no_quotation() -> None:
    text = "---\ntoday: 1\ndescription: 'moved yesterday'\n---\nbody\n"
    assert resolve_relative_dates(text, THURSDAY)[0] == text.replace("yesterday", "on 2026-03-04")
    # YAML quotes a value holding `: ` (and Claude Code's writer does): the quotes are syntax,
    # and MEMORY.md shows the description without them, so its dates are the memory's own
    text = '---\nname: x\ndescription: "Fix: shipped yesterday"\n---\nHe said "see you today"\n'
    new = resolve_relative_dates(text, THURSDAY)[0]
    assert new == text.replace("yesterday", "on 2026-03-04")
    # Escapes, a comment or a block scalar: left as written
    for value in ('"a \\"q\\" yesterday"', '"yesterday" # note', ">-\n  moved yesterday"):
        text = f"---\ndescription: {value}\n---\nbody\n"
        assert resolve_relative_dates(text, THURSDAY)[0] == text


def test_list_item_with_indented_continuation_is_prose() -> None:
    text = "- item one\n\n    continued yesterday\n"
    new, _ = resolve_relative_dates(text, THURSDAY)
    assert "continued on 2026-03-04" in new


def test_per_line_written_dates() -> None:
    text = "Deployed yesterday.\nRolled back yesterday.\n"
    days = {0: date(2026, 1, 10), 1: date(2026, 2, 20)}
    new, replacements = resolve_relative_dates(text, days.__getitem__)
    assert new == "Deployed on 2026-01-09.\nRolled back on 2026-02-19.\n"
    assert [r.line for r in replacements] == [0, 1]
    assert [r.written for r in replacements] == [days[0], days[1]]


def test_a_line_of_unknown_day_is_left_unless_it_tells_its_day() -> None:
    """A shallow clone's old line (WRITTEN None): left, but for a day word pinned by a date
    beside it, which may be no later than the latest day the line can have been written."""
    text = "Next run is today (Apr 20); we shipped yesterday.\nShipped yesterday.\n"
    new, replacements = resolve_relative_dates(text, lambda _: None, lambda _: date(2026, 4, 25))
    assert new == "Next run is today (Apr 20); we shipped on 2026-04-19.\nShipped yesterday.\n"
    assert [(r.line, r.told_by) for r in replacements] == [
        (0, "the line's `today` beside its date")
    ]
    # A day it tells after the latest it can have been written is no evidence.
    assert resolve_relative_dates(text, lambda _: None, lambda _: date(2026, 4, 10)) == (text, [])


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("last Thursday", "2026-02-26"),  # strictly before the written day
        ("next Thursday", "2026-03-12"),  # strictly after
        ("this Thursday", "2026-03-05"),  # same Monday-Sunday week
        ("this Monday", "2026-03-02"),
        ("this Sunday", "2026-03-08"),
        ("Thursday after next", "2026-03-19"),
        ("last week", "2026-W09"),
        ("the week after next", "2026-W12"),
        ("next month", "2026-04"),
        ("last year", "2025"),
        ("13 months ago", "2025-02"),
        ("in 10 months", "2027-01"),
    ],
)
def test_weekday_and_period_semantics(expression: str, value: str) -> None:
    (match,) = find_relative_dates(f"See {expression}.")
    assert resolve(match, THURSDAY)[0] == value


def test_week_rendering_and_new_year() -> None:
    new, reps = resolve_relative_dates("Ship next week.", date(2025, 12, 31))
    assert new == "Ship the week of 2026-01-05."
    assert reps[0].value == "2026-W02"


def test_an_approximate_day_reads_as_a_day_not_an_adverb() -> None:
    # `~1 week from now` became `~on 2026-04-18` (h4, on a real folder): after `~` or `≈`
    # the date stands bare, as after `about`.
    for text, want in (
        ("Revisit ~1 week from now.", "Revisit ~2026-04-18."),
        ("ETA ≈2 days from now", "ETA ≈2026-04-13"),
        ("Revisit about 1 week from now.", "Revisit about 2026-04-18."),
    ):
        assert resolve_relative_dates(text, date(2026, 4, 11))[0] == want


@pytest.mark.parametrize(
    ("text", "number"),
    [("a", 1), ("3", 3), ("seventeen", 17), ("twenty-one", 21), ("ninety nine", 99)],
)
def test_parse_number(text: str, number: int) -> None:
    assert parse_number(text) == number


def test_bare_weekday_tense() -> None:
    assert resolve_relative_dates("It was merged on Monday.", THURSDAY)[0].endswith("2026-03-02.")
    assert resolve_relative_dates("It will merge on Monday.", THURSDAY)[0].endswith("2026-03-09.")
    past_range = "We were offline from Tuesday to Friday."
    assert resolve_relative_dates(past_range, THURSDAY)[0] == (
        "We were offline from 2026-02-24 to 2026-02-27."
    )


_VOCABULARY = (
    "the build was red yesterday we ship next week on Friday in 3 days May I for now weekly"
    " port 8080 last month a second opinion ago `code` today's this morning"
)
_WORDS = st.sampled_from(_VOCABULARY.split(" "))


_EXPRESSIONS = (
    "Friday",
    "last Friday",
    "yesterday",
    "tomorrow morning",
    "this morning",
    "next week",
    "this month",
    "next weekend",
    "in 3 days",
)
_CONNECTORS = (" ", ", ", " and ", " to ", " (", " on ", " in ")


# Found with 5,000 random examples and with every pair of expressions below: a bare weekday
# left alone before another phrase became convertible once that phrase was rewritten
# (`Friday yesterday` -> `Friday on 1999-12-31`, where `on` reads as a day's).
@example(text="last the Friday yesterday", written=date(2000, 1, 1))
@example(
    text="next yesterday Friday `code` red Friday yesterday 8080",
    written=date(2026, 5, 13),
)
@example(text="Friday this month was", written=date(2000, 1, 1))
@example(text="second red week Friday this morning I", written=date(2008, 12, 23))
@example(text="3 a 8080 a Friday this month the in month last", written=date(2059, 8, 6))
@example(text="we Friday next week", written=date(2000, 1, 1))
@settings(max_examples=150, deadline=None)
@given(st.lists(_WORDS, max_size=25).map(" ".join), st.dates(date(2000, 1, 1), date(2099, 12, 31)))
def test_rewriting_is_idempotent(text: str, written: date) -> None:
    once, _ = resolve_relative_dates(text, written)
    assert resolve_relative_dates(once, written)[0] == once


@pytest.mark.parametrize("prefix", ["", "the", "last", "we", "it was", "since"])
def test_rewriting_next_to_another_phrase_is_idempotent(prefix: str) -> None:
    for first, joint, second in itertools.product(_EXPRESSIONS, _CONNECTORS, _EXPRESSIONS):
        text = f"{prefix} {first}{joint}{second} we deployed".strip()
        for written in (THURSDAY, date(2000, 1, 1)):
            once, _ = resolve_relative_dates(text, written)
            assert resolve_relative_dates(once, written)[0] == once, text
