"""The rules the blind corpus heldout22 taught (tests/data/dates/heldout22-notes.md): a
publication's Title-Case name ending in `Today`, a slogan joined by a slash, a trending count,
an unreal condition, code that cannot do something at present, a standing rule's label, a
period counted from another date and a code thing's current name; and two days found again, a
bold date pinning `Today is` and a compact date in a heading's id. Next to each, a real day
that still converts. Each rule's figures are in docs/BENCHMARKS.md; test_dates_blind.py holds
the corpora's floors."""

from __future__ import annotations

from datetime import date

import pytest

from memsync.consolidate.dates import resolve_relative_dates
from testing import dates_corpus

WRITTEN = date(2026, 3, 24)  # a Tuesday


def _unchanged(text: str) -> None:
    dates_corpus.assert_unchanged(text, WRITTEN)


def _converts(text: str, expected: str) -> None:
    dates_corpus.assert_converts(text, WRITTEN, expected)


@pytest.mark.parametrize(
    "text",
    [
        # heldout22 n015, heldout15 n016/n017: a publication's name, not a day.
        "- Free Malaysia Today: 45-day planning horizon report",
        "| health | Medical News Today, The Lancet |",
        "| history | Smithsonian, History Today |",
        "- Sources: USA Today, Reuters",
    ],
)
def test_a_title_case_name_ending_in_today_is_left_alone(text: str) -> None:
    _unchanged(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A bold label or a heading capitalises a day's own section (heldout14 p027, heldout7).
        ("**What Changed Today:**", "**What Changed on 2026-03-24:**"),
        ("## Work Done Today", "2026-03-24"),
        ("- Fixed the Stripe Webhook Today: retries work", "2026-03-24"),
    ],
)
def test_a_label_or_heading_ending_in_today_still_converts(text: str, expected: str) -> None:
    _converts(text, expected)


def test_a_slogan_joined_by_a_slash_is_left_alone() -> None:
    # heldout22 n069: a campaign's tagline.
    _unchanged(
        "- 4 visual assets generated (Tomahawk hero, Youth Day braai, Global Markets Russia "
        "handshake, Order Today/Deliver Tomorrow)"
    )


def test_a_day_pair_joined_by_a_slash_still_converts() -> None:
    _converts("- Deliver the report today/tomorrow to Anna", "2026-03-24")


@pytest.mark.parametrize(
    "text",
    [
        # heldout22 n034/n035, heldout19 n031: GitHub Trending's count for the last day.
        "1. NVIDIA/warp · ⭐7 today · Python framework for GPU-accelerated simulation",
        "4. openai/openai-cookbook · OpenAI API examples and guides — 36 stars today",
    ],
)
def test_a_trending_count_is_left_alone(text: str) -> None:
    _unchanged(text)


def test_a_count_of_work_done_today_still_converts() -> None:
    _converts("- Merged 7 PRs today", "2026-03-24")


def test_an_unreal_condition_is_left_alone() -> None:
    # heldout22 n016: a past form for a day ahead imagines it.
    _unchanged("- Even if we found something tomorrow: 5 to 8 years to get it to production")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We will demo outside, even if it rains tomorrow.", "rains on 2026-03-25"),
        ("Found the leak yesterday; the fix ships tomorrow.", "ships on 2026-03-25"),
        ("Ask if Bob finished the draft, then send it tomorrow.", "send it on 2026-03-25"),
    ],
)
def test_a_real_condition_or_past_report_still_converts(text: str, expected: str) -> None:
    _converts(text, expected)


def test_what_code_cannot_do_at_present_is_left_alone() -> None:
    # heldout22 n024: how things stand, in a plan about code.
    _unchanged("The legacy browser cannot call us today — there is no `CORSMiddleware` anywhere in")


@pytest.mark.parametrize(
    "text",
    [
        # heldout22 n053: where it is found now.
        "| T1-6 | Promote **fold-fix** to a cross-cutting AGENTS.md rule (today only in apply "
        "skill, for large changes) | B-R4 | High |",
        "- The retry flag lives today only in the worker config.",
    ],
)
def test_today_only_in_is_the_present(text: str) -> None:
    _unchanged(text)


def test_a_day_only_in_a_past_report_still_converts() -> None:
    _converts("The bug showed up today only in staging, after we deployed.", "2026-03-24")


def test_what_a_person_cannot_do_today_still_converts() -> None:
    _converts("I cannot make the standup today.", "2026-03-24")


def test_a_standing_rule_under_its_bold_label_is_left_alone() -> None:
    # heldout22 n039: a daily job's rule, whatever day it runs.
    _unchanged(
        "| morning-brief | **ACTIVE** | Cron job configured (6am daily). **Todoist rule**: "
        "Show tasks due today AND past due tasks. |"
    )


def test_a_rule_learned_today_still_converts() -> None:
    _converts("- **New rule**: we decided today to freeze deploys.", "2026-03-24")


def test_a_period_counted_from_another_date_is_left_alone() -> None:
    # heldout22 n065: a year after the birthday's date.
    _unchanged('4. **"Done" on Birthday** → update `due` to same date next year')


def test_next_year_from_the_writing_still_converts() -> None:
    _converts("- Renew the domain next year.", "2027")


def test_a_code_things_current_name_is_left_alone() -> None:
    # heldout22 n054: `today's` + a code span closing its noun phrase: the name it has now.
    _unchanged("- **cheap skill** (rename of today's `outstanding-work-review`) — gather")


def test_the_days_work_on_a_code_thing_still_converts() -> None:
    # heldout10 p021: the code span names what the day's changes touched.
    _converts(
        "- Fix the failing test after today's `context_compressor.py` pruning changes.",
        "2026-03-24",
    )


def test_a_bold_date_pins_today_is() -> None:
    # heldout22 p094: `Today is **2026-06-13**` already says its day.
    text = "Today is **2026-06-13**; assume the state of the art has moved since early"
    new, replacements = resolve_relative_dates(text, date(2026, 6, 19))
    assert "2026-06-19" not in new, new
    assert not replacements or "2026-06-13" in new


def test_a_compact_date_in_a_heading_id_dates_its_section() -> None:
    # heldout22 p033: `c-20260328-2215` names the day of a `Daily Reflect` cycle's file.
    text = (
        "# c-20260328-2215 — Daily Reflect (End-of-Day Digest)\n## Action Item\n"
        "Tomorrow: start with Q207 (streaming monitor) — most deployment-relevant."
    )
    _converts(text, "2026-03-25: start with Q207")


def test_a_daily_heading_without_a_date_stays_a_routine() -> None:
    _unchanged("# Daily Reflect (End-of-Day Digest)\n## Action Item\nTomorrow: start with Q207.")
