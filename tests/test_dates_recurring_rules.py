"""Rules for false-positive classes that recur across several corpora (d4's pass, nineteenth in
docs/BENCHMARKS.md), not from one corpus's failures: a general statement about any thing of a
kind (`A job missed yesterday is not run today`). Next to each, a real day that still converts.
The corpora's floors are in test_dates_blind.py."""

from __future__ import annotations

from datetime import date

import pytest

from testing import dates_corpus

WRITTEN = date(2026, 3, 24)  # a Tuesday


@pytest.mark.parametrize(
    "text",
    [
        # heldout14 n031: a scheduler's rule about any missed job.
        "- **Catch-up does not replay history.** A job missed yesterday is not run today.",
        # heldout n081: what the filter does with any trending name.
        "- Reduces noise: a name that was a candidate yesterday and is still trending today "
        "shouldn't get re-litigated; only the *exit* condition matters",
        # heldout n010: what any token read off a wallet identifies.
        "**Consequence for pairing:** a tokenId read off a wallet today identifies what occupies",
        # heldout23 n028: a lesson about any tool.
        "- Do not assume a tool works because it worked yesterday.",
    ],
)
def test_a_general_statement_about_any_thing_of_a_kind_is_left_alone(text: str) -> None:
    dates_corpus.assert_unchanged(text, WRITTEN)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # heldout19 p013: one measurement, told in the past.
        (
            "cannot detect that failure.** Both times a measurement misled today, it was",
            "misled on 2026-03-24",
        ),
        # heldout p010: a clock time names one file's moment.
        (
            'A file touched at 16:34 today is not more "current" in content than one touched '
            "last week.",
            "16:34 on 2026-03-24",
        ),
        # A log's past event with a relative clause, and one in the first person.
        ("- Found a bug that was introduced yesterday and is fixed now.", "2026-03-23"),
        ("- Shipped a fix that landed today; it is live.", "2026-03-24"),
        ("- We saw a job that failed yesterday, it is fixed now.", "2026-03-23"),
    ],
)
def test_one_days_event_with_an_indefinite_subject_still_converts(text: str, expected: str) -> None:
    dates_corpus.assert_converts(text, WRITTEN, expected)


@pytest.mark.parametrize(
    "text",
    [
        # heldout10 n022, heldout6 n010: a checklist's step on whichever day's file it is.
        "- [ ] Auto-ingest: Run memory auto-ingest for today's daily log",
        "- [ ] Read yesterday's and today's memory files",
    ],
)
def test_a_days_own_file_in_a_step_is_left_alone(text: str) -> None:
    dates_corpus.assert_unchanged(text, WRITTEN)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # heldout6 p005: the day's file was made that day.
        ("2. Created today's daily log (2026-03-24.md)", "2026-03-24"),
        ("- Read yesterday's and today's memory files and found the bug", "2026-03-23"),
        # heldout14 n035 is one day's digest, but `yesterday's` alone stays a day (a log's).
        ("- Yesterday's daily log ended with 3 alert failures", "2026-03-23"),
    ],
)
def test_a_days_file_told_in_the_past_still_converts(text: str, expected: str) -> None:
    dates_corpus.assert_converts(text, WRITTEN, expected)
