"""How a replacement reads in its sentence: as a noun, an adverbial phrase, or not at all.

`yesterday` becomes `on 2026-04-22` where it says when something happened, `2026-04-22`
after a preposition or as a subject (`Today felt like…`), and the bare date where it names
what a list is about (`**Tomorrow priorities:**` -> `**2026-03-08 priorities:**`). A day word
in front of `'s` that is no possessive (`only if today's missing`: today is missing) reads as
neither and is left as it is. Imports the standard library and
`memsync.consolidate.weekdays` (which match another one is chained to).
"""

from __future__ import annotations

import re
from typing import Protocol

from memsync.consolidate import sections, weekdays


class Context(weekdays.Context, Protocol):
    """What these rules read of a match's surroundings (memsync.consolidate.grammar.Context)."""

    @property
    def at_start(self) -> bool: ...


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words after which the date reads as a noun: no "on"/"in" is added in front of it.
_NOUN_CONTEXT = _words(
    "on since by until till til before after from to through thru of for at as with "
    "during in into within between than starting beginning ending via per except "
    "including around about roughly approximately circa like unlike versus vs make throughout "
    "covers covering includes excludes excluding"
)
_COPULA = _words("is was are were be been being")
_SUBJECT_VERBS = _words(
    "is was will would should could might may has had were are marks looks seems starts ends "
    "begins works counts felt feels went goes brought saw produced moved proved became turned "
    "remains remained stays stayed represents means shows brings gives"
)
# Words after which a clause starts, whose subject the day may be (`but today moved…`).
_OPENS_CLAUSE = _words("but and what how why because that where when while if though although")
# What a list or a heading opened by a day word is about (`Tomorrow priorities`, `## Tomorrow
# TODO`): the day word qualifies the noun, so the date stands bare in front of it.
_LIST_NOUNS = _words(
    "priorities priority focus todo todos tasks plan plans goals agenda schedule summary notes "
    "wins progress events meetings checklist items targets actions reminders objectives "
    "highlights recap topics lessons learnings blockers results"
)
# `if today's missing`, `tomorrow's done`: `'s` is `is`, and the day names a file or a slot.
# Only where the word ends its clause: `today's missing piece` is a possessive.
_IS_CONTRACTED = re.compile(
    r"['’]s\s+(?:missing|done|gone|over|finished|complete|empty|absent)"
    r"(?=\s*(?:[.,;:!?)]|$|\s[-—–(]))",
    re.IGNORECASE,
)


def mode(kind: str, ctx: Context) -> str:
    """How the replacement must read: a noun (after a preposition) or an adverbial phrase."""
    chained = weekdays.chained_to(ctx.found, ctx.text, ctx.start)
    if chained is not None:
        connector = ctx.text[chained.end : ctx.start].strip().lower()
        if connector in ("and", "or"):
            return chained.mode
        if connector in ("-", "–"):
            return "noun"  # a range's end reads as after `to`: `on 2026-11-16 - 2026-11-18`
    if ctx.before.endswith(("~", "≈")):
        return "noun"  # `~2026-04-18`, as `about 2026-04-18` (h4: `~on 2026-04-18`)
    if ctx.before.endswith("/") or ctx.before.rstrip().endswith(("→", "->")):
        return "noun"  # `on 2026-05-13/2026-05-12`, `(2026-03-29 → 2026-03-30)`
    prev = ctx.prev
    if ctx.before.endswith(("[", "(")):
        return "noun"  # link text, a parenthesis
    nxt = (ctx.nxt or "").lower()
    if ctx.at_start and kind == "day" and nxt in _LIST_NOUNS:
        return "noun"  # `**Tomorrow priorities (from Rick):**`
    if ctx.at_start and kind == "day" and _titled(ctx):
        return "noun"  # `## Tomorrow Command Sheet`: a heading names a thing
    if ctx.at_start or prev in _OPENS_CLAUSE:  # `Today felt like…`, `what today felt like`
        return "noun" if nxt in _SUBJECT_VERBS else "adverb"
    if prev in _NOUN_CONTEXT:
        return "noun"
    if prev in _COPULA:
        return "noun" if kind in ("day", "week", "weekend") else "adverb"
    if prev in ("earlier", "later", "early", "late") and kind in ("week", "weekend"):
        return "noun-in"
    return "adverb"


# `today's didn't fire`, `today's is running late`: a possessive whose noun is left out.
_ELIDED = re.compile(
    r"\s+(?:is|isn't|was|wasn't|are|were|did|didn't|does|doesn't|has|hasn't|had|will|won't"
    r"|would|should|can|could|may|might|went|got|ran|failed|fired|landed)(?![\w'’-])"
)


def elided(after: str) -> bool:
    """Whether a day word's `'s` (AFTER starts right after it) owns a noun left out, as in
    `Apr 28 brief at 05:11Z; today's is late`: it then keeps its `'s` (`2026-04-29's`)."""
    return _ELIDED.match(after) is not None


def _titled(ctx: Context) -> bool:
    """Whether a heading goes on, after the day word, with a capitalised word that is no
    pronoun (`## Tomorrow Command Sheet`, not `## Today We Shipped`)."""
    nxt = ctx.nxt or ""
    pronoun = nxt.lower() in ("i", "we", "you", "they", "he", "she", "it")
    return nxt[:1].isupper() and not pronoun and sections.in_heading(ctx.before)


def is_contracted(after: str) -> bool:
    """Whether the `'s` right after a day word (AFTER starts there) is `is`, not a possessive:
    `Boot sequence: yesterday's notes only if today's missing`."""
    return _IS_CONTRACTED.match(after) is not None
