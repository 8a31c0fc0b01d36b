"""Relative dates resolved to ISO dates, counted from when each line was written.

`find_relative_dates` (in `memsync.consolidate.grammar`) finds the expressions; this module
turns each into an ISO day, week, month or year and rewrites the sentence so it still reads well.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import TypeVar

from memsync.consolidate import sections
from memsync.consolidate.evidence import pinned_day
from memsync.consolidate.grammar import DateMatch, find_relative_dates, parse_number
from memsync.consolidate.weekdays import WEEKDAYS

__all__ = [
    "WEEKDAYS",
    "DateMatch",
    "Replacement",
    "apply_replacements",
    "convertible_dates",
    "find_relative_dates",
    "left_lines",
    "parse_number",
    "render",
    "resolve",
    "resolve_relative_dates",
]


@dataclass(frozen=True)
class Replacement:
    """One rewrite: where, what it was, what it became, and the date it was counted from."""

    line: int  # 0-based line of the text
    start: int
    end: int
    old: str
    new: str
    value: str  # canonical ISO value: 2026-03-05, 2026-W11, 2026-03, 2026
    kind: str
    written: date
    told_by: str | None = None  # the line's own pinned day word that said WRITTEN, if one did


def _add_months(day: date, months: int) -> tuple[int, int]:
    index = day.year * 12 + day.month - 1 + months
    return index // 12, index % 12 + 1


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def resolve(match: DateMatch, written: date) -> tuple[str, date | None]:
    """The canonical ISO value of MATCH counted from WRITTEN, and its first day when a date."""
    what, amount, extra = match.recipe
    if what == "days":
        target = written + timedelta(days=amount)
        return target.isoformat(), target
    if what == "months":
        year, month = _add_months(written, amount)
        return f"{year:04d}-{month:02d}", None
    if what == "bare" and written.weekday() == amount:
        # `shipped Monday morning`, `Tuesday 16:00 sync happening NOW`, `SKIPPED (Saturday
        # 05:12 MDT)`, written that day: a weekday named on itself is that day, past or ahead
        # (in the sweeps of docs/BENCHMARKS.md, 70 of 78 such phrases read ahead were that day;
        # 6 name no day at all, such as cron slots, and 2 could be either).
        return written.isoformat(), written
    if what in ("weekday", "bare"):
        target = _weekday(written, amount, extra)
        return target.isoformat(), target
    if what == "week":
        monday = _monday(written) + timedelta(weeks=amount)
        iso = monday.isocalendar()
        return f"{iso[0]:04d}-W{iso[1]:02d}", monday
    if what == "weekend":
        saturday = _monday(written) + timedelta(days=5, weeks=amount)
        return saturday.isoformat(), saturday
    if what == "month":
        year, month = _add_months(written, amount)
        return f"{year:04d}-{month:02d}", None
    return f"{written.year + amount:04d}", None


def _weekday(written: date, day: int, relation: int) -> date:
    """last (-1): strictly before; next/future (1): strictly after; this (0): same Mon-Sun week;
    after next (2): a week after `next`."""
    if relation == 0:
        return _monday(written) + timedelta(days=day)
    if relation < 0:
        back = (written.weekday() - day) % 7 or 7
        return written - timedelta(days=back)
    ahead = (day - written.weekday()) % 7 or 7
    return written + timedelta(days=ahead + (7 if relation == 2 else 0))


def render(match: DateMatch, value: str, first_day: date | None) -> str:
    """The words that replace MATCH so the sentence still reads well."""
    kind = match.kind
    if kind == "part-of-day":
        noun = f"the {match.part} of {value}"
        compact = f"{value} {match.part}"
    elif kind in ("week", "weekend"):
        assert first_day is not None
        noun = f"the {kind} of {first_day.isoformat()}"
        compact = value if kind == "week" else f"{value} weekend"
    else:
        noun = compact = value
    if match.possessive and match.mode == "elided":
        text = compact + match.expression[-2:]  # `2026-04-29's`, in the writer's apostrophe
    elif match.possessive:
        text = f"the {compact}"
    elif match.mode == "noun":
        text = noun
    elif match.mode == "noun-in":
        text = f"in {noun}"
    elif kind in ("day", "part-of-day", "weekend"):
        text = f"on {noun}"
    elif kind in ("month", "year"):
        text = f"in {noun}"
    else:
        text = noun
    if match.capital and text[:1].islower():
        text = text[0].upper() + text[1:]
    return text


Written = date | Callable[[int], date | None]


def resolve_relative_dates(
    text: str, written: Written, latest: Callable[[int], date] | None = None
) -> tuple[str, list[Replacement]]:
    """Rewrite every relative date in TEXT as an ISO date counted from when its line was written.

    WRITTEN is a date, or a function from a 0-based line number to the date that line was
    written (git blame), None when that is unknown: such a line's dates stay as written unless
    a day word pinned by a date beside it tells its day, which may be no later than LATEST
    (the line's latest possible day). Returns the new text and the replacements, in text
    order.
    """
    new_text, replacements = _resolve_once(text, written, latest)
    if not sections.dates_a_section(text, [rep.start for rep in replacements]):
        return new_text, replacements
    # A heading's rewrite dated its section (`## Checklist (before 2026-05-23 10am)`), whose
    # lines are then its own days, not a checklist's any day: what a second run would rewrite
    # is rewritten now, so that run finds nothing (SPEC section 5).
    _, more = _resolve_once(new_text, written, latest)
    if not more:
        return new_text, replacements
    merged = sorted(replacements + _shifted_back(more, replacements), key=lambda rep: rep.start)
    return apply_replacements(text, merged), merged


_Span = TypeVar("_Span", Replacement, DateMatch)


def _shifted_back(later: list[_Span], earlier: list[Replacement]) -> list[_Span]:
    """LATER (found in a text EARLIER rewrote) placed at their offsets in the original text."""
    placed = []
    for span in later:
        grown = 0
        for rep in earlier:
            if rep.start + grown < span.start:
                grown += len(rep.new) - (rep.end - rep.start)
        placed.append(replace(span, start=span.start - grown, end=span.end - grown))
    return placed


def _resolve_once(
    text: str, written: Written, latest: Callable[[int], date] | None = None
) -> tuple[str, list[Replacement]]:
    found = find_relative_dates(text)
    matches = [match for match in found if not match.pinned]
    if not matches:
        return text, []
    line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    told = _told_days(text, found, line_starts, written, latest)
    resolved: list[tuple[DateMatch, int, date, str, date | None]] = []
    kept = False  # the match before was left: no range runs on from it
    for match in matches:
        line = bisect.bisect_right(line_starts, match.start) - 1
        when = told[line][0] if line in told else written(line) if callable(written) else written
        if when is None or (match.chained_range and kept):
            kept = True
            continue  # when the line was written is unknown (a shallow clone's old line)
        kept = False
        value, first_day = resolve(match, when)
        if match.chained_range and resolved:
            value, first_day = _fix_range(resolved, match, when)
        resolved.append((match, line, when, value, first_day))
    replacements = [
        Replacement(
            line,
            m.start,
            m.end,
            m.expression,
            render(m, value, first),
            value,
            m.kind,
            when,
            told[line][1] if line in told else None,
        )
        for m, line, when, value, first in resolved
    ]
    return apply_replacements(text, replacements), replacements


# `Notes: Today is Thursday; do not create weekly-summary.md`, committed on the Sunday after: a
# day's note that names its weekday was written on the last such day (heldout27); one that
# also names a date (`today is Wed 07-01`) is pinned by the date instead.
_WEEKDAY_TOLD = re.compile(
    r"\s+is\s+(?P<day>(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b"
    r"(?!,?\s+(?:\d|[A-Z][a-z]{2,8}\.?\s+\d))",
    re.IGNORECASE,
)
# `needs coverage tomorrow (Tue)` in a daily note headed with that Tuesday: the writer's own
# weekday beside the word tells its day, so the line was written the Monday (heldout25).
_WEEKDAY_BESIDE = re.compile(
    r"\s*\(\s*(?P<day>(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{0,6})\.?\s*\)", re.IGNORECASE
)


def _named_weekday(text: str, match: DateMatch) -> tuple[int, str] | None:
    """The day of the week the words after MATCH say it is, and those words, if they do."""
    _, amount, _ = match.recipe
    named = None if amount else _WEEKDAY_TOLD.match(text, match.end)
    if named is None and abs(amount) <= 1:
        named = _WEEKDAY_BESIDE.match(text, match.end)
    if named is None:
        return None
    word = named.group("day").lower()
    # `(Sunset)`, `(Monitor)`: a word, not a weekday or its short form
    day = next((n for n, name in enumerate(WEEKDAYS) if name.startswith(word)), None)
    if day is None:
        return None
    return (day - amount) % 7, named.group()


def _told_days(
    text: str,
    found: list[DateMatch],
    line_starts: list[int],
    written: Written,
    latest: Callable[[int], date] | None,
) -> dict[int, tuple[date, str]]:
    """line -> the day its own pinned day word tells it was written, and where that was said
    (`next runs today (Apr 20)` under `## 2026-04-19`: the line was added on the 20th, and its
    `this morning's scan` is the 20th's). A line of unknown day (WRITTEN None) is bounded by
    LATEST instead."""
    told: dict[int, tuple[date, str]] = {}
    for match in found:
        what, amount, _ = match.recipe
        named = None if match.pinned or what != "days" else _named_weekday(text, match)
        if what != "days" or not (match.pinned or named):
            continue
        line = bisect.bisect_right(line_starts, match.start) - 1
        if line in told:
            continue
        start = line_starts[line]
        end = text.find("\n", start)
        recorded = written(line) if callable(written) else written
        recorded = recorded if recorded is not None or latest is None else latest(line)
        if recorded is None:
            continue
        if named is not None:
            # the last such weekday up to a day after RECORDED (a writer's local day may run
            # ahead of the commit's clock): the last one before the day after that
            weekday = _weekday(recorded + timedelta(days=2), named[0], -1)
            told[line] = weekday, f"the line's `{match.expression}{named[1]}`"
            continue
        day = pinned_day(
            text[start : end if end >= 0 else len(text)],
            match.start - start,
            match.end - start,
            amount,
            recorded,
        )
        if day is not None:
            told[line] = day, f"the line's `{match.expression}` beside its date"
    return told


def convertible_dates(text: str) -> list[DateMatch]:
    """The relative dates in TEXT consolidation rewrites (and `check` flags): the grammar's
    matches but those an explicit date next to them already pins (`tomorrow (Apr 27)`), and
    those a heading's rewrite makes a dated section's (see resolve_relative_dates)."""
    first = [match for match in find_relative_dates(text) if not match.pinned]
    if not sections.dates_a_section(text, [match.start for match in first]):
        return first
    # The day a phrase is counted from does not decide whether it is rewritten, as long as the
    # dates written are ones a heading's calendar pattern knows (20xx, whatever the phrase).
    rewritten, replacements = _resolve_once(text, date(2050, 7, 1))
    later = [match for match in find_relative_dates(rewritten) if not match.pinned]
    return sorted(first + _shifted_back(later, replacements), key=lambda match: match.start)


def left_lines(
    text: str,
    found: list[DateMatch],
    replacements: list[Replacement],
    written: Callable[[int], date | None],
) -> list[int]:
    """The 0-based lines of TEXT with a relative date FOUND (`convertible_dates`) that none of
    REPLACEMENTS rewrote because when the line was written is unknown (WRITTEN gives None)."""
    starts = [0, *(i + 1 for i, ch in enumerate(text) if ch == "\n")]
    rewritten = {rep.line for rep in replacements}
    lines = {bisect.bisect_right(starts, match.start) - 1 for match in found}
    return sorted(n for n in lines - rewritten if written(n) is None)


def apply_replacements(text: str, replacements: list[Replacement]) -> str:
    """TEXT with REPLACEMENTS (in text order, from this text) applied."""
    parts: list[str] = []
    cursor = 0
    for rep in replacements:
        parts.append(text[cursor : rep.start])
        parts.append(rep.new)
        cursor = rep.end
    parts.append(text[cursor:])
    return "".join(parts)


def _fix_range(
    resolved: list[tuple[DateMatch, int, date, str, date | None]], match: DateMatch, when: date
) -> tuple[str, date]:
    """`from Monday to Friday`: the end is the first such weekday after the start; a range in
    the past that would end after the written day moves back one week, start included."""
    first, line, first_when, _, first_day = resolved[-1]
    assert first_day is not None
    ahead = (match.recipe[1] - first_day.weekday()) % 7 or 7
    end_day = first_day + timedelta(days=ahead)
    if match.recipe[2] < 0 and end_day >= when:
        shifted = first_day - timedelta(days=7)
        resolved[-1] = (first, line, first_when, shifted.isoformat(), shifted)
        end_day -= timedelta(days=7)
    return end_day.isoformat(), end_day
