"""Bare weekdays (`Monday`, no last/this/next): converted only when the direction is certain.

A weekday alone names a day before or after the day it was written, and nothing in the word
says which. Only a preposition that points one way (`for Monday`, `until Friday`, `since
Monday`) or a tense in the clause (`landed Sunday`, `will ship on Friday`) decides it; a
weekday in a recurring slot (`Mon=jobs`, a cadence, `every Monday`) or used as an adjective
(`in Monday planning`) is a name, not a date, and is left alone (SPEC section 5). Imports
the standard library and `memsync.consolidate.sections` (what a cron schedule looks like).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from memsync.consolidate.sections import CRON


class DateMatch(Protocol):
    """What these rules read of an earlier match (memsync.consolidate.grammar.DateMatch)."""

    @property
    def end(self) -> int: ...
    @property
    def recipe(self) -> tuple[str, int, int]: ...
    @property
    def mode(self) -> str: ...


class Context(Protocol):
    """What these rules read of a match's surroundings (memsync.consolidate.grammar.Context)."""

    @property
    def text(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def before(self) -> str: ...
    @property
    def after(self) -> str: ...
    @property
    def prev(self) -> str | None: ...
    @property
    def nxt(self) -> str | None: ...
    @property
    def found(self) -> Sequence[DateMatch]: ...


WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_AHEAD_PREPS = frozenset(["for", "until", "till", "by", "before", "past", "starting", "beginning"])
_AHEAD_PREPS |= {"coming", "upcoming", "due"}  # `venue quote coming Monday`, `due Friday`
_TENSE_PREPS = frozenset(["on", "from", "after", "to"])
# Words that may follow a weekday used as a day (not as an adjective before a noun).
_AFTER_A_DAY = frozenset(
    [
        "via",
        "at",
        "in",
        "and",
        "or",
        "with",
        "to",
        "for",
        "by",
        "on",
        "so",
        "but",
        "when",
        "after",
        "before",
        "morning",
        "afternoon",
        "evening",
        "night",
        "we",
        "i",
        "they",
        "he",
        "she",
        "it",
        "is",
        "was",
        "will",
    ]
)
_CLOCK_AFTER = re.compile(r"^\s+(?:at\s+)?\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)?\b", re.I)
_CLAUSE_END = re.compile(r"^\s*(?:$|[.,;:!?()\]—–|]|\s-\s|\*)")
# A job's weekly slot: a cron expression in the cell, or the word after the day
# (`step to Tuesday 10 AM YouTube Content Rating cron`; not `cron ran Saturday 11 PM`).
_CRON_AFTER = re.compile(r"[^|.;]{0,60}\bcron\b", re.IGNORECASE)
# `**Cron**: Saturday 18:00 UTC`, `Added cron job: Sunday 9am MT`: the slot a cron's label
# gives (heldout22, heldout27), and the same slot in another zone after it, not one run.
_CRON_LABEL = re.compile(r"\bcron(?:\s+job)?(?:\*\*|__)?\s*:[^.;|]{0,40}$", re.IGNORECASE)
# A schedule's verb right before the day (`The cron runs Monday at 9am`, `backup runs on
# Sunday`): a job's weekly slot, found by an i16 review (`cron ran Saturday` is one run).
_HABIT_BEFORE = re.compile(r"\b(?:runs|recurs|repeats)\s+(?:on\s+)?$", re.IGNORECASE)
_RECURRING = re.compile(
    r"\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\s*[=:/]|\bevery\b|\beach\b|\bweekly\b"
    r"|\bcadence\b|\brhythm\b|\broutine\b|\brecurring\b|\binterval\b|\bonly\s+on\b|\bbi-?weekly\b"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|\bonly\s+(?:on|day)\b"
    r"|\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\s*[&+]\s*(?:mon|tue|wed|thu|fri|sat|sun)",
    re.IGNORECASE,
)
# A capitalised word before a weekday makes a name (`Good Friday`, `Cyber Monday`), unless it
# is a preposition opening the sentence (`Since Monday the build is red`, `On Monday we will`).
_PROPER_BEFORE = re.compile(
    r"(?<![.!?:]\s)\b(?!(?:Since|On|Until|Till|By|Before|After|From|For|Through|Starting)\s)"
    r"[A-Z][a-z]+\s+$"
)
_HEADING_LINE = re.compile(r"^\s*(?:#{1,6}\s|\*\*[^*]+\*\*\s*:?\s*$)")
FUTURE_CUES = re.compile(
    # `said he would call Monday`: a future told in the past (not `would have called`)
    r"(?<!-)\b(?:would(?!\s+(?:not\s+)?have\b)|will|shall|going\s+to|gonna|scheduled|planned"
    r"|plans?|due|upcoming|expect(?:ed|s)?"
    r"|should|must|needs?\s+to|ha(?:s|ve)\s+to|is|are|am|starts?|begins?|ends?|pending|queued"
    r"|tomorrow|next)\b(?!-)|'ll\b"
    # `to be built on Monday`: a passive ahead (not `used to be`); `deferred to Friday`: moved
    # to a day ahead, whatever the verb's tense
    r"|(?<!used )\bto\s+be\b|\b(?:deferred|postponed|pushed|moved|rescheduled|delayed|bumped"
    r"|shifted|punted)\s+(?:back\s+)?(?:to|until|till)\b",
    re.IGNORECASE,
)
PAST_CUES = re.compile(
    r"(?<!-)\b(?:was|were|did|had|ago|yesterday|last|since|went|came|saw|broke|ran|took|found"
    r"|got|left|sent|began|said|told|knew|thought|met|lost|held|kept|brought|fell"
    r"|gave|spoke|chose|drove|won|paid|led|felt|heard|meant|spent|stood|forgot|shipped|landed"
    # `Tomahawk rebuilt in 1 month`: the same past with `re-` (a verb done again)
    r"|(?:re-?)?(?:built|wrote|made|written|done)"
    r"|[a-z]{2,}(?<!e)(?<!schedul)(?<!plann)(?<!expect)(?<!suppos)(?<!requir)(?<!need)"
    r"(?<!queu)(?<!block)ed)\b(?!-)",
    re.IGNORECASE,
)
# `notarized can ship Monday`: what one is able to do on a weekday is ahead (heldout26). Only
# for weekdays: `cannot call us today` tells the present (memsync.consolidate.present).
_ABLE = re.compile(r"\bcan(?:not)?\b|\bcan['’]t\b", re.IGNORECASE)
_PAST_AUX = re.compile(r"\b(?:was|were|had|did)\b", re.IGNORECASE)
# `Monday until Friday`, `Monday through Wednesday 10am`, `Monday - Friday 9am` whose `Monday`
# was left alone: converting only the end would leave half a range (the range words chain
# only from a converted first day).
_RANGE_START = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\s+(?:until|till|through|thru|to)\s*$"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\s+[-–]\s+$",
    re.IGNORECASE,
)
# A sentence that opens with one of these verbs is a to-do: its bare weekday is ahead.
_IMPERATIVE_START = re.compile(
    r"[^A-Za-z]*(?:verify|confirm|check|ask|ping|call|email|send|ship|review|test|retry"
    r"|revisit|discuss|deploy|merge|finish|submit|publish|remind|resume|use|follow\s+up|share"
    r"|deliver|present|demo|launch"
    r"|circle\s+back|pick\s+up|re-?run|re-?test|re-?check)\b",
    re.IGNORECASE,
)
# `since it's Sunday morning`: the day names when the line was written, not a day to count to.
_IT_IS = re.compile(r"\bit(?:['’]s|\s+is)\s*$", re.IGNORECASE)
_IS_A_WEEKDAY = re.compile(r"\s+is\s+a\s+week(?:day|end)\b", re.IGNORECASE)  # a rule, no day
_PRESENT_AUX = frozenset(["is", "are", "am", "be", "being", "get", "gets", "will"])
_WORD_BEFORE = re.compile(r"([A-Za-z~]+)\W*$")
# A present copula after the weekday is its subject's predicate (`The bug from Tuesday is fixed`,
# written on a Saturday, was dated the Tuesday ahead): it says nothing of the day's direction.
_COPULA = frozenset(["is", "are", "am"])


def bare_weekday(day_word: str, ctx: Context, end: int) -> tuple[int, bool] | None:
    """(direction, chained range) of a bare weekday at CTX, or None to leave it alone."""
    text, prev = ctx.text, ctx.prev
    chained = chained_to(ctx.found, text, ctx.start)
    connector = text[chained.end : ctx.start].strip().lower() if chained else ""
    is_range = connector in ("to", "through", "thru", "until", "till", "-", "–")
    if chained is not None and chained.recipe[0] == "bare":
        return chained.recipe[2], is_range
    if chained is not None and chained.recipe[0] == "weekday" and is_range:
        # `next Monday through Wednesday`: the end is the first such day after the start,
        # converted in the same run (a start the rule knows never moves: direction ahead)
        return 1, True
    # A table cell starts a clause (`| ⏳ Verify Monday |`), and so may a parenthesis (`(share
    # Monday)`) inside a to-do's sentence (`Review the prep (phone screen Monday)`).
    cell = _sentence(ctx.before.split("|")[-1])
    to_do = any(_IMPERATIVE_START.match(c) for c in (cell, cell.split("(")[-1]))
    if _IT_IS.search(ctx.before) or _IS_A_WEEKDAY.match(ctx.after) or ctx.before.endswith("-by "):
        return None  # `since it's Sunday`; a trailer's name: `Co-authored-by Friday + Wanda`
    if _recurring(text, ctx.start) or (_PROPER_BEFORE.search(ctx.before) and not to_do):
        return None  # a recurring slot, or a name (`Good Friday`, `Cyber Monday`)
    before = ctx.before.rstrip().lower()
    if prev == "since":
        return -1, False
    if _HABIT_BEFORE.search(ctx.before):
        return None  # `The cron runs Monday at 9am`: a schedule's weekly slot
    if _RANGE_START.search(ctx.before):
        return None
    if prev in _AHEAD_PREPS or before.endswith(("ahead of", "in time for")):
        # `until Friday` points ahead, unless the sentence is told in the past tense
        # (`was green until Tuesday`); a past verb elsewhere (`replied; route before
        # Monday`) is another clause's.
        return (-1 if _PAST_AUX.search(_sentence(ctx.before)) else 1), False
    nxt = (ctx.nxt or "").lower()
    clock = bool(_CLOCK_AFTER.match(ctx.after))
    whole_cell = ctx.before.split("|")[-1] + " " + ctx.after.split("|")[0]
    cron = CRON.search(whole_cell) or _CRON_AFTER.match(ctx.after) or _CRON_LABEL.search(ctx.before)
    if clock and cron:
        return None  # a job's weekly slot
    as_day = clock or _CLAUSE_END.match(ctx.after) is not None or nxt in _AFTER_A_DAY
    if not as_day:
        return None  # `Monday planning`: an adjective naming a meeting, not a day
    if prev in _TENSE_PREPS:
        # `The outage on Friday is fixed`: the copula right after the phrase is its noun's.
        subject = (ctx.nxt or "").lower() in _COPULA
        direction = tense(text, ctx.start, end, clause=False, subject=subject)
    else:
        direction = tense(text, ctx.start, end, clause=True)
        if direction is None and clock:
            direction = 1  # `interview Monday 10:30 AM`: an appointment ahead
    if direction is None and to_do:
        direction = 1  # `⏳ Verify Monday`, `Use 1/3 unless they re-correct on Monday`
    return None if direction is None else (direction, False)


def _sentence(before: str) -> str:
    """The part of BEFORE (the line up to a match) in the match's sentence."""
    cuts = [m.end() for m in re.finditer(r"[.!?;](?:\s|$)", before)]
    return before[cuts[-1] :] if cuts else before


def _recurring(text: str, start: int) -> bool:
    """Whether the weekday's line, or the heading it sits under, speaks of a recurring slot."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    if _RECURRING.search(text, line_start, len(text) if line_end < 0 else line_end):
        return True
    cursor = line_start - 1
    while cursor > 0:
        previous = text.rfind("\n", 0, cursor) + 1
        line = text[previous:cursor]
        if _HEADING_LINE.match(line):
            return _RECURRING.search(line) is not None
        cursor = previous - 1
    return False


def chained_to(found: Sequence[DateMatch], text: str, start: int) -> DateMatch | None:
    """The previous match when only a connector (`and`, `to`, a dash...) separates them."""
    if not found:
        return None
    last = found[-1]
    between = text[last.end : start]
    if re.fullmatch(r"\s+(?:and|or|to|through|thru|until|till)\s+|\s*[-–]\s*", between, re.I):
        return last
    return None


def tense(text: str, start: int, end: int, *, clause: bool, subject: bool = False) -> int | None:
    """+1 when the sentence (with CLAUSE: only the clause) around START..END speaks of the
    future, -1 of the past, None when nothing says. SUBJECT: the day is in a noun's phrase
    (`the bug from Tuesday`), whose present copula after it tells nothing."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    left = text[line_start:start]
    stops = r"[.!?](?:\s|$)|\s\|(?:\s|$)" + (r"|[;,:()—–]|\s-\s" if clause else "")
    cuts = [m.end() for m in re.finditer(stops, left)]
    sentence_start = line_start + (cuts[-1] if cuts else 0)
    stop = re.search(stops, text[end:line_end])
    sentence_end = end + stop.start() if stop else line_end
    best: tuple[int, int] | None = None
    for cues, direction in ((FUTURE_CUES, 1), (_ABLE, 1), (PAST_CUES, -1)):
        for cue in cues.finditer(text, sentence_start, sentence_end):
            if start <= cue.start() < end or _is_participle(text, sentence_start, cue, direction):
                continue
            if subject and cue.start() >= end and cue.group().lower() in _COPULA:
                continue  # `The outage on Friday is fixed`: the subject's state now, not its day
            distance = start - cue.end() if cue.end() <= start else cue.start() - end
            if best is None or distance < best[0] or (distance == best[0] and direction > 0):
                best = (distance, direction)
    return None if best is None else best[1]


def _is_participle(text: str, sentence_start: int, cue: re.Match[str], direction: int) -> bool:
    """`is closed`, `gets merged`, `to be built`: a participle after a present copula is no
    past tense."""
    if direction > 0:
        return False
    before = _WORD_BEFORE.search(text[sentence_start : cue.start()])
    return before is not None and before.group(1).lower() in _PRESENT_AUX


_DATE_WORDS = frozenset(["ago", "yesterday", "last", "since"])  # cues that are dates themselves


def told_in_past(before: str) -> bool:
    """`went from cheap to flat in a week`: after a past verb in its clause, `in N days` is
    how long something took, not a day ahead (`3 days ago and in 2 weeks` still is)."""
    clause = re.split(r"[.!?;:,(—–]|\s-\s", before)[-1]
    if FUTURE_CUES.search(clause):
        return False  # `is deleted in ten days`, `will be done in 3 days`
    return any(
        cue.group().lower() not in _DATE_WORDS and not _is_participle(clause, 0, cue, -1)
        for cue in PAST_CUES.finditer(clause)
    )
