"""The diff behind every merge: difflib's where it is cheap, anchored on unique runs where not.

`difflib.SequenceMatcher` (autojunk off: its popularity heuristic would make the diff depend
on file length) looks, for every item of one side, at every place the other side has that
item: a 40 KB paragraph re-wrapped on one machine has thousands of spaces on both sides, and
its diff took minutes. Its work is estimated first (for each item, its count on one side
times its count on the other); within `BUDGET` it runs as it always did, so ordinary
memories diff exactly as before. Above it, the words (items that are not white space or an
empty line) are matched first, so a re-wrap, which changes only the white space between
words, matches every word where it is even in text that repeats itself; the white space
between two matched words is then diffed by difflib. The words are matched by their common
prefix and suffix, then by anchors: runs of items that occur exactly once on each side, in
an order both sides share (patience diff over runs, longest-evidence first: see `_RUNS`);
each stretch between two anchors is diffed by the same rule, difflib once its work is within
`STRETCH`. A large stretch with no such run is one replacement: a coarser diff, never a
wrong one (the merge then keeps both versions of those lines, as for any collision).
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Hashable, Sequence
from difflib import SequenceMatcher
from typing import TypeVar

T = TypeVar("T", bound=Hashable)

# SequenceMatcher's work (sum over items of count in A times count in B) under which it
# diffs the whole input: about 1.5 KB of one re-wrapped paragraph, 25 ms here (its time
# grows with this work times the number of changes, so a re-wrap is its worst case).
BUDGET = 50_000
# The same for a stretch between anchors: small, as unique runs are plentiful in a stretch.
STRETCH = 2_000
# Anchor lengths tried in turn. A short run unique in a stretch is weak evidence: in a
# re-wrapped paragraph "and the" may be unique on both sides of a stretch yet be two
# different places in the text, one wrapped between the words on each side, and matching
# them misaligns the words around (a word inserted there then collides with a deletion).
# Runs of 16 items first (longer when those repeat), then shorter; single items only where
# nothing longer anchors and difflib's work would be too much.
_RUNS = (16, 32, 64, 8, 4)
_SHORT_RUNS = (2, 1)
_MOD = (1 << 61) - 1  # runs are compared by a polynomial hash, then checked item by item
_BASE = 1_000_003

Block = tuple[int, int, int]  # a[i : i + n] == b[j : j + n]
Opcode = tuple[str, int, int, int, int]


def _work(a: Sequence[T], b: Sequence[T]) -> int:
    counts = Counter(b)
    return sum(counts[item] for item in a)


def _prefix_hashes(seq: Sequence[T], codes: dict[T, int]) -> list[int]:
    """Hashes of SEQ's prefixes: any run's hash in constant time, whatever its length."""
    out = [0]
    for item in seq:
        out.append((out[-1] * _BASE + codes.setdefault(item, len(codes) + 1)) % _MOD)
    return out


def _runs(prefix: list[int], run: int) -> list[int]:
    power = pow(_BASE, run, _MOD)
    return [(prefix[i + run] - prefix[i] * power) % _MOD for i in range(len(prefix) - run)]


def _anchors(
    a: Sequence[T], b: Sequence[T], prefixes: tuple[list[int], list[int]], run: int
) -> list[Block]:
    """Runs of RUN items unique on both sides, in an order both sides share, not overlapping."""
    where: dict[int, list[int]] = {}  # run's hash -> [count in a, place in a, place in b]
    for i, key in enumerate(_runs(prefixes[0], run)):
        entry = where.setdefault(key, [0, i, -1])
        entry[0] += 1
    for j, key in enumerate(_runs(prefixes[1], run)):
        found = where.get(key)
        if found is not None and found[0] == 1:
            found[2] = j if found[2] == -1 else -2  # -2: more than once in b
    # Checked as tuples: callers mix lists and tuples, whose slices never compare equal.
    pairs = sorted(
        (i, j)
        for count, i, j in where.values()
        if count == 1 and j >= 0 and tuple(a[i : i + run]) == tuple(b[j : j + run])
    )
    # The longest chain of pairs increasing in b (patience sorting), kept with back links.
    tails: list[int] = []  # b places ending the best chain of each length
    ends: list[int] = []  # index in pairs of that chain's last pair
    back: list[int] = []
    for n, (_, j) in enumerate(pairs):
        length = bisect.bisect_left(tails, j)
        back.append(ends[length - 1] if length else -1)
        if length == len(tails):
            tails.append(j)
            ends.append(n)
        else:
            tails[length], ends[length] = j, n
    chain: list[tuple[int, int]] = []
    n = ends[-1] if ends else -1
    while n >= 0:
        chain.append(pairs[n])
        n = back[n]
    blocks: list[Block] = []
    for i, j in reversed(chain):
        if not blocks or (i >= blocks[-1][0] + run and j >= blocks[-1][1] + run):
            blocks.append((i, j, run))
    return blocks


def _blocks(a: Sequence[T], b: Sequence[T], stretch: int, budget: int) -> list[Block]:
    """Matching blocks of A and B in order (not yet joined, no sentinel).

    difflib for a stretch whose work is within STRETCH, or within BUDGET when no run anchors.
    """
    out: list[Block] = []
    # A stack of stretches still to diff, and blocks found, in reverse order of output.
    todo: list[tuple[int, int, int, int] | Block] = [(0, len(a), 0, len(b))]
    while todo:
        task = todo.pop()
        if len(task) == 3:
            out.append(task)
            continue
        alo, ahi, blo, bhi = task
        if alo == ahi or blo == bhi:
            continue
        sub_a, sub_b = a[alo:ahi], b[blo:bhi]
        work = _work(sub_a, sub_b)
        if work <= stretch:
            out.extend(_difflib_blocks(sub_a, sub_b, alo, blo))
            continue
        head = 0
        while head < len(sub_a) and head < len(sub_b) and sub_a[head] == sub_b[head]:
            head += 1
        tail = 0
        limit = min(len(sub_a), len(sub_b)) - head
        while tail < limit and sub_a[-1 - tail] == sub_b[-1 - tail]:
            tail += 1
        if head or tail:
            todo.append((ahi - tail, blo + len(sub_b) - tail, tail))
            todo.append((alo + head, ahi - tail, blo + head, bhi - tail))
            todo.append((alo, blo, head))
            continue
        codes: dict[T, int] = {}
        prefixes = (_prefix_hashes(sub_a, codes), _prefix_hashes(sub_b, codes))
        anchors: list[Block] = []
        for run in _RUNS:
            anchors = _anchors(sub_a, sub_b, prefixes, run)
            if anchors:
                break
        if not anchors and work <= budget:
            out.extend(_difflib_blocks(sub_a, sub_b, alo, blo))
            continue
        for run in () if anchors else _SHORT_RUNS:
            anchors = _anchors(sub_a, sub_b, prefixes, run)
            if anchors:
                break
        # Stretches and anchors pushed last first; no anchor: one replacement.
        ai, bj = ahi, bhi
        for i, j, n in reversed(anchors):
            todo.append((alo + i + n, ai, blo + j + n, bj))
            todo.append((alo + i, blo + j, n))
            ai, bj = alo + i, blo + j
        if anchors:
            todo.append((alo, ai, blo, bj))
    return out


def _difflib_blocks(a: Sequence[T], b: Sequence[T], alo: int, blo: int) -> list[Block]:
    """difflib's matching blocks of A and B, placed at ALO and BLO (its sentinel left out)."""
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return [(alo + i, blo + j, n) for i, j, n in matcher.get_matching_blocks() if n]


def opcodes(a: Sequence[T], b: Sequence[T], budget: int | None = None) -> list[Opcode]:
    """How to turn A into B, as `SequenceMatcher.get_opcodes` gives it (BUDGET: see above)."""
    budget = BUDGET if budget is None else budget  # read at each call, so tests can lower it
    if _work(a, b) <= budget:
        # Exactly difflib's answer where it is cheap: ordinary merges are unchanged.
        exact: list[Opcode] = [*SequenceMatcher(None, a, b, autojunk=False).get_opcodes()]
        return exact
    # Words first: a re-wrap changes only the white space between them (blank items: spaces,
    # line breaks, empty lines), so its words match whole, whatever text repeats; the white
    # space between two matched words is then the same or one change.
    words = [i for i, item in enumerate(a) if not _blank(item)]
    others = [j for j, item in enumerate(b) if not _blank(item)]
    pairs = [
        (words[p + k], others[q + k])
        for p, q, n in _blocks(
            [a[i] for i in words], [b[j] for j in others], min(budget, STRETCH), budget
        )
        for k in range(n)
    ]
    ops: list[Opcode] = []

    def add(tag: str, i1: int, i2: int, j1: int, j2: int) -> None:
        if i1 == i2 and j1 == j2:
            return
        if ops and ops[-1][0] == tag == "equal":
            ops[-1] = (tag, ops[-1][1], i2, ops[-1][3], j2)
        else:
            ops.append((tag, i1, i2, j1, j2))

    i = j = 0
    for word, other in [*pairs, (len(a), len(b))]:
        # Compared as tuples: callers mix lists and tuples, whose slices never compare equal.
        gap_a, gap_b = tuple(a[i:word]), tuple(b[j:other])
        if gap_a == gap_b:
            add("equal", i, word, j, other)
        elif _work(gap_a, gap_b) <= STRETCH:
            # A word added at a line's end must stay an insertion before the line break,
            # which the other side may have replaced by a space: difflib's diff of the gap.
            gap = SequenceMatcher(None, gap_a, gap_b, autojunk=False)
            for tag, i1, i2, j1, j2 in gap.get_opcodes():
                add(tag, i + i1, i + i2, j + j1, j + j2)
        else:  # work past STRETCH: items on both sides
            add("replace", i, word, j, other)
        add("equal", word, min(word + 1, len(a)), other, min(other + 1, len(b)))
        i, j = word + 1, other + 1
    return ops


def _blank(item: object) -> bool:
    return isinstance(item, str) and (item == "" or item.isspace())
