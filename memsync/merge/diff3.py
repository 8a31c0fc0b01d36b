"""Three-way merge of sequences (lines, index tokens): symmetric, marker-free, lossless."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from memsync.merge.matching import opcodes

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True)
class Hunk(Generic[T]):
    """One side's change: base items [start, end) replaced by `items`."""

    start: int
    end: int
    items: tuple[T, ...]
    side: int  # 0 or 1

    @property
    def is_insertion(self) -> bool:
        """Whether the hunk only inserts (replaces an empty base range)."""
        return self.start == self.end


@dataclass(frozen=True)
class Conflict(Generic[T]):
    """A base region both sides changed differently, and what the merge kept for it."""

    start: int
    end: int
    first: tuple[T, ...]
    second: tuple[T, ...]
    merged: tuple[T, ...]
    level: str = "lines"  # "lines": whole items both kept; "words": only where words collided


@dataclass(frozen=True)
class SequenceMerge(Generic[T]):
    """The merged sequence and the regions where both sides' changes were combined."""

    items: tuple[T, ...]
    conflicts: tuple[Conflict[T], ...]


def diff_hunks(
    base: Sequence[T],
    side: Sequence[T],
    side_id: int = 0,
    glue: Callable[[T], bool] | None = None,
) -> list[Hunk[T]]:
    """The changes that turn BASE into SIDE, as disjoint hunks in base order.

    Two changes separated only by GLUE items (spaces between words) are one change: a side
    that rewrote "the migration failed" as "prod broke" changed those words as a whole.
    """
    if len(base) == len(side) and all(x == y for x, y in zip(base, side, strict=False)):
        return []
    changes = [op[1:] for op in opcodes(base, side) if op[0] != "equal"]
    spans: list[list[int]] = []  # [i1, i2, j1, j2] of each change
    for n, change in enumerate(changes):
        i1, i2, j1, j2 = change
        if i1 == i2:
            # An insertion slides as far down as the equal run after it allows (" x" before
            # "y" is "x " after the space): one place for it, whichever diff found it.
            limit = changes[n + 1][0] if n + 1 < len(changes) else len(base)
            while i1 < limit and j2 < len(side) and side[j1] == side[j2]:
                i1, i2, j1, j2 = i1 + 1, i2 + 1, j1 + 1, j2 + 1
        last = spans[-1] if spans else None
        if last and glue and last[1] < i1 and all(glue(x) for x in base[last[1] : i1]):
            last[1], last[3] = i2, j2
        else:
            spans.append([i1, i2, j1, j2])
    return [Hunk(i1, i2, tuple(side[j1:j2]), side_id) for i1, i2, j1, j2 in spans]


def _conflicting(h: Hunk[T], k: Hunk[T]) -> bool:
    # Hunks that only touch (an insertion at the edge of a replaced range) apply cleanly,
    # the insertion first; two insertions at one point or overlapping ranges collide.
    if h.is_insertion and k.is_insertion:
        return h.start == k.start
    return h.start < k.end and k.start < h.end


def _apply(base: Sequence[T], start: int, end: int, hunks: list[Hunk[T]]) -> tuple[T, ...]:
    out: list[T] = []
    pos = start
    for hunk in hunks:
        out.extend(base[pos : hunk.start])
        out.extend(hunk.items)
        pos = hunk.end
    out.extend(base[pos:end])
    return tuple(out)


def union(first: Sequence[T], second: Sequence[T]) -> tuple[T, ...]:
    """Both sequences interleaved: common runs once, differing runs FIRST's then SECOND's."""
    out: list[T] = []
    for tag, i1, i2, j1, j2 in opcodes(first, second):
        out.extend(first[i1:i2])
        if tag in ("replace", "insert"):
            out.extend(second[j1:j2])
    return tuple(out)


def _clusters(hunks: list[Hunk[T]]) -> list[list[Hunk[T]]]:
    """Group hunks transitively by conflict; every hunk lands in exactly one group."""
    ordered = sorted(hunks, key=lambda h: (h.start, h.end, h.side))
    groups: list[list[Hunk[T]]] = []
    for hunk in ordered:
        if groups and any(
            member.side != hunk.side and _conflicting(member, hunk) for member in groups[-1]
        ):
            groups[-1].append(hunk)
        else:
            groups.append([hunk])
    return groups


# How a region both sides changed differently is settled: (base start, base end, first
# version, second version) -> (items, None when combined cleanly, else the conflict's level).
Resolver = Callable[[int, int, tuple[T, ...], tuple[T, ...]], tuple[tuple[T, ...], str | None]]


def keep_both(
    _start: int, _end: int, first: tuple[T, ...], second: tuple[T, ...]
) -> tuple[tuple[T, ...], str | None]:
    """The default resolver: both versions interleaved by `union`, a conflict by lines."""
    return union(first, second), "lines"


def _absorbed(
    base: Sequence[T], hunks: list[Hunk[T]], glue: Callable[[T], bool] | None
) -> list[Hunk[T]]:
    """HUNKS minus insertions the other side already has right there.

    The diff of a merge result against the base can see one side's insertion and the other
    side's replacement next to it as one change; merging the result again with that side
    must not insert it twice. "Right there": the other side's change before the point ends
    with the insertion, or its change after the point begins with it, with only GLUE items
    of the base in between.
    """
    # Each side's replacements are disjoint and in base order, so their starts and ends both
    # ascend: only those ending or starting within an insertion's length of its point can
    # hold it, found by bisection (a re-wrapped paragraph has thousands of replacements).
    changed = [
        sorted((k for k in hunks if k.side == s and not k.is_insertion), key=_span) for s in (0, 1)
    ]
    starts = [[k.start for k in side] for side in changed]
    ends = [[k.end for k in side] for side in changed]
    kept: list[Hunk[T]] = []
    for h in hunks:
        if h.is_insertion:
            other, p, n = 1 - h.side, h.start, len(h.items)
            near = (
                changed[other][
                    bisect.bisect_left(ends[other], p - n + 1) : bisect.bisect_right(ends[other], p)
                ]
                + changed[other][
                    bisect.bisect_left(starts[other], p) : bisect.bisect_left(starts[other], p + n)
                ]
            )
            if any(_holds(base, h, k, glue) for k in near):
                continue
        kept.append(h)
    return kept


def _span(hunk: Hunk[T]) -> tuple[int, int]:
    return hunk.start, hunk.end


def _holds(base: Sequence[T], h: Hunk[T], k: Hunk[T], glue: Callable[[T], bool] | None) -> bool:
    """Whether replacement K, read with the base between it and insertion H, holds H there."""
    n = len(h.items)
    if k.end <= h.start:
        gap = tuple(base[k.end : h.start])
        text = k.items + gap
        found = text[len(text) - n :] == h.items
    elif k.start >= h.start:
        gap = tuple(base[h.start : k.start])
        found = (gap + k.items)[:n] == h.items
    else:
        return False
    return found and n > len(gap) and (not gap or (glue is not None and all(map(glue, gap))))


def side_hunks(
    base: Sequence[T], a: Sequence[T], b: Sequence[T], glue: Callable[[T], bool] | None = None
) -> list[Hunk[T]]:
    """Both sides' changes of BASE as `merge3` combines them (A's side 0, B's side 1)."""
    return _absorbed(base, diff_hunks(base, a, 0, glue) + diff_hunks(base, b, 1, glue), glue)


def merge3(
    base: Sequence[T],
    a: Sequence[T],
    b: Sequence[T],
    *,
    a_first: bool,
    resolve: Resolver[T] | None = None,
    glue: Callable[[T], bool] | None = None,
    hunks: list[Hunk[T]] | None = None,
) -> SequenceMerge[T]:
    """Merge A and B, two edits of BASE; where they collide RESOLVE (default: keep both).

    GLUE: see `diff_hunks`. HUNKS: `side_hunks(base, a, b, glue)`, when already known.
    """
    if hunks is None:
        hunks = side_hunks(base, a, b, glue)
    out: list[T] = []
    conflicts: list[Conflict[T]] = []
    pos = 0
    for group in _clusters(hunks):
        start = min(h.start for h in group)
        end = max(h.end for h in group)
        out.extend(base[pos:start])
        pos = end
        sides = [[h for h in group if h.side == s] for s in (0, 1)]
        if not sides[1]:
            out.extend(_apply(base, start, end, sides[0]))
            continue
        if not sides[0]:
            out.extend(_apply(base, start, end, sides[1]))
            continue
        version_a = _apply(base, start, end, sides[0])
        version_b = _apply(base, start, end, sides[1])
        if version_a == version_b:
            out.extend(version_a)
            continue
        first, second = (version_a, version_b) if a_first else (version_b, version_a)
        merged, level = (resolve or keep_both)(start, end, first, second)
        out.extend(merged)
        if level is not None:
            conflicts.append(Conflict(start, end, first, second, merged, level))
    out.extend(base[pos:])
    return SequenceMerge(tuple(out), tuple(conflicts))


def split_lines(text: str) -> tuple[list[str], bool]:
    """Lines of TEXT without their `\\n`, and whether the text ended with one."""
    if not text:
        return [], False
    if text.endswith("\n"):
        return text[:-1].split("\n"), True
    return text.split("\n"), False


def join_lines(lines: Sequence[str], final_newline: bool) -> str:
    """Inverse of split_lines."""
    if not lines:
        return ""
    return "\n".join(lines) + ("\n" if final_newline else "")


def merge3_flag(base: bool, a: bool, b: bool) -> bool:
    """Three-way merge of a yes/no property: a one-sided change wins."""
    return b if a == base else a


@dataclass(frozen=True)
class TextMerge:
    """Result of a line-level merge of three texts."""

    text: str
    conflicts: tuple[Conflict[str], ...]


def merge_text(
    base: str,
    a: str,
    b: str,
    *,
    a_first: bool,
    resolver: Callable[[Sequence[str]], Resolver[str]] | None = None,
) -> TextMerge:
    """Line-level three-way merge of texts; never drops a line one side added or kept.

    RESOLVER, given the base's lines, settles the regions both sides changed (default: keep
    both sides' lines); `words.prose_resolver` merges them again by words.
    """
    if b in (a, base):
        return TextMerge(a, ())
    if base == a:
        return TextMerge(b, ())
    base_lines, base_nl = split_lines(base)
    a_lines, a_nl = split_lines(a)
    b_lines, b_nl = split_lines(b)
    merged = merge3(
        base_lines,
        a_lines,
        b_lines,
        a_first=a_first,
        resolve=None if resolver is None else resolver(base_lines),
    )
    # An empty text has no last line, so it says nothing about ending with a newline.
    nl = merge3_flag(base_nl, a_nl if a_lines else base_nl, b_nl if b_lines else base_nl)
    if not base_lines:
        nl = a_nl if not b_lines else b_nl if not a_lines else nl
    if merged.items and merged.items[-1] == "":
        # A last empty line exists only as "\n\n"; without the newline it would vanish.
        nl = True
    return TextMerge(join_lines(merged.items, nl), merged.conflicts)
