"""An index entry one side took out (commented out, or deleted outright) while the other
changed it: no word goes unsaid, and a line stays while its memory does."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from memsync.merge.memory import MergeDecision
from memsync.model.index import (
    Index,
    IndexLine,
    commented_lines,
    line_links,
    parse_entry,
    resolve_target,
)
from memsync.model.indexrefs import named_by_text

# An entry inside a comment: `<!-- - [T](t.md) — hook -->`, or the entry line alone (between a
# `<!--` line and a `-->` line); the entry is the `body` group.
_COMMENTED = re.compile(r"^[ \t]*(?:<!--[ \t]*)?(?P<body>.*?)(?:[ \t]*-->.*)?$")

# What the report says of an entry deleted outright on one side and changed on the other.
_DELETED_KEPT = "deleted on one side and changed on the other; kept the changed index entry"
_DELETED_WENT = (
    "deleted on one side with its memory and changed on the other; the entry went with its memory"
)
_DELETED_LINKED = (
    "deleted on one side, where another line names its memory, and changed on the other;"
    " kept that line"
)
# ... and only moved on the other (the same words elsewhere): a move is no edit of the words,
# so the deletion wins, as against a line left alone; said, as the mover may look for it.
_MOVED_WENT = "deleted on one side and only moved on the other; the deletion won"
_MOVED_LINKED = (
    "deleted on one side, where another line names its memory, and only moved on the other;"
    " kept that line"
)
_MOVED_COMMENTED = "commented out on one side and only moved on the other; kept it commented out"

Token = tuple[str, str, int]  # ("E", store path, occurrence) or ("L", text, 0)


def linked(index: Index, folder: str) -> dict[str, str]:
    """For each file a line of INDEX outside a comment links to (or, a line that is no entry,
    names in code, as consolidate counts it: `model.indexrefs.named_by_text`), the first such
    line."""
    hidden = commented_lines([line.text for line in index.lines])
    found: dict[str, str] = {}
    for n, line in enumerate(index.lines):
        if n in hidden:
            continue
        for path in sorted(line_links(line.text, folder) | named_by_text(line, folder)):
            found.setdefault(path, line.text)
    return found


@dataclass(frozen=True)
class TakenOut:
    """Entries of the common version one side took out while the other changed them."""

    path: str
    folder: str
    texts: tuple[dict[Token, str], dict[Token, str], dict[Token, str]]
    plain: tuple[Counter[str], Counter[str], Counter[str]]  # each version's non-entry lines
    times: tuple[int, int]
    gone: Collection[str]  # memories the merged tree no longer has
    linking: tuple[Mapping[str, str], Mapping[str, str]]  # each side's `linked` lines
    orders: tuple[Sequence[Token], Sequence[Token], Sequence[Token]]  # each version's tokens

    def carry(self, token: Token, lines: list[IndexLine], decisions: list[MergeDecision]) -> None:
        """Put the other side's change of TOKEN's entry into the comment one side put it in
        (that side's choice stays, no word is lost), and say so; deleted outright: `deleted`."""
        base = self.texts[0][token]
        for side, other in ((1, 2), (2, 1)):
            edited = self.texts[other].get(token)
            # TOKEN was not merged in, so at most one side has it: OTHER, when it edited it.
            if edited is None:
                continue
            if edited == base:
                if self._moved(token, other):
                    self._moved_only(token, side, lines, decisions, None)
                return
            place = self._comment(side, token, lines)
            if place is None:  # deleted outright, not commented
                self.deleted(token, lines, decisions, None)
                return
            line, lost, why = lines[place].text, None, "with the change"
            if base in line:
                kept = line.replace(base, edited, 1)
            else:  # both sides changed the words too: the newer words, still commented
                match = _COMMENTED.match(line)
                assert match is not None  # every line matches
                start, end = match.span("body")
                why = "with the newer words"
                if (self.times[side - 1], match.group("body")) >= (self.times[other - 1], edited):
                    kept, lost = line, edited
                else:
                    kept, lost = line[:start] + edited + line[end:], match.group("body")
            lines[place] = IndexLine(kept)
            decisions.append(
                MergeDecision(
                    self.path, "index-entry-commented", token[1], kept, lost,
                    "one side commented out the index entry, the other changed it;"
                    f" kept it commented out, {why}",
                )
            )  # fmt: skip
            return

    def deleted(
        self, token: Token, lines: list[IndexLine], decisions: list[MergeDecision], at: int | None
    ) -> None:
        """An entry one side deleted outright, the other changed (its line at AT in LINES, or
        not there): the changed line stays while its memory does, as a changed file stays
        against a deletion, unless the deleting side still links to the memory elsewhere."""
        side = 1 if token not in self.texts[1] else 2
        edited = self.texts[3 - side][token]
        if edited == self.texts[0][token]:  # untouched or only moved: the deletion wins
            if at is not None or self._moved(token, 3 - side):
                self._moved_only(token, side, lines, decisions, at)
            return  # untouched on the other side: unsaid
        kept, why = self.linking[side - 1].get(token[1]), _DELETED_LINKED  # reshaped, bold...
        if kept is None and token[1] in self.gone:  # a line of a memory that is gone dangles
            why = _DELETED_WENT
        elif kept is None:
            kept, why = edited, _DELETED_KEPT
        lost = None if kept == edited else edited  # said whole: no merged file keeps it
        decisions.append(MergeDecision(self.path, "index-entry-deleted", token[1], kept, lost, why))
        if lost is not None and at is not None:
            del lines[at]
        elif lost is None and at is None:
            keys = [line_key(ln, self.folder) for ln in lines]
            order = [t[1] for t in self.texts[3 - side]]  # its entries, in its order
            n = list(self.texts[3 - side]).index(token)
            at = position(keys, order[:n][::-1], order[n + 1 :])
            lines.insert(at, IndexLine(edited, parse_entry(edited)))

    def _moved_only(
        self,
        token: Token,
        side: int,
        lines: list[IndexLine],
        decisions: list[MergeDecision],
        at: int | None,
    ) -> None:
        """TOKEN's entry SIDE took out and the other side only moved (its line at AT in LINES,
        or not there): SIDE's choice stands, and the report says so."""
        if at is not None:
            del lines[at]
        base = self.texts[0][token]
        place = self._comment(side, token, lines)
        if place is not None:
            decision = MergeDecision(
                self.path, "index-entry-commented", token[1], lines[place].text, None,
                _MOVED_COMMENTED,
            )  # fmt: skip
        else:
            kept = self.linking[side - 1].get(token[1])
            why = _MOVED_WENT if kept is None else _MOVED_LINKED
            decision = MergeDecision(self.path, "index-entry-deleted", token[1], kept, base, why)
        decisions.append(decision)

    def _moved(self, token: Token, side: int) -> bool:
        """Whether SIDE put TOKEN's line elsewhere: a line both it and the common version have
        (an entry, or a line not blank) went from before the line to after it, or back."""
        (base_before, base_all), (side_before, side_all) = (
            _around(self.orders[n], token) for n in (0, side)
        )
        common = base_all & side_all
        return base_before & common != side_before & common

    def _comment(self, side: int, token: Token, lines: Sequence[IndexLine]) -> int | None:
        """Where in LINES the comment SIDE put TOKEN's entry in is (None: no such line)."""
        new = self.plain[side] - self.plain[0]  # lines this side wrote, a comment among them
        found = (i for i, ln in enumerate(lines) if new[ln.text] and self._key(ln.text) == token[1])
        return next(found, None)

    def _key(self, text: str) -> str | None:
        match = _COMMENTED.match(text)
        entry = None if match is None else parse_entry(match.group("body"))
        return None if entry is None else resolve_target(self.folder, entry.target)


def _around(order: Sequence[Token], token: Token) -> tuple[set[Token], set[Token]]:
    """The lines of ORDER before TOKEN and all of them, blank lines left out, a repeated line
    numbered by its occurrence (the same line in two versions is the same item)."""
    seen: Counter[Token] = Counter()
    before: set[Token] = set()
    every: set[Token] = set()
    ahead = True
    for item in order:
        if item == token:
            ahead = False
        elif item[0] == "E" or item[1].strip():
            numbered = item if item[0] == "E" else (item[0], item[1], seen[item])
            seen[item] += 1
            every.add(numbered)
            if ahead:
                before.add(numbered)
    return before, every


def line_key(line: IndexLine, folder: str) -> str | None:
    """The store path the entry LINE links to (None: no entry)."""
    return None if line.entry is None else resolve_target(folder, line.entry.target)


def position(keys: Sequence[str | None], after: Sequence[str], before: Sequence[str]) -> int:
    """Where a line goes among lines of KEYS: after the first of AFTER there, else before the
    first of BEFORE, else after the last entry."""
    position = next((keys.index(a) + 1 for a in after if a in keys), None)
    if position is None:
        position = next((keys.index(b) for b in before if b in keys), None)
    if position is None:
        entries = [i for i, k in enumerate(keys) if k is not None]
        position = entries[-1] + 1 if entries else len(keys)
    return position
