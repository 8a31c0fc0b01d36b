"""The exact check of one candidate pair: is this the same memory said twice?

Two ways to be the same memory. A *near duplicate* says it in the same words, in order:
typos, formatting, an added or dropped line and reordered lines are forgiven, a substituted
content word in a short memory or any changed number is not. A *paraphrase* says it in other
words: most of its canonical terms, weighted by how rare they are in the folder, are the
other's, with the same names and numbers and the rule pointing the same way. Text that is
mostly the same words in the same order but disagrees somewhere is never a paraphrase: that
is a look-alike (the same template for another service, the opposite rule).
"""

from __future__ import annotations

import itertools
from array import array
from dataclasses import dataclass
from difflib import SequenceMatcher

from memsync.consolidate.wording import LEXICON, POLARITY, STOPWORDS, typo_variant

PARAPHRASE = 0.6  # weighted share of canonical terms two paraphrases have in common
SWAP_RATIO = 0.55
# Short enough never to be typed wrong: counted whole, a changed count is a flipped rule.
# A backticked word keeps its opening backtick as a token (`` `never` `` is "`never").
_SHORT_NEGATIONS = frozenset(["not", "no", "never", "nor", "`not", "`no", "`never", "`nor"])
_NEGATORS = frozenset(["not", "never", "instead"])
_PARAPHRASE_WORDS = 6  # the fewest words a paraphrase is judged on
SAME_ORDER = 0.7  # above this token ratio, two texts are edits of one text, not paraphrases


@dataclass(frozen=True)
class Similarity:
    """The exact check of one pair."""

    ratio: float  # 2 * matched tokens / total tokens, typo variants counted as matched
    containment: float  # matched tokens / tokens of the shorter body
    conflicts: int  # content words substituted by different content words
    number_conflicts: int  # numbers or names changed, or a negation flipped
    shorter: int  # tokens of the shorter body
    longer: int  # tokens of the longer body
    overlap: float = 0.0  # weighted share of canonical terms in common (paraphrase test)
    facts_differ: bool = False  # each side has a number or identifier the other lacks

    def is_duplicate(self, threshold: float) -> bool:
        """Near duplicate (similar, or one nearly inside the other) or a paraphrase; never
        with a changed number or name, never more substituted words than the length allows."""
        if self.facts_differ or not self.shorter or threshold > 1:
            return False  # above 1: only identical memories are one memory
        allowed = self.shorter // 100  # a swapped word is another fact unless the text is long
        contained = self.containment >= 0.95 and self.shorter * 2 >= self.longer
        edited = not self.number_conflicts and self.conflicts <= allowed
        if edited and (self.ratio >= threshold or contained):
            return True
        if self.ratio >= SAME_ORDER and not edited:
            return False  # the same text, changed: a look-alike, not a rewording
        if self.shorter < _PARAPHRASE_WORDS:
            return False  # `Old fact 0.` and `Recent fact 0.`: too short to tell rewording
        # Names swapped in the alignment of a reworded text may be mere misalignment; they
        # still ask for a clearer overlap.
        aligned_swaps = self.number_conflicts and self.ratio >= SWAP_RATIO
        bar = max(PARAPHRASE, threshold - 0.25) + (0.1 if aligned_swaps else 0.0)
        return self.overlap >= bar


@dataclass(frozen=True)
class Text:
    """One body as the check sees it: token ids in order, line starts, sorted canonical terms."""

    words: array[int]
    starts: array[int]
    terms: array[int]


def _align(a: array[int], b: array[int]) -> tuple[int, int, int]:
    """(matched tokens, substituted content words, changed numbers or flipped negations)."""
    words, digits, term, named = LEXICON.words, LEXICON.digits, LEXICON.term, LEXICON.named
    matched = conflicts = numbers = 0
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            matched += i2 - i1
            continue
        left, right = [words[x] for x in a[i1:i2]], [words[y] for y in b[j1:j2]]
        for x, y in zip(a[i1:i2], b[j1:j2], strict=False):
            wx, wy = words[x], words[y]
            if (term[x] == term[y] and term[x] >= 0) or typo_variant(wx, wy):
                matched += 1
                left.remove(wx)
                right.remove(wy)
            elif (digits[x] and digits[y]) or named[x] or named[y]:
                numbers += 1  # another number, path or name: another fact
            elif wx not in STOPWORDS and wy not in STOPWORDS:
                conflicts += 1
        short_edit = max(i2 - i1, j2 - j1) <= 3
        changed_polarity = POLARITY.intersection(left) != POLARITY.intersection(right)
        if changed_polarity and (short_edit or tag == "replace"):
            numbers += 1  # a negation flipped: the opposite rule, never the same memory
    return matched, conflicts, numbers


def _overlap(a: array[int], b: array[int]) -> float:
    shared = len(set(a).intersection(b))
    return 2 * shared / (len(a) + len(b)) if len(a) + len(b) else 0.0


def _numbers(text: Text) -> set[str]:
    digits = LEXICON.digits
    return {run for w in text.words for run in digits[w]}


def _polarity(text: Text) -> int:
    words = LEXICON.words
    return sum(words[w] in _SHORT_NEGATIONS for w in text.words)


def _names_differ(a: Text, b: Text) -> bool:
    """Each side has an identifier (path, URL, version, `snake_case`) the other lacks."""
    named, term = LEXICON.named, LEXICON.term
    names_a = {term[w] for w in a.words if named[w]}
    names_b = {term[w] for w in b.words if named[w]}
    return bool(names_a - names_b) and bool(names_b - names_a)


def _negated(text: Text) -> tuple[set[int], set[int]]:
    """(terms right after a not/never/instead of, terms of lines with no negation at all)."""
    words, term = LEXICON.words, LEXICON.term
    negated: set[int] = set()
    plain: set[int] = set()
    bounds = [*text.starts, len(text.words)]
    for start, end in itertools.pairwise(bounds):
        line = text.words[start:end]
        reach = 0  # words a negation still reaches: `never the merge button`, not further
        for ident in line:
            if words[ident].lstrip("`") in _NEGATORS:
                reach = 2
            elif reach:
                reach -= 1
                if term[ident] >= 0:
                    negated.add(term[ident])
                    reach = 0
        if not any(words[i].lstrip("`") in _NEGATORS for i in line):
            plain.update(term[i] for i in line)
            # `squash-merge` states `squash` too.
            parts = [p for i in line if "-" in words[i] for p in words[i].strip("`").split("-")]
            plain.update(term[LEXICON.intern(p)] for p in parts if p)
    return negated, plain


def _stances_differ(a: Text, b: Text) -> bool:
    """A term one text rules out (`never squash`) that the other states plainly, in a line
    with no negation at all (`always squash`)."""
    negated_a, plain_a = _negated(a)
    negated_b, plain_b = _negated(b)
    return bool((negated_a - negated_b) & plain_b or (negated_b - negated_a) & plain_a)


def compare(a: Text, b: Text, overlap: float | None = None) -> Similarity:
    """The exact check of two bodies; OVERLAP is their share of canonical terms weighted by
    rarity in the folder (when not given: every term weighs the same)."""
    shorter, longer = sorted((len(a.words), len(b.words)))
    numbers_a, numbers_b = _numbers(a), _numbers(b)
    if numbers_a - numbers_b and numbers_b - numbers_a:
        # Each side has a number the other lacks: a changed number, decided without aligning.
        return Similarity(0.0, 0.0, 0, 1, shorter, longer, facts_differ=True)
    if overlap is None:
        overlap = _overlap(a.terms, b.terms)
    matched, conflicts, numbers = _align(a.words, b.words)
    total = len(a.words) + len(b.words)
    ratio = 2 * matched / total if total else 1.0
    if ratio < 0.95 and len(a.starts) > 1 and len(b.starts) > 1:
        # Lines moved around: align them sorted too, keep the kinder reading.
        sorted_a, sorted_b = _sorted_lines(a), _sorted_lines(b)
        m2, c2, n2 = _align(sorted_a, sorted_b)
        if 2 * m2 / total - 0.05 * c2 > ratio - 0.05 * conflicts:
            matched, conflicts, numbers = m2, c2, n2
            ratio = 2 * matched / total
    if len(a.starts) == len(b.starts) and _polarity(a) != _polarity(b):
        numbers += 1  # the same lines, one more `not`: the opposite rule
    return Similarity(
        ratio,
        matched / shorter if shorter else 1.0,
        conflicts,
        numbers,
        shorter,
        longer,
        overlap,
        _names_differ(a, b) or (ratio < SAME_ORDER and _stances_differ(a, b)),
    )


def version_likeness(a: Text, b: Text) -> float:
    """How much of two bodies is one text, names and numbers included: the token ratio, or the
    shorter's share when it is at least half the longer. Unlike `compare`, a changed name or
    number does not set the pair apart: it asks whether one text is an edit of the other, for
    two files already known to be one memory (see versions)."""
    total = len(a.words) + len(b.words)
    if not total:
        return 1.0
    matched = _align(a.words, b.words)[0]
    if len(a.starts) > 1 and len(b.starts) > 1:
        matched = max(matched, _align(_sorted_lines(a), _sorted_lines(b))[0])
    shorter, longer = sorted((len(a.words), len(b.words)))
    contained = matched / shorter if shorter and shorter * 2 >= longer else 0.0
    return max(2 * matched / total, contained)


def _sorted_lines(text: Text) -> array[int]:
    """The tokens with the body's lines in sorted order (reordered lines compare equal)."""
    words, bounds = text.words, [*text.starts, len(text.words)]
    lines = [words[bounds[i] : bounds[i + 1]] for i in range(len(bounds) - 1)]
    spelled = LEXICON.words
    lines.sort(key=lambda line: [spelled[w] for w in line])
    return array("I", [w for line in lines for w in line])
