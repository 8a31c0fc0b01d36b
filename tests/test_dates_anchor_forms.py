"""Forms in which a line's own text, its heading or its file's stamp names the day it was
written, found by issue 16's wrong-day review (a right phrase counted from a wrong day): `as
of <date>` inside the line, a bold lead's dated note, a status stamped to the minute, a copied
commit's heading over its message's `##` headings, an italic `*Last updated:*` stamp and one
up to a week old. Each reading stays tied to the line: the same date elsewhere in the file,
or in a form that names a plan, dates nothing. Figures: docs/BENCHMARKS.md."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memsync.consolidate.evidence import stated_dates
from testing import dates_corpus


def _stated(lines: list[str], recorded: date) -> tuple[date, str] | None:
    """What the last of LINES says of its day, the lines recorded on RECORDED."""
    return stated_dates(lines, lambda _: recorded)(len(lines) - 1)


# Real lines (corpus, case), the day they were recorded and the day their text names.
AS_OF = [
    # heldout24 p001: committed four days after the evening it reports on
    (
        ["- **Status:** Tasks 16-17 running (~4h in as of evening Feb 14), **finishing tonight**"],
        date(2026, 2, 18),
        date(2026, 2, 14),
        "the line's `as of evening Feb 14`",
    ),
    # heldout24 p088: a status told as of a stamp at the line's end
    (
        [
            "- **Current Constraint:** prioritize local inference until Thursday. "
            "(as of 2026-04-21 05:55 UTC)"
        ],
        date(2026, 4, 25),
        date(2026, 4, 21),
        "the line's `as of 2026-04-21`",
    ),
    # the part of a day may name the day with `the ... of`; a capital `As of` mid-line too
    (
        ["- Queue drained (as of the end of Feb 14), **finishing tonight**"],
        date(2026, 2, 18),
        date(2026, 2, 14),
        "the line's `as of the end of Feb 14`",
    ),
    (
        ["- Build green. As of Feb 14 the queue is empty, **finishing tonight**"],
        date(2026, 2, 18),
        date(2026, 2, 14),
        "the line's `As of Feb 14`",
    ),
    # as of the day it was recorded: still the line's own word
    (
        ["- Queue drained (as of 2026-02-18 09:00), **finishing tonight**"],
        date(2026, 2, 18),
        date(2026, 2, 18),
        "the line's `as of 2026-02-18`",
    ),
]


@pytest.mark.parametrize(("lines", "recorded", "day", "where"), AS_OF)
def test_as_of_a_date_inside_a_line_dates_the_line(
    lines: list[str], recorded: date, day: date, where: str
) -> None:
    assert _stated(lines, recorded) == (day, where)


@pytest.mark.parametrize(
    "lines",
    [
        # the same date on another line of the file is no evidence for this one
        ["- Jobs queued as of evening Feb 14", "- Tasks 16-17 running, **finishing tonight**"],
        # `as of` a day after the line was recorded is a plan, not the day of writing
        ["- Plan holds as of Feb 20, **finishing tonight**"],
        # a date that is no `as of`'s: what the line is about
        ["- Tasks queued Feb 14 are finishing tonight"],
        # `as of` inside a word is none
        ["- The alias of 2026-02-14 points at the old build, **finishing tonight**"],
    ],
)
def test_an_as_of_elsewhere_or_ahead_dates_nothing(lines: list[str]) -> None:
    assert _stated(lines, date(2026, 2, 18)) is None


@pytest.mark.parametrize(
    ("lines", "heading"),
    [
        # tbreeding's memory/2026-07-06.md: when a count was taken, in that day's log
        (
            ["# 2026-07-06", "- Dry streak: 15 days (from Jun 21, as of Jul 5). Day 16 today."],
            "2026-07-06",
        ),
        # brandoclaw's daily log: a state reported as of the day before
        (
            ["# 2026-06-04", "Quiet Thursday. The debt items were confirmed closed as of June 3."],
            "2026-06-04",
        ),
    ],
)
def test_a_dated_heading_is_stronger_than_an_as_of(lines: list[str], heading: str) -> None:
    day = date.fromisoformat(heading)
    assert _stated(lines, date(2026, 7, 20)) == (day, f"heading `{heading}`")


LEAD_NOTES = [
    # heldout6 p040: a dump's day in the bold lead, committed five days later
    (
        [
            "# FHC Previsualization",
            "",
            "## Next steps",
            "",
            "**TOMORROW'S HARD SCOPE (2026-06-10 brain dump): PLANES ONLY.** Roof, back wall",
        ],
        date(2026, 6, 15),
        date(2026, 6, 10),
    ),
    # heldout21 p057: a table row's bold lead, `(date, commit …)`
    (
        [
            "## Active Work",
            "| CLI Opus | **Overnight capture-empty bypass FIX + email ingester "
            "catch-up (2026-04-27, commit `9a1896a`)** — Eric reported today's DLY had no events.",
        ],
        date(2026, 4, 28),
        date(2026, 4, 27),
    ),
    # a note after a semicolon
    (
        ["- **Ingester catch-up (2026-04-27; after the outage)** — fixed today"],
        date(2026, 4, 28),
        date(2026, 4, 27),
    ),
    # a note of the day it was recorded
    (["- **Catch-up (2026-04-28, commit `9a1896a`)** — fixed today"], date(2026, 4, 28), None),
]


@pytest.mark.parametrize(("lines", "recorded", "day"), LEAD_NOTES)
def test_a_dated_note_in_a_bold_lead_dates_the_line(
    lines: list[str], recorded: date, day: date | None
) -> None:
    day = day or recorded
    assert _stated(lines, recorded) == (day, f"the line's lead `({day.isoformat()} …)`")


@pytest.mark.parametrize(
    "line",
    [
        # heldout21 p097: a bare date a day word names is that word's day (a plan), not the
        # writing's; the heading above dates the line
        "- **Arriving tomorrow (2026-04-08)**: Vgate iCar Pro Bluetooth adapter",
        # a dated note outside the bold lead: what the line points at
        "- **Hard scope: planes only.** Roof first tomorrow (see 2026-04-01 brain dump)",
        # a note of a day after the line was recorded: a plan
        "- **Launch (2026-04-20 go-live day)**: ship the adapter tomorrow",
    ],
)
def test_a_bare_or_trailing_date_is_no_leads_note(line: str) -> None:
    lines = ["## Session Log — 2026-04-07", line]
    assert _stated(lines, date(2026, 4, 8)) == (
        date(2026, 4, 7),
        "heading `Session Log — 2026-04-07`",
    )
    assert _stated([line], date(2026, 4, 8)) is None  # nor without a heading to date it


STATUS = "**Status**: ✅ FULLY OPERATIONAL (2026-03-07 13:39 MST)"


@pytest.mark.parametrize(
    "status",
    # heldout20 p007 (a status file committed a week after its stamp); a listed status with
    # an ISO stamp
    [STATUS, "- **Status**: ✅ DONE (2026-03-07T13:39 UTC)"],
)
def test_a_status_stamped_to_the_minute_dates_its_sections(status: str) -> None:
    lines = [status, "", "## 🚀 What Happens Next", "", "### Phase 2: Enhancement (Next Week)"]
    assert _stated(lines, date(2026, 3, 15)) == (date(2026, 3, 7), f"line `{status}`")


def test_a_status_stamped_in_utc_with_a_z_dates_its_sections() -> None:
    # `13:39Z` (ISO 8601's UTC mark right after the minutes) is a stamp to the minute too:
    # the stamp's `\b` after the minutes missed it, so the section counted from the commit.
    status = "**Status**: ✅ DONE (2026-03-07T13:39Z)"
    lines = [status, "", "## Next", "", "- ship it next week"]
    assert _stated(lines, date(2026, 3, 15)) == (date(2026, 3, 7), f"line `{status}`")


@pytest.mark.parametrize(
    "first",
    [
        # heldout p050: a status's bare date is its plan, not a stamp
        "**Status:** Tomorrow project (2026-05-15+). Tonight's build shipped manually.",
        # heldout10 p030: a field stamped to the minute that is no status: a check's time
        "- **Quant state:** ⚠️ STALE — last check was 2026-03-07T01:21 UTC",
        # pimpy67's WAITING_TOMORROW file: a stamp outside a parenthesis is the status's plan
        "**Status**: ⏳ WAITING FOR 2026-03-07 18:30 CEST",
        # a parenthesis with a day but no time is no stamp
        "**Status**: ✅ DONE (2026-03-07)",
    ],
)
def test_a_status_without_a_stamp_or_a_stamp_without_a_status_dates_nothing(first: str) -> None:
    lines = [first, "", "## Next", "", "- ship it next week"]
    assert _stated(lines, date(2026, 3, 15)) is None


COMMIT = "### fb091f4 - docs: Document EXTREME testing mode + BTC 24/7 validation (2026-02-04)"


@pytest.mark.parametrize(
    "section",
    ["## Forward Testing Plan Updates", "## Current Status (22:35 UTC)"],
)
@pytest.mark.parametrize("dash", ["-", "—"])
def test_a_copied_commit_dates_its_messages_own_headings(section: str, dash: str) -> None:
    """heldout9 p065/p066: a commit message copied into a memory with its `##` headings."""
    commit = COMMIT.replace(" - ", f" {dash} ")
    lines = [commit, "", section, "", "- Stock bots paused until tomorrow's market open"]
    found = _stated(lines, date(2026, 2, 5))
    assert found is not None and found[0] == date(2026, 2, 4)
    assert found[1].startswith(f"heading `fb091f4 {dash} docs:")


@pytest.mark.parametrize(
    "lines",
    [
        # a dated entry that is no commit: a later `##` section is not its text
        ["### 2026-02-04 entry", "", "## Open questions", "", "- decide tomorrow"],
        # a title (`#`) after the commit ends it
        [COMMIT, "", "# Notes", "", "- decide tomorrow"],
        # a compact date is no commit's hash
        ["### 20260204 - entry (2026-02-04)", "", "## Open questions", "", "- decide tomorrow"],
    ],
)
def test_a_dated_heading_ends_at_a_shallower_heading(lines: list[str]) -> None:
    assert _stated(lines, date(2026, 2, 5)) is None


@pytest.mark.parametrize(
    ("stamp", "recorded"),
    [
        # heldout8 p051: an italic stamp, committed six days later
        ("*Last updated: 2026-02-23*", date(2026, 3, 1)),
        # heldout24 p000: a bold stamp four days before its commit
        ("**Last Updated:** 2026-02-23 (evening session)", date(2026, 2, 27)),
        # a week to the day
        ("*Last updated: 2026-02-23*", date(2026, 3, 2)),
    ],
)
def test_a_last_updated_stamp_up_to_a_week_old_dates_its_section(
    stamp: str, recorded: date
) -> None:
    lines = ["# Active Tasks", "", stamp, "", "## Completed Today", "", "- Deployed the fix"]
    assert _stated(lines, recorded) == (date(2026, 2, 23), f"line `{stamp}`")


def test_a_last_updated_stamp_over_a_week_old_is_stale() -> None:
    lines = ["*Last updated: 2026-02-23*", "", "## Completed Today", "", "- Deployed the fix"]
    assert _stated(lines, date(2026, 3, 3)) is None  # eight days: an edit forgot to bump it


# End to end through `consolidate` on a real git history: (committed, text, labels).
CORPUS_LINES = [
    (
        "2026-02-18",
        "- **Status:** Tasks 16-17 running (~4h in as of evening Feb 14), **finishing tonight**",
        (("tonight", ("2026-02-14",)),),
    ),
    (
        "2026-06-15",
        "## Next steps\n\n**TOMORROW'S HARD SCOPE (2026-06-10 brain dump): PLANES "
        "ONLY.** Roof, back wall, doors, amp",
        (("tomorrow", ("2026-06-11",)),),
    ),
    (
        "2026-03-15",
        f"{STATUS}\n\n## 🚀 What Happens Next\n\n### Phase 2: Enhancement (Next Week)",
        (("next week", ("2026-03-09..2026-03-15", "2026-W11")),),
    ),
    (
        "2026-02-05",
        f"{COMMIT}\n\n## Current Status (22:35 UTC)\n\n- Resume: Tomorrow 2:30 PM "
        "Irish (regular market hours)",
        (("tomorrow", ("2026-02-05",)),),
    ),
    (
        "2026-03-01",
        "# Active Tasks\n\n*Last updated: 2026-02-23*\n\n## Completed Today",
        (("today", ("2026-02-23",)),),
    ),
]


@pytest.mark.parametrize(("committed", "text", "labels"), CORPUS_LINES)
def test_consolidate_counts_the_line_from_the_day_its_text_names(
    tmp_path: Path, committed: str, text: str, labels: tuple[tuple[str, tuple[str, ...]], ...]
) -> None:
    case = dates_corpus.Case("p000", committed, committed, text, labels, "t/t a.md 0")
    score = dates_corpus.run([case], tmp_path / "memory")
    assert (score.tp, score.fp, score.fn) == (1, 0, 0), score.failures


def test_each_copied_commit_dates_only_its_own_message() -> None:
    """recent_history.md lists commits newest first, each message with `##` headings: a line
    of an older commit's message is that commit's, not the newer one's above it."""
    lines = [
        "# Recent Git History",
        "### 11c0cd7 - fix: Critical bug fixes for crypto trading (2026-02-05)",
        "## Current Status (22:35 UTC)",
        "- Resume tomorrow",
        "### 189606f - docs: Update forward testing plan - PM2 setup complete (2026-02-03)",
        "## Completed Today (Phase 2)",
        "- PM2 set up today",
    ]
    stated = stated_dates(lines, lambda _: date(2026, 2, 6))
    newer = stated(3)
    assert newer is not None and newer[0] == date(2026, 2, 5), newer
    found = stated(6)
    assert found is not None and found[0] == date(2026, 2, 3), found


def test_a_last_updated_stamp_does_not_date_lines_edited_after_it() -> None:
    """The stamp's line committed six days ago, the lines below it rewritten today without
    bumping it: they were dated six days back (`today` read as the stamp's day)."""
    lines = ["*Last updated: 2026-02-23*", "", "## Completed Today", "", "- Deployed the fix today"]
    days = {0: date(2026, 2, 23)}
    stated = stated_dates(lines, lambda n: days.get(n, date(2026, 3, 1)))
    assert stated(4) is None
    days[0] = date(2026, 3, 1)  # committed with the lines, six days after it: their day
    assert stated(4) == (date(2026, 2, 23), "line `*Last updated: 2026-02-23*`")
