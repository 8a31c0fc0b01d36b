"""Look-alikes: text the relative-date grammar matches that is not a date to rewrite.

Each rule here was found on real memories (tests/data/dates/real.json): an identifier that
contains the word (`todayEastern()` — Today's date), a UI label (`CTA·today`), a line in
another language, an idiom (`None pay tomorrow`), a count over a period (`the heaviest day in
two weeks`, `1 post in 14 days`), a phrase pinned by an explicit date next to it
(`tomorrow (Apr 27)`, `Apr 15 (today)`), which already says the day.
"""

from __future__ import annotations

import re

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_WEEKDAY = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?"
_CAL = rf"(?:{_MONTH}\s+\d{{1,2}}\b|\d{{1,2}}/\d{{1,2}}\b|\d{{4}}-\d\d-\d\d\b)"
_PIN_AFTER = re.compile(rf"^\s*[(,]\s*(?:{_WEEKDAY}\s+)?{_CAL}\s*\)", re.IGNORECASE)
_PIN_BEFORE = re.compile(rf"{_CAL}\s*[(,]?\s*$", re.IGNORECASE)
_IDIOM_BEFORE = re.compile(
    r"(?:(?:^|[^\w])(?:none|nobody|no\s+one)\s+\w+|\bha(?:s|ve)\s+been)\s+$", re.IGNORECASE
)
_COUNT_BEFORE = re.compile(
    r"\b(?:\w+est|most|least|first|second|third|only|once|twice|times?|instances?|record)\b"
    r"|\d+\s+(?!days?\b|weeks?\b|months?\b)[a-z]|\d%|\$\d",
    re.IGNORECASE,
)
_CLAUSE_STOP = re.compile(r"[.;:!?(—–]|\s-\s")
_RECURRING_DAY = re.compile(
    r"\b(?:every|each|cron|recurring|reminder|last\s+run)\b",
    re.IGNORECASE,
)
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_LATIN = re.compile(r"[A-Za-z]")
_LETTER = re.compile(r"[^\W\d_]")


def pinned(before: str, after: str) -> bool:
    """Whether an explicit calendar date sits right next to the phrase, saying its day."""
    return bool(_PIN_AFTER.match(after) or _PIN_BEFORE.search(before))


def not_english(line: str) -> bool:
    """Whether the line is mostly written in a language other than English."""
    letters = len(_LETTER.findall(line))
    return letters > 0 and len(_LATIN.findall(line)) * 2 < letters


def names_identifier(line: str, word: str) -> bool:
    """Whether the line names a code identifier containing WORD (`todayEastern()` — Today's)."""
    lowered = word.lower()
    return any(lowered in span.group().lower() for span in _CODE_SPAN.finditer(line))


def idiom(before: str) -> bool:
    """`None pay tomorrow`, `"tomorrow" has been tomorrow for days`: not a day."""
    return _IDIOM_BEFORE.search(before) is not None


def counted_period(before: str) -> bool:
    """`the heaviest day in two weeks`, `1 published post in 14 days`: a period, not a day."""
    cuts = [m.end() for m in _CLAUSE_STOP.finditer(before)]
    clause = before[cuts[-1] :] if cuts else before
    return _COUNT_BEFORE.search(clause) is not None


def recurring_day(line: str) -> bool:
    """`Slack summary of today's brief` in a recurring job's description: every day's."""
    return _RECURRING_DAY.search(line) is not None
