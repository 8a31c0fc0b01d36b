"""Words of a memory body as the duplicate search compares them.

Two views of one body, computed once per memory: its tokens in order (typos, reordering and
added lines are judged on these) and its *terms*, the content words reduced to a canonical
form (stopwords dropped, a light English stemmer, common software-English synonyms folded:
`verify` = `check`, `repo` = `repository`), which paraphrases share even when their order
and function words differ. Tokens are kept as small integers from one interning table, so a
search over 100,000 memories holds arrays, not strings.
"""

from __future__ import annotations

import re
import unicodedata
from array import array

_TEMPLATE_LABEL = re.compile(
    r"\*\*(?:why|how to apply)\s*:\*\*|^(?:why|how to apply)\s*:", re.I | re.M
)
_TOKEN = re.compile(r"[^\W_]+(?:['’.\-/:_][^\W_]+)*", re.UNICODE)
_IRREGULAR = {"won": "will not", "can": "can not", "shan": "shall not"}
_IRREGULAR_NOT = re.compile(r"\b(won|can|shan)['’]t\b")
_NOT_CONTRACTION = re.compile(r"\b(\w+)n['’]t\b")
_ABBREVIATIONS = {"e.g.": "for example", "i.e.": "that is", "etc.": "and so on"}
_DIGITS = re.compile(r"\d+")
_ABBREVIATION = re.compile(r"(?<![\w.])(e\.g\.|i\.e\.|etc\.)")

NEGATIONS = frozenset(["not", "no", "never", "without", "cannot", "nor"])
# Which way a rule points: a changed passage that gains or loses one says the opposite.
POLARITY = NEGATIONS | {"instead", "rather", "avoid", "`not", "`no"}
_STOPWORD_TEXT = (
    "a an the and or but if of to in on at by for with from as is are was were be been it"
    " its this that these those we you they i he she our your their not no do does did so"
    " than then there here when which who what how why all any can will would should must"
    " may might need needs has have had also only just each every some more most into onto"
    " up out over under about after before first one ones them there it's make sure use"
    " using used always get got like very even including once both either own way"
)
STOPWORDS = frozenset(_STOPWORD_TEXT.split())
# Said either way in memories about code; each group folds to its first word (after stemming).
_SYNONYM_GROUPS = (
    "check verify confirm validate",
    "run execute invoke",
    "large big huge",
    "quick fast quickly rapid",
    "start begin",
    "change modify modification edit alter",
    "bug defect",
    "error failure",
    "problem issue",
    "fail break broke broken",
    "finish end complete",
    "plan schedule",
    "roughly approximately around about",
    "document describe",
    "prefer favor favour",
    "mostly mainly primarily",
    "store keep kept retain",
    "remove delete drop",
    "show display",
    "ask consult",
    "repository repo",
    "directory dir folder",
    "configuration config",
    "documentation docs doc",
    "database db",
    "environment env",
    "production prod",
    "dependency deps dep",
    "require need",
    "short brief concise briefly",
    "answer reply response respond",
    "hard difficult",
    "new fresh",
)


def _stem(word: str) -> str:
    """A light English stemmer: plural, -ing, -ed, -ly, final e and doubled consonants."""
    if len(word) <= 3 or not word.isalpha():
        return word
    for suffix in ("ing", "ed", "ly", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                break
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]
    return word


_SYNONYMS = {_stem(w): _stem(g.split()[0]) for g in _SYNONYM_GROUPS for w in g.split()}


def normalize_body(body: str) -> str:
    """The body as compared for exact duplicates: NFC, no case, all white space one space.

    The one definition `check` and `consolidate` share: a paragraph re-wrapped at other
    line breaks, or with blank lines added, renders as the same text and is the same body.
    """
    return " ".join(unicodedata.normalize("NFC", body).split()).lower()


# A day in a file name: `2026-05-22`, `2026_05_22` or `20260522` (one separator throughout).
# Groups: year, separator, month, day. The one reading of it: duplicates keep two days' records
# apart by it, and the date evidence dates a daily log's lines by it.
DAY_IN_NAME = re.compile(
    r"(?<!\d)((?:19|20)\d\d)([-_]?)(0[1-9]|1[0-2])\2(0[1-9]|[12]\d|3[01])(?!\d)"
)


def day_in_name(path: str) -> str | None:
    """The day a file's name records (`dreaming/2026-05-22.md`: 2026-05-22), or None: two
    files of different days are two records, whatever their text says (never duplicates)."""
    match = DAY_IN_NAME.search(path.rsplit("/", 1)[-1])
    return f"{match[1]}-{match[3]}-{match[4]}" if match else None


def tokens(body: str) -> list[str]:
    """Words of a body for similarity: no Markdown markup, no memory-template labels, lowercase,
    contractions and abbreviations expanded, hyphens dropped (`don't` = `do not`, `e.g.` =
    `for example`, `cut-over` = `cutover`)."""
    return [w.replace("-", "").lstrip("`") for line in token_lines(body) for w in line]


def token_lines(body: str) -> list[list[str]]:
    """The tokens of each non-empty line of BODY (see `tokens`; hyphens kept)."""
    text = unicodedata.normalize("NFKC", body).lower()
    # Each rewrite runs only when its trigger is there: most bodies need none of them.
    if "why" in text or "how to apply" in text:
        text = _TEMPLATE_LABEL.sub(" ", text)
    if "n't" in text or "n’t" in text:
        text = _IRREGULAR_NOT.sub(lambda m: _IRREGULAR[m.group(1)], text)
        text = _NOT_CONTRACTION.sub(r"\1 not", text)
    if "e.g." in text or "i.e." in text or "etc." in text:
        text = _ABBREVIATION.sub(lambda m: _ABBREVIATIONS[m.group(1)], text)
    lines = []
    for line in text.splitlines():
        if "`" in line:
            # Words in code spans are names (`main`, `ruff`): marked so a swap is a new fact.
            parts = line.split("`")
            words = [
                ("`" + w if i % 2 else w)
                for i, part in enumerate(parts)
                for w in _TOKEN.findall(part)
            ]
        else:
            words = _TOKEN.findall(line)
        if words:
            lines.append(words)
    return lines


class Lexicon:
    """Token strings interned as integers, with each token's term and kind computed once."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.words: list[str] = []
        self.term: list[int] = []  # id of the canonical term (own numbering); -1: a stopword
        self.digits: list[tuple[str, ...]] = []  # its digit runs: a changed number is a new fact
        self.named: list[bool] = []  # an identifier: a path, URL, `snake_case`, kebab-case
        self._terms: dict[str, int] = {}

    def intern(self, word: str) -> int:
        """The id of WORD, added on first sight."""
        ident = self.ids.get(word)
        if ident is None:
            ident = len(self.words)
            self.ids[word] = ident
            self.words.append(word)
            digits = tuple(_DIGITS.findall(word))
            self.digits.append(digits)
            self.named.append(any(ch in word for ch in "`-_./:"))
            self.term.append(self._term_of(word.replace("-", "").lstrip("`")))
        return ident

    def _term_of(self, word: str) -> int:
        stem = _stem(word)
        if word in STOPWORDS or word in NEGATIONS or stem in STOPWORDS:
            return -1
        return self._terms.setdefault(_SYNONYMS.get(stem, stem), len(self._terms))


LEXICON = Lexicon()


def word_ids(body: str) -> tuple[array[int], array[int]]:
    """The body's tokens as ids of the shared lexicon, in order, and where each line starts."""
    intern = LEXICON.intern
    ids: array[int] = array("I")
    starts: array[int] = array("I")
    for line in token_lines(body):
        starts.append(len(ids))
        ids.extend([intern(w) for w in line])
    return ids, starts


def terms(ids: array[int]) -> array[int]:
    """The distinct canonical content terms of a token sequence, sorted."""
    term = LEXICON.term
    return array("I", sorted({term[i] for i in ids} - {-1}))


def typo_variant(a: str, b: str) -> bool:
    """Same word up to a small typo: both alphabetic, long enough, nearly the same letters."""
    if abs(len(a) - len(b)) > 2 or min(len(a), len(b)) < 4:
        return False
    if not (a.isalpha() and b.isalpha()) or len(set(a) ^ set(b)) > 2:
        return False
    from difflib import SequenceMatcher  # consolidation's, not `check`'s, start-up

    return SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.8
