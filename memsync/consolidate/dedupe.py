"""Duplicate memories: exact groups by normalized body, near duplicates and paraphrases by
rare shared terms, each candidate pair then checked exactly (see likeness).

Candidate search keeps the work per memory flat as a folder grows: every memory is probed
with its few *key terms*, the rarest of its canonical terms that some other memory of its type
also has, and only memories holding at least two of them become candidates. Duplicates share
their rare terms (names, paths, numbers, the topic's words) whatever their wording; unrelated
memories about the same service share the service's name but rarely two rare terms. A term
held by more than `MAX_POSTING` memories is never a key, so no memory is probed against a
crowd. The fingerprint holds what the check needs, so no file is read or parsed again.
"""

from __future__ import annotations

import hashlib
import math
from array import array
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

from memsync.consolidate.likeness import Similarity, Text, compare
from memsync.consolidate.wording import day_in_name, normalize_body, terms, tokens, word_ids

__all__ = [
    "DEFAULT_THRESHOLD",
    "Candidate",
    "DuplicateGroup",
    "Fingerprint",
    "Similarity",
    "candidate_pairs",
    "find_duplicates",
    "fingerprint",
    "group_duplicates",
    "normalize_body",
    "similarity",
    "tokens",
]

DEFAULT_THRESHOLD = 0.85
PROBE_BUDGET = 400  # posting entries one memory's probe reads: the work per memory is flat
MIN_SHARED = 2  # probed terms a candidate must share
BEST_MATCHES = 8  # candidates kept per memory, those sharing the most probed terms
_OVERLAP_FLOOR = 0.5  # below this weighted term overlap no pair is a duplicate: skip the check


@dataclass(frozen=True)
class Candidate:
    """One memory as the duplicate search sees it."""

    key: str  # the memory's path, unique
    type: str | None
    body: str


@dataclass(frozen=True)
class DuplicateGroup:
    """Memories that are one memory: identical bodies, or near duplicates of the same type."""

    kind: str  # "exact" | "near"
    members: tuple[str, ...]  # keys, sorted
    similarity: float  # the lowest pairwise ratio that joined the group (1.0 when exact)


@dataclass(frozen=True)
class Fingerprint:
    """What the search keeps of one memory: its digest, type and token ids, not its text."""

    digest: bytes | None  # of the normalized body; None when the body is empty
    type: str | None = None  # None: kept out of the near-duplicate search
    text: Text | None = None  # None without a type or without words


def fingerprint(body: str, memory_type: str | None) -> Fingerprint:
    """The fingerprint of one memory's body."""
    normalized = normalize_body(body)
    if not normalized:
        return Fingerprint(None)
    digest = hashlib.blake2b(normalized.encode(), digest_size=16).digest()
    if not memory_type:
        return Fingerprint(digest)
    words, starts = word_ids(body)
    text = Text(words, starts, terms(words)) if words else None
    return Fingerprint(digest, memory_type, text)


def similarity(body_a: str, body_b: str) -> Similarity:
    """The exact check of two bodies on their own (every term weighs the same)."""
    a, b = fingerprint(body_a, "any").text, fingerprint(body_b, "any").text
    empty = Text(array("I"), array("I"), array("I"))
    return compare(a or empty, b or empty)


def candidate_pairs(
    term_sets: Sequence[array[int] | None], *, probe: Iterable[int] | None = None
) -> set[tuple[int, int]]:
    """Pairs (i < j) of memories sharing their rarest terms (see the module doc).

    TERM_SETS holds each memory's sorted distinct terms (None keeps a memory out); callers
    fold the type into the terms so only memories of one type pair up. PROBE, when given,
    limits the search to pairs with one of those memories."""
    df = Counter(chain.from_iterable(t for t in term_sets if t is not None))
    postings: dict[int, array[int]] = {t: array("I") for t, n in df.items() if n > 1}
    for ident, found in enumerate(term_sets):
        for t in found or ():
            if t in postings:
                postings[t].append(ident)
    pairs: set[tuple[int, int]] = set()
    for ident in range(len(term_sets)) if probe is None else probe:
        found = term_sets[ident]
        rarest = sorted((t for t in found or () if t in postings), key=lambda t: (df[t], t))
        hits: Counter[int] = Counter()
        visited = 0
        # Rarest first, until the budget is spent: a duplicate shares the rarest terms, and
        # the common ones would only add work that grows with the folder.
        for used, term in enumerate(rarest):
            posting = postings[term]
            if used >= MIN_SHARED and visited + len(posting) > PROBE_BUDGET:
                break
            hits.update(posting)
            visited += len(posting)
        del hits[ident]
        best = [(other, n) for other, n in hits.items() if n >= MIN_SHARED]
        if len(best) > BEST_MATCHES:
            # Most shared terms first; among equals, the first met shares the rarest term.
            best = sorted(best, key=lambda item: -item[1])[:BEST_MATCHES]
        pairs.update((ident, o) if ident < o else (o, ident) for o, _ in best)
    return pairs


def find_duplicates(
    candidates: Sequence[Candidate],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    focus: Collection[str] | None = None,
) -> list[DuplicateGroup]:
    """Groups of duplicate memories, deterministic for the same input in any order."""
    prints = {c.key: fingerprint(c.body, c.type) for c in candidates}
    return group_duplicates(prints, threshold=threshold, focus=focus)


def group_duplicates(
    prints: Mapping[str, Fingerprint],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    focus: Collection[str] | None = None,
) -> list[DuplicateGroup]:
    """Groups of duplicate memories from their fingerprints alone (no file is read again).

    FOCUS, when given, limits the result to groups with one of those keys: the memories that
    changed since a search that found every group among the others."""
    names = sorted(prints)
    focused = None if focus is None else {i for i, k in enumerate(names) if k in focus}
    exact: dict[tuple[bytes, str | None], list[int]] = {}
    # A daily log's file name says the day it records: 2026-05-22.md and 2026-05-23.md with
    # one text (an agent's "Ranked 0 candidates") are two days, never one memory.
    days = [day_in_name(name) for name in names]
    for index, name in enumerate(names):
        digest = prints[name].digest
        if digest is not None:
            exact.setdefault((digest, days[index]), []).append(index)
    if focused is not None:
        # Unchanged memories were compared before: only pairs with a changed one are new.
        focused |= {m[0] for m in exact.values() if focused.intersection(m)}
    representatives = sorted(members[0] for members in exact.values())
    followers = {members[0]: members for members in exact.values()}
    texts = [prints[names[i]].text for i in representatives]
    kinds = {t: n for n, t in enumerate(sorted({prints[n].type or "" for n in names}))}
    folded: list[array[int] | None] = []
    for rep, text in zip(representatives, texts, strict=True):
        type_index = kinds[prints[names[rep]].type or ""]
        # The type in the top bits: memories of different types never share a term.
        folded.append(
            None if text is None else array("Q", [type_index << 32 | t for t in text.terms])
        )
    df = Counter(chain.from_iterable(f for f in folded if f is not None))
    population = max(len(folded), 1)
    # Squared: the rare terms (names, the topic) decide, the template's words barely count.
    weight = {term: math.log(1 + population / n) ** 2 for term, n in df.items()}
    # A term both memories of a pair hold weighs by how rare it is among the others: in a
    # folder of two, every term is as rare as can be.
    paired = {term: math.log(1 + population / (n - 1)) ** 2 for term, n in df.items() if n > 1}
    totals = [0.0 if f is None else sum(map(weight.__getitem__, f)) for f in folded]

    def check(a: int, b: int) -> Similarity | None:
        """The exact check of one pair, or None when their terms are too far apart."""
        terms_a, terms_b, text_a, text_b = folded[a], folded[b], texts[a], texts[b]
        day_a, day_b = days[representatives[a]], days[representatives[b]]
        if day_a and day_b and day_a != day_b:
            return None
        if terms_a is None or terms_b is None or text_a is None or text_b is None:
            return None
        shared = set(terms_a).intersection(terms_b)
        alone = sum(map(weight.__getitem__, shared))
        together = sum(map(paired.__getitem__, shared))
        overlap = 2 * together / (totals[a] + totals[b] - 2 * alone + 2 * together)
        return None if overlap < _OVERLAP_FLOOR else compare(text_a, text_b, overlap)

    probe = None
    if focused is not None:
        probe = [r for r, rep in enumerate(representatives) if rep in focused]
    scored: list[tuple[float, int, int]] = []
    for a, b in sorted(candidate_pairs(folded, probe=probe)):
        result = check(a, b)
        if result is not None and result.is_duplicate(threshold):
            scored.append((-max(result.ratio, result.overlap), a, b))
    groups = _complete_linkage(scored, size=len(representatives), check=check, threshold=threshold)
    out: list[DuplicateGroup] = []
    for rep_ids, lowest in groups:
        member_ids = sorted(m for r in rep_ids for m in followers[representatives[r]])
        if len(member_ids) < 2:
            continue
        if focused is not None and not focused.intersection(member_ids):
            continue
        kind = "exact" if len(rep_ids) == 1 else "near"
        out.append(DuplicateGroup(kind, tuple(names[m] for m in member_ids), lowest))
    out.sort(key=lambda g: g.members)
    return out


class _UnionFind:
    """Union-find whose member lists exist only for ids that were joined (most never are)."""

    def __init__(self, size: int) -> None:
        self.parent = list(range(size))
        self._members: dict[int, list[int]] = {}

    def find(self, item: int) -> int:
        while self.parent[item] != item:
            self.parent[item] = self.parent[self.parent[item]]
            item = self.parent[item]
        return item

    def members(self, root: int) -> list[int]:
        return self._members.get(root, [root])

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        if ra > rb:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self._members[ra] = self.members(ra) + self._members.pop(rb, [rb])


def _complete_linkage(
    scored: list[tuple[float, int, int]],
    *,
    size: int,
    check: Callable[[int, int], Similarity | None],
    threshold: float,
) -> list[tuple[list[int], float]]:
    """Join pairs, most similar first, only when every cross pair is a duplicate too.

    Cross pairs are checked when a join needs them; only the scored pairs are remembered."""
    uf = _UnionFind(size)
    lowest: dict[int, float] = {}
    known = {(a, b): -score for score, a, b in scored}

    def duplicate_score(x: int, y: int) -> float | None:
        key = (min(x, y), max(x, y))
        if key in known:
            return known[key]
        result = check(key[0], key[1])
        if result is None or not result.is_duplicate(threshold):
            return None
        return max(result.ratio, result.overlap)

    for negative_score, a, b in sorted(scored):
        ra, rb = uf.find(a), uf.find(b)
        if ra == rb:
            continue
        scores = [duplicate_score(x, y) for x in uf.members(ra) for y in uf.members(rb)]
        if all(s is not None for s in scores):
            worst = min([-negative_score, *(s for s in scores if s is not None)])
            floor = min(lowest.get(ra, 1.0), lowest.get(rb, 1.0), worst)
            uf.union(a, b)
            lowest[uf.find(a)] = floor
    roots = sorted({uf.find(i) for i in range(size)})
    return [(sorted(uf.members(r)), lowest.get(r, 1.0)) for r in roots]
