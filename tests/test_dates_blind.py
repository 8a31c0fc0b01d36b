"""Twenty-three blind corpora (tests/data/dates/heldout5.json to heldout27.json, each labelled
from the memory text alone by a helper that read no memsync code): their size, provenance and
floors, and the rules the first two taught (a capitalised day word that names a bucket, a view
or a list item, weekdays joined into a schedule, a phrase pinned by a date with its year, a
value after `=`, a template's bracketed placeholder, a heading about work on a checklist, a
recurring job's `yesterday's` run). The later corpora's rules are in
test_dates_blind_rules.py."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from memsync.consolidate.dates import resolve_relative_dates
from testing import dates_corpus

DATA = Path(__file__).parent / "data" / "dates"
WRITTEN = date(2026, 3, 24)  # a Tuesday


# Blind corpora in the order they were gathered: none may share a repository with one before.
BLIND = (
    "heldout5.json",
    "heldout6.json",
    "heldout7.json",
    "heldout8.json",
    "heldout9.json",
    "heldout10.json",
    "heldout11.json",
    "heldout12.json",
    "heldout13.json",
    "heldout14.json",
    "heldout15.json",
    "heldout16.json",
    "heldout17.json",
    "heldout18.json",
    "heldout19.json",
    "heldout20.json",
    "heldout21.json",
    "heldout22.json",
    "heldout23.json",
    "heldout24.json",
    "heldout25.json",
    "heldout26.json",
    "heldout27.json",
)
# Each holds at least 60 positives and 40 negatives, but the last: its helper ran out of time
# (most productive memory folders were in earlier corpora), so it is measured, not ratcheted.
# heldout14 came from Claude Code memory folders, which seldom hold a relative date.
SMALL = {
    "heldout12.json": (35, 15),
    "heldout14.json": (50, 40),
    "heldout15.json": (20, 30),
    "heldout16.json": (49, 32),  # one helper's 10 minutes
    "heldout17.json": (52, 27),
    "heldout18.json": (48, 56),  # Claude Code memory copies, which seldom hold one
    "heldout19.json": (40, 35),
    "heldout20.json": (45, 29),
}


@pytest.mark.parametrize(
    ("name", "floors"),
    [
        # First blind runs: P 0.607 / R 0.879 and P 0.644 / R 0.745 (docs/BENCHMARKS.md).
        # Floors at the figures after the rules below; they may only go up.
        # heldout5 labels `### This Week's Priorities` over a case as context that must stay;
        # heldout7 labels `## 🎯 Tomorrow's Priorities` a date to convert. Headings convert
        # (Claude reads them as lines), which costs heldout5 one case: 0.776 -> 0.765.
        ("heldout5.json", (0.76, 0.91)),
        # After the d4 pass (classes met in three corpora or more): heldout6 0.800 -> 0.828.
        # After the d5 pass (a day the line's text names: a bold lead's dated note): 0.845 / 0.961.
        ("heldout6.json", (0.84, 0.96)),
        # First blind runs: P 0.686 / R 0.700 and P 0.662 / R 0.895 (docs/BENCHMARKS.md).
        # heldout7 and heldout11: phrases labelled "unchanged" next to the date that says their
        # day (`**Today Wed May 6**`, `tomorrow (Feb 2nd)`) are now left as they are, which the
        # scorer counts neither right nor wrong, so a correct case leaves the count: heldout7
        # R 0.960 -> 0.957, heldout11 P 0.853 -> 0.848. No case became wrong.
        ("heldout7.json", (0.93, 0.95)),
        # After the d5 pass (an italic `*Last updated:*` up to a week old): 0.825 / 0.945.
        ("heldout8.json", (0.82, 0.94)),
        # Two halves, first runs P 0.806 / R 0.829 (N-Z) and P 0.795 / R 0.761 (A-M).
        # After the d5 pass (a copied commit's heading dates its message): 0.905 / 0.938.
        ("heldout9.json", (0.90, 0.93)),
        # First blind run: P 0.738 / R 0.941. It labels a transcript's `assistant: … the
        # conventions we locked today:` a date; heldout5, 8, 11 and 12 label such turns quoted
        # speech (negatives), as do the reviews of the sweep (docs/BENCHMARKS.md): transcript
        # turns are left alone, which costs heldout10 that case, R 0.980 -> 0.961 (0.960 once
        # a phrase beside its date is left as it is, see heldout7 above).
        # After the d2 pass (heldout21's rules): 0.857 / 0.960; after the d4 pass: 0.873 / 0.960.
        # After the d6 pass: 0.868 / 0.958, no new error: `Today's log (Mar 25)` and
        # `Yesterday's audit (2026-04-30)` are now left beside their dates, which their labels
        # accept ("unchanged"); a phrase left so counts neither as found nor as missed.
        ("heldout10.json", (0.86, 0.95)),
        # First blind run: P 0.824 / R 0.918.
        ("heldout11.json", (0.88, 0.96)),
        # First blind run: P 0.780 / R 0.970 (35 positives, 15 negatives).
        # A heading's `Since 2026-04-28` bounds a period and is no day of writing (heldout15):
        # 0.842 / 0.970 -> 0.868 / 1.000.
        ("heldout12.json", (0.86, 0.98)),
        # Two halves, first runs P 0.809 / R 0.826 (owners a-m) and P 0.806 / R 0.893 (n-z);
        # heldout13-notes.md says which rules each taught.
        ("heldout13.json", (0.90, 0.90)),
        # Two halves from Claude Code memory folders, first runs P 0.500 / R 1.000 (n-z) and
        # P 0.500 / R 0.769 (a-m); heldout14-notes.md says which rules each taught.
        # After the d4 pass: 0.773 -> 0.797.
        ("heldout14.json", (0.79, 0.98)),
        # Two halves from Claude Code memory folders, first runs P 0.714 / R 0.909 (n-z) and
        # P 0.278 / R 1.000 (a-m, after the n-z half's rules); heldout15-notes.md.
        # After the d4 pass: 0.571 -> 0.593.
        ("heldout15.json", (0.59, 0.98)),
        # First blind run: P 0.767 / R 0.958 (dd9cf96); heldout16-notes.md.
        # After the d2 pass: 0.857 / 1.000.
        ("heldout16.json", (0.85, 0.99)),
        # First blind run, after heldout16's rules: P 0.686 / R 0.814; no rule from it.
        # After the d1 pass (rules from 17-20's failures): 0.760 / 0.884.
        ("heldout17.json", (0.76, 0.88)),
        # Claude Code memory copies, first blind run after heldout16's rules: P 0.611 /
        # R 0.825; no rule from it.
        # After the d1 pass: 0.761 / 0.875.
        ("heldout18.json", (0.76, 0.87)),
        # Labelled from SPEC 5's own words and the shared corpus's README alone (no list of
        # negatives from this project), first blind runs after every rule above: P 0.518 /
        # R 0.879 and P 0.761 / R 0.897; no rule from either. heldout19 reads `today` for what
        # is so at present (`not gates today`, `In scope today:`) as no day, 11 of its 21.
        # After the d1 pass: 0.644 / 0.879 and 0.900 / 0.923; heldout19 after d2's: 0.652 / 0.882.
        ("heldout19.json", (0.65, 0.88)),
        # After the d5 pass (a status stamped to the minute dates its sections): 0.925 / 0.949.
        ("heldout20.json", (0.92, 0.94)),
        # Labelled from SPEC 5 and the shared README alone by two helpers (owners A-L and M-Z,
        # 89 repositories). First blind runs at 00377b7: P 0.781 / R 0.882 and P 0.794 / R 0.917;
        # after d1's rules from heldout17-20, which never saw it: 0.796 / 0.904 as one corpus.
        # After the d2 pass (rules from its own failures, so now a dev figure): 0.865 / 0.944.
        # After the d5 pass (a bold lead's dated note): 0.870 / 0.949.
        ("heldout21.json", (0.87, 0.94)),
        # Forty minutes of two helpers under heldout21's rules (40 repositories, mostly agent
        # logs). First blind run after d1's rules: P 0.867 / R 0.980.
        # After the d3 pass (rules from its own failures, so now a dev figure): 0.952 / 1.000.
        ("heldout22.json", (0.95, 0.99)),
        # Forty minutes of two helpers (owners A-L and M-Z, 54 repositories, none fetched
        # before; heldout23-notes.md). First blind run at 8f688cc: P 0.871 / R 0.917; after
        # d3's rules from heldout22, which never saw it, the same. After the d4 pass (rules for
        # classes met in three corpora or more, this one among them): 0.877 / 0.917.
        ("heldout23.json", (0.87, 0.91)),
        # Fifteen minutes of two helpers (owners A-L and M-Z, 45 repositories, none fetched
        # before; heldout24-notes.md). First blind run at 4696418: P 0.824 / R 0.925; after
        # d4's rules from classes met in 3+ earlier corpora, which never saw it, the same.
        # After the d5 pass (`as of evening Feb 14`, a `Last Updated` four days old): 0.840 /
        # 0.943.
        ("heldout24.json", (0.84, 0.94)),
        # Two more fifteen-minute halves (owners A-L and M-Z, 43 repositories, none fetched
        # before; heldout25-notes.md). First blind run at b119264: P 0.807 / R 0.914; after
        # d5's anchor forms, which never saw it, the same. After a weekday in brackets beside
        # a day word told the line's day (its p001, so no longer blind): 0.815 / 0.924.
        ("heldout25.json", (0.81, 0.92)),
        # Two fifteen-minute halves (owners A-L and M-Z, 44 repositories, none fetched before;
        # heldout26-notes.md). First blind run at cf85dfe: P 0.816 / R 0.950. After the d6 pass
        # (a template's blanks, drawn screens and trees, a trademark, `can` before a weekday, a
        # weekly interval, a possessive's noun pinned by a date; from its own failures, so now a
        # dev figure): 0.879 / 0.967.
        ("heldout26.json", (0.87, 0.96)),
        # Two fifty-minute halves (owners A-L and M-Z, 45 repositories, none fetched before;
        # heldout27-notes.md). First blind run at 20b9a07 (with the session's sync and merge
        # branches, no date rule changed): P 0.779 / R 0.885. After the d7 pass (a template's
        # `{{TODAY}}`, a `Default:`, a cron's label, a recurring job's entry, a function's row,
        # `Today is Thursday` dating its line, a status in brackets, a question about a past
        # fact; from its own failures, so now a dev figure): 0.840 / 0.924.
        ("heldout27.json", (0.84, 0.92)),
    ],
)
def test_blind_corpus_size_provenance_and_floor(
    tmp_path: Path, name: str, floors: tuple[float, float]
) -> None:
    cases = dates_corpus.load(DATA / name)
    positives = [c for c in cases if c.phrases]
    least = SMALL.get(name, (60, 40))
    assert len(positives) >= least[0] and len(cases) - len(positives) >= least[1]
    assert all(len(c.source.split()) == 3 for c in cases)  # repository, path, commit
    earlier = ("real.json", "heldout.json", *BLIND[: BLIND.index(name)])
    seen = {c.source.split()[0] for other in earlier for c in dates_corpus.load(DATA / other)}
    assert not seen & {c.source.split()[0] for c in cases}  # no repository seen before
    score = dates_corpus.run(cases, tmp_path / "memory")
    assert score.precision >= floors[0] and score.recall >= floors[1], score.failures


@pytest.mark.parametrize(
    "line",
    [
        "- General task rule: overdue tasks should be treated as Today tasks.",
        "Projects: Inbox, THIS WEEK, NEXT WEEK, THIS MONTH, NEXT MONTH, LONG-TERM/ON HOLD",
        "- **Time vs Type:** We use **Projects** for Time (This Week, Next Month) and **Labels**.",
        "- Admin mobile: hero sticky, Today's Bookings clickable, status legend",
        "- Cron job: `x-blotato-daily-posting` (Monday & Wednesday 8 AM PDT)",
        "- Posts go out Tue + Thu mornings.",
        "- Date: March 25, 2026 (tomorrow)",
        # heldout6
        "- V2 Sheet live with 5 tabs: Today, ⚠️ Stale Deals, Pipeline, Log, Research Cache",
        "- Filter: Day = Today",
        "**Active agents:** [List agents active today]",
        "- Every run posts yesterday's summary to Slack.",
        # What a view shows or a list is grouped into (heldout5)
        "- Refined the Calendar tab into a weekly view showing only today and the next seven days.",
        "- Task lists are grouped cleanly into today and tomorrow ordered by priority.",
        "- Tasks should be ordered by priority for today first, then tomorrow.",
        "- Quick Actions: View today, Quick booking, Add customer",
        "- hero sticky, today filter button, calendar icon",
        "MiniCalMonth (next month label)",
    ],
)
def test_look_alikes_from_the_second_heldout_corpus_are_left_alone(line: str) -> None:
    assert resolve_relative_dates(line, WRITTEN) == (line, [])


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # Counter-examples: each still converts.
        ("Clients created before Feb 5 must accept the ToS TODAY or lose access.", None),
        ("**Status:** Tomorrow project; tonight's build shipped.", None),
        ("- [ ] Tomorrow: help Eric dump personal projects", None),
        ("Small-caps bouncing since Monday's dip.", None),
        ("She offered to call today or tomorrow.", None),
        ("Met Dana Monday and Tuesday.", None),
        # heldout6: one run of a job, a link's text, a plan after a colon
        ("- No new session content since yesterday's cron", None),
        ("- June 16 AM entries already promoted (done by yesterday's 8 AM cron)", None),
        ("- [Fixed today](deploy.md)", None),
        ("**Next:** Tomorrow, review the PR.", None),
        # A sentence heading is a line of text; showing someone something is no view.
        ("### Key fixes today", "### Key fixes on 2026-03-24"),
        ("## Hosts added today", "## Hosts added on 2026-03-24"),
        ("- Showed Dana the demo today.", None),
        ("- Busy today and tomorrow with the audit.", None),
        ("- Sorted the inbox today.", None),
        ("### Tomorrow's Checklist (8:30 AM MT)", None),
    ],
)
def test_real_dates_next_to_the_second_corpus_rules_still_convert(
    line: str, expected: str | None
) -> None:
    new, replacements = resolve_relative_dates(line, WRITTEN)
    assert replacements, new
    if expected is not None:
        assert new == expected


def test_a_heading_about_work_on_a_checklist_is_no_checklist() -> None:
    text = "# 2026-03-25\n\n## Checklist Fix\n\n- Should resume capturing tonight"
    _, replacements = resolve_relative_dates(text, WRITTEN)
    assert replacements
    rules = "# Deploys\n\n## Release checklist\n\n- Tag it tonight"
    assert resolve_relative_dates(rules, WRITTEN) == (rules, [])


def test_an_iso_timestamp_heading_dates_the_lines_under_it(tmp_path: Path) -> None:
    text = "## 2026-03-23T15:06:02Z — pm_os (3c1894b6)\n\n**Intent:** run pm-send again for today"
    case = dates_corpus.Case(
        "p000", "2026-03-23", "2026-03-26", text, (("today", ("2026-03-23",)),), "t/t a.md 0"
    )
    score = dates_corpus.run([case], tmp_path / "memory")
    assert (score.tp, score.fp, score.fn) == (1, 0, 0), score.failures
