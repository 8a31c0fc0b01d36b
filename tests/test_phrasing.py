"""How a replacement reads in its sentence (memsync/consolidate/phrasing.py), and the day a
pinned day word tells (evidence.pinned_day): one case per branch, so a mutant of any of them
fails here (docs/MUTATION.md, `dates-sweep` set)."""

from __future__ import annotations

from datetime import date

import pytest

from memsync.consolidate.dates import resolve_relative_dates
from memsync.consolidate.evidence import stated_dates, template_name

RECORDED = date(2026, 4, 23)  # a Thursday


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        # A second phrase joined by `or` reads as the first one does
        ("Due by today or tomorrow", "Due by 2026-04-23 or 2026-04-24"),
        ("Met him yesterday or the day before yesterday", "Met him on 2026-04-22 or on 2026-04-21"),
        # Link text and a parenthesis take the bare date
        ("See [today](notes.md) for details", "See [2026-04-23](notes.md) for details"),
        # After `and`, a subject takes the bare date
        ("Shipped it and today moved the needle", "Shipped it and 2026-04-23 moved the needle"),
        # After a copula a day or a week is a noun, a month an adverb
        ("The deadline is this week", "The deadline is the week of 2026-04-20"),
        ("The review is this month", "The review is in 2026-04"),
        # `later`/`early`/`late` before a week or a weekend: in it
        ("Landing later this week", "Landing later in the week of 2026-04-20"),
        ("Landing early next week", "Landing early in the week of 2026-04-27"),
        ("Back late this weekend", "Back late in the weekend of 2026-04-25"),
        # `in today's` something that is no era is a day
        ("- Decided in today's meeting", "- Decided in the 2026-04-23 meeting"),
        # fresh3: a subject after a clause's opening word, an abbreviation's full stop
        ("Remember what today felt like", "Remember what 2026-04-23 felt like"),
        ("- Check if today is a holiday", "- Check if 2026-04-23 is a holiday"),
        ("Today represents a turning point", "2026-04-23 represents a turning point"),
        ("- Pipeline: 3 deals vs. today", "- Pipeline: 3 deals vs. 2026-04-23"),
        # A sentence opened inside bold after a full stop takes a capital
        ("- Questions queued. **Tomorrow.**", "- Questions queued. **On 2026-04-24.**"),
        ("Met **today** at noon", "Met **on 2026-04-23** at noon"),
        ("- Shipped it because tomorrow is busy", "- Shipped it because 2026-04-24 is busy"),
        # ... and the adverb they still take before anything else
        (
            "- Shipped it because today we had time",
            "- Shipped it because on 2026-04-23 we had time",
        ),
    ],
)
def test_each_phrase_reads_as_its_sentence_needs(text: str, converted: str) -> None:
    assert resolve_relative_dates(text, RECORDED)[0] == converted


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        # The nearer of two dates beside the word pins it: `(Apr 20)`, not `Mar 30 —`
        (
            "- Mar 30 — today (Apr 20) and this morning's scan",
            "- Mar 30 — today (Apr 20) and the 2026-04-20 morning scan",
        ),
        # No calendar day (`Feb 30`): the line keeps its recorded day
        (
            "- today (Feb 30) and this morning's scan",
            "- today (Feb 30) and the 2026-04-23 morning scan",
        ),
    ],
)
def test_a_pinned_words_nearest_real_date_tells_the_lines_day(text: str, converted: str) -> None:
    assert resolve_relative_dates(text, RECORDED)[0] == converted


def test_a_headings_yesterday_or_tonight_beside_its_date_tells_its_day() -> None:
    lines = ["## Retro — YESTERDAY (Apr 22)", "- wrote it today"]
    lines += ["## Launch — TONIGHT (Apr 21)", "- wrote it today"]
    stated = stated_dates(lines, lambda _: RECORDED)
    assert stated(1) == (date(2026, 4, 23), "heading `Retro — YESTERDAY (Apr 22)`")
    assert stated(3) == (date(2026, 4, 21), "heading `Launch — TONIGHT (Apr 21)`")


def test_only_a_file_name_that_is_a_date_placeholder_is_a_template() -> None:
    assert template_name("memory/YYYY-MM-DD.md") and template_name("notes_yyyymmdd.md")
    assert not template_name("templates/YYYY-MM-DD/log.md")  # a folder's name, not the file's
    assert not template_name("memory/2026-03-19.md")


def test_a_snippet_citing_the_log_of_its_own_recorded_day_is_dated_by_it() -> None:
    line = "- shipped tomorrow [confidence=0.6 evidence=memory/2026-04-23.md:4-6]"
    assert stated_dates([line], lambda _: RECORDED)(0) == (
        RECORDED,
        "the log it cites, `2026-04-23.md`",
    )
