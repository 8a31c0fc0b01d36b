"""MEMORY.md merged by entry (keyed by link target), other lines three-way; no duplicates."""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

from memsync.merge.diff3 import Conflict, merge3, merge3_flag
from memsync.merge.fields import NO_TIME, TIE
from memsync.merge.indexout import TakenOut, Token, line_key, linked, position
from memsync.merge.memory import FileMerge, MergeDecision, ours_first
from memsync.model.index import (
    LINK,
    Index,
    IndexLine,
    line_links,
    parse_entry,
    parse_index,
    render_index,
    resolve_target,
)
from memsync.model.indexrefs import linked_from_text


@dataclass(frozen=True)
class IndexEnsure:
    """A memory that must end up with an entry in this index, and where to put it."""

    target: str  # store path of the memory file
    line: str  # the entry line to add when no entry links to TARGET
    after: tuple[str, ...] = ()  # store paths of entries to follow, nearest first
    before: tuple[str, ...] = ()  # when none of AFTER is there: entries to precede, nearest first


def linked_targets(raw: bytes, folder: str) -> set[str]:
    """Every file a link on any line of the index RAW in FOLDER names (read as `link_paths`
    reads it), entry or not: `1. [T](t.md)`, `- **[T](t.md)**` and a link in prose count; and
    a file a line that is no entry names in code (`` see `t.md` ``), as consolidate and check
    count it (`model.indexrefs.linked_from_text`)."""
    index = parse_index(raw)
    found = linked_from_text(index, folder)
    for line in index.lines:
        found.update(line_links(line.text, folder))
    return found


def relative_target(folder: str, path: str) -> str:
    """The link target for store PATH as written in the index of FOLDER."""
    return posixpath.relpath(path, folder or ".")


def retarget(line: str, target: str) -> str:
    """LINE with its link pointing at TARGET (anchor and brackets dropped)."""
    match = LINK.search(line)
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
    what = f"both sides changed the index entry for {token[1]}"
    what += "; kept the newer change" if times[0] != times[1] else f" at the same time; {TIE}"
    decisions.append(
        MergeDecision(
            path,
            "index-entry-conflict",
            token[1],
            winner,
            loser,
            what,
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
    said: list[MergeDecision] = []  # what was decided of single entries
    lines: list[IndexLine] = []
    emitted: set[Hashable] = set()
    for token in merged.items:
        if token[0] == "L":
            lines.append(IndexLine(token[1]))
        elif token not in emitted:
            emitted.add(token)
            text = _entry_text(path, token, texts, times, said)
            lines.append(IndexLine(text, parse_entry(text)))
    plain = (_plain(base_tokens), _plain(a_tokens), _plain(b_tokens))
    linking = (linked(sides[1], folder), linked(sides[2], folder))
    orders = (base_tokens, a_tokens, b_tokens)
    taken = TakenOut(path, folder, texts, plain, times, gone, linking, orders)
    for token in base_texts:
        if token not in emitted:
            taken.carry(token, lines, said)
        elif token not in a_texts or token not in b_texts:  # dropped by one, moved by the other
            moved = texts[1][token] if token in texts[1] else texts[2][token]
            at = next(i for i, ln in enumerate(lines) if ln.text == moved and ln.entry)
            taken.deleted(token, lines, said, at)
    combined = _combined(
        path, conflicts=merged.conflicts, texts=texts, times=times, lines=lines, said=said
    )
    decisions.extend(combined)
    decisions.extend(said)
    return lines


def _combined(
    path: str,
    *,
    conflicts: Sequence[Conflict[Token]],
    texts: tuple[dict[Token, str], dict[Token, str], dict[Token, str]],
    times: tuple[int, int],
    lines: Sequence[IndexLine],
    said: Sequence[MergeDecision],
) -> list[MergeDecision]:
    """A report of each place both sides changed, naming the lines of it the merge kept, but
    those an entry's own report names: one report per line, none for a place left without."""
    final = {line.text for line in lines}
    named = {value for d in said for value in (d.kept, d.lost) if value is not None}
    found: list[MergeDecision] = []
    for conflict in conflicts:
        kept = [
            _entry_text(path, t, texts, times, []) if t[0] == "E" else t[1] for t in conflict.merged
        ]
        shown = [text for text in kept if text in final and text not in named]
        if shown:
            found.append(
                MergeDecision(
                    path, "index-lines-combined", None, "\n".join(shown), None,
                    "both sides changed the index at the same place; kept both sides' lines",
                )
            )  # fmt: skip
    return found


def _plain(tokens: Sequence[Token]) -> Counter[str]:
    """How often each line that is no entry occurs among TOKENS."""
    return Counter(text for kind, text, _ in tokens if kind == "L")


def _fix_up(
    lines: list[IndexLine], folder: str, gone: Collection[str], ensure: Sequence[IndexEnsure]
) -> list[IndexLine]:
    """Drop entries of deleted memories; add entries memories must have."""
    result = [ln for ln in lines if line_key(ln, folder) not in gone] if gone else list(lines)
    for item in sorted(ensure, key=lambda e: e.target):
        keys = [line_key(line, folder) for line in result]
        if item.target not in keys:
            at = position(keys, item.after, item.before)
            result.insert(at, IndexLine(item.line, parse_entry(item.line)))
    return result


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
    decisions += _undecodable(path, ours, theirs)
    if gone or ensure:
        result = result.with_lines(_fix_up(list(result.lines), folder, gone, ensure))
    return FileMerge(path, render_index(result), decisions=tuple(decisions))


def _undecodable(path: str, ours: bytes | None, theirs: bytes | None) -> list[MergeDecision]:
    """A side that is not UTF-8 is merged as read, U+FFFD for each byte it cannot decode
    (a teammate's plain-git push): said, so the person can put the lost letters back."""
    from memsync.model.safety import undecodable_versions

    return [
        MergeDecision(
            path,
            "index-not-utf8",
            None,
            None,
            None,
            f"{why}: merged with \ufffd in place of each byte it could not read; put the right "
            "letters back (memsync syncs only UTF-8)",
        )
        for why in undecodable_versions(ours, theirs)
    ]
