"""`today` meaning the present, not a day: nowadays, currently, as things stand.

A writer who says what exists, holds or is possible `today` speaks of the present state of
things (`What exists today:`, `Pattern: Justin architects, Thomas executes. Still true
today.`, `## What's Possible Today vs. What Needs Vendor Support`, `still used in
radio/wireless today`) or says how something works (`How my memory actually works
today:`), as does one who speaks of an era (`in today's world`) or of what every one of a
kind does (`Every platform today makes it easy`). Blind labellers of five
corpora (heldout8 to heldout12) and the blind reviewers of the sweeps (docs/BENCHMARKS.md,
tenth pass) read all of these as no day to rewrite; the project's own corpus had labelled
`What exists today:` a date, the same line heldout12 labels as none, and now follows them.
Only present forms count: `it was possible today` and `existed yesterday` keep their day.

The same goes for what code or a system does at present, said in notes on code: `Today the
BFF trusts UI-side validation`, `miner today only reads text/code`, `(only image_gen.py
qualifies today)`, `The sidecoach handlers don't call the Anthropic SDK today`, `Today the
claim is false`. Two blind corpora of Claude Code memory folders (heldout14a/b), whose notes
are mostly about code, read every such line as no day; so did heldout10 and heldout8 (one
early corpus, heldout, read two as dates). Only a clause with a verb of what code does, in
the present, and nothing of a day's events (a past or future tense, an `-ing` form, a
session, a release, a deploy, a count of commits) is read so: `Both caps reset today`,
`Likely first movement today now that xian is back`, `Sandbox queue is slow today` keep
their day. Imports the standard library and `memsync.consolidate.weekdays` (tense cues).
"""

from __future__ import annotations

import re

from memsync.consolidate.weekdays import FUTURE_CUES, PAST_CUES

_ERA = re.compile(r"..\s+(?:world|age|era|society|climate|landscape|economy|market)\b", re.I)
_EVERY_NOUN = re.compile(r"(?:^|[^\w\s])\s*(?:every|all|most|many)\s+[a-z]+\s+$", re.I)
_PRESENT_AFTER = re.compile(r"\s+(?:is|are|has|have|[a-z]+[^s\W]s)\b")
# What is so at present, right before `today`: `what exists today`, `as they exist today`,
# `Still true today`, `what's actually true today`, `What's Possible Today`, `not feasible
# today`, `is buildable today`, `still used in radio/wireless today`.
_STATE_BEFORE = re.compile(
    r"(?:\bexists?"
    r"|(?:\bstill|\bactually|['’]s|\bis|\bare|\bremains?|\bnot|\bbe)\s+"
    r"(?:true|possible|feasible|viable|buildable|achievable|doable|editable|configurable"
    r"|customi[sz]able|supported|enforced|in\s+force|in\s+place)"
    r"|\bstill\s+(?:used|in\s+use)\b[^.;:!?\n]{0,30}?)\s+$",
    re.IGNORECASE,
)


# How something works at present: `How my memory actually works today`, `How per-client
# converters are produced today` (a present tense after `how`; not `how it went today`).
_HOW_IT_WORKS = re.compile(
    r"\bhow\s+(?!to\b)(?:[\w'’-]+\s+){1,6}?(?:actually\s+|really\s+|currently\s+)?"
    r"(?:works?|moves?|runs?|behaves?|functions?|operates?|(?:is|are)\s+[a-z]+(?:ed|en|lt|de))\s+$"
    # `what it does today`, `No such driver today`: what is so at present
    r"|\bwhat\s+(?:it|they|this|that|each\s+[\w-]+)\s+(?:does|do)\s+$|\bno\s+such\s+[\w-]+(?:\s+[\w-]+)?\s+$"
    r"|\b(?:exactly|just|behaves|works)\s+as\s+$",  # `XP behaves exactly as today`
    re.IGNORECASE,
)


# What nothing does at present, or the part something plays: `no client uses Teramind today`,
# `no override path exists for time-conflict today`, `none of these are editable today`,
# `(same role sops-nix plays today)`; a verb of what code or a system does, not of an event
# (`nobody is in the office today` keeps its day).
_NONE_DOES = re.compile(
    r"\b(?:no|none|nothing|nobody|neither)\b(?:\s+of\s+(?:these|those|them|this|it))?"
    r"(?:\s+[\w'’/-]+){0,3}?\s+(?:uses|exists|supports|handles|works|plays|reads|returns"
    r"|emits|calls|needs|depends|relies|(?:is|are)\s+(?:editable|configurable|supported))\b"
    r"[^.;:!?\n]{0,60}?\s+$"
    r"|\brole\b[^.;:!?\n]{0,40}\bplays?\s+$",
    re.IGNORECASE,
)


# A clause's edges: a full stop, a semicolon, a dash, a bracket, a colon.
_CLAUSE_CUT = re.compile(r"[.;!?](?=\s|$)|\s[—–]\s|[()]|:\s")
_SENTENCE_CUT = re.compile(r"[.;!?](?=\s|$)")
# What code or a system does (or does not), in the present.
_DOES_NOW = re.compile(
    r"\b(?:(?:do|does)(?:n['’]t|\s+not)\s+[a-z]+|can(?:not|['’]t)\s+[a-z]+|only\s+[a-z]{3,}s"
    r"|reads|returns|uses|trusts"
    r"|walks|qualifies|emits|handles|supports|accepts|stores|loads|skips|ignores|treats|maps"
    r"|fails|clamps|behaves|generates|computes|rebuild|rebuilds|consumes?|no-?op"
    r"|(?:is|are)\s+(?:false|safe|hard-?coded|stubbed|mocked|captured))\b"
    r"|\b(?:is|are)\s+`[^`\n]+`",  # `both are \`source='client'\` today`: a value held now
    re.IGNORECASE,
)
# What makes a clause a day's: its events, a prediction, a count of things done.
_DAY_EVENT = re.compile(
    r"\b(?:likely|expected|probably|meetings?|sessions?|(?<!n't )(?<!n’t )(?<!not )call"
    r"|standup|sync|sweep|brief|releases?|reports?|commits?|PRs?|deploy\w*|run|check-?in"
    r"|usage|focus|plan|priorit\w+|tasks?|agenda|day|schedule|news|catalysts?|data"
    r"|decisions?|queue|market|price|trading|snapshot|digest|email|post|job|interview"
    r"|deadline|due|ship\w*|launch\w*|merge\w*|fix\w*|done|complete\w*|finished|started"
    r"|I|I['’]m|you|he|she|(?:did|was|were)n['’]t)\b|\w+ing\b|\btoday\s+(?:is|was)\b",
    re.IGNORECASE,
)


# The one user, caller or way of something at present: `YAGNI: single consumer today`,
# `the only truly multi-sport collection path today`, `Today's only consumer is the menu`.
_SOLE_NOUN = (
    r"(?:[\w-]+\s+){0,3}?(?:consumers?|callers?|users?|clients?|paths?|sources?|readers?"
    r"|writers?|importers?|dependents?|providers?)"
)
_SOLE_BEFORE = re.compile(rf"\b(?:only|sole|single)\s+{_SOLE_NOUN}\s+$", re.IGNORECASE)
_SOLE_AFTER = re.compile(rf"['’]s\s+(?:only|sole|single)\s+{_SOLE_NOUN}\b", re.IGNORECASE)


# `today only in apply skill`: where something is found at present (not `writable today only
# via the admin endpoints`, which heldout labels a day as often as not).
_ONLY_IN = re.compile(r"\s+only\s+in\b", re.IGNORECASE)


def _does_now(before: str, after: str) -> bool:
    """Whether the clause around a `today` (BEFORE, AFTER) says what code does at present, in
    a sentence that tells of no day's events (`Fixed the login: today it loads in 1 s`)."""
    clause, sentence = _around(before, after, _CLAUSE_CUT), _around(before, after, _SENTENCE_CUT)
    if not _DOES_NOW.search(clause) or _DAY_EVENT.search(sentence) or PAST_CUES.search(sentence):
        return False
    # `is`/`are` count as ahead elsewhere (`is due`); here they are the present.
    return not FUTURE_CUES.search(re.sub(r"\b(?:is|are)\b", "", sentence))


def _around(before: str, after: str, cut: re.Pattern[str]) -> str:
    """The text between the last CUT in BEFORE and the first in AFTER (the phrase left out)."""
    cuts = [m.end() for m in cut.finditer(before)]
    stop = cut.search(after)
    return before[cuts[-1] if cuts else 0 :] + after[: stop.start() if stop else len(after)]


def nowadays(before: str, after: str, words: str) -> bool:
    """Whether WORDS (a `today` between BEFORE and AFTER on its line) means the present."""
    if re.search(r"\bin\s+$", before, re.IGNORECASE) and _ERA.match(after):
        return True  # `in today's world`: the present era
    if words.lower() != "today":
        return False
    if _EVERY_NOUN.search(before) and _PRESENT_AFTER.match(after):
        return True  # `Every platform today makes it easy`
    if _HOW_IT_WORKS.search(before) or _NONE_DOES.search(before):
        return True
    if re.search(r"\bwhere\s+(?:[\w-]+\s+){1,4}(?:is|are)\s+$", before, re.IGNORECASE):
        return True  # `# Where beats are today`: where things stand
    if (_SOLE_BEFORE.search(before) or _SOLE_AFTER.match(after)) and not PAST_CUES.search(
        _around(before, after, _SENTENCE_CUT)
    ):
        return True  # `single consumer today`, `Today's only consumer is …`: who uses it now
    if _ONLY_IN.match(after) and not PAST_CUES.search(_around(before, after, _SENTENCE_CUT)):
        return True  # `(today only in apply skill, …)`: where it is found now
    if not re.match(r"['’]s\b", after) and _does_now(before, after):
        return True
    return _STATE_BEFORE.search(before) is not None
