"""Finding relative date expressions: a closed English grammar and its look-alike rules.

The grammar is deliberately closed (see docs/CONSOLIDATION.md): a free-text date search
misfires on ordinary words (`May I`, `a second opinion`, `for now`), so only the listed
expressions are recognised, and only outside code, URLs, link targets and frontmatter keys.
`memsync.consolidate.dates` resolves what is found here to ISO dates; the look-alike rules are
in `lookalike` (and `present`, `sections`, `weekdays`), how a match reads in `phrasing`.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

from memsync.consolidate import habits, labels, lookalike, phrasing, sayings, sections
from memsync.consolidate.weekdays import WEEKDAYS, bare_weekday, told_in_past
from memsync.model.mdspans import protected_spans


def _words(text: str) -> list[str]:
    return text.split()


_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_TEENS = _words("ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen")
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
_TENS |= {"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}

_WD = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_POD = r"(?:morning|afternoon|evening|night)"
_NUM = (
    rf"(?:\d{{1,3}}|(?:{'|'.join(_TENS)})(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?"
    rf"|{'|'.join(reversed(_TEENS))}|{'|'.join(_UNITS[1:])}|an?)"
)
_UNIT = r"(?:days?|weeks?|fortnights?|months?|years?)"

_PATTERN_SOURCE = rf"""(?<![\w])(?:
      (?P<dby>(?:the\s+)?day\s+before\s+yesterday)
    | (?P<dat>(?:the\s+)?day\s+after\s+tomorrow)
    | (?P<wan>the\s+week\s+after\s+next)
    | (?P<ago>(?P<ago_n>{_NUM})\s+(?P<ago_u>{_UNIT})\s+ago)
    | (?P<hence>(?:in\s+)?(?P<hence_n>{_NUM})\s+(?P<hence_u>{_UNIT})
               \s+(?:from\s+(?:now|today)|hence))
    | (?P<inn>in\s+(?P<in_n>{_NUM})\s+(?P<in_u>{_UNIT})(?:['’]?s?\s+time(?![\w]))?)
    | (?P<wdan>(?P<wdan_d>{_WD})\s+after\s+next)
    | (?P<rel>(?P<rel_w>last|this|next)\s+(?:(?P<rel_d>{_WD})(?:\s+(?P<rel_p>{_POD}))?
                                        |(?P<rel_u>weekend|week|month|year)))
    | (?P<pod>(?P<pod_w>yesterday|today|tomorrow)\s+(?P<pod_p>{_POD})
              |this\s+(?P<pod_t>morning|afternoon|evening)|(?P<pod_n>tonight)|last\s+(?P<pod_l>night))
    | (?P<word>yesterday|today|tomorrow)
    | (?P<bare>(?P<bare_d>{_WD})(?:\s+(?P<bare_p>{_POD}))?)
    )(?![\w])"""


@functools.cache  # compiled on first use: importing the grammar compiles nothing
def _pattern() -> re.Pattern[str]:
    return re.compile(_PATTERN_SOURCE, re.IGNORECASE | re.VERBOSE)


# Every expression of the grammar contains one of these: a cheap test before the full scan.
_KEYWORDS = (
    *("yesterday", "today", "tomorrow", "tonight", "ago", "hence", "from now", "after next"),
    *("week", "month", "year", "night", "morning", "afternoon", "evening", "day", "fortnight"),
    *("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
)
_ANCHOR = re.compile(
    r"yesterday|today|tomorrow|tonight|ago\b|hence|now\b|next\b|last\b|this\b|days?\b|weeks?"
    r"|months?\b|years?\b|fortnights?\b|night|morning|afternoon|evening|(?:mon|tues|wednes"
    r"|thurs|fri|satur|sun)day"
)
_WINDOW = 40  # longer than any expression's words before its first anchor
# Words that make the day a noun phrase of their own (`the following Monday`, `your Friday`).
_ARTICLE_LIKE = frozenset(
    _words("the a an every each per any that same previous prior following my your our their")
)
_NOT_A_POINT = frozenset(_words("over under nearly almost within"))
_DURATION_VERBS = frozenset(
    _words(
        "finished finish finishes completed complete completes done built build builds "
        "ran run runs took take takes taking compiled compiles converged converges "
        "loaded loads"
    )
)
_VAGUE_AFTER = re.compile(r"\s+or\s+(?:so|two|three|more|less|later|earlier)\b", re.IGNORECASE)
_DATE_AFTER = re.compile(
    # What a rewrite of the next phrase writes (`Friday yesterday` -> `Friday on 2026-05-12`,
    # `Friday next week` -> `Friday in 2026-W20`) pins the weekday as `Friday 12 May` does:
    # else a second run would convert what the first left alone.
    r",?\s+(?:(?:on|in)\s+)?(?:the\s+(?:morning|afternoon|evening|night|week|weekend)\s+of\s+"
    r"(?=\d{4}-))?(?:\d{4}-(?:W\d\d|\d\d)\b|\d{1,4}\b(?![:.]\d|\s*[ap]\.?m\b)|\d{1,2}(?:st|nd|rd|th)\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct"
    r"|nov|dec)[a-z]*\b)",
    re.IGNORECASE,
)
_WORD_BEFORE = re.compile(r"([A-Za-z~]+)\W*$")
_TWO_WORDS_BEFORE = re.compile(r"([A-Za-z]+)\s+([A-Za-z]+)\s*$")
_WORD_AFTER = re.compile(r"^\s+([A-Za-z']+)")


@dataclass(frozen=True)
class DateMatch:
    """One relative date expression found in a text."""

    start: int
    end: int
    expression: str
    kind: str  # day | part-of-day | week | weekend | month | year
    recipe: tuple[str, int, int] = ("days", 0, 0)
    part: str | None = None
    possessive: bool = False
    mode: str = "adverb"  # how it reads in its sentence: adverb | noun | noun-in | elided
    chained_range: bool = False
    capital: bool = False  # starts a sentence: the replacement starts with a capital too
    pinned: bool = False  # an explicit date next to it already says the day: left as it is


def parse_number(text: str) -> int:
    """The value of a number in the grammar: digits, `a`/`an` or spelled-out English words."""
    word = text.lower()
    if word.isdigit():
        return int(word)
    if word in ("a", "an"):
        return 1
    total = 0
    for part in re.split(r"[- ]", word):
        if part in _TENS:
            total += _TENS[part]
        elif part in _TEENS:
            total += 10 + _TEENS.index(part)
        else:
            total += _UNITS.index(part)
    return total


def find_relative_dates(text: str) -> list[DateMatch]:
    """Relative date expressions in TEXT outside code, URLs, link targets and frontmatter keys."""
    lowered = text.lower()
    if not any(word in lowered for word in _KEYWORDS):
        return []  # most notes: no word of the grammar at all, no need to map Markdown
    spans: list[tuple[int, int]] | None = None
    starts: list[int] = []
    found: list[DateMatch] = []
    for window_start, window_end in _windows(lowered):
        for match in _pattern().finditer(text, window_start, window_end):
            if spans is None:
                spans = protected_spans(text)
                starts = [s for s, _ in spans]
            if _is_protected(match.start(), match.end(), spans, starts):
                continue
            accepted = _accept(match, text, found)
            if accepted is not None:
                found.append(accepted)
    return found


def _windows(lowered: str) -> list[tuple[int, int]]:
    """Stretches of text around anchor words where an expression can be: the full grammar
    is slow to try at every character, and every expression has an anchor near its start."""
    windows: list[tuple[int, int]] = []
    for anchor in _ANCHOR.finditer(lowered):
        line_start = lowered.rfind("\n", 0, anchor.start()) + 1
        line_end = lowered.find("\n", anchor.end())
        start = max(line_start, anchor.start() - _WINDOW)
        end = min(len(lowered) if line_end < 0 else line_end, anchor.end() + _WINDOW)
        while start > line_start and lowered[start - 1].isalnum():
            start -= 1  # never start inside a word
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(end, windows[-1][1]))
        else:
            windows.append((start, end))
    return windows


def _is_protected(start: int, end: int, spans: list[tuple[int, int]], starts: list[int]) -> bool:
    i = bisect.bisect_right(starts, start) - 1
    if i >= 0 and spans[i][1] > start:
        return True
    j = bisect.bisect_left(starts, start)
    return j < len(spans) and spans[j][0] < end


def _line_bounds(text: str, pos: int) -> tuple[int, int]:
    """The line around POS, at most _REACH characters either side: the rules read a clause or a
    sentence, and a line of megabytes must not make every match on it read all of it."""
    start = text.rfind("\n", max(0, pos - _REACH), pos) + 1 or max(0, pos - _REACH)
    end = text.find("\n", pos, pos + _REACH)
    return start, min(len(text), pos + _REACH) if end < 0 else end


@dataclass(frozen=True)
class Context:
    """What surrounds one grammar match on its line."""

    text: str
    start: int
    before: str
    after: str
    prev: str | None
    nxt: str | None
    at_start: bool
    found: list[DateMatch]


def _accept(match: re.Match[str], text: str, found: list[DateMatch]) -> DateMatch | None:
    """Apply the look-alike rules to one grammar match; build its DateMatch."""
    start, end = match.span()
    line_start, line_end = _line_bounds(text, start)
    before, after = text[line_start:start], text[end:line_end]
    if before and (
        before[-1].isalnum() or before[-1] in "-_=.@#$\\&·≥≤" or _slash(before, True, match.group())
    ):
        return None
    line = text[line_start:line_end]
    possessive = after[:2].lower() in ("'s", "’s") and not after[2:3].isalnum()
    if lookalike.not_a_date(
        line, before, after, match.group(), possessive=possessive
    ) or sections.days_not_its_own(text, line_start, line_end):
        return None
    if possessive:
        end, after = end + 2, after[2:]
    # `today.isoformat`, not `COI today._` (an italic's end after the full stop)
    if after and (after[0].isalnum() or after[0] in "-_=@\\·+" or re.match(r"[.:][^\W_]", after)):
        return None
    if _slash(after, False, match.group()) or re.match(r"\s*[=<>]\s*\w+_\w", after):
        return None  # `today = today_date - start`: a formula's variable
    if before[-1:] in "\"'“‘`" and before[-1:] and after[:1] in "\"'”’`" and after[:1]:
        return None  # a quoted mention of the words, not a use
    if sayings.inside_quotes(before, after) and not _yaml_quoted(text, line_start, line):
        return None  # a quotation (a UI string, what someone said) stays verbatim
    prev_match = _WORD_BEFORE.search(before)
    prev = prev_match.group(1).lower() if prev_match else None
    next_match = _WORD_AFTER.match(after)
    nxt = next_match.group(1) if next_match else None
    at_start = lookalike.sentence_start(before)
    expression = text[start:end]
    inner = any(w[0].isupper() and w.lower() not in WEEKDAYS for w in expression.split()[1:])
    title = ((expression[0].isupper() and not at_start) or inner) and _capitalized(nxt)
    title = title and (nxt or "") not in _CLOCK_ABBREVIATIONS  # `Tomorrow EOD`: a time, no name
    title = title and not sections.in_heading(before)  # a heading capitalises every word
    if _VAGUE_AFTER.match(after) or title or labels.named_label(expression, before, after):
        return None  # `or so`; a title: "the Today Show", "this Evening Integration"
    ctx = Context(text, start, before, after, prev, nxt, at_start, found)
    kind_and_recipe = _recipe(match, ctx)
    if kind_and_recipe is None:
        return None
    kind, recipe, part, chained_range = kind_and_recipe
    mode = "elided" if possessive and phrasing.elided(after) else phrasing.mode(kind, ctx)
    # `## 🎯 Today's Achievements`: after marks and emoji alone a capital still opens the line
    capital = expression[:1].isupper() and (at_start or _MARKS_ONLY.fullmatch(before) is not None)
    pin = lookalike.pinned(before, after, possessive=possessive)
    pin = pin or sections.dated_heading(line, before, after)
    return DateMatch(
        start, end, expression, kind, recipe, part, possessive, mode, chained_range, capital, pin
    )


# `description: "Shipped today: the fix"`: YAML quotes a scalar holding `: `; the quotes are
# syntax, not a quotation, and the index line made from it shows no quote marks at all.
_YAML_QUOTED = re.compile(r"""[ \t]*[\w.-]+:[ \t]*(?:"[^"\\]*"|'[^']*')[ \t]*""")


def _yaml_quoted(text: str, line_start: int, line: str) -> bool:
    """Whether LINE (starting at LINE_START in TEXT) is a frontmatter field whose value is one
    quoted scalar."""
    if not text.startswith("---") or _YAML_QUOTED.fullmatch(line) is None:
        return False
    end = text.find("\n---", 3)
    return line_start > 0 and (end < 0 or line_start <= end)


_REACH = 1000
_CLOCK_ABBREVIATIONS = frozenset(["EOD", "EOW", "COB", "AM", "PM", "ET", "PT", "UTC", "GMT"])
_MARKS_ONLY = re.compile(r"[\W_]*")
_DAY_WORD = re.compile(r"(?:today|tomorrow|yesterday|tonight|overnight)", re.IGNORECASE)


def _slash(side: str, before: bool, words: str) -> bool:
    """A `/` joining the match (WORDS) to something other than another day word
    (`today/tomorrow`), or a day word to a weekday (`tomorrow/Sunday`)."""
    if not side.endswith("/") if before else not side.startswith("/"):
        return False
    other = re.search(r"(\w+)/$", side) if before else re.match(r"/(\w+)", side)
    if other is None:
        return True
    # `tomorrow/Sunday`: a weekday paired with a day word names its day; `Mon/Wed` a schedule
    pairs = _DAY_WORD.fullmatch(other.group(1)) or (
        other.group(1).lower() in WEEKDAYS and _DAY_WORD.fullmatch(words) is not None
    )
    return not pairs


def _recipe(
    match: re.Match[str], ctx: Context
) -> tuple[str, tuple[str, int, int], str | None, bool] | None:
    """(kind, recipe, part of day, chained range) for a grammar match, or None to skip it."""
    before, after, prev, nxt = ctx.before, ctx.after, ctx.prev, ctx.nxt
    group = match.lastgroup
    g = match.group
    if group == "dby":
        return "day", ("days", -2, 0), None, False
    if group == "dat":
        return "day", ("days", 2, 0), None, False
    if group == "wan":
        return "week", ("week", 2, 0), None, False
    if group in ("ago", "hence", "inn"):
        prefix = {"ago": "ago", "hence": "hence", "inn": "in"}[group]
        if group == "ago" and (prev in _NOT_A_POINT or _two_words(before) in _APPROX_BOUNDS):
            return None
        if _NUMBER_RANGE_BEFORE.search(before):
            return None  # "two or three days ago": a range, not a day
        if group == "inn" and (prev in _DURATION_VERBS or prev in ("every", "once")):
            return None
        if group == "inn" and (lookalike.counted_period(before, after) or told_in_past(before)):
            return None
        if group == "inn" and habits.standing_period(before):
            return None  # `Access tokens expire in 2 days`: a rule's period, any day
        count = parse_number(g(f"{prefix}_n"))
        unit = g(f"{prefix}_u").lower().rstrip("s")
        if g(f"{prefix}_n").lower() in ("a", "an") and g(f"{prefix}_u").lower().endswith("s"):
            return None
        sign = -1 if group == "ago" else 1
        if unit in ("day", "week", "fortnight"):
            days = count * {"day": 1, "week": 7, "fortnight": 14}[unit]
            return "day", ("days", sign * days, 0), None, False
        months = count * (12 if unit == "year" else 1)
        return "month", ("months", sign * months, 0), None, False
    if group in ("rel", "wdan", "bare") and prev in _ARTICLE_LIKE:
        return None
    if group in ("rel", "wdan", "bare") and re.match(r"\s+of\b", after, re.IGNORECASE):
        return None
    if group == "wdan":
        if _DATE_AFTER.match(after) or _capitalized(nxt):
            return None
        day = WEEKDAYS.index(g("wdan_d").lower())
        return "day", ("weekday", day, 2), None, False
    if group == "rel":
        relation = {"last": -1, "this": 0, "next": 1}[g("rel_w").lower()]
        unit_word = g("rel_u")
        if unit_word is not None:
            unit = unit_word.lower()
            kind = {"week": "week", "weekend": "weekend", "month": "month", "year": "year"}[unit]
            return kind, (unit, relation, 0), None, False
        if _DATE_AFTER.match(after) or _capitalized(nxt):
            return None
        part = g("rel_p").lower() if g("rel_p") else None
        day = WEEKDAYS.index(g("rel_d").lower())
        return ("part-of-day" if part else "day"), ("weekday", day, relation), part, False
    if group == "pod":
        if g("pod_w"):
            offset = {"yesterday": -1, "today": 0, "tomorrow": 1}[g("pod_w").lower()]
            part = g("pod_p").lower()
        elif g("pod_t"):
            offset, part = 0, g("pod_t").lower()
        elif g("pod_n"):
            offset, part = 0, "night"
        else:
            if prev in _ARTICLE_LIKE:
                return None
            offset, part = -1, "night"
        return "part-of-day", ("days", offset, 0), part, False
    if group == "word":
        word = g("word")
        if lookalike.idiom(before, word):
            return None
        possessive = ctx.text[match.end() : match.end() + 2].lower() in ("'s", "’s")
        if possessive and phrasing.is_contracted(ctx.text[match.end() : match.end() + 40]):
            return None
        if possessive and lookalike.recurring_day(_line(ctx), len(before), word):
            return None  # `summary of today's brief` in a daily job: every day's
        offset = {"yesterday": -1, "today": 0, "tomorrow": 1}[word.lower()]
        return "day", ("days", offset, 0), None, False
    if _DATE_AFTER.match(ctx.after) or _capitalized(ctx.nxt):
        return None
    if habits.habitual_weekday(before, after):
        return None  # `Monday is the team's no-meeting day`, `happens Monday at 10:00`
    decided = bare_weekday(g("bare_d"), ctx, match.end())
    if decided is None:
        return None
    day = WEEKDAYS.index(g("bare_d").lower())
    part = g("bare_p").lower() if g("bare_p") else None
    return ("part-of-day" if part else "day"), ("bare", day, decided[0]), part, decided[1]


_NUMBER_RANGE_BEFORE = re.compile(rf"(?<![\w]){_NUM}\s+(?:or|to)\s+$", re.IGNORECASE)
_APPROX_BOUNDS = frozenset({"more than", "less than", "at least", "at most", "up to"})


def _two_words(before: str) -> str | None:
    found = _TWO_WORDS_BEFORE.search(before)
    return f"{found.group(1).lower()} {found.group(2).lower()}" if found else None


def _line(ctx: Context) -> str:
    start, end = _line_bounds(ctx.text, ctx.start)
    return ctx.text[start:end]


def _capitalized(word: str | None) -> bool:
    return bool(word) and word is not None and word[0].isupper() and word != "I"
