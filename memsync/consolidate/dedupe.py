"""Duplicate memories: exact groups by normalized body, near-duplicates by MinHash LSH.

Candidate search is near-linear: one-permutation MinHash over word 2-shingles, LSH banding,
and a sort per band instead of all pairs. Every candidate pair then gets an exact check on
the token sequences that forgives typos, formatting and added lines, but not a substituted
content word in a short memory or any substituted number: two different rules that share
boilerplate stay apart.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
import unicodedata
import zlib
from array import array
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

DEFAULT_THRESHOLD = 0.85
BANDS = 48
ROWS = 3
MAX_BUCKET = 16  # a band value shared by more memories only links neighbours (template floods)
_BINS = BANDS * ROWS
_EMPTY = 1 << 62
_KEY_BITS = 42
_BORROWED = 1 << 40
_BORROW_ORDER = [random.Random(i).sample(range(_BINS), _BINS) for i in range(_BINS)]
_ID_BITS = 21
_TEMPLATE_LABEL = re.compile(
    r"\*\*(?:why|how to apply)\s*:\*\*|^(?:why|how to apply)\s*:", re.I | re.M
)
_TOKEN = re.compile(r"[^\W_]+(?:['’.\-/:][^\W_]+)*", re.UNICODE)
_IRREGULAR = {"won": "will not", "can": "can not", "shan": "shall not"}
_IRREGULAR_NOT = re.compile(r"\b(won|can|shan)['’]t\b")
_NOT_CONTRACTION = re.compile(r"\b(\w+)n['’]t\b")
_DIGIT = re.compile(r"\d")
_ABBREVIATIONS = {"e.g.": "for example", "i.e.": "that is", "etc.": "and so on"}
_ABBREVIATION = re.compile(r"(?<![\w.])(e\.g\.|i\.e\.|etc\.)")
_NEGATIONS = frozenset(["not", "no", "never", "without", "cannot", "nor"])
_STOPWORD_TEXT = (
    "a an the and or but if of to in on at by for with from as is are was were be been it its"
    " this that these those we you they i he she our your their not no do does did so than then"
    " there here when which who what how why all any can will would should must may"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split(" "))


@dataclass(frozen=True)
class Candidate:
    """One memory as the duplicate search sees it."""

    key: str  # the memory's path, unique
    type: str | None
    body: str


@dataclass(frozen=True)
class Similarity:
    """The exact check of one pair."""

    ratio: float  # 2 * matched tokens / total tokens, typo variants counted as matched
    containment: float  # matched tokens / tokens of the shorter body
    conflicts: int  # content words substituted by different content words
    number_conflicts: int  # numbers substituted by different numbers, or a negation flipped
    shorter: int  # tokens of the shorter body
    longer: int  # tokens of the longer body

    def is_duplicate(self, threshold: float) -> bool:
        """Near-duplicate: similar (or one nearly inside the other, lossless to merge), no
        changed number, and no more substituted content words than the length allows."""
        allowed = 0 if self.shorter < 25 else 1 + self.shorter // 80
        if self.number_conflicts or self.conflicts > allowed or not self.shorter:
            return False
        contained = self.containment >= 0.95 and self.shorter * 2 >= self.longer
        return self.ratio >= threshold or contained


@dataclass(frozen=True)
class DuplicateGroup:
    """Memories that are one memory: identical bodies, or near-duplicates of the same type."""

    kind: str  # "exact" | "near"
    members: tuple[str, ...]  # keys, sorted
    similarity: float  # the lowest pairwise ratio that joined the group (1.0 when exact)


def normalize_body(body: str) -> str:
    """The body as compared for exact duplicates: NFC, no blank lines, single spaces, no case."""
    text = unicodedata.normalize("NFC", body)
    lines = (" ".join(line.split()).lower() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def tokens(body: str) -> list[str]:
    """Words of a body for similarity: no Markdown markup, no memory-template labels, lowercase,
    contractions and abbreviations expanded, hyphens dropped (`don't` = `do not`, `e.g.` =
    `for example`, `cut-over` = `cutover`)."""
    text = unicodedata.normalize("NFKC", body).lower()
    # Each rewrite runs only when its trigger is there: most bodies need none of them.
    if "why" in text or "how to apply" in text:
        text = _TEMPLATE_LABEL.sub(" ", text)
    if "n't" in text or "n’t" in text:
        text = _IRREGULAR_NOT.sub(lambda m: _IRREGULAR[m.group(1)], text)
        text = _NOT_CONTRACTION.sub(r"\1 not", text)
    if "e.g." in text or "i.e." in text or "etc." in text:
        text = _ABBREVIATION.sub(lambda m: _ABBREVIATIONS[m.group(1)], text)
    return [word.replace("-", "") if "-" in word else word for word in _TOKEN.findall(text)]


def _shingle_hashes(words: Sequence[str]) -> set[int]:
    if len(words) < 2:
        return {zlib.crc32(w.encode()) for w in words}
    return {zlib.crc32(f"{a} {b}".encode()) for a, b in itertools.pairwise(words)}


def signature(words: Sequence[str]) -> list[int] | None:
    """One-permutation MinHash over word 2-shingles, densified; None when there are no words."""
    hashes = _shingle_hashes(words)
    if not hashes:
        return None
    # Spread crc32 values across bins; visiting values from the largest lets the smallest win.
    spread = sorted([(crc * 0x9E3779B1) & 0xFFFFFFFF for crc in hashes], reverse=True)
    mins = {value % _BINS: value // _BINS for value in spread}
    if len(mins) == _BINS:
        return [mins[i] for i in range(_BINS)]
    # An empty bin copies a filled one chosen by a fixed pseudo-random order per bin (the same
    # for every memory), so borrowed bins agree about as often as real ones.
    filled = mins.__contains__
    return [
        mins[i] if i in mins else mins[next(filter(filled, _BORROW_ORDER[i]))] + _BORROWED
        for i in range(_BINS)
    ]


def band_keys(words: Sequence[str], type_id: int) -> array[int] | None:
    """The LSH band keys of one memory (None when it has no words)."""
    sig = signature(words)
    if sig is None:
        return None
    mask = (1 << _KEY_BITS) - 1
    # Hashes of int tuples do not depend on PYTHONHASHSEED: the keys are reproducible.
    return array(
        "q",
        [hash((type_id, b, *sig[b * ROWS : (b + 1) * ROWS])) & mask for b in range(BANDS)],
    )


def candidate_pairs(
    words_by_id: Sequence[Sequence[str]],
    types: Sequence[int],
    *,
    keys_by_id: Sequence[array[int] | None] | None = None,
) -> set[tuple[int, int]]:
    """Pairs of ids sharing at least one LSH band (same type only), without comparing all pairs.

    A negative type keeps a memory out. KEYS_BY_ID, when given, are precomputed band keys."""
    if keys_by_id is None:
        keys_by_id = [
            band_keys(words, types[i]) if types[i] >= 0 else None
            for i, words in enumerate(words_by_id)
        ]
    # One flat array, BANDS keys per memory; a memory without keys gets negative keys nobody
    # shares. Per band, counting and filtering run in C (Counter, compress, map): only
    # memories whose key is shared are visited from Python.
    flat = array("q")
    for ident, keys in enumerate(keys_by_id):
        flat.extend(keys if keys is not None else range(-(ident + 1) * BANDS, -ident * BANDS))
    count = len(keys_by_id)
    pairs: set[tuple[int, int]] = set()
    for band in range(BANDS):
        column = flat[band::BANDS]
        counts = Counter(column)
        shared = set(itertools.compress(counts.keys(), map((1).__lt__, counts.values())))
        if not shared:
            continue
        runs: dict[int, list[int]] = {}
        for ident in itertools.compress(range(count), map(shared.__contains__, column)):
            runs.setdefault(column[ident], []).append(ident)
        for run in runs.values():
            _emit(run, pairs)
    return pairs


def _emit(run: list[int], pairs: set[tuple[int, int]]) -> None:
    if len(run) <= MAX_BUCKET:
        pairs.update((a, b) for i, a in enumerate(run) for b in run[i + 1 :])
    else:
        pairs.update((a, b) for i, a in enumerate(run) for b in run[i + 1 : i + 4])


def _typo_variant(a: str, b: str) -> bool:
    """Same word up to a small typo: both alphabetic, long enough, nearly the same letters."""
    if abs(len(a) - len(b)) > 2 or min(len(a), len(b)) < 4:
        return False
    if not (a.isalpha() and b.isalpha()) or len(set(a) ^ set(b)) > 2:
        return False
    return SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.8


def _align(a: Sequence[str], b: Sequence[str]) -> Similarity:
    matched = conflicts = numbers = 0
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            matched += i2 - i1
            continue
        left, right = list(a[i1:i2]), list(b[j1:j2])
        for x, y in zip(a[i1:i2], b[j1:j2], strict=False):
            if _typo_variant(x, y):
                matched += 1
                left.remove(x)
                right.remove(y)
            elif any(ch.isdigit() for ch in x) and any(ch.isdigit() for ch in y):
                numbers += 1
            elif x not in _STOPWORDS or y not in _STOPWORDS:
                conflicts += 1
        short_edit = max(i2 - i1, j2 - j1) <= 3
        if short_edit and _NEGATIONS.intersection(left) != _NEGATIONS.intersection(right):
            numbers += 1  # a negation flipped: the opposite rule, never the same memory
    total = len(a) + len(b)
    shorter, longer = min(len(a), len(b)), max(len(a), len(b))
    return Similarity(
        2 * matched / total if total else 1.0,
        matched / shorter if shorter else 1.0,
        conflicts,
        numbers,
        shorter,
        longer,
    )


class _Doc:
    """A body with its token views computed once, however many pairs it is part of."""

    def __init__(self, body: str) -> None:
        self.body = body
        self._words: list[str] | None = None
        self._numbers: frozenset[str] | None = None
        self._sorted: list[str] | None = None

    @property
    def words(self) -> list[str]:
        if self._words is None:
            self._words = tokens(self.body)
        return self._words

    @property
    def numbers(self) -> frozenset[str]:
        if self._numbers is None:
            self._numbers = frozenset(w for w in self.words if _DIGIT.search(w))
        return self._numbers

    @property
    def sorted_words(self) -> list[str]:
        if self._sorted is None:
            self._sorted = tokens("\n".join(sorted(self.body.splitlines())))
        return self._sorted


def similarity(body_a: str, body_b: str) -> Similarity:
    """Exact check of two bodies: in order, and with lines sorted (so reordering is forgiven)."""
    return _similar(_Doc(body_a), _Doc(body_b))


def _similar(a: _Doc, b: _Doc) -> Similarity:
    shorter, longer = sorted((len(a.words), len(b.words)))
    if a.numbers - b.numbers and b.numbers - a.numbers:
        # Each side has a number the other lacks: a changed number, decided without aligning.
        return Similarity(0.0, 0.0, 0, 1, shorter, longer)
    direct = _align(a.words, b.words)
    if direct.ratio >= 0.999:
        return direct
    reordered = _align(a.sorted_words, b.sorted_words)
    return max(direct, reordered, key=lambda s: (s.ratio - 0.05 * s.conflicts, -s.conflicts))


def _type_id(memory_type: str | None) -> int:
    """A stable small number per type (-1: no type, kept out of the near-duplicate search)."""
    if not memory_type:
        return -1
    return int.from_bytes(hashlib.blake2b(memory_type.encode(), digest_size=4).digest(), "big")


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


@dataclass(frozen=True)
class Fingerprint:
    """What the search keeps of one memory: a few hundred bytes, not its text."""

    digest: bytes | None  # of the normalized body; None when the body is empty
    keys: array[int] | None  # LSH band keys; None without a type or without words


def fingerprint(body: str, memory_type: str | None) -> Fingerprint:
    """The fingerprint of one memory's body."""
    normalized = normalize_body(body)
    digest = hashlib.blake2b(normalized.encode(), digest_size=16).digest() if normalized else None
    type_id = _type_id(memory_type)
    keys = band_keys(tokens(body), type_id) if digest is not None and type_id >= 0 else None
    return Fingerprint(digest, keys)


def find_duplicates(
    candidates: Sequence[Candidate],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    focus: Collection[str] | None = None,
) -> list[DuplicateGroup]:
    """Groups of duplicate memories, deterministic for the same input in any order."""
    prints = {c.key: fingerprint(c.body, c.type) for c in candidates}
    bodies = {c.key: c.body for c in candidates}
    return group_duplicates(prints, bodies.__getitem__, threshold=threshold, focus=focus)


def group_duplicates(
    prints: Mapping[str, Fingerprint],
    load_body: Callable[[str], str],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    focus: Collection[str] | None = None,
) -> list[DuplicateGroup]:
    """Groups of duplicate memories from their fingerprints; LOAD_BODY reads the body of a
    memory that turns out to be a candidate (only those are read again).

    FOCUS, when given, limits the result to groups with one of those keys: the memories that
    changed since a search that found every group among the others."""
    names = sorted(prints)
    focused = None if focus is None else {i for i, k in enumerate(names) if k in focus}
    exact: dict[bytes, list[int]] = {}
    for index, name in enumerate(names):
        digest = prints[name].digest
        if digest is not None:
            exact.setdefault(digest, []).append(index)
    if focused is not None:
        # Unchanged memories were compared before: only pairs with a changed one are new.
        focused |= {m[0] for m in exact.values() if focused.intersection(m)}
    representatives = sorted(members[0] for members in exact.values())
    followers = {members[0]: members for members in exact.values()}
    keys = [prints[names[i]].keys for i in representatives]
    docs: dict[int, _Doc] = {}

    def doc(rep: int) -> _Doc:
        if rep not in docs:
            docs[rep] = _Doc(load_body(names[representatives[rep]]))
        return docs[rep]

    scored: list[tuple[float, int, int]] = []
    checked: dict[tuple[int, int], Similarity] = {}
    for a, b in sorted(candidate_pairs([], [], keys_by_id=keys)):
        if focused is not None and not (
            representatives[a] in focused or representatives[b] in focused
        ):
            continue
        result = _similar(doc(a), doc(b))
        checked[(a, b)] = result
        if result.is_duplicate(threshold):
            scored.append((-result.ratio, a, b))
    groups = _complete_linkage(
        scored, size=len(representatives), doc=doc, cache=checked, threshold=threshold
    )
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


def _complete_linkage(
    scored: list[tuple[float, int, int]],
    *,
    size: int,
    doc: Callable[[int], _Doc],
    cache: dict[tuple[int, int], Similarity],
    threshold: float,
) -> list[tuple[list[int], float]]:
    """Join pairs, most similar first, only when every cross pair is a near-duplicate too."""
    uf = _UnionFind(size)
    lowest: dict[int, float] = {}

    def pair(a: int, b: int) -> Similarity:
        key = (min(a, b), max(a, b))
        if key not in cache:
            cache[key] = _similar(doc(key[0]), doc(key[1]))
        return cache[key]

    for negative_ratio, a, b in sorted(scored):
        ra, rb = uf.find(a), uf.find(b)
        if ra == rb:
            continue
        cross = [(x, y) for x in uf.members(ra) for y in uf.members(rb)]
        checks = [pair(x, y) for x, y in cross]
        if all(s.is_duplicate(threshold) for s in checks):
            worst = min([-negative_ratio, *(s.ratio for s in checks)])
            floor = min(lowest.get(ra, 1.0), lowest.get(rb, 1.0), worst)
            uf.union(a, b)
            lowest[uf.find(a)] = floor
    roots = sorted({uf.find(i) for i in range(size)})
    return [(sorted(uf.members(r)), lowest.get(r, 1.0)) for r in roots]


def merge_bodies(bodies: Sequence[str]) -> str:
    """One body keeping every distinct line of BODIES: the first in order, others' new lines
    inserted after the lines they follow (lines compare with whitespace collapsed)."""
    merged = bodies[0].split("\n")
    final_newline = bodies[0].endswith("\n")
    if final_newline:
        merged.pop()
    for other in bodies[1:]:
        other_lines = other.split("\n")
        if other.endswith("\n"):
            other_lines.pop()
        present = {_line_key(line) for line in merged}
        matcher = SequenceMatcher(
            None, [_line_key(x) for x in merged], [_line_key(x) for x in other_lines], False
        )
        result: list[str] = []
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            result.extend(merged[i1:i2])
            if tag in ("insert", "replace"):
                for line in other_lines[j1:j2]:
                    key = _line_key(line)
                    if key and key not in present:
                        result.append(line)
                        present.add(key)
        merged = result
    text = "\n".join(merged)
    return text + "\n" if final_newline or any(b.endswith("\n") for b in bodies) else text


def _line_key(line: str) -> str:
    return " ".join(line.split())
