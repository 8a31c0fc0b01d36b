"""The rules the blind corpus heldout21 taught (tests/data/dates/heldout21-notes.md): a
duration after a verb done again (`rebuilt in 1 month`), a day denied for now (`Not tomorrow.
… Now.`), a weekly slot heading a schedule's line, a page's markup or a list of words holding a
day word, and a `$(date)` placeholder beside it; next to each, a real day that still converts.
Each rule's figures are in docs/BENCHMARKS.md; test_dates_blind.py holds the corpora's floors."""

from __future__ import annotations

from datetime import date

import pytest

from memsync.consolidate.dates import resolve_relative_dates

WRITTEN = date(2026, 3, 24)  # a Tuesday


@pytest.mark.parametrize(
    "text",
    [
        # A duration after a past verb done again: how long it took, not a month ahead.
        "After comparing Mercury to Parachord (Tomahawk rebuilt in 1 month), confirmed they "
        "solve different problems:",
        "The parser was rewritten in 2 weeks.",
    ],
)
def test_a_duration_after_a_verb_done_again_is_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, WRITTEN) == (text, [])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The dashboard will be rebuilt in 2 weeks.", "rebuilt on 2026-04-07."),
        ("We ship the rebuild in 2 weeks.", "the rebuild on 2026-04-07."),
    ],
)
def test_a_period_ahead_after_no_past_verb_still_converts(text: str, expected: str) -> None:
    new, replacements = resolve_relative_dates(text, WRITTEN)
    assert replacements and expected in new, new


@pytest.mark.parametrize(
    "text",
    [
        # A day word denied in favour of now: a rule's emphasis, not a day.
        '- Test immediately after building. Not tomorrow. Not "when it\'s ready." Now.',
        "**Rule:** When something matters, write it to MEMORY.md NOW — not tomorrow.",
    ],
)
def test_a_day_denied_for_now_is_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, WRITTEN) == (text, [])


def test_a_day_denied_for_another_day_still_converts() -> None:
    new, replacements = resolve_relative_dates("Demo moved: not tomorrow, Friday.", WRITTEN)
    assert replacements and "not on 2026-03-25" in new, new


@pytest.mark.parametrize(
    "text",
    [
        # A weekday and a clock heading a line of what happens then, in the present.
        "- Saturday 8 PM ET: Lambda generates draft from Friday close data, saves to S3",
        "- Monday 9am: the bot posts the weekly digest",
    ],
)
def test_a_weekly_slot_heading_a_schedule_line_is_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, WRITTEN) == (text, [])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- Saturday 8 PM: dinner with Bob", "- On 2026-03-28 8 PM: dinner with Bob"),
        ("- Thursday 3pm: call with Dana about the launch", "- On 2026-03-26 3pm: call"),
    ],
)
def test_an_appointment_headed_by_a_weekday_still_converts(text: str, expected: str) -> None:
    new, replacements = resolve_relative_dates(text, WRITTEN)
    assert replacements and new.startswith(expected), new


@pytest.mark.parametrize(
    "text",
    [
        # A page's markup, one item of a list of words, a placeholder for the day's file.
        "<div><strong>Worked:</strong> 140h total this month</div>",
        "- Weather: current + today + weekly forecast (Akron default)",
        "- Sidebar: news + tonight + sports scores",
        "- Working indicators: today, session, temporary, experiment",
        "- Append it to today's memory file at memory/$(date).md",
    ],
)
def test_ui_text_lists_of_words_and_date_placeholders_are_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, WRITTEN) == (text, [])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- Weather: checked today, rain expected", "checked on 2026-03-24, rain"),
        ("- Deploy today + verify tomorrow", "on 2026-03-24 + verify on 2026-03-25"),
        ("- Appended today's notes to memory/2026-03-24.md", "the 2026-03-24 notes"),
    ],
)
def test_a_day_beside_a_list_or_a_file_name_still_converts(text: str, expected: str) -> None:
    new, replacements = resolve_relative_dates(text, WRITTEN)
    assert replacements and expected in new, new


@pytest.mark.parametrize(
    "text",
    [
        "  - checks local governance files, PLAN freshness, and today's memory file presence",
        "Appends a quick entry to today's memory file.",
    ],
)
def test_the_file_each_day_gets_is_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, WRITTEN) == (text, [])


def test_a_day_file_made_on_a_day_still_converts() -> None:
    new, replacements = resolve_relative_dates("- Created today's memory file", WRITTEN)
    assert replacements and "the 2026-03-24 memory file" in new, new


def test_a_clock_abbreviation_after_a_capital_day_word_is_no_title() -> None:
    text = "| Personal Hub | Building | Deploy | Tomorrow EOD |"
    new, replacements = resolve_relative_dates(text, WRITTEN)
    assert replacements and "2026-03-25 EOD |" in new, new
    assert resolve_relative_dates("Watch the Today Show", WRITTEN)[1] == []


@pytest.mark.parametrize(
    "text",
    [
        # A part of a screen named in Title Case, or what a labelled part of it shows.
        '- Entry: Dashboard "📤 Bulk Remind" button (Today\'s Hearings card)',
        "#### B) This Week Focus Card",
        "  - Column 1 (small): Today's NBA Games with team logos",
        "3. **Obsidian Daily Notes** - today's note from vault",
    ],
)
def test_a_screens_part_and_the_days_note_are_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, WRITTEN) == (text, [])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("## Today's Wins", "## The 2026-03-24 Wins"),
        ("**Open for Tomorrow:**", "**Open for 2026-03-25:**"),
        ("**Warm Leads for Tomorrow (In-Person):**", "for 2026-03-25 (In-Person)"),
        ("- Wrote today's note", "the 2026-03-24 note"),
    ],
)
def test_a_heading_in_bold_and_a_note_written_that_day_still_convert(
    text: str, expected: str
) -> None:
    new, replacements = resolve_relative_dates(text, WRITTEN)
    assert replacements and expected in new, new


def test_a_translation_in_brackets_is_left_alone() -> None:
    text = "- **Timeframe selector:** היום (today) | 7 ימים (7 days) | הכל (All)"
    assert resolve_relative_dates(text, WRITTEN) == (text, [])
    assert resolve_relative_dates("Kaffee (today) ok", WRITTEN)[1]  # a Latin word: no gloss


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # One day word and a note after a slash is no row of labels (`Today / Yesterday`).
        ("## Tomorrow / next-step reminder", "2026-03-25 / next-step reminder"),
        # A compound's `recurring-` names a thing: no recurring job's day.
        (
            "- Continued the recurring-template track after yesterday's baseline adoption.",
            "after the 2026-03-23 baseline",
        ),
    ],
)
def test_a_note_after_a_slash_and_a_recurring_compound_still_convert(
    text: str, expected: str
) -> None:
    new, replacements = resolve_relative_dates(text, WRITTEN)
    assert replacements and expected in new, new


def test_a_row_of_labels_and_a_recurring_job_are_still_left_alone() -> None:
    for text in ["Today / Yesterday / 1 week ago", "- Recurring cron: sums yesterday's logs"]:
        assert resolve_relative_dates(text, WRITTEN) == (text, [])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # An italic's closing `_` after the full stop is no identifier's `.attribute`.
        (
            "_Priorities delivered: collect Morrison invoice, lock Pinnacle COI today._",
            "COI on 2026-03-24._",
        ),
        # `overnight` pairs with a day word across a slash as `tomorrow` does.
        ("- Merged by user today/overnight: PR #37 and PR #38.", "2026-03-24/overnight"),
    ],
)
def test_a_day_before_an_italics_end_or_paired_with_overnight_converts(
    text: str, expected: str
) -> None:
    new, replacements = resolve_relative_dates(text, WRITTEN)
    assert replacements and expected in new, new


def test_an_attribute_or_a_file_named_by_a_day_word_is_still_left_alone() -> None:
    for text in ["use today.isoformat()", "see tomorrow.md", "today/weekly"]:
        assert resolve_relative_dates(text, WRITTEN) == (text, [])
