"""The rules the blind corpora heldout17 to heldout20 taught: sayings, names and labels, drafts
for someone else to read, standing conditions and `today` meaning at present name no day; a
log entry's own dated label, a callout's date field and an ISO range's end tell the day a line
was written. Each negative (a real line of the corpora, left as it is) stands next to a real
line the same rule must still convert. Figures in docs/BENCHMARKS.md."""

from __future__ import annotations

from datetime import date

import pytest

from memsync.consolidate.dates import resolve_relative_dates
from memsync.consolidate.evidence import find_date, stated_dates

WRITTEN = date(2026, 3, 24)  # a Tuesday


@pytest.mark.parametrize(
    "text",
    [
        # A saying: two day words set against each other (heldout19)
        "*Key Insight:* Quality is a moving target — today's bar is tomorrow's baseline. "
        "Success should prompt harder questions, not back-patting.",
        # The going rate, whenever it is applied (heldout18, heldout)
        "Response: Offer seasonal scheduling -- book now for next quarter at today's rate. Or "
        "phase the work.",
        "1. **Position P&L** — security price changes, converted to CHF at today's rate",
        # An analogy's made-up day (heldout19)
        "- **Real-life analogy:** Saving your desk setup so it reopens the same way tomorrow.",
        # One label of a chain of three or more (heldout19)
        '- Grouping logic: Today → Yesterday → day name (within week) → "MMMM yyyy" (older)',
        "- Today → This week → Older",
        # A Title-Case name joined by `&` (heldout20)
        "- **Events & Meetings Today:** eventsandmeetingstoday.com",
        "## [Previous Session] - 2026-01-27\n\n### Phase 8 (Persist & Today)",
        # A template whose figures are letters (heldout17)
        "## NOTIFY\n\nTrades today: N opened, M closed",
        # A message drafted for someone to read (heldout19, heldout20)
        "## Post 3: r/SaaS\n\n**Body:**\n\nHey r/SaaS — launching ReviewFlow today.",
        "## 📝 帖子正文 (Reddit 格式)\n\nToday I want to share a real story — about my "
        'transformation from "perfect dreamer" to "real executor".',
        "# Ask HN 参与草稿 — What Are You Working On? (April 2026)\n\nThe motivation: everyone's "
        "building smarter agents (hermes just hit 70K stars this week!), but nobody's solving it.",
        # Under a heading naming an example (heldout19)
        "# Game State: Example Game\n\n## Last Night's Sprint Result",
        # Under a schedule's heading: a routine's days (heldout20)
        "## Brief Schedule\n\n### Evening Brief (7:00 PM PST)\n\n**Purpose:** Recap day, "
        "prepare for tomorrow",
        # The end of a quotation opened on a line above (heldout18)
        'Focus: 1. easy Z2 run tomorrow 2. attack Sandbag Lunges in Sat sim."*',
        # A standing rule's condition, mid-sentence (heldout18, heldout19)
        "auto-publish from buffer respecting daily limits; when day's quota met, prepare "
        "tomorrow's buffer.",
        "  - current streak resets to `0`, if the participant has no qualifying session today",
        # A screen's name, a dashboard's listed widget (heldout18, heldout20)
        "Screens: **Tonight** (light, `(tabs)/index`) + **Wind-down** (night, `app/wind-down.tsx`",
        "- Dashboard with low-stock count, today's transactions count, inventory table",
        # `today` meaning at present, in notes on code (heldout18, heldout19)
        "**Clients today consume errors opaquely**",
        "WS ignores (no-op today).",
        "  single consumer today — moving it is premature, YAGNI. Revisit if a 2nd consumer "
        "appears.)",
        "Today's only consumer is the client-side menu backdrop, which runs an",
        "- Free ESPN schedule/results is the only truly multi-sport collection path today.",
        "mobile-client from workspace-client — both are `source='client'` today.",
        "**What each piece does today** (so the redesign preserves behavior):",
    ],
)
def test_no_day_of_the_writer_is_left_as_written(text: str) -> None:
    assert resolve_relative_dates(text, WRITTEN) == (text, [])


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        # Two day words that are each a day (heldout13)
        (
            "Yesterday's fix for Telegram delivery is working. All 6 completed research jobs "
            "today show `delivered: true` with no errors.",
            ["Yesterday's", "today"],
        ),
        # A day's prices, not a rate applied (real)
        (
            "with the S&P 500, Dow, and Nasdaq all up on the day, so today’s price action in SPY "
            "is primarily a",
            ["today’s"],
        ),
        # A condition after a label's colon: a watch on one day (heldout18)
        ("- Watch: if recurs tomorrow, may need escalation", ["tomorrow"]),
        # A condition told in the past or planned is a day's again
        ("- Deploy went fine; if it was flaky today, we rolled back", ["today"]),
        # A range of two, not a chain of labels (heldout15); a count's arrow (heldout14)
        ("- **Retroactive April 9 → today**: all already-booked 2026 expenses with", ["today"]),
        ("- CIEU events today: +88K (312668 → 400K+).", ["today"]),
        # `&` joining a lower-case day word (heldout17)
        ("**Carry-forward to market-close & tomorrow's pre-market**:", ["tomorrow's"]),
        # A heading naming a draft with its date: that day's handoff (heldout)
        ("# Handoff Draft — July 11, 2026\n\n*Who I am today:* Clawd, Day 161.", ["today"]),
        # An example's heading with its date: that day's (heldout's heading, heldout14's line)
        (
            "## XOP example (2026-05-27 trade analysis)\n\n- CIEU events today: +88K.",
            ["today"],
        ),
        # A dated heading about a schedule is a day's (heldout14's heading)
        (
            "## 2026-05-08: Schedule-first WodBuster integration (major refactor)\n\n"
            "- Shipped the refactor today",
            ["today"],
        ),
        # Quotes that open and close on the line are a quotation, not its end (real)
        ('Shipped the "fast path" today; users see it next week', ["today", "next week"]),
        # A greeting inside a sentence opens no message
        ("Said hi to Dana — she starts tomorrow", ["tomorrow"]),
        # A single-letter word is not a template's figure
        ("Trades today: 3 opened, 1 closed", ["today"]),
        # `today` with a day's event stays a day (docs/CONSOLIDATION.md's narrow rule)
        ("- Only 1 day of logs (system initialized today)", ["today"]),
        ("Both caps reset today", ["today"]),
        ("Both flags are `true` since the deploy today", ["today"]),  # a day's event
        ("**What each piece shipped today** (so the redesign preserves behavior):", ["today"]),
    ],
)
def test_a_day_beside_the_rules_still_converts(text: str, converted: list[str]) -> None:
    _, replacements = resolve_relative_dates(text, WRITTEN)
    assert [rep.old for rep in replacements] == converted


def test_a_log_entry_label_dates_its_line() -> None:
    lines = [
        "**Update 2026-06-30 (eve) — FIRST 2 CAMPAIGNS GO LIVE tomorrow.**",
        "End of long session 2026-04-30 (continued from morning). We'll address it tomorrow.",
    ]
    stated = stated_dates(lines, lambda _: date(2026, 7, 7))
    assert stated(0) == (date(2026, 6, 30), "the date the line starts with")
    assert stated(1) == (date(2026, 4, 30), "the date the line starts with")
    plan = ["Next session 2026-07-01 — pick up the campaign tomorrow"]  # a plan, no log entry
    assert stated_dates(plan, lambda _: date(2026, 7, 7))(0) is None


def test_a_callouts_date_field_dates_its_section() -> None:
    lines = [
        "> **Last updated: 2026-06-21**",
        "",
        "## Done (recent)",
        "",
        "- **Full knowledge-capture pass (today)** — distilled all calculation work into",
    ]
    stated = stated_dates(lines, lambda _: date(2026, 6, 23))
    found = stated(4)
    assert found is not None and found[0] == date(2026, 6, 21)


def test_an_iso_ranges_end_is_the_day_a_weeks_heading_was_written_through() -> None:
    heading = "BULL Weekly Memo — 2026-W17 (2026-04-20 → 2026-04-26)"
    assert find_date(heading, date(2026, 4, 26)) == date(2026, 4, 26)
    assert find_date(heading, date(2026, 4, 22)) == date(2026, 4, 20)  # not ended yet
    assert find_date("2026-03-05 - 10 tasks", date(2026, 3, 9)) == date(2026, 3, 5)


def test_a_date_field_heading_dates_the_headings_after_it() -> None:
    lines = [
        "## Date: 2026-03-20 19:00-20:00",
        "",
        "## 🌙 Reflection",
        "",
        "Tonight's creative session achieved:",
    ]
    found = stated_dates(lines, lambda _: date(2026, 4, 16))(4)
    assert found == (date(2026, 3, 20), "heading `Date: 2026-03-20 19:00-20:00`")
    plain = ["## Morning: 2026-03-20", "", "## Reflection", "", "Tonight's session"]
    assert stated_dates(plain, lambda _: date(2026, 4, 16))(4) is None  # a sibling heading
