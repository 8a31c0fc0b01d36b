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
Imports the standard library only.
"""

from __future__ import annotations

import re

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
    r"(?:works?|moves?|runs?|behaves?|functions?|operates?|(?:is|are)\s+[a-z]+(?:ed|en|lt|de))\s+$",
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
    return _STATE_BEFORE.search(before) is not None
