"""MEMORY.md merged by entry (keyed by link target), other lines three-way; no duplicates."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

from memsync.merge.diff3 import merge3, merge3_flag
from memsync.merge.fields import NO_TIME
from memsync.merge.memory import FileMerge, MergeDecision, ours_first
from memsync.model.index import Index, IndexLine, parse_entry, parse_index, render_index

# The link part of an entry: the first `](target)` whose `]` is not escaped.
_LINK = re.compile(r"(?<!\\)\]\((?P<target><[^>]*>|[^)\s]*)")
# An entry inside a comment: `<!-- - [T](t.md) — hook -->`, or the entry line alone (between a
# `<!--` line and a `-->` line); the entry is the `body` group.
_COMMENTED = re.compile(r"^[ \t]*(?:<!--[ \t]*)?(?P<body>.*?)(?:[ \t]*-->.*)?$")

_DELETED_KEPT = "deleted on one side and changed on the other; kept the changed index entry"
_DELETED_WENT = (
    "deleted on one side with its memory and changed on the other; the entry went with its memory"
)

Token = tuple[str, str, int]  # ("E", store path, occurrence) or ("L", text, 0)


@dataclass(frozen=True)
class IndexEnsure:
    """A memory that must end up with an entry in this index, and where to put it."""

    target: str  # store path of the memory file
    line: str  # the entry line to add when no entry links to TARGET
    after: tuple[str, ...] = ()  # store paths of entries to follow, nearest first
    before: tuple[str, ...] = ()  # when none of AFTER is there: entries to precede, nearest first


def resolve_target(folder: str, target: str) -> str:
    """The store path an entry target points to, from an index in FOLDER."""
    if not target or "://" in target or target.startswith(("/", "mailto:")):
        return target
    return posixpath.normpath(posixpath.join(folder, target))


def linked_targets(raw: bytes, folder: str) -> set[str]:
    """Every file a link on any line of the index RAW in FOLDER names (read as `link_paths`
    reads it), entry or not: `1. [T](t.md)`, `- **[T](t.md)**` and a link in prose count."""
    from memsync.model.index import link_paths, normalize_target

    found: set[str] = set()
    for line in parse_index(raw).lines:
        for match in _LINK.finditer(line.text):
            target = normalize_target(match.group("target"))
            if target and "://" not in target and not target.startswith(("/", "mailto:")):
                found.update(link_paths(target, folder))
    return found


def relative_target(folder: str, path: str) -> str:
    """The link target for store PATH as written in the index of FOLDER."""
    return posixpath.relpath(path, folder or ".")


def retarget(line: str, target: str) -> str:
    """LINE with its link pointing at TARGET (anchor and brackets dropped)."""
    match = _LINK.search(line)
    if match is None:
        return line
    start, end = match.span("target")
    return line[:start] + target + line[end:]


def _view(raw: bytes, folder: str, renames: Mapping[str, str]) -> Index:
    index = parse_index(raw)
    if not renames:
        return index
    lines: list[IndexLine] = []
    for line in index.lines:
        new = None if line.entry is None else renames.get(resolve_target(folder, line.entry.target))
        if new is None:
            lines.append(line)
        else:
            text = retarget(line.text, relative_target(folder, new))
            lines.append(IndexLine(text, parse_entry(text)))
    return index.with_lines(lines)


def _tokens(index: Index, folder: str) -> tuple[list[Token], dict[Token, str]]:
    tokens: list[Token] = []
    texts: dict[Token, str] = {}
    seen: dict[str, int] = {}
    for line in index.lines:
        if line.entry is None:
            tokens.append(("L", line.text, 0))
            continue
        key = resolve_target(folder, line.entry.target)
        # Repeated entries of one target keep their identity (1st, 2nd...) so a merge never
        # collapses duplicates a side deliberately has, nor creates new ones.
        token: Token = ("E", key, seen.get(key, 0))
        seen[key] = token[2] + 1
        tokens.append(token)
        texts[token] = line.text
    return tokens, texts


def _entry_text(
    path: str,
    token: Token,
    texts: tuple[dict[Token, str], dict[Token, str], dict[Token, str]],
    times: tuple[int, int],
    decisions: list[MergeDecision],
) -> str:
    base, a, b = (t.get(token) for t in texts)
    if a is None or b is None:
        result = a if a is not None else b if b is not None else base
        assert result is not None
        return result
    if b in (a, base):
        return a
    if a == base:
        return b
    winner, loser = (a, b) if (times[0], a) >= (times[1], b) else (b, a)
    why = "newer change" if times[0] != times[1] else "same time, tie broken by content"
    decisions.append(
        MergeDecision(
            path,
            "index-entry-conflict",
            token[1],
            winner,
            loser,
            f"both sides changed the index entry for {token[1]}; kept the {why}",
        )
    )
    return winner


def _merge_lines(
    path: str,
    folder: str,
    sides: tuple[Index, Index, Index],
    *,
    times: tuple[int, int],
    a_first: bool,
    gone: Collection[str],
    decisions: list[MergeDecision],
) -> list[IndexLine]:
    (base_tokens, base_texts), (a_tokens, a_texts), (b_tokens, b_texts) = (
        _tokens(index, folder) for index in sides
    )
    merged = merge3(base_tokens, a_tokens, b_tokens, a_first=a_first)
    texts = (base_texts, a_texts, b_texts)
    for conflict in merged.conflicts:
        kept = [
            _entry_text(path, t, texts, times, []) if t[0] == "E" else t[1] for t in conflict.merged
        ]
        decisions.append(
            MergeDecision(
                path,
                "index-lines-combined",
                None,
                "\n".join(kept),
                None,
                "both sides changed the index at the same place; kept both sides' lines",
            )
        )
    lines: list[IndexLine] = []
    emitted: set[Hashable] = set()
    for token in merged.items:
        if token[0] == "L":
            lines.append(IndexLine(token[1]))
        elif token not in emitted:
            emitted.add(token)
            text = _entry_text(path, token, texts, times, decisions)
            lines.append(IndexLine(text, parse_entry(text)))
    base_plain, a_plain, b_plain = (
        Counter(t[1] for t in tokens if t[0] == "L") for tokens in (base_tokens, a_tokens, b_tokens)
    )
    commented = _Commented(path, folder, texts, (base_plain, a_plain, b_plain), times, gone)
    for token in base_texts:
        if token not in emitted:
            commented.carry(token, lines, decisions)
        elif token not in a_texts or token not in b_texts:  # dropped by one, moved by the other
            commented.deleted(token, decisions)
    return lines


@dataclass(frozen=True)
class _Commented:
    """An entry one side commented out while the other changed it: the change goes into the
    comment (the commenting side's choice stays, no word is lost), and the report says so.
    Deleted outright instead, the changed line stays while its memory does (`deleted`)."""

    path: str
    folder: str
    texts: tuple[dict[Token, str], dict[Token, str], dict[Token, str]]
    plain: tuple[Counter[str], Counter[str], Counter[str]]  # each version's non-entry lines
    times: tuple[int, int]
    gone: Collection[str]  # memories the merged tree no longer has

    def carry(self, token: Token, lines: list[IndexLine], decisions: list[MergeDecision]) -> None:
        """Put the other side's change of TOKEN's entry into the comment one side put it in."""
        base = self.texts[0][token]
        for side, other in ((1, 2), (2, 1)):
            edited = self.texts[other].get(token)
            # TOKEN was not merged in, so at most one side has it: OTHER, when it edited it.
            if edited is None or edited == base:
                continue
            new = self.plain[side] - self.plain[0]  # lines this side wrote, a comment among them
            place = next(
                (
                    i
                    for i, ln in enumerate(lines)
                    if new[ln.text] and self._key(ln.text) == token[1]
                ),
                None,
            )
            if place is None:  # deleted outright, not commented
                if self.deleted(token, decisions):
                    keys = [_line_key(ln, self.folder) for ln in lines]
                    order = [t[1] for t in self.texts[other]]  # its entries, in its order
                    n = list(self.texts[other]).index(token)
                    at = _position(keys, order[:n][::-1], order[n + 1 :])
                    lines.insert(at, IndexLine(edited, parse_entry(edited)))
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

    def deleted(self, token: Token, decisions: list[MergeDecision]) -> bool:
        """Report an entry one side deleted outright and the other changed: True when the
        changed line stays (its memory does, as a changed file stays against a deletion)."""
        edited = self.texts[1].get(token, self.texts[2].get(token))
        if edited is None or edited == self.texts[0][token]:
            return False  # untouched on the other side: the deletion wins, unsaid
        # A line of a memory that is gone would dangle: it goes, its words said in full.
        kept, lost = (None, edited) if token[1] in self.gone else (edited, None)
        why = _DELETED_KEPT if lost is None else _DELETED_WENT
        decisions.append(MergeDecision(self.path, "index-entry-deleted", token[1], kept, lost, why))
        return kept is not None

    def _key(self, text: str) -> str | None:
        match = _COMMENTED.match(text)
        entry = None if match is None else parse_entry(match.group("body"))
        return None if entry is None else resolve_target(self.folder, entry.target)


def _fix_up(
    lines: list[IndexLine], folder: str, gone: Collection[str], ensure: Sequence[IndexEnsure]
) -> list[IndexLine]:
    """Drop entries of deleted memories; add entries memories must have."""
    result = [ln for ln in lines if _line_key(ln, folder) not in gone] if gone else list(lines)
    for item in sorted(ensure, key=lambda e: e.target):
        keys = [_line_key(line, folder) for line in result]
        if item.target not in keys:
            at = _position(keys, item.after, item.before)
            result.insert(at, IndexLine(item.line, parse_entry(item.line)))
    return result


def _line_key(line: IndexLine, folder: str) -> str | None:
    return None if line.entry is None else resolve_target(folder, line.entry.target)


def _position(keys: Sequence[str | None], after: Sequence[str], before: Sequence[str]) -> int:
    """Where a line goes among lines of KEYS: after the first of AFTER there, else before the
    first of BEFORE, else after the last entry."""
    position = next((keys.index(a) + 1 for a in after if a in keys), None)
    if position is None:
        position = next((keys.index(b) for b in before if b in keys), None)
    if position is None:
        entries = [i for i, k in enumerate(keys) if k is not None]
        position = entries[-1] + 1 if entries else len(keys)
    return position


def merge_index(
    base: bytes | None,
    ours: bytes | None,
    theirs: bytes | None,
    *,
    path: str = "MEMORY.md",
    ours_time: int | None = None,
    theirs_time: int | None = None,
    renames: Mapping[str, str] | None = None,
    ours_renames: Mapping[str, str] | None = None,
    theirs_renames: Mapping[str, str] | None = None,
    gone: Collection[str] = (),
    ensure: Sequence[IndexEnsure] = (),
) -> FileMerge:
    """Merge a MEMORY.md by entry; the same result whichever side is ours.

    RENAMES (store path -> new store path) retarget entries of every version before merging
    (files the merge moved); OURS_/THEIRS_RENAMES only that side's (the add/add copies kept
    under a new name); GONE drops entries of memories the merged tree no longer has; ENSURE
    adds entries memories must have when none links to them.
    """
    folder = posixpath.dirname(path)
    moves = renames or {}
    a = None if ours is None else _view(ours, folder, {**moves, **(ours_renames or {})})
    b = None if theirs is None else _view(theirs, folder, {**moves, **(theirs_renames or {})})
    if moves and base is not None:
        base = render_index(_view(base, folder, moves))
    a_raw = None if a is None else render_index(a)
    b_raw = None if b is None else render_index(b)
    decisions: list[MergeDecision] = []
    if b_raw in (a_raw, base):
        result = a
    elif a_raw == base:
        result = b
    elif a is None or b is None:
        result = a if a is not None else b
        decisions.append(
            MergeDecision(
                path, "delete-modify", None, path, None,
                "deleted on one side and changed on the other; kept the changed index",
            )
        )  # fmt: skip
    else:
        assert a_raw is not None and b_raw is not None
        base_index = parse_index(base if base is not None else b"")
        times = (
            NO_TIME if ours_time is None else ours_time,
            NO_TIME if theirs_time is None else theirs_time,
        )
        a_first = ours_first(a_raw, b_raw, ours_time, theirs_time)
        lines = _merge_lines(
            path,
            folder,
            (base_index, a, b),
            times=times,
            a_first=a_first,
            gone=gone,
            decisions=decisions,
        )
        ref = base_index if base is not None else (a if a_first else b)
        result = Index(
            tuple(lines),
            bom=merge3_flag(ref.bom, a.bom, b.bom),
            crlf=merge3_flag(ref.crlf, a.crlf, b.crlf),
            final_newline=merge3_flag(ref.final_newline, a.final_newline, b.final_newline),
        )
    if result is None:
        return FileMerge(path, None, decisions=tuple(decisions))
    if gone or ensure:
        result = result.with_lines(_fix_up(list(result.lines), folder, gone, ensure))
    return FileMerge(path, render_index(result), decisions=tuple(decisions))
