"""Dates a memory states itself: the one a line starts with, or the dated heading it sits under.

A log kept for days and committed in one batch, or a file imported long after it was written,
carries the day each entry was written in its own text (`## 2026-03-24 (Tuesday)`,
`### Pending (carried into Apr 14)`, `- 2026-04-21: ...`). That is stronger evidence than git
blame (SPEC section 5), as long as it is not after the day the line was committed: a heading
dated later than its line was written names a plan, not the day of writing.

A file's name (`memory/2026-03-12.md`) states the day of a daily log's lines that state none,
up to a day after the commit: a writer's local day may run ahead of the commit's clock
(`memory/2026-03-12.md` first committed at 2026-03-11 07:19 +0700).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from datetime import date, timedelta

from memsync.consolidate.wording import DAY_IN_NAME

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# A day is ISO's `2026-03-28` (or with `/` or `.` between its parts, `## 2026/03/28`: found by
# an i16 review, whose lines under such a heading were dated by the file's time), or a month name
# and a day.
_MONTH = r"(?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE = re.compile(
    r"(?<![\w-])(?:(?P<y>20\d\d)(?P<sep>[-/.])(?P<m>[01]\d)(?P=sep)(?P<d>[0-3]\d)(?![\d])"
    rf"|{_MONTH}\s+(?P<md>[0-3]?\d)(?:st|nd|rd|th)?(?!\d|:\d)(?:,?\s+(?P<my>20\d\d))?"
    rf"|(?P<dm>[0-3]?\d)(?:st|nd|rd|th)?\s+(?P<mon2>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov"
    r"|dec)[a-z]*\.?(?:,?\s+(?P<dy>20\d\d))?)(?!(?!T\d)\w)",  # `2026-03-23T15:06Z` too
    re.IGNORECASE,
)
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*)$")
# `-15`, `–Mar 1`, ` to 21`: the end of a range after its first date, where the range ends
# (`Feb 8-15, 2026`, `(Feb 23–Mar 1)`); `2026-03-05 - 10 tasks` is no range.
_RANGE_TAIL = re.compile(
    r"\s*(?:-|–|—|to|through|thru)\s*"
    r"(?:(?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+)?"
    r"(?P<d>[0-3]?\d)(?=\s*(?:[,()\]]|$|20\d\d\b|[—–|]|\s-\s))",
    re.IGNORECASE,
)
_ISO_RANGE_TAIL = re.compile(
    r"\s*(?:-|–|—|→|->|to|through|thru)\s*(?P<iso>20\d\d-[01]\d-[0-3]\d)\b", re.IGNORECASE
)
# One bold span alone on its line; `**Plan:** text **Use it.**` is a line of text.
_BOLD_HEADING = re.compile(r"^\s*(?:\*\*|__)(?P<t>[^*_][^*_]*?)(?:\*\*|__)\s*:?\s*$")
# Where a line's own text starts: after a list mark, a table row's first `|`, a heading's `#`s
# or a status mark (`| 2026-01-30 | Holly | …`, `## 2026-02-10: Task - CONTINUE TOMORROW`,
# `🟡 2026-02-16T23:01Z User will …`) or a weekday (`[Sun 2026-04-19 22:12 CDT] We can …`); an
# index entry's description counts as the line (`- [Audit](audit.md) — 2026-05-08 …`).
_LINE_START = re.compile(
    r"^\s*(?:(?:name|title|description|summary)\s*:\s*[\"']?)?"  # a frontmatter title's value
    r"(?:[-*+]\s+|\d+[.)]\s+|\|\s*|#{1,6}\s+|[^\w\s\[*_(|#>`~-]{1,2}\s+)?"
    r"(?:\[[^\]\n]*\]\([^)\s]*\)\s+\S{1,3}\s+)?"
    r"(?:\*\*|__)?\s*\[?\s*(?:(?i:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+(?=[\dA-Z]))?(?=\S)"
)
# A short label before the date a line starts with: `Status (`, `Update `, `As of `.
_LABEL_DATE = re.compile(
    r"[A-Za-z][A-Za-z ]{0,24}?(?:\s*\(\s*|\s+)(?=20\d\d-[01]\d-[0-3]\d\)?\s*:)"
    # `On 2026-04-29 the user re-enabled …`, `As of 2026-05-18 there is no …`: told that day
    r"|(?:On|As\s+of)\s+(?=20\d\d-[01]\d-[0-3]\d\b)"
    # `**Update 2026-06-30 (eve) — …`, `End of long session 2026-04-30 (continued …)`: an
    # entry of a log names itself and its day (not `Next session 2026-05-01`, a plan).
    r"|(?!(?i:next|upcoming|planned)\b)(?:[A-Za-z]+\s+){0,3}?"
    r"(?i:update|session|entry|recap|check-?in)\s+(?=20\d\d-[01]\d-[0-3]\d\b)"
)
# `March 17 PM cron insights …`: a half of a day the line reports on, not when it was written.
_HALF_DAY = re.compile(r"\s+[AP]M\b(?!\s*[:\]|)—–-])")
# `**Date:** February 19, 2026` near a document's top: the day its lines were written; and a
# generator's stamp, `*Generated 2026-04-11 from STATUS.md, …*` (its words are that day's).
DATE_FIELD_SOURCE = (
    r"^\s*(?:(?:>\s*)?(?:[-*]\s+)?(?:\*\*|__|[*_])?(?:date|created|written|logged|session\s+date"
    r"|last\s+updated)"
    r"(?:\s*:\s*(?:\*\*|__)?|(?:\*\*|__)\s*:)\s*(?=\S)"
    r"|[*_]{0,2}(?:generated|compiled|created|written)\s+(?:on\s+)?(?=20\d\d-[01]\d-[0-3]\d\b))"
)
_DATE_FIELD = re.compile(DATE_FIELD_SOURCE, re.IGNORECASE)
# A date a heading gives as a period's bound, not its day of writing: `## Bookkeeping
# implications (starting 2026-04-09)`, `## Changes since Mar 3`, `## Freeze until 2026-05-01`.
_BOUND_DATE = re.compile(
    r"\b(?:starting|effective|since|until|till|through|after|before|by|due)\s+(?:on\s+)?"
    r"(?:20\d\d-[01]\d-[0-3]\d|[A-Z][a-z]{2,8}\.?\s+[0-3]?\d(?:st|nd|rd|th)?(?:,?\s+20\d\d)?)",
    re.IGNORECASE,
)
# An index entry whose title opens or closes with a date.
_DATED_ENTRY = re.compile(
    r"^\s*[-*+]\s+\[(?P<t>(?P<d>20\d\d-[01]\d-[0-3]\d)\b[^\]]*|[^\]]*[\s(](?P<e>20\d\d-[01]\d-[0-3]\d)\)?)\]\("
)
# A memory's title dated like a heading: frontmatter `name: Gap analysis 2026-04-29`, `name: …
# measurement (2026-04-30)`, `description: "2026-05-15 — …"` (the date opens or closes it; a
# date inside, `Plan for the 2026-06-01 launch`, is what the memory is about).
_TITLE_FIELD = re.compile(
    r"^(?:name|title|description)\s*:\s*[\"']?(?:(?P<d>20\d\d-[01]\d-[0-3]\d)\b"
    r"|.*[\s(](?P<e>20\d\d-[01]\d-[0-3]\d)\)?[\"']?\s*$)"
)
_UPDATED_FIELD = re.compile(r"^\s*(?:[-*]\s+)?(?:\*\*|__|[*_])?last\s+updated", re.IGNORECASE)
_UPDATED_SLACK = 7
# `   2026-07-24 and **still uncorrected today**`: a wrapped paragraph's next line, which opens
# with a date the sentence names, not with the day it was written.
_WRAPPED = re.compile(r"[ \t]+(?![ \t]|[-*+]\s|\d+[.)]\s|[|#>*_\[])")
_GOES_ON = re.compile(r"\s+[a-z]")
_CLOCK_SLACK = timedelta(days=1)
# `today (Apr 20)`, `Today is Friday, May 1`: at most this many characters between a word and
# the date that pins it.
_BESIDE = 16
_SLIP_DAYS = 14
# The kinds of document written on the day a file name gives: `morning-brief-2026-06-06.md`.
_DAYS_DOCUMENT = re.compile(
    r"(?:^|[-_ ])(?:brief|briefing|report|summary|log|notes?|digest|standup|recap|journal"
    r"|session|diary|daily|snapshot|observations|status|minutes|check-?in)[-_ ]?$",
    re.IGNORECASE,
)
_PERIODS_DOCUMENT = re.compile(r"week|month|quarter", re.IGNORECASE)
_NAME_PLACEHOLDER = re.compile(r"YYYY[-_]?MM[-_]?DD", re.IGNORECASE)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# `March 27th, 2026 - Personal Research Sprint:` alone on its line opens what follows.
_DATED_LABEL = re.compile(
    r"^(?P<t>(?:20\d\d-[01]\d-[0-3]\d|[A-Z][a-z]{2,8}\.? [0-3]?\d(?:st|nd|rd|th)?,? 20\d\d)"
    r"[^:\n]{0,80}):\s*$"
)
# The day a line says it was written further in than its start (issue 16's wrong-day review):
# `(~4h in as of evening Feb 14), **finishing tonight**` (a state told as of a day), and its
# bold lead's note `**TOMORROW'S HARD SCOPE (2026-06-10 brain dump):**`, `**… catch-up
# (2026-04-27, commit `9a1896a`)** — Eric reported today's …`: a date with words after it in
# the parenthesis says what happened that day. A bare `**Arriving tomorrow (2026-04-08)**` is
# the day a word names, not the writing's.
_AS_OF = re.compile(
    r"\bas\s+of\s+(?:(?:the\s+)?(?:morning|afternoon|evening|night|end|close)\s+(?:of\s+)?)?"
    r"(?=20\d\d-[01]\d-[0-3]\d|[A-Z][a-z]{2,8}\.?\s+[0-3]?\d)",
    re.IGNORECASE,
)
_LEAD_NOTE = re.compile(
    r"^[^*\n]{0,40}?\*\*[^*\n]*?\((?P<iso>20\d\d-[01]\d-[0-3]\d)[ ,;][^()*\n]{1,40}\)[^*\n]*\*\*"
)
# `**Status**: ✅ FULLY OPERATIONAL (2026-03-07 13:39 MST)`: a status stamped to the minute in
# its parenthesis dates the rest of its section like a date field (a bare date may be the
# status's plan: `**Status**: ⏳ WAITING FOR 2026-07-22 18:30 CEST`).
_STATUS_STAMP = re.compile(
    r"^\s*(?:[-*]\s+)?(?:\*\*|__)?status(?:\*\*|__)?\s*:.*?"
    r"\(\s*20\d\d-[01]\d-[0-3]\d[ T][0-2]?\d:[0-5]\d(?!\d)",  # `13:39Z` too
    re.IGNORECASE,
)
_DAY_WORD = re.compile(r"\b(?:(today|tonight)|(tomorrow)|(yesterday))\b", re.IGNORECASE)
# `### fb091f4 - docs: Document EXTREME testing mode … (2026-02-04)`: a commit copied into a
# memory (its message below, `##` headings and all), dated by its heading. A hash has a letter:
# `### 20260315 - Daily` is a compact date.
_COMMIT_HEADING = re.compile(r"(?=\d*[a-f])[0-9a-f]{7,40}\s+[-–—:]\s+\S")
_PSEUDO_LEVEL = 7  # a bold line standing alone: below every Markdown heading
# `… tomorrow [confidence=0.58 evidence=memory/2026-04-16.md:4-6]`: a snippet an agent's
# dreaming pass copied from a daily log, citing it; its words are that day's.
_CITED_LOG = re.compile(r"\bevidence=(?:[\w.-]+/)*(20\d\d-[01]\d-[0-3]\d)\.md\b")


def find_date(text: str, near: date) -> date | None:
    """The first calendar date in TEXT (a missing year is the one closest to NEAR), or the end
    of the range it opens (`Week of Feb 8-15, 2026`, `Feb 23-Mar 1`) when that is not after
    NEAR: a heading over a week's log was written through to its end."""
    for match in _DATE.finditer(text):
        found = _to_date(match, near)
        if found is not None:
            end = _range_end(text, match.end(), found)
            return end if end is not None and found < end <= near else found
    return None


def _range_end(text: str, at: int, start: date) -> date | None:
    """The last day of a range whose first day START ends at AT in TEXT, if one follows."""
    full = _ISO_RANGE_TAIL.match(text, at)
    if full is not None:  # `Weekly Memo — 2026-W17 (2026-04-20 → 2026-04-26)`
        end = find_date(full.group("iso"), start)
        return end if end is not None and end > start else None
    tail = _RANGE_TAIL.match(text, at)
    if tail is None:
        return None
    month = _MONTHS.index(tail.group("mon").lower()[:3]) + 1 if tail.group("mon") else start.month
    try:
        end = date(start.year, month, int(tail.group("d")))
    except ValueError:
        return None
    return end if end > start else _next_year(end)


def _next_year(day: date) -> date | None:
    try:
        return day.replace(year=day.year + 1)
    except ValueError:
        return None  # 29 February


def _to_date(match: re.Match[str], near: date) -> date | None:
    g = match.group
    try:
        if g("y"):
            return date(int(g("y")), int(g("m")), int(g("d")))
        month = _MONTHS.index((g("mon") or g("mon2")).lower()[:3]) + 1
        day = int(g("md") or g("dm"))
        year = g("my") or g("dy")
        if year:
            return date(int(year), month, day)
        candidates = [date(near.year + k, month, day) for k in (-1, 0, 1)]
    except ValueError:
        return None
    return min(candidates, key=lambda c: abs((c - near).days))


def named_date(path: str, recorded: date) -> date | None:
    """The day a daily log's file name (PATH) opens with, or names right after the kind of a
    day's document (`morning-brief-2026-06-06.md`, `session_20260408.md`), unless it states
    another date or is more than a day after RECORDED (the day its line was otherwise known to
    be written); a date after other words (`project_maddie_2026-03-24.md`) is the day of what
    the file is about, not of its writing."""
    named = _name_day(path.rsplit("/", 1)[-1])
    return named if named is not None and named <= recorded + _CLOCK_SLACK else None


@functools.lru_cache(maxsize=256)  # asked once per dated line, of the same few names
def _name_day(name: str) -> date | None:
    # A daily log's name opens with its day: `2026-03-12.md`, `2026-04-20-home-assistant.md`.
    found = list(DAY_IN_NAME.finditer(name))
    if len(found) != 1:
        return None
    prefix = name[: found[0].start()]
    if prefix and (not _DAYS_DOCUMENT.search(prefix) or _PERIODS_DOCUMENT.search(prefix)):
        return None  # `project_maddie_2026-03-24.md`; `weekly-report-<its monday>.md`
    year, _, month, day = found[0].groups()
    try:
        return date(int(year), int(month), int(day))
    except ValueError:
        return None


def template_name(path: str) -> bool:
    """Whether a memory's file name (PATH) is a date placeholder, `memory/YYYY-MM-DD.md`: a
    daily log's blank template, whose `## Top 3 Tonight's Tasks` are every day's."""
    return _NAME_PLACEHOLDER.search(path.rsplit("/", 1)[-1]) is not None


def pinned_day(line: str, start: int, end: int, offset: int, recorded: date) -> date | None:
    """The day a line was written, told by a day word at START:END of it that an explicit date
    beside it pins (`next runs today (Apr 20)`, `Apr 15 tomorrow`): that date less the word's
    OFFSET in days. None when no date is beside it or it is over a day after RECORDED."""
    window = _DATE.finditer(line, max(0, start - _BESIDE - 32), end + _BESIDE + 32)
    beside = [(m.start() - end if m.start() >= end else start - m.end(), m) for m in window]
    near = [(gap, m) for gap, m in beside if 0 <= gap <= _BESIDE]
    if not near:
        return None
    found = _to_date(min(near, key=lambda pair: pair[0])[1], recorded)
    day = None if found is None else found - timedelta(days=offset)
    return day if day is not None and day <= recorded + _CLOCK_SLACK else None


def _heading_day(text: str, recorded: date) -> date | None:
    """The day a heading (TEXT) was written: the date it names, less a day word's offset
    where the word is pinned by it (`## DP-100 Exam — TOMORROW (Mar 17)` is the 16th's)."""
    for word in _DAY_WORD.finditer(text):
        offset = 0 if word.group(1) else 1 if word.group(2) else -1
        told = pinned_day(text, word.start(), word.end(), offset, recorded)
        if told is not None:
            return told
    return find_date(_BOUND_DATE.sub(" ", text), recorded)


def _told_inside(line: str, latest: date) -> tuple[date, str] | None:
    """The day LINE says it was written after its start (`as of Feb 14`, a bold lead's
    `(2026-06-10 brain dump)`), if not after LATEST, and where that was said."""
    as_of = _AS_OF.search(line)
    told = _DATE.match(line, as_of.end()) if as_of is not None else None
    found = _to_date(told, latest) if told is not None else None
    if as_of is not None and told is not None and found is not None and found <= latest:
        return found, f"the line's `{line[as_of.start() : told.end()]}`"
    lead = _LEAD_NOTE.match(line)
    found = find_date(lead.group("iso"), latest) if lead is not None else None
    if lead is not None and found is not None and found <= latest:
        return found, f"the line's lead `({lead.group('iso')} …)`"
    return None


def _slipped(found: date | None, recorded: date) -> date | None:
    """FOUND, or the same day a year on when that is up to a fortnight before RECORDED: an
    agent's `## 2025-02-06 Memory Log` committed on 2026-02-07 names last year by a slip (a
    model's sense of the year lags), not a day a year before it was recorded."""
    if found is None or found.year != recorded.year - 1:
        return found
    try:
        later = found.replace(year=recorded.year)
    except ValueError:  # February 29th
        return found
    return later if 0 <= (recorded - later).days <= _SLIP_DAYS else found


def stated_dates(
    lines: list[str], fallback: Callable[[int], date], first: int = 0
) -> Callable[[int], tuple[date, str] | None]:
    """line -> (date, where it was stated) for the lines of a memory body starting at FIRST.

    FALLBACK gives the day each line was otherwise known to be written (blame, mtime); it
    fills in a year a heading leaves out and bounds what a heading may claim."""
    stack: list[tuple[float, str, int]] = []  # (level, heading text, its line)
    owners: dict[int, list[tuple[float, str, int]]] = {}
    fence: str | None = None
    for number in range(first, len(lines)):
        line = lines[number]
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        heading = _HEADING.match(line)
        bold = None if heading else _BOLD_HEADING.match(line) or _DATED_LABEL.match(line)
        if heading or bold:
            level: float = len(heading.group(1)) if heading else _PSEUDO_LEVEL
            text = heading.group(2) if heading else bold.group("t") if bold else ""
            commit = None
            while stack and stack[-1][0] >= level:
                popped = stack.pop()
                commit = popped if _COMMIT_HEADING.match(popped[1]) else commit
            if _COMMIT_HEADING.match(text):  # the commit copied before this one ends here
                stack[:] = [kept for kept in stack if not _COMMIT_HEADING.match(kept[1])]
            elif commit is not None and level > 1:
                # a copied commit's message keeps its own `##` headings: still its text, up
                # to the next commit or a heading above the message's (the file's `#` title)
                stack.append((level - 0.5, commit[1], commit[2]))
            owners[number] = list(stack)  # a heading is dated by the headings above it
            if heading and _DATE_FIELD.match(text):
                # `## Date: 2026-03-20 19:00-20:00` over `## 🌙 Reflection`: a field, dating
                # the rest of its section, the headings after it included
                level = (stack[-1][0] if stack else 0) + 0.5
            stack.append((level, text, number))
            continue
        owners[number] = list(stack)
        if _DATE_FIELD.match(line) or _TITLE_FIELD.match(line) or _STATUS_STAMP.match(line):
            # a field dates the rest of its section
            stack.append(((stack[-1][0] if stack else 0) + 0.5, line, number))

    def stated(line: int) -> tuple[date, str] | None:
        if line not in owners:
            return None
        latest = fallback(line)  # a line is not written after the day it was recorded
        cited = _CITED_LOG.search(lines[line])
        day = find_date(cited.group(1), latest) if cited is not None else None
        if cited is not None and day is not None and day <= latest:
            return day, f"the log it cites, `{cited.group(1)}.md`"
        start = _LINE_START.match(lines[line])
        own = _DATE.match(lines[line], start.end()) if start is not None else None
        if own is None and start is not None:  # `**Status (2026-05-07):** ...`: a dated label
            label = _LABEL_DATE.match(lines[line], start.end())
            own = _DATE.match(lines[line], label.end()) if label is not None else None
        wrapped = (
            own is not None
            and _WRAPPED.match(lines[line])
            and _GOES_ON.match(lines[line], own.end())
        )
        found = (
            _slipped(_to_date(own, latest), latest)
            if own and not wrapped and not _HALF_DAY.match(lines[line], own.end())
            else None
        )
        if found is not None and found <= latest:
            return found, "the date the line starts with"
        entry = _DATED_ENTRY.match(lines[line])
        if entry is not None:
            # `- [Reflection (2026-05-19)](reflection_2026-05-19.md) - … today's session`: an
            # index line's hook is written with the memory its title dates.
            found = find_date(entry.group("d") or entry.group("e"), latest)
            if found is not None and found <= latest:
                return found, f"the title `{entry.group('t')[:60]}` it indexes"
        # The latest day a heading above names that is not after the line was recorded: a
        # log's `## 2026-04-25`, or its `### Pending (carried into Apr 26)` once that came.
        best: tuple[date, str] | None = None
        for _, heading, number in owners[line]:
            title = _TITLE_FIELD.match(lines[number])
            # A title's date is the one that opens or closes it, not one inside it.
            text = (title.group("d") or title.group("e")) if title is not None else heading
            found = _slipped(_heading_day(text, latest), latest)
            if found is not None and _UPDATED_FIELD.match(lines[number]):
                # `**Last Updated:**` goes stale when an edit forgets it: it dates only lines
                # recorded within a week of it (a status file committed days later), and only
                # lines committed with it or before it: a line recorded after the stamp's own
                # line was edited without bumping it.
                fresh = (latest - found).days <= _UPDATED_SLACK and fallback(number) >= latest
                found = found if fresh else None
            if found is not None and found <= latest and (best is None or found >= best[0]):
                field = _DATE_FIELD.match(lines[number]) or _STATUS_STAMP.match(lines[number])
                where = "line" if title or field else "heading"
                best = found, f"{where} `{' '.join(heading.split())[:60]}`"
        # Weaker than a heading: `- Dry streak: 15 days (from Jun 21, as of Jul 5). Day 16
        # today.` under `# 2026-07-06` tells when a count was taken, in that day's log.
        return best if best is not None else _told_inside(lines[line], latest)

    return stated
