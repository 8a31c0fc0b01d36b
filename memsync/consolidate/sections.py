"""Headings and the sections they open: which lines are standing instructions, which heading
parts state their own date.

Owns the rules that read a line through the headings above it (tests/data/dates: `## How to
apply`, `# Memory Hygiene Protocol`, `## Task Management (Daily)`, a table's header row), the
turns of a chat transcript, and the calendar-date pattern the look-alike rules share. Imports
only the standard library and `memsync.consolidate.evidence` (its date-field rule).
"""

from __future__ import annotations

import bisect
import functools
import re

from memsync.consolidate.evidence import DATE_FIELD_SOURCE

# A cron schedule (`0 6 * * 1`, `0 12 * * 1-5`): the days beside it are every run's.
CRON = re.compile(r"[\d*/,-]+\s+[\d*/,-]+\s+\*\s+\*\s+[\d*]")
MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
CALENDAR = re.compile(
    rf"\b20\d\d-[01]\d-[0-3]\d(?:\b|(?=T\d))|\b{MONTH}\s+[0-3]?\d(?:st|nd|rd|th)?\b"
    rf"|\b[0-3]?\d\s+{MONTH}(?!\w)"
    r"|\b[01]?\d/[0-3]?\d\b",
    re.IGNORECASE,
)
_HEADING_LINE = re.compile(r"^\s{0,3}#{1,6}\s|^\s*(?:\*\*|__)[^*_]+(?:\*\*|__)\s*:?\s*$")
_HEADING_PART = re.compile(r"\s[-—–|]\s|:\s")
_HOW_TO_APPLY = re.compile(r"\s*\*\*how\s+to\s+apply:?\*\*", re.IGNORECASE)
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*)$", re.MULTILINE)
# Headings over standing instructions, rules or templates: their days are any day's.
_INSTRUCTIONS = re.compile(
    r"how\s+to\s+(?:apply|use)|how\s+(?:it|this|the\s+\w+)\s+works|\bevery\s+session\b"
    r"|\b(?:protocol|instructions?|checklist|conventions?|guidelines?|template|rules|logic)\b"
    r"|\b(?:examples?|samples?)\b"  # `# Game State: Example Game`: made up, any day's
    r"|\blegend\b"
    r"|YYYY",
    re.IGNORECASE,
)
# A heading about work on rules is no rule (`## Checklist Fix`, `## CRITICAL FIX: path
# convention`, `## Rules update`).
_WORK_ON = re.compile(
    r"\b(?:fix|fixes|fixed|bug|bugs|update|updates|updated|change|changes|changed|issue|issues"
    r"|overhaul|broken|incident)\b",
    re.IGNORECASE,
)
_TEMPLATE = re.compile(r"\btemplates?\b", re.IGNORECASE)
# A draft written for others to read later (`## Post 3: r/SaaS`, `## Mission Statement
# (draft)`, `## 📝 帖子正文 (Reddit 格式)`: a post's body): its days are its readers'.
_DRAFT = re.compile(r"\bdrafts?\b|\bpost\s*#?\d+\b|帖子|草稿", re.IGNORECASE)
_ROUTINE = re.compile(
    r"\b(?:daily|nightly|weekly|every\s+\w+|routines?|rhythm|cadence|schedule)\b", re.IGNORECASE
)
# A date field with a date on it anywhere in the text (evidence.py's rule for what one is).
_DATED_FIELD = re.compile(DATE_FIELD_SOURCE + r".*\d", re.MULTILINE | re.IGNORECASE)
_TABLE_RULE = re.compile(r"[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*\|")
_DAY_WORDS = re.compile(r"\b(?:today|tonight|tomorrow|yesterday|this\s+week)\b", re.IGNORECASE)
# A compact date inside a heading's id (`# c-20260328-2215 — Daily Reflect`): a day's file.
_COMPACT_DATE = re.compile(r"(?<![\d])20\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?![\d])")


# A turn of a chat transcript (OpenClaw's session dumps: `user: [Sun 2026-04-19 22:12 CDT] We
# can work on this tomorrow`, `assistant:` then paragraphs) or a snippet a memory tool copied
# from elsewhere (`- Candidate: User: We talked about that yesterday.`), a question and answer
# (`- Q: Hows the memory this morning`): quoted words, whose days are the speaker's.
_TURN = re.compile(
    r"^>?[ \t]*(?:(?:\*\*)?(?i:user|assistant|human|you)(?:\*\*)?[ \t]*:"
    r"|\*\*[a-z][\w.-]{1,20}:\*\*)",
    re.M,
)  # `**andrew:** Going well`: a lower-case name in bold is a speaker, not a label
# SPEC section 5: text in quotes is never touched. `> We're starting beta installs next week`
# (an email drafted), `> Sleep was not great … a bbq today` (a person's check-in, copied). A
# callout is the writer's own aside, not a quotation: `> **Note:** Two sessions ran today`,
# `> ⚠️ **DATA LOSS NOTE …**`, GitHub's `> [!NOTE]`.
_BLOCKQUOTE = re.compile(
    r" {0,3}>(?!\s*(?:\[!\w+\]|[⚠❗📌ℹ]|(?:\*\*|__)?"
    r"(?:note|warning|important|tip|caution|update|fyi|heads[- ]up)\b))",
    re.IGNORECASE,
)
_SNIPPET = re.compile(r"[ \t]*(?:[-*+][ \t]+)?(?:candidate:|[QA]:\s)", re.IGNORECASE)


def days_not_its_own(text: str, line_start: int, line_end: int) -> bool:
    """Whether the days on the line from LINE_START to LINE_END are any reader's (standing
    instructions) or a quoted speaker's, not the memory's own."""
    return standing_instructions(text, line_start, line_end) or quoted_turn(text, line_start)


def quoted_turn(text: str, line_start: int) -> bool:
    """Whether the line at LINE_START is a copied snippet, a blockquote (Markdown's quotation:
    a drafted email, a person's message, an example) or lies in a transcript's turn (from a
    speaker's `user:` or `assistant:` to the next heading)."""
    if _SNIPPET.match(text, line_start) or _BLOCKQUOTE.match(text, line_start):
        return True
    turns = _turns(text)
    turn = bisect.bisect_right(turns, line_start) - 1
    if turn < 0:
        return False
    headings = _sections(text)[0]  # where each heading starts, read once per text
    heading = bisect.bisect_right(headings, line_start) - 1
    return heading < 0 or headings[heading] < turns[turn]


@functools.lru_cache(maxsize=4)
def _turns(text: str) -> list[int]:
    return [m.start() for m in _TURN.finditer(text)]


def in_heading(before: str) -> bool:
    """Whether BEFORE, the start of a line, opens a Markdown heading."""
    return _HEADING.match(before) is not None


def standing_instructions(text: str, line_start: int, line_end: int) -> bool:
    """Whether the line from LINE_START to LINE_END sits under a heading of rules,
    instructions or a template (`## How to apply`, `# Memory Hygiene Protocol`, `# Daily Note —
    YYYY-MM-DD`), opens with `**How to apply:**`, or is a table's header row (`| Metric | Today
    | Trend |` above `|---|`): what it says holds on any day it is read."""
    if _HOW_TO_APPLY.match(text, line_start) or _TABLE_RULE.match(text, line_end + 1):
        return True
    starts, verdicts, parents = _sections(text)
    index = bisect.bisect_right(starts, line_start) - 1
    if index < 0:
        return False
    # A heading line itself is read under the headings that enclose it.
    return parents[index] if starts[index] == line_start else verdicts[index]


@functools.lru_cache(maxsize=4)  # one text's matches ask in turn: each heading is read once
def _sections(text: str) -> tuple[list[int], list[bool], list[bool]]:
    """Where each heading starts, whether the lines under it are standing instructions (the
    nearest enclosing heading that is dated, no, or a rule's, yes, decides), and whether the
    heading itself is (its enclosing headings decide)."""
    starts: list[int] = []
    verdicts: list[bool] = []
    parents: list[bool] = []
    chain: list[tuple[int, bool | None]] = []  # enclosing headings: depth, own verdict
    # `**Date:** February 5, 2026` under `# Daily Monitoring Report`: one day's report
    dated = _DATED_FIELD.search(text) is not None
    for heading in _HEADING.finditer(text):
        depth, title = len(heading.group(1)), heading.group(2)
        while chain and chain[-1][0] >= depth:
            chain.pop()  # a sibling's or a deeper heading does not enclose this one
        own: bool | None = None
        if CALENDAR.search(title) or _DAY_WORDS.search(title) or _COMPACT_DATE.search(title):
            own = False  # a dated or day's section: its own days are meant (`# Handoff Draft —
            # July 11, 2026` is that day's handoff)
        elif _DRAFT.search(title) and not _WORK_ON.search(title):
            own = True  # a post's draft: its readers' days
        elif _INSTRUCTIONS.search(title) and not _WORK_ON.search(title):
            # A day's rules learned are that day's (`## 2026-03-05` > `### Rules`); a template
            # is every day's, wherever it is kept (`## Morning Report Template`).
            own = None if _dated(chain) and not _TEMPLATE.search(title) else True
        elif _ROUTINE.search(title) and not dated and not _dated(chain):
            own = True  # `## Task Management (Daily)`, unless a dated heading encloses it
        parents.append(_decided(chain))
        chain.append((depth, own))
        starts.append(heading.start())
        verdicts.append(_decided(chain))
    return starts, verdicts, parents


def dates_a_section(text: str, starts: list[int]) -> bool:
    """Whether rewriting the phrases at STARTS in TEXT dates a heading that was undated: its
    section is then read as a day's (`## Checklist (before Saturday)` -> `(before 2026-05-23)`)."""
    for start in starts:
        line_start = text.rfind("\n", 0, start) + 1
        heading = _HEADING.match(text, line_start)
        if heading is not None and heading.start(2) <= start:
            title = heading.group(2)
            if not (CALENDAR.search(title) or _DAY_WORDS.search(title)):
                return True
    return False


def _dated(chain: list[tuple[int, bool | None]]) -> bool:
    return any(v is False for _, v in chain)


def _decided(chain: list[tuple[int, bool | None]]) -> bool:
    return next((v for _, v in reversed(chain) if v is not None), False)


def dated_heading(line: str, before: str, after: str) -> bool:
    """Whether the phrase between BEFORE and AFTER on LINE sits in a heading's part that states a
    calendar date (`## Tonight's build fixes (2026-05-08 evening)`): that date says its day.
    In another part (`## 2026-02-10: Scraping task - CONTINUE TOMORROW`) the date is the day
    the heading was written, which the phrase is counted from."""
    if _HEADING_LINE.match(line) is None:
        return False
    cuts = [m.end() for m in _HEADING_PART.finditer(before)]
    stop = _HEADING_PART.search(after)
    part = before[cuts[-1] if cuts else 0 :] + " " + after[: stop.start() if stop else len(after)]
    return CALENDAR.search(part) is not None
