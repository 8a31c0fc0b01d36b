"""Rules found by sweeping consolidation over every mirrored public memory folder (the
repositories behind tests/data/dates, about 2,600 rewrites, read by hand and by pattern):
what a line says about when it was written, and rewrites that would not read as English."""

from __future__ import annotations

from datetime import date

import pytest

from memsync.consolidate.dates import convertible_dates, resolve_relative_dates
from memsync.consolidate.evidence import stated_dates
from memsync.consolidate.grammar import find_relative_dates

RECORDED = date(2026, 4, 23)


@pytest.mark.parametrize(
    ("line", "day"),
    [
        # A chat log's timestamp opens with its weekday (openclaw session dump)
        ("[Sun 2026-04-19 22:12 CDT] We can work on this tomorrow", date(2026, 4, 19)),
        ("- Tue 2026-04-21 review tomorrow", date(2026, 4, 21)),
        ("- Monday, March 23 - shipped, deploy tomorrow", date(2026, 3, 23)),
        # A colon after the day ends the date; `9:30` is a time, no day
        ("- March 23: shipped it, deploy tomorrow", date(2026, 3, 23)),
        ("## Monday, March 23: standup", date(2026, 3, 23)),
        # Indented items and labels still open with their day
        ("  - 2026-04-19 shipped, deploy tomorrow", date(2026, 4, 19)),
        ("  2026-04-19: shipped, deploy tomorrow", date(2026, 4, 19)),
        ("2026-04-19 shipped, deploy tomorrow", date(2026, 4, 19)),
    ],
)
def test_a_line_opening_with_a_weekday_and_a_date_is_dated_by_it(line: str, day: date) -> None:
    assert stated_dates([line], lambda _: RECORDED)(0) == (day, "the date the line starts with")


def test_a_wrapped_paragraphs_line_is_not_dated_by_the_date_it_opens_with() -> None:
    """A wrapped paragraph's next line opens with a date its sentence names."""
    lines = [
        "   2026-07-24 and **still uncorrected today, a month later.** Not a legal issue;",
        "  2026-05-01 morning after today's three commits closed all known",
    ]
    stated = stated_dates(lines, lambda _: date(2026, 8, 22))
    assert stated(0) is None and stated(1) is None


@pytest.mark.parametrize(
    "line",
    [
        "- March 9:30 call tomorrow",
        "Monday we shipped the 2026-04-19 builds",  # a weekday, then words: no timestamp
    ],
)
def test_a_clock_time_or_a_later_date_is_not_the_lines_date(line: str) -> None:
    assert stated_dates([line], lambda _: RECORDED)(0) is None


@pytest.mark.parametrize(
    "text",
    [
        # An assistant's sign-off: `your on 2026-04-23`
        "Alright, I'll let you get on with your Thursday.",
        "We cancelled our Friday.",
        "Their Monday call moved.",
        # The day the line was written, named: `since it's on the morning of 2026-06-07`
        "Let me do a quick round of proactive checks since it's Sunday morning.",
        "It is Sunday morning, checks ran.",
    ],
)
def test_a_weekday_after_a_possessive_or_it_is_is_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, RECORDED) == (text, [])


def test_a_weekday_told_in_the_past_after_it_was_still_converts() -> None:
    text = "It was Friday night when it broke; we met on Monday."
    converted = "It was on the night of 2026-04-17 when it broke; we met on 2026-04-20."
    assert resolve_relative_dates(text, RECORDED)[0] == converted


@pytest.mark.parametrize(
    "text",
    [
        # OpenClaw's dreaming snippets, copied from other files and transcripts
        "- Candidate: User: We talked about that yesterday. Please tell me you didn't forget.",
        "- Candidate: memory/2026-04-04.md: Felt rough after yesterday's party; woke up late.",
        # A session dump: a speaker's turn runs to the next heading
        "## Conversation Summary\n\nuser: Sender (untrusted metadata):\n\n"
        "[Sun 2026-04-19 22:12 CDT] We can work on this tomorrow....I am headed to bed.",
        "assistant:\n\nNoted. I'll ask it nicely tomorrow.\n\nStill on it today.",
        "**Assistant:** Done. One unread email in the inbox today.",
        # A number's tail: `2,in 1626-02`
        "Plato wrote this 2,400 years ago.",
    ],
)
def test_quoted_turns_and_a_numbers_tail_are_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, RECORDED) == (text, [])


def test_the_memorys_own_lines_after_a_transcript_still_convert() -> None:
    text = "assistant:\n\nNoted.\n\n## Notes\n\n- User: wants the deploy tomorrow\n"
    text += "- Met 2 weeks ago"
    converted, changes = resolve_relative_dates(text, RECORDED)
    assert [c.new for c in changes] == ["on 2026-04-24", "on 2026-04-09"]
    assert converted.endswith("- User: wants the deploy on 2026-04-24\n- Met on 2026-04-09")


@pytest.mark.parametrize(
    "text",
    [
        # What the sweep's reviewers found rewritten that names no day from the writing
        "**Familiar**: Today is Friday, May 1, 2026.",  # the line says which day it is
        "Today: 2026-03-24",  # was `On 2026-04-23: 2026-03-24`
        "**Today:** Mar 24 — shipped",
        "   - Co-authored-by Friday + Wanda",  # a commit trailer's name
        "- **x402 v2:** 100M+ payments in 6 months. Modular SDK.",  # a count over a period
        "No new content from Dale in 4 days. Nothing to promote or log.",  # none in a period
        "- **Timeline**: Invitation expires in 30 days from email date",  # counted from another day
        "- Added DIME learnings step to Tuesday 10 AM YouTube Content Rating cron",
        "| 5 | `memory-lint` | `0 6 * * 1` (Monday 6am) | haiku-4-6 |",  # a cron slot
        "- memory-lint `0 6 * * 1` (Monday 6am)",  # the same, outside a table
        "   - Credibom: `from:credibom subject:fatura` (arrives ~3rd of next month)",
        "- Dashboard overview with stats (today's bookings, weekly, monthly revenue)",
        "- Q: All good Hows the memory this morning after yesterday ...",
        "  A: Let me look for those files we created yesterday.",
        "**You**: Maybe a thousand? Join chime today.",
    ],
)
def test_look_alikes_from_the_sweep_are_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, RECORDED) == (text, [])


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        ("- **5 posts selected** — consistent with yesterday", "consistent with 2026-04-22"),
        ("We ship in 3 days.", "We ship on 2026-04-26."),
        ("Ship it in 2 weeks from today.", "Ship it on 2026-05-07."),
        ("Cron failed on Tuesday.", "Cron failed on 2026-04-21."),
        # A cron named in another cell, or one that ran: the day is the event's
        ("| Newsletter | ✅ Cron Set | Test Monday 09:00 |", "Test on 2026-04-27 09:00"),
        ("- YouTube catalog cron ran successfully Saturday 11 PM", "on 2026-04-18 11 PM"),
        ("Call Bob Tuesday 10 AM.", "Call Bob on 2026-04-28 10 AM."),
        ("Revenue (today's bookings) is up.", "Revenue (the 2026-04-23 bookings) is up."),
        ("Today is the launch, May 1 is the recap.", "2026-04-23 is the launch"),
    ],
)
def test_dates_beside_the_sweep_rules_still_convert(text: str, converted: str) -> None:
    assert converted in resolve_relative_dates(text, RECORDED)[0]


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        ("- Thursday 16:00 sync happening NOW.", "- On 2026-04-23 16:00 sync happening NOW."),
        ("- SKIPPED (Thursday 05:12 MDT — outside hours)", "- SKIPPED (2026-04-23 05:12 MDT"),
        ("**By end of Thursday:**", "**By end of 2026-04-23:**"),
        ("It shipped on Thursday.", "It shipped on 2026-04-23."),
        ("Ship it Friday.", "Ship it on 2026-04-24."),  # another weekday still lies ahead
    ],
)
def test_a_weekday_named_on_that_weekday_is_that_day_either_way(text: str, converted: str) -> None:
    assert resolve_relative_dates(text, RECORDED)[0].startswith(converted)


def test_a_weekday_said_to_be_a_weekday_is_no_day() -> None:
    text = "Monday is a weekday — Maximus should have run this morning."
    assert [c.old for c in resolve_relative_dates(text, RECORDED)[1]] == ["this morning"]


@pytest.mark.parametrize(
    "text",
    [
        # A fresh sweep's reviews: periods a view, a score or a board names side by side
        "- **Cost tracking** - Today, week, projected monthly",
        "- Dashboard: Today + 14-day graph",
        "3. **Recency:** files score higher (today +0.2, this week +0.1, this month +0.05)",
        "- [x] StanOps board reviewed (56 cards: 28 Done, 2 In Progress, 18 This Week, 8 Backlog)",
        # A template is every day's, even kept inside a dated day
        "# Daily Memory - 2026-03-05\n\n## Morning Report Template\n"
        "Every morning, send Alfredo a report covering:\n1. Posts published yesterday per account",
    ],
)
def test_named_periods_and_templates_in_a_dated_day_are_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, RECORDED) == (text, [])


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        ("- Today's pnl=$0, week pnl=$40.25 — no caps.", "- The 2026-04-23 pnl=$0, week"),
        ("Shipped today, deploying this week.", "Shipped on 2026-04-23, deploying the week"),
        ("Done today, next week the rest.", "Done on 2026-04-23, the week of 2026-04-27"),
        ("# 2026-03-05\n## Rules learned\n- Deploys happen today", "happen on 2026-04-23"),
    ],
)
def test_days_beside_named_periods_still_convert(text: str, converted: str) -> None:
    assert converted in resolve_relative_dates(text, RECORDED)[0]


def test_a_dated_label_line_dates_the_paragraph_under_it() -> None:
    lines = ["March 27th, 2026 - Personal Research Sprint:", "", "Today, I focused on X."]
    stated = stated_dates(lines, lambda _: date(2026, 3, 31))
    assert stated(2) == (date(2026, 3, 27), "heading `March 27th, 2026 - Personal Research Sprint`")
    # A sentence that ends in a colon after a date is no label
    sentence = ["Note: see March 27th, 2026:", "shipped today"]
    assert stated_dates(sentence, lambda _: RECORDED)(1) is None


def test_last_years_date_a_few_days_before_the_commit_is_this_years() -> None:
    """Agents write `2025-02-06` in February 2026 (a model's sense of the year lags)."""
    lines = ["# 2025-02-06 Memory Log", "- ship tomorrow", "# 2025-01-01 Old notes", "- done"]
    stated = stated_dates(lines, lambda _: date(2026, 2, 7))
    assert stated(1) == (date(2026, 2, 6), "heading `2025-02-06 Memory Log`")
    assert stated(3) == (date(2025, 1, 1), "heading `2025-01-01 Old notes`")  # not a slip


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        ("## TODAY'S FOCUS AREAS", "## The 2026-04-23 FOCUS AREAS"),  # was `on 2026-…'S`
        ("Today felt like a breakthrough.", "2026-04-23 felt like a breakthrough."),
        ("Small steps, but today moved the needle.", "but 2026-04-23 moved the needle."),
        ("Shipped it and today we rest.", "and on 2026-04-23 we rest."),
        ("Today March 24 we shipped", "Today March 24 we shipped"),  # the date says the day
        ("Arriving tomorrow (Feb 2nd)", "Arriving tomorrow (Feb 2nd)"),
    ],
)
def test_subjects_possessives_and_dates_next_to_the_phrase(text: str, converted: str) -> None:
    assert converted in resolve_relative_dates(text, RECORDED)[0]


def test_a_count_after_the_label_is_no_date_beside_it() -> None:
    text = "- Signals today: 5/6 filed (#89-93). 4 approved."
    converted = "- Signals on 2026-04-23: 5/6 filed (#89-93). 4 approved."
    assert resolve_relative_dates(text, RECORDED)[0] == converted


@pytest.mark.parametrize(
    "text",
    [
        "| 🌙 Evening | Mon-Fri 20:00 | `0 12 * * 1-5` | HK close + US tonight setup |",
        "**andrew:** Going well, I will send you some images over later today.",
    ],
)
def test_a_schedule_row_and_a_named_speakers_turn_are_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, RECORDED) == (text, [])


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        # A cron expression named in a line of prose is no schedule of the line's days
        (
            "- **Brief landed under recurring-cron** (`0 6 * * *`); today counts as day 1.",
            "; 2026-04-23 counts as day 1.",
        ),
        ("**Status:** shipped today", "**Status:** shipped on 2026-04-23"),  # a label
    ],
)
def test_cron_mentions_and_bold_labels_still_convert(text: str, converted: str) -> None:
    assert converted in resolve_relative_dates(text, RECORDED)[0]


@pytest.mark.parametrize(
    "text",
    [
        "- Scans all 4 calendars for current + next week",
        "- **Smart date parsing**: Handles relative dates (tomorrow, next week), ISO format",
        "# Open Loops Tracker\n\n## Status Legend\n\n- 🔴 **P0** — Blocks other work, handle today",
        "━━━ TODAY ━━━━━━━━━━━━━━━━━━━━━━━━━━━━",  # a generated brief's banner
    ],
)
def test_what_a_tool_does_and_a_legend_name_no_day(text: str) -> None:
    assert resolve_relative_dates(text, RECORDED) == (text, [])


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        ("- Fixed the scanner today", "- Fixed the scanner on 2026-04-23"),
        ("First day done. Let's make tomorrow better.", "Let's make 2026-04-24 better."),
        ("- Scanner shipped today; it scans calendars", "- Scanner shipped on 2026-04-23"),
        ("## Status\n\n- P0 handled today", "- P0 handled on 2026-04-23"),
    ],
)
def test_logs_about_tools_still_convert(text: str, converted: str) -> None:
    assert converted in resolve_relative_dates(text, RECORDED)[0]


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        # shared corpus (mediajunkie/dispatch): `Apr 15 tomorrow` was written on the 14th
        (
            "- mediajunkie cancellation — Apr 15 tomorrow, final check today",
            "- mediajunkie cancellation — Apr 15 tomorrow, final check on 2026-04-14",
        ),
        (
            "- All-hands (today, Wed Apr 22); prep call tonight",
            "prep call on the night of 2026-04-22",
        ),
        (
            "- Today is Friday, April 24, 2026. Ship it tonight.",
            "Ship it on the night of 2026-04-24.",
        ),
    ],
)
def test_a_pinned_day_word_tells_the_day_its_line_was_written(text: str, converted: str) -> None:
    new, (rep,) = resolve_relative_dates(text, RECORDED)
    assert converted in new and rep.written == date.fromisoformat(rep.value[:10])


@pytest.mark.parametrize(
    "text",
    [
        "- Launch is today (Apr 30); review tomorrow",  # a week after it was recorded: a plan
        "- Launch is today (5/24); review tomorrow",  # a slashed date is no calendar date here
    ],
)
def test_a_pin_after_the_line_was_recorded_tells_nothing(text: str) -> None:
    _, (rep,) = resolve_relative_dates(text, RECORDED)
    assert (rep.value, rep.written, rep.told_by) == ("2026-04-24", RECORDED, None)


def test_a_dreaming_snippet_is_dated_by_the_log_it_cites() -> None:
    """OpenClaw's dreaming pass copies lines from daily logs and cites them; in the fourth
    sweep four reviewed wrong dates came from counting such a line from the dreaming file."""
    lines = [
        "- Daily Log: Dream script scheduled for 5 AM tomorrow [confidence=0.58 "
        "evidence=memory/2026-04-16.md:4-6]",
        "- Fix options: Today's local zips stay. [confidence=0.5 "
        "evidence=memory/2026-05-16.md:4-6]",
        "- Ship it tomorrow (see evidence.md)",
    ]
    stated = stated_dates(lines, lambda _: RECORDED)
    assert stated(0) == (date(2026, 4, 16), "the log it cites, `2026-04-16.md`")
    assert stated(1) is None  # a log dated after the line was recorded cites nothing it wrote
    assert stated(2) is None


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        ("**Tomorrow priorities (from Rick):**", "**2026-04-24 priorities (from Rick):**"),
        ("## Tomorrow TODO", "## 2026-04-24 TODO"),
        ("- split bot check into today/yesterday", "into 2026-04-23/2026-04-22"),
        ("- today remains SYSTEM", "- 2026-04-23 remains SYSTEM"),
        # What stays an adverb beside them
        ("Tomorrow we ship the priorities", "On 2026-04-24 we ship"),
        # A `/` pair says its preposition once
        ("- Fixed the login today/tonight", "on 2026-04-23/the night of 2026-04-23"),
        ("- No blockers for Task 2 tomorrow/Friday", "Task 2 on 2026-04-24/2026-04-24"),
        # A possessive whose noun is left out keeps its `'s`
        ("Mar 17 ran; today's didn't fire.", "Mar 17 ran; 2026-04-23's didn't fire."),
        ("Apr 20 was late; today’s is running late", "2026-04-23’s is running late"),
        ("**Tomorrow's Must-Win:**", "**The 2026-04-24 Must-Win:**"),
        # A verb that takes the day as its object
        ("- Ran (yesterday's run, window covers today)", "window covers 2026-04-23)"),
        ("- Boot: yesterday's notes only if today's missing piece", "the 2026-04-23 missing piece"),
        ("- got 3 new stars today", "3 new stars on 2026-04-23"),
        ("- Read the USA Today piece today", "USA Today piece on 2026-04-23"),
        ('- "Quoted" and shipped today', '- "Quoted" and shipped on 2026-04-23'),
        # A callout is the writer's own aside
        ("> **Note:** Two sessions ran today on this project.", "ran on 2026-04-23"),
        ("> ⚠️ **DATA LOSS:** the write tool overwrote today's log", "the 2026-04-23 log"),
        ("- Bob wanted the report yesterday", "report on 2026-04-22"),
        ("- Told him how it went today", "went on 2026-04-23"),
        # A heading names a thing; an arrow's end is a bare date (a review over 43 folders)
        ("## Tomorrow Command Sheet", "## 2026-04-24 Command Sheet"),
        ("## Today We Shipped", "## On 2026-04-23 We Shipped"),
        ("- Counter reset (yesterday → today)", "(2026-04-22 → 2026-04-23)"),
        ("- Ask how Vader is working today", "working on 2026-04-23"),
        ("- We need it tomorrow", "need it on 2026-04-24"),
    ],
)
def test_a_day_word_naming_a_lists_day_reads_as_a_bare_date(text: str, converted: str) -> None:
    assert converted in resolve_relative_dates(text, RECORDED)[0]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Boot sequence: yesterday's notes only if today's missing.", "today's"),
        ("- Shipped it on Monday/Wednesday", "Monday/Wednesday"),  # two days, not one
        ('  - Psychology Today (Nov 2024), "Splitting the Hard Problem"', "Psychology Today"),
        ("- Medical News Today: Brain regions where serotonin", "News Today:"),
        ("- Execs want AI yesterday. This guide shows what works.", "want AI yesterday."),
        ("- 15x growth in 4 months since launch", "growth in 4 months"),  # a period
        ("- Returns: 286x in 21 months vs 76x in 15 years", "286x in 21 months"),
        # How something works at present (heldout10, the sweep's one quoted description)
        ("How my memory actually works today:", "works today:"),
        ('description: "How per-client converters are produced today (fork)"', "produced today"),
        # A blockquote is a quotation (SPEC 5): a drafted email, a person's check-in
        ("> We're starting beta installs next week and your lab fits.", "next week"),
        ("> Sleep was not great, prepared for a bbq today.", "bbq today"),
        # A quotation that opens the line and goes on below it
        ('> "Hey [Name] — we had JB on this week talking', "on this week"),
        ('"Shipped real work today. Template code → production.', "work today."),
        ("#### 5. **airi** ⭐ 1,412 stars today", "today"),
        ("- `date` → today is `2026-07-10`; backup ran", "today"),
    ],
)
def test_a_contraction_a_trending_label_and_a_pinned_day_are_left(text: str, kept: str) -> None:
    found = [m for m in find_relative_dates(text) if not m.pinned]
    assert kept.lower() not in [m.expression.lower() for m in found]


@pytest.mark.parametrize(
    "text",
    [
        "**What exists today:**",  # heldout12; the own corpus had labelled it a date
        "- Org structure and reporting lines, as they exist today (not aspirational)",
        "- Pattern: Justin architects, Thomas executes. Still true today.",
        "Read by CEO-Agent to ground identity questions in what's actually true today.",
        "## 8. What's Possible Today vs. What Needs Vendor Support",
        "- Otto wanted each user to auth with their own subscription — not feasible today",
        "- Deloitte architecture confirms Quantix Dispatch Agent is buildable today.",
        "3. **Tesla Coil** — High-voltage transformer (still used in radio/wireless today)",
        "In today's world gifting is cheap signaling",
        "Every platform today makes it easy",
    ],
)
def test_today_meaning_the_present_is_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, RECORDED)[1] == []


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        ("- The deploy was possible today after the fix", "was possible on 2026-04-23"),
        ("- Still blocked today, retry tomorrow", "Still blocked on 2026-04-23"),
        ("- The bug that existed yesterday is gone", "existed on 2026-04-22"),
        ("- What exists today was built yesterday", "was built on 2026-04-22"),
    ],
)
def test_a_day_beside_the_present_still_converts(text: str, converted: str) -> None:
    assert converted in resolve_relative_dates(text, RECORDED)[0]


def test_a_heading_whose_date_a_day_word_pins_was_written_the_day_before() -> None:
    """Held-out review h123: `## DP-100 Exam — TOMORROW (Mar 17)` was written on the 16th, so
    the `today` under it is the 16th, not the exam's day."""
    lines = ["## DP-100 Exam — TOMORROW (Mar 17)", "- agreed to a review session today"]
    lines += ["## Tonight's build fixes (2026-04-20 evening)", "- shipped it today"]
    lines += ["## Exam on Mar 17", "- booked it today"]
    stated = stated_dates(lines, lambda _: RECORDED)
    assert stated(1) == (date(2026, 3, 16), "heading `DP-100 Exam — TOMORROW (Mar 17)`")
    assert stated(3) == (date(2026, 4, 20), "heading `Tonight's build fixes (2026-04-20 evening)`")
    assert stated(5) == (date(2026, 3, 17), "heading `Exam on Mar 17`")


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        ("## 🎯 Today's Achievements", "## 🎯 The 2026-04-23 Achievements"),
        ("## 🔮 Tomorrow's Focus", "## 🔮 The 2026-04-24 Focus"),
        ("- worked throughout today", "- worked throughout 2026-04-23"),
    ],
)
def test_a_capital_after_emoji_and_throughout_read_well(text: str, converted: str) -> None:
    assert resolve_relative_dates(text, RECORDED)[0] == converted


def test_a_capitalised_name_after_an_emoji_is_still_a_name() -> None:
    text = "- 🌙 **Tonight's Queue** — light overnight work (research, drafts)"
    assert resolve_relative_dates(text, RECORDED)[1] == []


def test_a_listings_copied_age_in_a_table_is_left_alone() -> None:
    """Fourth sweep: LinkedIn scan tables copy each post's `3 days ago` (5 reviews); a cell of
    a table without a link still converts."""
    listed = (
        "| 21 | **Magnum** / sales | 3 days ago | DM | https://www.linkedin.com/feed/update/1 |"
    )
    assert resolve_relative_dates(listed, RECORDED)[1] == []
    own = "| 21 | Shipped | 3 days ago | done |"
    assert resolve_relative_dates(own, RECORDED)[0] == "| 21 | Shipped | on 2026-04-20 | done |"


def test_a_recurring_jobs_words_count_only_in_its_own_sentence() -> None:
    """mediajunkie/dispatch: a log's `recurring-cron path producing (5/25, 5/27 clean).` is one
    sentence, and the next one's `Today's brief` is that day's; a job's `Last run:` still makes
    its whole line a description of every run."""
    log = (
        "- **Brief reliability** — recurring-cron path producing (5/25, 5/27 clean). "
        "Today's brief produced from the sandbox via git-over-HTTPS."
    )
    assert "The 2026-04-23 brief produced" in resolve_relative_dates(log, RECORDED)[0]
    job = "- **dispatch-brief-reminder** — Slack summary of today's brief. Last run: 2026-04-21"
    assert resolve_relative_dates(job, RECORDED)[1] == []
    own = "- **Daily brief** (cron) — posts today's summary to Slack"
    assert resolve_relative_dates(own, RECORDED)[1] == []


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        # heldout13 (first run): a passive ahead, and a day something was moved to
        ("(to be built on Monday when Mac Mini arrives)", "to be built on 2026-04-27"),
        ("- LinkedIn deferred to Friday to ensure product polish first", "to 2026-04-24"),
        ("- Standup postponed until Monday", "until 2026-04-27"),
        # Past beside them stays past
        ("- The build was moved on Monday", "was moved on 2026-04-20"),
        ("- We built it on Monday", "built it on 2026-04-20"),
    ],
)
def test_a_weekday_a_passive_or_a_deferral_points_to_is_ahead(text: str, converted: str) -> None:
    assert converted in resolve_relative_dates(text, RECORDED)[0]


def test_a_listed_posts_title_with_its_score_is_left_alone() -> None:
    """heldout13: a daily Reddit report copies post titles with their scores."""
    title = "- **43 messages Friday morning and they all looked the same** (445 pts)"
    assert resolve_relative_dates(title, RECORDED)[1] == []
    own = "- Scored 12 points today"
    assert resolve_relative_dates(own, RECORDED)[0] == "- Scored 12 points on 2026-04-23"


def test_a_last_updated_field_dates_its_section() -> None:
    """heldout13's second half: a status file's `**Last Updated:** 2026-03-15 12:15 GMT`,
    committed the next day, says when its `Next Runs: … Tomorrow 09:00` was written."""
    lines = ["**Last Updated:** 2026-03-15 12:15 GMT", "", "- QA Agent: Tomorrow 09:00 GMT"]
    stated = stated_dates(lines, lambda _: date(2026, 3, 16))
    assert stated(2) == (date(2026, 3, 15), "line `**Last Updated:** 2026-03-15 12:15 GMT`")
    # A field dated after the line was recorded names no day it was written on
    assert stated_dates(lines, lambda _: date(2026, 3, 14))(2) is None


def test_a_stale_last_updated_field_dates_nothing() -> None:
    """A field an agent forgot to bump (sweep: `Last Updated: 2026-02-16` over a line committed
    in April) is no day of writing; the line keeps its recorded day."""
    lines = ["**Last Updated:** 2026-02-16", "", "- Focus this week: outreach"]
    assert stated_dates(lines, lambda _: date(2026, 4, 2))(2) is None
    assert stated_dates(lines, lambda _: date(2026, 2, 18))(2) == (
        date(2026, 2, 16),
        "line `**Last Updated:** 2026-02-16`",
    )


@pytest.mark.parametrize(
    "text",
    [
        "- Daily job: drop rows where batch.expires_at < today",  # fresh3: a comparison
        "- Earnings: April 16, 2026 (~today)",  # a date beside it, roughly
    ],
)
def test_a_comparison_and_a_rough_pin_are_left_alone(text: str) -> None:
    assert resolve_relative_dates(text, RECORDED)[1] == []


def test_a_heading_dated_by_its_rewrite_dates_its_section_in_the_same_run() -> None:
    """Found on DorcusTitanus's memory (a helper's run over 43 real folders): the checklist's
    heading was rewritten and its item left, which a second run then rewrote (SPEC section 5:
    a second run changes nothing), and `check` flagged the item after the first run."""
    text = (
        "## QLC+ Setup Checklist (before Saturday 10am)\n"
        "- [ ] Install on M5 Pro\n"
        "- [ ] Test single-fixture response before Saturday\n"
    )
    friday = date(2026, 5, 22)
    new_text, replacements = resolve_relative_dates(text, friday)
    assert new_text == (
        "## QLC+ Setup Checklist (before 2026-05-23 10am)\n"
        "- [ ] Install on M5 Pro\n"
        "- [ ] Test single-fixture response before 2026-05-23\n"
    )
    assert [(r.line, text[r.start : r.end]) for r in replacements] == [
        (0, "Saturday"),
        (2, "Saturday"),
    ]
    assert resolve_relative_dates(new_text, friday) == (new_text, [])
    flagged = [(m.start, m.end) for m in convertible_dates(text)]
    assert flagged == [(r.start, r.end) for r in replacements]
    # A phrase counting back past a year (`last Friday` from 1 January): a review found check
    # flagging fewer phrases than consolidate converts when its own count wrote 1999
    rules = "## Rules (from last Friday)\n- check the logs today\n"
    new_year = date(2026, 1, 1)
    assert [r.line for r in resolve_relative_dates(rules, new_year)[1]] == [0, 1]
    assert [m.start for m in convertible_dates(rules)] == [
        r.start for r in resolve_relative_dates(rules, new_year)[1]
    ]
    # Under a checklist's heading that no rewrite dates, the item is any day's
    undated = "## QLC+ Setup Checklist\n- [ ] Test single-fixture response before Saturday\n"
    assert resolve_relative_dates(undated, friday) == (undated, [])
    assert convertible_dates(undated) == []
