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
(`Trigger: Cron (weekly Mondays) → analyzes last week's performance`: counted from each run);
on the whole held-out corpus, a condition (`If neither fills, the trade isn't working today`),
standing instructions under their heading (`## How to apply`, `# … Protocol`, a template's
`YYYY-MM-DD` title), a formula on the line (`[today, today+n]`) and `Every platform today`;
on a second blind corpus (tests/data/dates/heldout5.json), a capitalised day word that names a
bucket or a list item (`treated as Today tasks`, `Inbox, THIS WEEK, NEXT WEEK`) and a date
pinning the phrase with its year (`March 25, 2026 (tomorrow)`); on four blind corpora
(heldout5 to heldout8), what a view shows (`showing only today`), schedules and routines
(`**Weekly**:`, `## Task Management (Daily)`), `once`/`always` sentences, a template's blank,
a numbered procedure's step, a name in a list of names (`USA Today`), a mapping's or a
default's value and a day word alone in a dated table row's cell; on heldout9 and heldout10,
column names, what is done at every session start or run, a set of days to load (`today +
yesterday`) and one-word names in a list (`(inbox, today, focus)`); on whole swept memory
folders (tests/test_dates_sweep_rules.py), periods named side by side, a count or a negation
over a period, a day of each month, a schedule table's row, and a date beside the phrase that
already says its day. The rules that read a line through its headings are in
`memsync.consolidate.sections`, those for what a view shows or a list holds in
`memsync.consolidate.labels`, and `today` meaning the present in `memsync.consolidate.present`.
"""

from __future__ import annotations

import re

from memsync.consolidate import habits, labels, present, sayings, sections
from memsync.consolidate.weekdays import PAST_CUES

_MONTH = sections.MONTH
_WEEKDAY = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?"
# A calendar date in words or ISO form, and with a month/day one (`5/6` is a count as often).
_CAL_NAMED = rf"(?:{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+20\d\d\b)?|\d{{4}}-\d\d-\d\d\b)"
_CAL = rf"(?:{_CAL_NAMED}|\d{{1,2}}/\d{{1,2}}\b)"
# A date (and its weekday) closing a parenthesis: `(Apr 15)`, `(Wed 4/29)`.
_DATE_CLOSING = rf"\s*(?:{_WEEKDAY}\s+)?{_CAL}(?:\s+{_WEEKDAY})?\s*\)"
_PIN_AFTER = re.compile(rf"^\s*[(,]{_DATE_CLOSING}", re.IGNORECASE)
_PIN_BEFORE = re.compile(rf"{_CAL}\s*[(,]?\s*~?\s*$", re.IGNORECASE)  # `April 16 (~today)`
# `tomorrow's weather (Feb 11)`: the date after the noun is the day the possessive names.
_PIN_POSSESSIVE = re.compile(
    rf"^(?:['’]s)?\s+[\w-]+(?:\s+[\w-]+)?\s*\({_DATE_CLOSING}", re.IGNORECASE
)
# Not `5/6` here: after a label's colon that is a count (`Signals today: 5/6 filed`). The date
# may be bold (`Today is **2026-06-13**`).
_PIN_NAMED = re.compile(
    rf"^(?:\s+(?:is|was)|(?:\*\*|__)?:(?:\*\*|__)?)?\s+(?:\*\*|__)?(?:{_WEEKDAY}\s+)?`?{_CAL_NAMED}",
    re.IGNORECASE,
)
# `⭐ 1,412 stars today`, `⭐7 today`: GitHub Trending's count for the last day, a rate.
_IDIOM_BEFORE = re.compile(
    r"(?:(?:^|[^\w])(?:none|nobody|no\s+one)\s+\w+|\bha(?:s|ve)\s+been|\d[\d,.]*k?\s+stars"
    r"|⭐\s*\d[\d,.]*k?)\s+$",
    re.IGNORECASE,
)
# `At 9 PM CDT, UTC is already tomorrow`: where a clock stands, not a day.
_CLOCK_BEFORE = re.compile(r"\b(?:is|are|it['’]s)\s+already\s+$", re.IGNORECASE)
# Only a present want can be for yesterday: `wanted it yesterday` may say when.
_WANT_BEFORE = re.compile(r"\b(?:wants?|needs?)\s+(?:[\w.-]+\s+){0,3}$", re.IGNORECASE)
_COUNT_BEFORE = re.compile(
    r"\b(?:\w+est|most|least|first|second|third|only|once|twice|times?|instances?|record)\b"
    r"|\d[\d,.]*[kmbx]?\+?\s+(?!days?\b|weeks?\b|months?\b)[a-z]|\d%|\$\d|\d[\d,.]*x?\s*$"
    r"|\b(?:no|not|none|never|nothing|zero)\b"
    r"|\b(?:two|three|four|five|six|seven|eight|nine|ten|dozens?)\s+[a-z]+s\b",
    re.IGNORECASE,
)
_OTHER_START = re.compile(r"\s+(?:from|after|of|since)\s+(?!now\b|today\b)", re.IGNORECASE)
_CLAUSE_STOP = re.compile(r"[.;:!?(—–]|\s-\s")
_RECURRING_DAY = re.compile(r"\b(?:every|each|cron|recurring|reminder)\b", re.IGNORECASE)
_LAST_RUN = re.compile(r"\blast\s+run\b", re.IGNORECASE)
# Not `the recurring-template track`: a compound's first half names a thing, no recurrence.
_EVERY_RUN = re.compile(r"\b(?:every|each|recurring)\b(?!-)", re.IGNORECASE)
_QUESTION_END = re.compile(r"[.!](?=\s|$)|\?")
# `Did this exist before the menu was added today, or is it new?`: a question about a fact
# of the day, not an imagined day (heldout27).
_PAST_PASSIVE = re.compile(r"\b(?:was|were)\s+[a-z]{2,}ed\s+$", re.IGNORECASE)
# `memory/$(date).md`: a shell's date substitution is a placeholder too.
# A template's blank in angle brackets (`**Catalysts today:** <earnings, Fed, econ data>`,
# `<1 sentence>`: words with a space or comma inside the brackets, no `=` or `/`, which an HTML
# tag has; not `a < b and c > d`) and a variable to fill in (`Net today: ${net}`,
# `{{summary}}`): heldout26.
_PLACEHOLDER = re.compile(
    r"\bYYYY-?MM(?:-?DD)?\b|<date>|\{date\}|\$\(date\b|\bDD/MM\b|\bMM/DD\b|_{3,}"
    r"|<[^<>=/\s][^<>=/\n]*[\s,][^<>=/\n]*[^<>=/\s]>|\$\{\w+\}|\{\{\s*\w+\s*\}\}"
)
# Box and tree drawing (`│  Last read: Today at 5:32 PM  │`, `├── Approved / merging today →
# WAIT`): a screen's mockup or a decision tree's branch, any day's (heldout26; none of the
# corpora's relative dates sits on such a line).
_DRAWN = re.compile(r"[│┃║├└┌┐┘┤┬┴┼╭╮╯╰]")
# `Save More Tomorrow™`: the words run into a trademark's sign, a name.
_TRADEMARK_AFTER = re.compile(r"^[\w ]{0,30}[™®]")
_LABEL_ROW = re.compile(r"(?:^|\s)[/−]\s*$")
_NOTE_AFTER_SLASH = re.compile(r"\s+/\s+[a-z][\w-]*\s+[a-z][\w-]*[^/]*$")
# A word in another script right before `(`: what follows in brackets is its translation.
_GLOSS = re.compile(r"(?<![\w])[^\W\d_A-Za-z\u00C0-\u024F]+\s*\($")
_FULL_STOP = re.compile(r"[.!?](?=\s|$)")
_SENTENCE_STOP = re.compile(r"[.;!?](?=\s|$)|[—–]|\s-\s")
_NUMBER_TAIL = re.compile(r"\d,$")
# A line of copied `git log --oneline`: `7a5604d    fix(reservations): Today tab returns only
# today`, `- \`14c6770\` - Fix cron schedule (Tuesday 7AM)`: its subject quoted from the commit
# (not `\`7c704287\` should have sent … tonight`, a job's id in the writer's own sentence).
_COMMIT_LINE = re.compile(
    r"\s*(?:[-*+]\s+)?`?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}`?"
    r"(?:\s+[-–—:]\s|\s{2,}\S|\s+[a-z]+(?:\([^)]*\))?!?:\s|\s+\d{1,2}:\d\d\s)"
)
# `· 🟢 today` ending an entry: a freshness tag a generated digest puts on it (not `🔴 TODAY
# — 1:30 PM`, a status); `true for today/tomorrow, false for far dates`: a flag's value.
_TAG = re.compile(r"[🟢🟡🟠🔴⚪⚫]\s*$")
_FLAG_VALUE = re.compile(
    r"(?:[:=]\s*|`)(?:true|false)`?\s+for\s+(?:(?:today|tomorrow|yesterday)/)?$", re.IGNORECASE
)
# `(Example: today is Monday, restaurant closed Mondays → default to Tuesday)`: made up.
_EXAMPLE = re.compile(r"\b(?:for\s+)?examples?\s*:\s", re.IGNORECASE)
_BANNER = re.compile(r"[^\w]*[━═─][^\w]*\w+(?:\s\w+)?[^\w]*$")
# `- **43 messages Friday morning and they all looked the same** (445 pts)`: a listed post
_LISTED_POST = re.compile(r"\(\s*\d[\d,.]*k?\s*(?:pts|points|upvotes)\b", re.IGNORECASE)
# A list item that says what a tool does, on any run (`- Scans all 4 calendars for current +
# next week`, `- **Smart date parsing**: Handles relative dates (tomorrow, next week)`).
_DOES = re.compile(
    r"\s*[-*+]\s+(?:(?:\*\*|__)[^*_]{1,40}(?:\*\*|__)\s*:?\s*(?:[-—–]\s*)?)?(?:scans|handles|groups"
    r"|categori[sz]es|displays|fetches|pulls|lists|tracks|monitors|summari[sz]es|extracts"
    r"|parses|filters|sorts|generates|computes|calculates|compares|notifies|highlights)\b",
    re.IGNORECASE,
)
_DAY_OF = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\s+of\s+$", re.IGNORECASE)
_CODE_SPAN = re.compile(r"`[^`\n]+`")
# `today's \`x\`` closing its noun phrase names the thing as it is now (not `after today's
# \`x.py\` pruning changes`, the day's work on it).
_CODE_NAME = re.compile(r"..\s+`[^`\n]+`\s*(?:[),;]|\s[—–]|$)")
# A function's row in a list of code (`- \`getUserStats()\` — role distribution, new users
# this month`): what it works out on whatever day it runs (heldout27), unless told in the past.
_FUNCTION_ROW = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?`[\w.$]+\([^`]*\)`\s*(?:[—–:]|\s-\s)")
_ADDRESSED = re.compile(r"\b(?<!thank )you(?:r|rs|rself|'re|'ll|'ve|'d)?\b", re.IGNORECASE)
_SPEAKER = re.compile(r"\b(?:interaction|prompt|transcript)\s*:\s|→\s*[A-Z][\w ]{0,20}:\s")
# A sentence that opens with a verb and its object (`Share one thing…`, `Pick the one…`).
_IMPERATIVE = re.compile(r"[\s\-*>\d.)]*[A-Z][a-z]+\s+(?:one|the|a|an|your|it|this|that|all)\b")
# `Trigger: Cron (weekly Mondays) → …`, `6. **Weekly**: Sunday plan next week`, `**Schedule**:
# closed Saturday`, `Every Sunday: Draft next week's priorities`: every run's.
_TRIGGER = re.compile(
    r"\btrigger\s*:|\bcron\s*\(|^[\s\-*>\d.)]*(?:\*\*|__)?"
    r"(?:daily|nightly|weekly|monthly|schedule|cadence|routine|every\s+\w+"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)days)(?:\*\*|__)?\s*:",
    re.IGNORECASE,
)
_MONTH_NAMED = re.compile(
    r"\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?(?!\s*\d)(?!\w)"
)
# A sentence that sets a condition (`If neither fills, the trade isn't working today`,
# `When something is broken today, do NOT…`): what to do whenever it holds, not a day. One
# telling of the past or a plan (`When I checked yesterday`, `When we ship it tomorrow, we'll…`)
# is a particular day again.
_CONDITION = re.compile(
    r"[\s\-*>\d.)]*(?:\*\*)?"
    r"(?:if|when|whenever|unless|always|never|once(?!\s+(?:a|per|more|again)\b))\b",
    re.IGNORECASE,
)
# A numbered step, or a bold label, that opens with what to do (`1. Fetch today's calendar
# events`, `5. Create today's Daily Note`, `**Check today's trades across all bots:**`): a
# procedure's step, run on any day.
_PROCEDURE_STEP = re.compile(
    r"\s*(?:\d+[.)]\s+(?:\*\*)?|\*\*(?=[^*]+(?::\*\*|\*\*:)\s*$))"
    r"(?:fetch|check|create|update|read|run|send|draft|review|write|add|pull"
    r"|post|load|list|open|generate|compile|summari[sz]e|collect|gather|scan|log|record|archive"
    r"|move|determine|compute|calculate|compare|append|refresh|sync|export|import)\b",
    re.IGNORECASE,
)
# What is done at every start, session or run (`read today + yesterday at session start`,
# `Update "Last Run" to today for each skill run`): any day's, counted from each run.
_EACH_RUN = re.compile(
    r"\b(?:(?:at|on)\s+(?:every\s+|each\s+)?(?:session\s+)?start(?:up)?"
    r"|(?:for\s+)?(?:each|every)\s+(?:[\w-]+\s+)?(?:session|run|time|start)|per\s+(?:session|run))\b",
    re.IGNORECASE,
)
# A set of days to load or show: `today + yesterday`, `today + current week`, `today + 3 dailies`.
_DAY_SET = re.compile(
    r"\b(?:today|yesterday|tomorrow)(?:['’]s)?\s*\+\s*"
    r"(?:(?:today|yesterday|tomorrow)(?:['’]s)?\b(?!\s+\d)|current\b"
    r"|\d+\s+(?:dailies|weeklies|days|weeks)\b)",
    re.IGNORECASE,
)
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”')
# `Day = Today`, `day -> today, week -> current Mon..Sun`, `defaults to today's index`,
# `- Default: tomorrow at 10 AM` (heldout27): a value a setting or a mapping takes, whatever
# day it is used.
_VALUE_BEFORE = re.compile(
    r"(?:^|\s)(?:[=≠]|[<>]=?)\s*$|(?:^|[\s,(])\w+\s*(?:->|=>)\s*$|\bdefaults?\s+to\s+$"
    r"|\bdefault(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*$",
    re.IGNORECASE,
)
_FORMULA = re.compile(r"\btoday[+\-]\w|\[\s*today\s*,", re.IGNORECASE)
_LATIN = re.compile(r"[A-Za-z]")
_LETTER = re.compile(r"[^\W\d_]")


# `[List agents active today]`: a template's placeholder (not `- [ ]`, not a link's text).
_OPEN_BRACKET = re.compile(r"\[(?![ xX]\])[^\[\]]*$")
_CLOSE_BRACKET = re.compile(r"^[^\[\]]*\](?!\()")
# The phrase is a template's variable: `{{TODAY}}`, `reports/{yesterday}/x.json`, `${today}`.
_OPEN_BRACE = re.compile(r"\{\s*$")
_CLOSE_BRACE = re.compile(r"^\s*\}")


def sentence_start(before: str) -> bool:
    """Whether the text before a match (on its line) ends where a sentence starts."""
    stripped = re.sub(r"^\s*(?:[-*+]|\d+[.)]|#+|>)\s+(?:\[[ xX]\]\s+)?", "", before)
    stripped = stripped.rstrip().rstrip("*_").rstrip()  # `queued. **Tomorrow.**`
    if re.search(r"(?:^|\s)(?:vs|e\.g|i\.e|cf|approx)\.$", stripped, re.IGNORECASE):
        return False  # `Pipeline: 3 vs. today`: an abbreviation's full stop ends no sentence
    return not stripped or stripped[-1] in ".!?:;(\"'“‘—"


def pinned(before: str, after: str, *, possessive: bool = False) -> bool:
    """Whether an explicit calendar date sits right next to the phrase (or, for a POSSESSIVE,
    right after its noun), saying its day, or the phrase is a table cell of its own in a dated
    row (`| March 18 | Check in | Tomorrow |`)."""
    if _PIN_AFTER.match(after) or _PIN_BEFORE.search(before) or _PIN_NAMED.match(after):
        return True  # `Apr 15 (today)`, `Today is Friday, May 1, 2026`, `Today: 2026-03-24`
    if possessive and _PIN_POSSESSIVE.match(after):
        return True  # `tomorrow's weather (Feb 11)`
    return labels.own_cell(before, after) and sections.CALENDAR.search(before + after) is not None


def not_english(line: str) -> bool:
    """Whether the line is mostly written in a language other than English."""
    letters = len(_LETTER.findall(line))
    return letters > 0 and len(_LATIN.findall(line)) * 2 < letters


def names_identifier(line: str, word: str) -> bool:
    """Whether the line names a code identifier containing WORD (`todayEastern()` — Today's)."""
    lowered = word.lower()
    return any(lowered in span.group().lower() for span in _CODE_SPAN.finditer(line))


def idiom(before: str, word: str) -> bool:
    """`None pay tomorrow`, `"tomorrow" has been tomorrow for days`, `Execs want AI
    yesterday` (they want it at once): not a day."""
    if word.lower() == "yesterday" and _WANT_BEFORE.search(before):
        return True
    if word.lower() in ("tomorrow", "yesterday") and _CLOCK_BEFORE.search(before):
        return True  # `UTC is already tomorrow`: a time zone's clock
    return _IDIOM_BEFORE.search(before) is not None


def counted_period(before: str, after: str) -> bool:
    """`the heaviest day in two weeks`, `1 published post in 14 days`, `No new content in 4
    days`, `expires in 30 days from email date`: a period, not a day from the writing."""
    cuts = [m.end() for m in _CLAUSE_STOP.finditer(before)]
    clause = before[cuts[-1] :] if cuts else before
    return _COUNT_BEFORE.search(clause) is not None or _OTHER_START.match(after) is not None


def recurring_day(line: str, at: int, word: str = "today") -> bool:
    """`Slack summary of today's brief` in a recurring job's description: every day's. For
    `yesterday's` and `tomorrow's` a job's name is not enough (`since yesterday's cron`, `done
    by yesterday's 8 AM cron` name one run): the line must say the job recurs. Only the
    sentence around AT counts, or a job's `Last run:` on its line: a log's `recurring-cron path
    producing (5/25, 5/27 clean). Today's brief produced from the sandbox` is one day's."""
    if habits.recurring_entry(line):
        return True  # `Nightly (11pm): … fetches tomorrow's opening odds`
    sentence = line[_sentence_cut(line[:at]) : at + _sentence_end(line[at:])]
    if habits.habitual_job(line[_sentence_cut(line[:at]) : at], sentence):
        return True  # `The nightly job processes yesterday's logs`: each run's
    if word.lower() != "today":
        return _EVERY_RUN.search(sentence) is not None
    return _RECURRING_DAY.search(sentence) is not None or _LAST_RUN.search(line) is not None


def not_a_date(line: str, before: str, after: str, words: str, *, possessive: bool) -> bool:
    """Whether the phrase WORDS, between BEFORE and AFTER on LINE, names no day to rewrite."""
    cuts = [m.end() for m in _SENTENCE_STOP.finditer(before)]
    stop = _SENTENCE_STOP.search(after)
    lead = before[cuts[-1] if cuts else 0 :]
    tail = after[: stop.start() if stop else len(after)]
    clause = lead + tail
    if not_english(line) or names_identifier(line, words) or _NUMBER_TAIL.search(before):
        return True  # `2,400 years ago`: `400 years ago` is the tail of a number
    if _DOES.match(line) or _BANNER.match(line) or _LISTED_POST.search(line):
        return True  # what a tool does on every run; `━━━ TODAY ━━━`; a post's copied title
    if _COMMIT_LINE.match(line) or _EXAMPLE.search(before[_sentence_cut(before) :]):
        return True  # a copied commit subject; an example's made-up day
    if _DRAWN.search(line) or _TRADEMARK_AFTER.match(after):
        return True  # a drawn screen or tree; `Save More Tomorrow™`
    tag = _TAG.search(before) and not after.strip() and not sections.in_heading(before)
    if tag or _FLAG_VALUE.search(before):  # not `## 🟡 This Week`, a bucket of this week's
        return True
    if _DAY_OF.search(before) or (line.lstrip().startswith("|") and sections.CRON.search(line)):
        return True  # `~14th of next month`: each month's; a schedule row `| 0 12 * * 1-5 |`
    if labels.shown_or_listed(
        line, before, after, words, lead=lead, tail=tail, possessive=possessive
    ):
        return True  # a view's day, a column's name, a stat's period, a name in a list
    if sayings.saying(line, before, after) or sayings.label_or_name(line, before, after, words):
        return True  # `today's bar is tomorrow's baseline`; `Today → Yesterday → day name`
    if sayings.quote_ends(before, after) or sayings.standing_condition(before, after):
        return True  # `… run tomorrow …"*` (a quote opened above); `…, if … no session today`
    pair = re.match(r"['’]s\s+and\s+today['’]s", after) is not None
    if sayings.days_file(before, after) and (words.lower() == "today" or pair):
        return True  # `checks … today's memory file presence`: whichever day's file it is
    if sayings.title_name(before, after, words) or sayings.slogan(before, after, words):
        return True  # `Free Malaysia Today: …`, `Order Today/Deliver Tomorrow`: names
    if sayings.unreal(before, words) or sayings.ruled(before, words):
        return True  # `Even if we found something tomorrow`; `**Todoist rule**: … due today`
    if sayings.generic_subject(before, after):
        return True  # `A job missed yesterday is not run today`: any such job, any day
    if sayings.not_now(line, before) or sayings.ui_item(line, before, after):
        return True  # `Not tomorrow. … Now.`; `current + today + weekly forecast`, `<div>`
    if _ADDRESSED.search(clause) and _IMPERATIVE.match(clause):
        return True  # `Share one thing you built today`: addressed to whoever reads it, any day
    if _SPEAKER.search(before):
        return True  # `interaction: Clayton: Tomorrow after I…`: a transcript quotes speech
    if _FORMULA.search(line) or _VALUE_BEFORE.search(before):
        return True  # `[today, today+days_ahead]`, `Day = Today`: a formula's variable, a value
    opened = _OPEN_BRACKET.search(before)
    closed = _CLOSE_BRACKET.match(after)
    if opened and closed and not PAST_CUES.search(opened.group() + closed.group()):
        # `[List agents active today]`: a template's placeholder (`**[COMPLETED TODAY]**`, a
        # status told in the past, is a day's: heldout27)
        return True
    if _OPEN_BRACE.search(before) and _CLOSE_BRACE.match(after):
        return True  # `*Last maintained: {{TODAY}}*`: a variable filled in when it is used
    sentence = before[_sentence_cut(before) :] + after[: _sentence_end(after)]
    told = sayings.TOLD_OR_PLANNED.search(_QUOTED.sub("", sentence))
    if _CONDITION.match(sentence) and not told:
        return True  # `If neither fills, the trade isn't working today`: whenever it holds
    step = _PROCEDURE_STEP.match(line) if possessive else None
    if step is not None and not re.search(r"[.!?](?:\*\*|__)?(?=\s|$)", before[step.end() :]):
        return True  # `1. Fetch today's calendar events`: a numbered procedure, run any day
    if _EACH_RUN.search(clause) or any(
        s.start() <= len(before) < s.end() for s in _DAY_SET.finditer(line)
    ):
        return True  # `read today + yesterday at session start`, `for each skill run`
    if _TRIGGER.search(line):
        return True  # `Trigger: Cron (weekly) → … re-schedules for next week`: every run's
    if re.fullmatch(r"(?:next|this|last)\s+month", words, re.IGNORECASE) and _MONTH_NAMED.search(
        line
    ):
        return True  # `CME Jul WTI (next month)`: the line names the month it means
    if _PLACEHOLDER.search(clause):
        return True  # `Read memory/YYYY-MM-DD.md (today + yesterday)`: a procedure, any day
    plain = _CODE_SPAN.sub("code", after)  # `Brier=?` in code asks nothing
    end = _QUESTION_END.search(plain)
    asked = end is not None and end.group() == "?" and ": " not in plain[: end.start()]
    if asked and not _PAST_PASSIVE.search(before):
        # A question asks about a day, or imagines one; one after a colon is the body of a
        # label the phrase heads (`Tomorrow 9AM: check the logs — did all 17 populate?`).
        return True
    if possessive and re.match(r"..\s+date\b", after, re.IGNORECASE):
        return True  # `today's date`: the idea of the current date
    function = _FUNCTION_ROW.match(line)
    if function is not None and not PAST_CUES.search(before[function.end() :] + " " + after):
        return True  # a function's description: `\`getUserStats()\` — new users this month`
    if possessive and _CODE_NAME.match(after):
        return True  # `rename of today's \`outstanding-work-review\``: the current name
    if present.nowadays(before, after, words):
        return True  # `in today's world`, `Still true today`: the present, not a day
    if _GLOSS.search(before) and after.startswith(")"):
        return True  # `היום (today) | 7 ימים (7 days)`: a translation of the word before it
    row = _LABEL_ROW.search(before) or re.match(r"\s+[/−](?:\s|$)", after)
    # `## Tomorrow / next-step reminder`: one day word and a lowercase note, no row of labels
    return bool(row) and not _NOTE_AFTER_SLASH.match(after)


def _sentence_cut(before: str) -> int:
    cuts = [m.end() for m in _FULL_STOP.finditer(before)]
    return cuts[-1] if cuts else 0


def _sentence_end(after: str) -> int:
    stop = _FULL_STOP.search(after)
    return stop.start() if stop else len(after)
