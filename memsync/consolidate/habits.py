"""Standing rules and recurring events: a policy's period or a habit's day, not a day.

A present-simple statement about whatever is of a kind states a rule that holds on any day
(`Access tokens expire in 2 days`, `Invoices are due in 30 days`, `Each invite link expires
in 7 days`), and so does one naming the weekday a habit falls on (`Monday is the team's
no-meeting day`, `The on-call handoff happens Monday at 10:00`) or what a recurring job does
(`The nightly job processes yesterday's logs`). SPEC section 5: durations and recurring events
are never converted. One thing of the kind (`The token expires in 2 days`, `The report is
due in 3 days`), a tense (`will expire`, `failed on yesterday's logs`) or a one-off day
(`Friday is my last day`) still converts. Found by an adversarial review of the grammar
(docs/CONSOLIDATION.md). Imports the standard library and `memsync.consolidate.weekdays`.
"""

from __future__ import annotations

import re

from memsync.consolidate.weekdays import FUTURE_CUES, PAST_CUES

_CLAUSE_CUT = re.compile(r"[.;!?:(—–|]|\s-\s")
_OPENING = r"^[\s\-*+>\d.)]*(?:\*\*|__)?"
_DEFINITE = r"(?:the|these|those|this|that|our|my|your|his|her|its|their|[\w-]+['’]s)\b"
# What lapses or falls due after a period, said of every one of a kind.
_LAPSE_PLURAL = (
    r"(?:expire|lapse|time\s+out|auto-?(?:expire|delete)"
    r"|(?:are\s+)?(?:due|payable)|are\s+(?:valid|kept|retained|purged|deleted|archived))"
)
_LAPSE_SINGULAR = (
    r"(?:expires|lapses|times\s+out|auto-?(?:expires|deletes)"
    r"|is\s+(?:due|payable|valid|kept|retained|purged|deleted|archived))"
)
# A word ending in `s` that is no plural noun (`Release is due`, `status`, `analysis`).
_NOT_PLURAL = r"(?<!ss)(?<!us)(?<!is)(?<!\bwas)(?<!\bhas)(?<!\bas)(?<!\bdoes)"
# `Access tokens expire`, `Invoices are due`: a bare plural; `Each invite link expires`.
_GENERIC_PERIOD = re.compile(
    rf"{_OPENING}(?P<subject>(?!{_DEFINITE})(?:[\w-]+\s+){{0,3}}[\w-]*[a-z]s{_NOT_PLURAL})\s+"
    rf"{_LAPSE_PLURAL}\s+$"
    rf"|{_OPENING}(?P<one>(?:each|every|any|an?)\s+(?:[\w-]+\s+){{0,3}}?[\w-]+)\s+"
    rf"{_LAPSE_SINGULAR}\s+$",
    re.IGNORECASE,
)
# `happens Monday at 10:00`, `takes place on Friday`: a habit's day, said in the present.
_HAPPENS = re.compile(
    r"\b(?:happens?|occurs?|recurs?|takes?\s+place|(?:is|are)\s+held)\s+(?:on\s+)?$", re.I
)
# `Monday is the team's no-meeting day`, `Friday is our demo day`; and the other way round,
# `Our no-meeting day is Monday`. Not `Friday is my last day`: one day.
_OWNER = r"(?:the|an?|our|my|their|your|his|her|[\w-]+['’]s)\s+"
_IS_NAMED_DAY = re.compile(rf"^\s+is\s+(?P<np>{_OWNER}(?:[\w'’-]+\s+){{1,3}}?)day\b", re.I)
_NAMED_DAY_IS = re.compile(rf"\b(?P<np>{_OWNER}(?:[\w'’-]+\s+){{1,3}}?)day\s+is\s+$", re.I)
_ONE_DAY = frozenset(["last", "first", "final", "big", "next", "this", "that"])
# `The nightly job processes yesterday's logs`: a recurring job and what it does, present.
_HABITUAL_JOB = re.compile(
    r"\b(?:nightly|daily|hourly|weekly)\s+(?:[\w-]+\s+){1,3}?[a-z]{2,}s\s+$", re.IGNORECASE
)

_DAY_WORDS = re.compile(r"\b(?:yesterday|today|tomorrow)\b", re.IGNORECASE)
# A list item headed by a weekday and a clock, then what someone or something does then, in
# the present (`- Saturday 8 PM ET: Lambda generates draft …`): a schedule's weekly slot.
_MARKS_ONLY = re.compile(r"[\s\-*+>]*(?:\*\*|__)?")
_SLOT = re.compile(
    r"\s+(?:at\s+)?\d{1,2}(?::\d\d)?\s*(?:[ap]\.?m\.?)?(?:\s+[A-Z]{2,4})?\s*(?:\*\*|__)?:"
    rf"\s+(?:\*\*|__)?[\w-]+(?:\s+[\w-]+)?\s+[a-z]{{2,}}(?:es|s){_NOT_PLURAL}\b(?!['’])",
    re.IGNORECASE,
)

# An entry headed by a recurrence (`1. Nightly (11pm): new step … fetches tomorrow's odds`,
# `- Every morning: "Why would yesterday's winning thesis still work today?"`): each run's.
_RECURRING_ENTRY = re.compile(
    rf"{_OPENING}(?:nightly|daily|hourly|every\s+(?:morning|night|evening|day)"
    r"|each\s+(?:morning|night|evening|day))(?:\*\*|__)?\s*(?:\([^)\n]{1,20}\))?\s*(?:\*\*|__)?:\s",
    re.IGNORECASE,
)


def recurring_entry(line: str) -> bool:
    """Whether LINE is an entry headed by a recurrence: a recurring job's, every run's."""
    return _RECURRING_ENTRY.match(line) is not None


def _clause(before: str) -> str:
    cuts = [m.end() for m in _CLAUSE_CUT.finditer(before)]
    return before[cuts[-1] :] if cuts else before


def _told(text: str) -> bool:
    """Whether TEXT has a tense (a past or a future cue), `is`/`are` aside (the present)."""
    plain = re.sub(r"\b(?:is|are)\b", "", text, flags=re.IGNORECASE)
    return bool(PAST_CUES.search(plain) or FUTURE_CUES.search(plain))


def standing_period(before: str) -> bool:
    """Whether `in N UNIT` after BEFORE is a rule's period (`Access tokens expire in 2 days`)."""
    found = _GENERIC_PERIOD.search(_clause(before))
    return found is not None and not _told(found.group("subject") or found.group("one"))


def _names_a_habit(np: str) -> bool:
    """Whether NP (an owner and the words before `day`) names a day a habit falls on (`the
    team's no-meeting`), not one day (`my last`)."""
    return not _ONE_DAY.intersection(w.lower() for w in np.split())


def habitual_weekday(before: str, after: str) -> bool:
    """Whether a bare weekday between BEFORE and AFTER is the day a habit falls on."""
    if _MARKS_ONLY.fullmatch(before) and _SLOT.match(after):
        return True  # `- Saturday 8 PM ET: Lambda generates draft`: a weekly slot's entry
    clause = _clause(before)
    happens = _HAPPENS.search(clause)
    if happens is not None and not _told(clause[: happens.start()]):
        return True  # `The on-call handoff happens Monday at 10:00`
    named = _IS_NAMED_DAY.match(after) or _NAMED_DAY_IS.search(clause)
    return named is not None and _names_a_habit(named.group("np"))


def habitual_job(lead: str, sentence: str) -> bool:
    """Whether a day word after LEAD, in SENTENCE, is what a recurring job does each run."""
    others = _DAY_WORDS.sub("", sentence)  # the day word itself tells no tense
    return _HABITUAL_JOB.search(lead) is not None and not _told(others)
