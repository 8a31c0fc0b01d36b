"""The rules the fifteenth blind corpus taught (tests/data/dates/heldout27.json, the d7 pass):
a template's variable, a default, a cron's label, a recurring job's entry and a function's row
name no day; `Today is Thursday` tells the day its line was written; a status in brackets and a
question about a past fact keep their day. Figures in docs/BENCHMARKS.md, the corpus's floor in
test_dates_blind.py."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memsync.consolidate.dates import resolve_relative_dates
from testing import dates_corpus

WRITTEN = date(2026, 3, 24)  # a Tuesday


@pytest.mark.parametrize(
    "text",
    [
        # heldout27's own lines
        "*Last maintained: {{TODAY}}*",
        "- Writes calibration report to trevor-briefings/{yesterday}/calibration.json",
        "- Default: tomorrow at 10 AM (or 10-11 AM for visits)",
        "- **Cron**: Saturday 18:00 UTC (Sunday 02:00 MYT) — dry-run only, no auto-delete",
        "  1. Nightly (11pm): new step `fetch_opening_odds.py` — fetches tomorrow's opening odds",
        "  - `getUserStats()` — role distribution, new users this month",
        "Today the CRM computes an **auction cushion**: `src/scraper/deal.ts` does the math.",
        "**Will's directive**: \"spend some time today on our 'true Price' ideology, claim...",
    ],
)
def test_look_alikes_from_the_fifteenth_blind_corpus_are_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, WRITTEN) == (text, [])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # heldout27: a status in brackets told in the past, a question about a past fact
        (
            "- ✅ A4.3 - Create push notifications **[COMPLETED TODAY]**",
            "**[COMPLETED on 2026-03-24]**",
        ),
        ("[HOLD — regime not confirmed, await tomorrow per Rule 3.1]", "await on 2026-03-25 per"),
        (
            "  2. Did this exist before the menu mirror was added today, or is it new?",
            "was added on 2026-03-24, or",
        ),
        # counter-examples: a word in braces with other words is no variable; a default's
        # owner told in the past, a cron that ran once, a function's row told in the past
        ("Deployed today {see the notes}", "Deployed on 2026-03-24 {see"),
        ("- `getUserStats()` — fixed yesterday, counts new users", "fixed on 2026-03-23, counts"),
        ("- Cron ran Saturday 11 PM and failed", "ran on 2026-03-21 11 PM"),
        ("- Nightly job broke yesterday (11pm run)", "broke on 2026-03-23 (11pm"),
    ],
)
def test_real_dates_next_to_the_fifteenth_corpus_rules_still_convert(
    text: str, expected: str
) -> None:
    new, _ = resolve_relative_dates(text, WRITTEN)
    assert expected in new, new


@pytest.mark.parametrize(
    ("weekday", "day"),
    [("Thursday", "2026-03-19"), ("Saturday", "2026-03-21"), ("Monday", "2026-03-23")],
)
def test_today_is_a_weekday_dates_its_line_by_that_weekday(
    tmp_path: Path, weekday: str, day: str
) -> None:
    # heldout27: a day's note committed on the Sunday after (2026-03-22) and one a day later:
    # `today` is the last such weekday up to a day past the commit, not the commit's day
    committed = "2026-03-22"
    text = f"- Notes: Today is {weekday}; do not create weekly-summary.md"
    case = dates_corpus.Case("p000", committed, committed, text, (("today", (day,)),), "x")
    score = dates_corpus.run([case], tmp_path / "memory")
    assert score.precision == 1.0 and score.recall == 1.0, score.failures


def test_today_is_a_weekday_and_a_date_is_pinned_by_the_date() -> None:
    # counter-example: `today is Wednesday, July 1` names its date; the weekday does not
    # date the line, and the commit's day (the 4th) is no day of it either
    text = "NIFTY weeklies are Tue, today is Wednesday, July 1, so 07-07 is the closest"
    new, _ = resolve_relative_dates(text, date(2026, 7, 4))
    assert "2026-07-04" not in new, new
