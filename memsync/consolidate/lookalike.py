"""Look-alikes: text the relative-date grammar matches that is not a date to rewrite.

Each rule here was found on real memories (tests/data/dates/real.json): an identifier that
contains the word (`todayEastern()` — Today's date), a UI label (`CTA·today`), a line in
another language, an idiom (`None pay tomorrow`), a count over a period (`the heaviest day in
two weeks`, `1 post in 14 days`), a phrase pinned by an explicit date next to it
(`tomorrow (Apr 27)`, `Apr 15 (today)`), which already says the day; and, found on the
held-out corpus (tests/data/dates/heldout.json), a question (`What facts from today will I have
tomorrow?`, `did he post the Story today?`: every relative date in a question in the three real
corpora is hypothetical or asks), a line describing a procedure with a date placeholder
(`Read memory/YYYY-MM-DD.md (today + yesterday)`), the idea of the current date (`check
today's date`), one of a row of labels (`Today / Yesterday / 1 week ago`), and a heading that
states its own date (`## Tonight's build fixes (2026-05-08 evening)`); on its dev half
(docs/BENCHMARKS.md), an imperative that addresses the reader (`Share one thing you built
today`: a template or instruction, any day it is read), a chat transcript after its speaker label
(`Telegram interaction: Clayton: Tomorrow after I wind the coils…`, `CC prompt: …`: quoted
speech without quote marks), and `next month` on a line that names a month itself (`CME Jul
WTI (next month)`: a contract month the line already names), an automation trigger
(`Trigger: Cron (weekly Mondays) → analyzes last week's performance`: counted from each run).
"""

from __future__ import annotations

import re

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_WEEKDAY = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?"
_CAL = rf"(?:{_MONTH}\s+\d{{1,2}}\b|\d{{1,2}}/\d{{1,2}}\b|\d{{4}}-\d\d-\d\d\b)"
_PIN_AFTER = re.compile(
    rf"^\s*[(,]\s*(?:{_WEEKDAY}\s+)?{_CAL}(?:\s+{_WEEKDAY})?\s*\)", re.IGNORECASE
)
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
_QUESTION_END = re.compile(r"[.!](?=\s|$)|\?")
_PLACEHOLDER = re.compile(r"\bYYYY-?MM(?:-?DD)?\b|<date>|\{date\}|\bDD/MM\b|\bMM/DD\b")
_LABEL_ROW = re.compile(r"(?:^|\s)[/−]\s*$")
_SENTENCE_STOP = re.compile(r"[.;!?](?=\s|$)|[—–]|\s-\s")
_ERA = r"..\s+(?:world|age|era|society|climate|landscape|economy|market)\b"
_HEADING_LINE = re.compile(r"^\s{0,3}#{1,6}\s|^\s*(?:\*\*|__)[^*_].*(?:\*\*|__)\s*:?\s*$")
_CALENDAR = re.compile(
    rf"\b20\d\d-[01]\d-[0-3]\d\b|\b{_MONTH}\s+[0-3]?\d\b|\b[0-3]?\d\s+{_MONTH}(?!\w)"
    r"|\b[01]?\d/[0-3]?\d\b",
    re.IGNORECASE,
)
_SINGLE_OPEN = re.compile(r"(?:^|(?<=\s))['‘](?=[A-Z])(?!.*(?:^|\s)['‘][A-Z])")
_SINGLE_CLOSE = re.compile(r"^(?:[^'’]*?[a-z])?['’](?=$|[\s.,;:!?)\]—–])", re.IGNORECASE)
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_ADDRESSED = re.compile(r"\b(?<!thank )you(?:r|rs|rself|'re|'ll|'ve|'d)?\b", re.IGNORECASE)
_SPEAKER = re.compile(r"\b(?:interaction|prompt|transcript)\s*:\s|→\s*[A-Z][\w ]{0,20}:\s")
# A sentence that opens with a verb and its object (`Share one thing…`, `Pick the one…`).
_IMPERATIVE = re.compile(r"[\s\-*>\d.)]*[A-Z][a-z]+\s+(?:one|the|a|an|your|it|this|that|all)\b")
_TRIGGER = re.compile(r"\btrigger\s*:|\bcron\s*\(", re.IGNORECASE)
_MONTH_NAMED = re.compile(
    r"\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?(?!\s*\d)(?!\w)"
)
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


def not_a_date(line: str, before: str, after: str, words: str, *, possessive: bool) -> bool:
    """Whether the phrase WORDS, between BEFORE and AFTER on LINE, names no day to rewrite."""
    if not_english(line) or names_identifier(line, words):
        return True
    cuts = [m.end() for m in _SENTENCE_STOP.finditer(before)]
    stop = _SENTENCE_STOP.search(after)
    clause = before[cuts[-1] if cuts else 0 :] + after[: stop.start() if stop else len(after)]
    if _ADDRESSED.search(clause) and _IMPERATIVE.match(clause):
        return True  # `Share one thing you built today`: addressed to whoever reads it, any day
    if _SPEAKER.search(before):
        return True  # `interaction: Clayton: Tomorrow after I…`: a transcript quotes speech
    if _TRIGGER.search(line):
        return True  # `Trigger: Cron (weekly) → … re-schedules for next week`: every run's
    if re.fullmatch(r"(?:next|this|last)\s+month", words, re.IGNORECASE) and _MONTH_NAMED.search(
        line
    ):
        return True  # `CME Jul WTI (next month)`: the line names the month it means
    if _PLACEHOLDER.search(clause):
        return True  # `Read memory/YYYY-MM-DD.md (today + yesterday)`: a procedure, any day
    end = _QUESTION_END.search(after)
    if end is not None and end.group() == "?":
        return True  # a question asks about a day, or imagines one
    if possessive and re.match(r"..\s+date\b", after, re.IGNORECASE):
        return True  # `today's date`: the idea of the current date
    if re.search(r"\bin\s+$", before, re.IGNORECASE) and re.match(_ERA, after, re.IGNORECASE):
        return True  # `in today's world`: the present era, not a day
    return bool(_LABEL_ROW.search(before) or re.match(r"\s+[/−](?:\s|$)", after))


def dated_heading(line: str) -> bool:
    """Whether LINE is a heading that states a calendar date: its relative words are pinned."""
    return _HEADING_LINE.match(line) is not None and _CALENDAR.search(line) is not None


def inside_double_quotes(before: str, after: str) -> bool:
    """Whether the match sits between a pair of double quotes on its line, or of single quotes
    around a title (`'Hurry Up Tomorrow'`; an apostrophe inside a word is not a quote)."""
    straight = before.count('"') % 2 == 1 and '"' in after
    curly = before.count("“") > before.count("”") and "”" in after
    opened = _SINGLE_OPEN.search(before)
    if opened is None or _SINGLE_CLOSE.search(before[opened.end() :]):
        return straight or curly
    return straight or curly or _SINGLE_CLOSE.search(after) is not None
