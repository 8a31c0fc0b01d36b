"""Day words that name something shown or listed, not a day: a view, a filter, a column, a
bucket, a stat's period, an item in a list of names.

A dashboard's `today filter`, a screen `showing only today and the next seven days`, a table's
`| Metric | Today | Trend |`, `stats (today's bookings, weekly, monthly revenue)`, `(inbox,
today, focus)`, `CNBC, USA Today, InStyle`, `treated as Today tasks`, `Psychology Today (Nov
2024)`: the day word is the name of what a view or a list holds, or of a publication, the
same whatever day it is read. Found on the blind corpora
(heldout5 to heldout10) and the sweeps (docs/BENCHMARKS.md); split out of
`memsync.consolidate.lookalike`, which asks these rules first. Imports the standard library
and `memsync.consolidate.sections` (whether text is a heading).
"""

from __future__ import annotations

import re

from memsync.consolidate import sections

_WEEKDAY_WORD = re.compile(
    r"\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b", re.IGNORECASE
)
_LOWER_WORD_BEFORE = re.compile(r"(?:^|\s)[a-z]+ $")
_NAME_AFTER = re.compile(r"(?:['’]s)?\s+[A-Z][a-z]")
# `**Open for Tomorrow:**`: a line in bold alone is a heading too.
_BOLD_OPENS = re.compile(r"^\s*(?:[-*+]\s+)?\*\*[^*]*$")
_BOLD_CLOSES = re.compile(r"^[^*]*\*\*\s*$")
# `Today's Hearings card`, `This Week Focus Card`: Title-Case words naming a part of a screen.
_UI_PART_AFTER = re.compile(
    r"^(?:['’]s)?(?:\s+[A-Z][\w'’-]*){1,3}\s+(?i:card|tab|panel|widget|screen|button|modal)s?\b"
)
_LIST_BEFORE = re.compile(r"[,(]\s*$")
_LIST_AFTER = re.compile(r"^(?:['’]s)?\s*[,)]")
# Capitalised words after a comma, right before: `CNBC, USA Today, InStyle` (a list of names).
_NAME_WORD_BEFORE = re.compile(r"[,;]\s+(?:[A-Z][\w&.'’-]*\s+)+$")
# A publication named `… Today` (`Psychology Today (Nov 2024)`, `Medical News Today: …`).
_MASTHEAD_BEFORE = re.compile(
    r"\b(?:Psychology|Physics|Chemistry|Christianity|Medical\s+News|USA|Russia|India)\s+$"
)
# A one-word item between one-word items of a list: `(inbox, today, focus)`.
_WORD_ITEM_BEFORE = re.compile(r"[(,:]\s*[a-z][\w-]*,\s*$")
_WORD_ITEM_AFTER = re.compile(r"\s*,\s*[a-z][\w-]*\s*[,)]")
# `Working indicators: today, session, temporary`: the first of three or more after a colon.
_FIRST_ITEM_BEFORE = re.compile(r":\s*(?:\*\*|__)?$")
_FIRST_ITEM_AFTER = re.compile(r"^(?:,\s+[a-z][\w-]*){2,}\s*$")
# `5 tabs: Today, ⚠️ Stale Deals, Pipeline`: the first of a list of names after a colon.
_NAMES_AFTER_COLON = re.compile(r"^(?:['’]s)?\s*,\s*\W{0,3}\s*[A-Z]")
# What a screen shows, a filter picks or a list is grouped into (`a weekly view showing only
# today and the next seven days`, `grouped into today and tomorrow`, `View today, Quick
# booking`, `today filter button`): a view's rolling day, whatever day it is looked at.
_DISPLAY_BEFORE = re.compile(
    r"\b(?:(?:show(?:s|ing)?|display(?:s|ing)?)(?:\s+only)?|view(?:\s+(?:of|for))?"
    r"|filter(?:s|ed|ing)?\s+(?:to|by|for|on)"
    r"|(?:group|bucket|split)(?:s|ed|ing)?(?:\s+\w+ly)?\s+into"
    r"|(?:sort|order)(?:s|ed|ing)?\s+by\s+[\w ]{1,25}?\s+for)\s+$",
    re.IGNORECASE,
)
# `🏠 Home screen: today's meds, appointments`, `Column 1 (small): Today's NBA Games`: what a
# screen or a part of it lists (a possessive after it).
_SCREEN_LABEL = re.compile(
    r"\b(?:screen|page|tab|dashboard|view|widget|panel|column|pane)\s*\d*\s*(?:\([^()]*\)\s*)?"
    r"(?:\*\*|__)?\s*:(?:\*\*|__)?\s+$",
    re.IGNORECASE,
)
# `Screens: **Tonight** (light, …) + **Wind-down**`: a screen's name, one of those listed.
_SCREENS_NAMED = re.compile(
    r"\b(?:screens|pages|tabs|views)\s*(?:\*\*|__)?\s*:(?:\*\*|__)?\s+(?:\*\*|__)$",
    re.IGNORECASE,
)
# `grouped into today and tomorrow`, `for today first, then tomorrow`: the day word before.
_COORDINATED_DAY = re.compile(
    r"(?:today|tomorrow|yesterday|tonight)(?:['’]s)?(?:\s+first)?\s*(?:,\s*then|,|and|or|&)\s+$",
    re.IGNORECASE,
)
_DISPLAY_AFTER = re.compile(
    r"(?:['’]s)?\s*\**\s*"
    r"(?:filter|view|tab|column|label|button|widget|bucket|panel|toggle|screen|page)s?\b",
    re.IGNORECASE,
)
# A table cell holding only the phrase, and a row of column names (`| Metric | Today |`).
_CELL_BEFORE = re.compile(r"\|[^\w|]*$")
_CELL_AFTER = re.compile(r"(?:['’]s)?[^\w|]*\|")
_COLUMN_NAME = re.compile(r"[A-Z][A-Za-z'’/&-]*(?:\s[A-Za-z][A-Za-z'’/&-]*)?")
# Periods a view or a score names side by side: `Today, week, projected monthly`, `Today +
# 14-day graph`, `today +0.2, this week +0.1`, `18 This Week, 8 Backlog`; with a reading, a
# day's figure (`Today's pnl=$0, week pnl=$40.25`).
_PERIODS = re.compile(
    r"(?:today|yesterday|week|month)\b[^,+;|\d=$]{0,20}?(?:,|\s\+)\s*(?:[a-z]+\s+)?"
    r"(?<!this )(?<!next )(?<!last )(?<!a )(?<!per )(?<!the )"
    r"(?:week|month|year|weekly|monthly|yearly|all[- ]time|\d+-day|\d+d)\b(?!\s+(?:of|ago))"
    r"|\b(?:today|week|month)\s+[+\-−]\d|[,(:]\s*\d+\s+(?-i:This\s+Week)\b",
    re.IGNORECASE,
)
# `stats (today's bookings, weekly, monthly revenue)`: a list of a stat's periods.
_BUCKETS = re.compile(
    r"[^,)]*,[^)]*\b(?:daily|weekly|monthly|yearly|annual|all[- ]time|lifetime)\b", re.IGNORECASE
)


# What a screen's part holds, listed after its name: `Dashboard (KPIs, bays, active jobs,
# today's appointments)`, `| Dashboard widget | Today's appointments on home |`.
_SURFACE = r"\b(?:dashboard|widget|screen|panel|card|sidebar)s?\b"
_SURFACE_ITEMS = re.compile(
    rf"{_SURFACE}[^()\n|]{{0,20}}\((?:[^(),\n]+,\s*)+[^(),\n]{{0,30}}$"
    # `Dashboard with low-stock count, today's transactions count, inventory table`
    rf"|{_SURFACE}\s+with\s+(?:[^(),\n]+,\s*)+$",
    re.IGNORECASE,
)
_SURFACE_CELL = re.compile(rf"\|[^|\n]*{_SURFACE}[^|\n]*\|\s*$", re.IGNORECASE)
# A table cell giving a field's type: `| \`velocity_d1\` | int (units yesterday) |`.
_TYPED_CELL = re.compile(
    r"\|\s*`?(?:int|integer|float|double|str|string|bool|boolean|number|decimal|date|datetime"
    r"|timestamp)\b`?\s*\([^|)\n]*$",
    re.IGNORECASE,
)
# Three or more options joined by bare slashes: `labels (Today/Tomorrow/Apr 5 instead of
# must/should)`, `spend (today/7d/30d/all-time)`. No writer means three days at once; two
# (`if no session today/tomorrow`) may be one of two days, and stay dates.
_SLASHED_BEFORE = re.compile(r"(?:[\w'’+-]+(?: [\w'’+-]+)?/)+$")
_SLASHED_AFTER = re.compile(r"(?:['’]s)?(?:/[\w'’+-]+(?: [\w'’+-]+)?)+")


# A shouted name and what it labels: `TODAY + EARLIER sections`, `StreakCard (THIS WEEK
# section)`, `TODAY section: 3 rows` (a screen's group, whatever day it is looked at).
_CAPS_LABEL_AFTER = re.compile(
    r"(?:\s*[+/&,]\s*[A-Z][A-Z ]{2,}?)*\s*(?:sections?|groups?|headers?|headings?|buckets?"
    r"|tabs?|labels?|chips?|pills?|badges?)\b"
)


def own_cell(before: str, after: str) -> bool:
    """Whether the phrase between BEFORE and AFTER is a table cell of its own."""
    return bool(_CELL_BEFORE.search(before) and _CELL_AFTER.match(after))


def shown_or_listed(
    line: str, before: str, after: str, words: str, *, lead: str, tail: str, possessive: bool
) -> bool:
    """Whether WORDS, between BEFORE and AFTER on LINE (LEAD and TAIL: its clause's parts),
    name what a view shows or a list holds, not a day."""
    if (_LIST_BEFORE.search(before) and _BUCKETS.match(after)) or _PERIODS.search(
        lead + words + tail
    ):
        return True  # `stats (today's bookings, weekly, monthly revenue)`: a stat's period
    if (
        _displayed(lead)
        or _DISPLAY_AFTER.match(after)
        or (words.isupper() and _CAPS_LABEL_AFTER.match(after))
        or (possessive and _SCREEN_LABEL.search(lead))
        or (words[:1].isupper() and _SCREENS_NAMED.search(lead))
    ):
        return True  # `a view showing only today`, `today filter`: a view's day, any day
    item = possessive or _LIST_AFTER.match(after) is not None  # `appointments today)`
    if item and (_SURFACE_ITEMS.search(lead) or _SURFACE_CELL.search(before)):
        return True  # `Dashboard (KPIs, today's appointments)`: what a screen's part shows
    if line.lstrip().startswith("|") and _TYPED_CELL.search(before):
        return True  # `| \`velocity_d1\` | int (units yesterday) |`: a schema's field
    if _slashed_options(before, after) >= 3:
        return True  # `Today/Tomorrow/Apr 5`: one option of a label's three
    listed_age = words.lower().endswith(" ago") and "://" in line  # a feed's `| 3 days ago |`
    if own_cell(before, after) and (_header_row(line) or listed_age):
        return True  # `| Metric | Today | Trend |`: a column's name; a listing's copied age
    if _FIRST_ITEM_BEFORE.search(before) and _FIRST_ITEM_AFTER.match(after):
        return True  # `Working indicators: today, session, temporary`: one of the words listed
    return bool(_WORD_ITEM_BEFORE.search(before) and _WORD_ITEM_AFTER.match(after))


def named_label(expression: str, before: str, after: str) -> bool:
    """Whether a capitalised phrase mid-sentence names a bucket, view or list item, not a day:
    `treated as Today tasks`, `Inbox, THIS WEEK, NEXT WEEK`, `(This Week, Next Month)`,
    `hero sticky, Today's Bookings clickable`."""
    words = expression.split()
    if not all(w[:1].isupper() for w in words) or _WEEKDAY_WORD.search(expression):
        return False  # a weekday is capitalised wherever it stands
    if expression == "Today" and _MASTHEAD_BEFORE.search(before):
        return True  # `Psychology Today (Nov 2024)`: a magazine
    shouted = expression.isupper()  # `ToS TODAY`: emphasis, not a name
    if _LIST_BEFORE.search(before) and _LIST_AFTER.match(after):
        return before.rstrip().endswith(",") or after.lstrip("'’s").lstrip().startswith(",")
    if before.rstrip().endswith(":") and _NAMES_AFTER_COLON.match(after):
        return True
    if shouted:
        return False
    if _UI_PART_AFTER.match(after):
        return True  # `(Today's Hearings card)`, `#### B) This Week Focus Card`: a part's name
    if sections.in_heading(before) or (_BOLD_OPENS.match(before) and _BOLD_CLOSES.match(after)):
        return False  # a heading capitalises its words: `## Priority Order for Tonight`
    if _NAME_WORD_BEFORE.search(before):
        return True  # `CNBC, Huffington Post, USA Today, InStyle`: the end of a name
    named = _NAME_AFTER.match(after) is not None  # `, Today's Bookings`: a view's name
    return bool(_LOWER_WORD_BEFORE.search(before) or (before.rstrip().endswith(",") and named))


def _slashed_options(before: str, after: str) -> int:
    """How many options a phrase between BEFORE and AFTER is one of, joined by bare slashes."""
    ahead = _SLASHED_BEFORE.search(before)
    behind = _SLASHED_AFTER.match(after)
    return 1 + sum(m.group().count("/") for m in (ahead, behind) if m is not None)


def _header_row(line: str) -> bool:
    """Whether LINE is a table row of column names: short capitalised labels, no figures."""
    cells = [c.strip(" *_") for c in line.strip().strip("|").split("|")]
    return len(cells) >= 2 and all(_COLUMN_NAME.fullmatch(c) for c in cells)


def _displayed(lead: str) -> bool:
    """Whether the clause before a phrase ends in what a view shows, or in a day word that does."""
    coordinated = _COORDINATED_DAY.search(lead)
    if coordinated is not None:
        return _displayed(lead[: coordinated.start()])
    return _DISPLAY_BEFORE.search(lead) is not None
