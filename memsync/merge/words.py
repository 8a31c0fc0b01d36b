"""Word-level three-way merge inside a region both sides changed, so prose edits combine.

Lines that both sides changed are split into tokens (a word, a code span, a link, a URL, a
run of spaces, a newline, a run of one punctuation character) that join back to the exact
text, and merged three-way again. Edits to different words give one line with both; only
where the same words were changed differently are both versions of the line kept.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memsync.merge.diff3 import Resolver, keep_both, merge3, union
from memsync.model.mdspans import code_block_lines

_TOKEN = re.compile(
    r"""(`+)[^`\n](?:[^\n]*?[^`\n])??\1(?!`)              # code span (one line)
      | !?\[[^\[\]\n]*\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)   # link or image
      | \[\[[^\[\]\n]+\]\]                                # [[memory]] link
      | <[a-z][a-z0-9+.-]*:[^<>\s]*>                      # autolink
      | (?:[a-z][a-z0-9+.-]*://|www\.)[^\s<>()\[\]`]*[^\s<>()\[\]`.,;:!?'"]   # bare URL
      | \w+(?:[-'’./@]\w+)*                               # word, file name, version
      | [ \t]+ | \n
      | ([^\w\s])\2*                                      # a run of one punctuation mark
      | .
    """,
    re.VERBOSE | re.IGNORECASE,
)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def tokenize(text: str) -> tuple[str, ...]:
    """TEXT as tokens that join back to exactly TEXT."""
    return tuple(match.group() for match in _TOKEN.finditer(text))


def _is_space(token: str) -> bool:
    return token.isspace() and token != "\n"


def _contains(longer: tuple[str, ...], shorter: tuple[str, ...]) -> bool:
    n = len(shorter)
    return any(longer[i : i + n] == shorter for i in range(len(longer) - n + 1))


def _insertions(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    """Two insertions at one point: the one that holds the other, else both, FIRST's first."""
    if _contains(first, second):
        return first
    if _contains(second, first):
        return second
    return first + second


def _taking(which: int) -> Resolver[str]:
    """Token conflicts settled for one side (WHICH: 0 first, 1 second); insertions combine."""

    def resolve(
        start: int, end: int, first: tuple[str, ...], second: tuple[str, ...]
    ) -> tuple[tuple[str, ...], str | None]:
        if start == end:
            return _insertions(first, second), None
        return (first, second)[which], "words"

    return resolve


def merge_words(
    base: Sequence[str], first: Sequence[str], second: Sequence[str]
) -> tuple[tuple[str, ...], str | None]:
    """Merge the lines of one region by words: (lines, None) or both versions ("words")."""
    tokens = [tokenize("\n".join(lines)) for lines in (base, first, second)]
    one = merge3(tokens[0], tokens[1], tokens[2], a_first=True, resolve=_taking(0), glue=_is_space)
    first_lines = tuple("".join(one.items).split("\n"))
    if not one.conflicts:
        return first_lines, None
    # Where the same words were changed differently, each side's version of those lines is
    # kept whole, carrying the edits that did combine: older version first.
    two = merge3(tokens[0], tokens[1], tokens[2], a_first=True, resolve=_taking(1), glue=_is_space)
    return union(first_lines, tuple("".join(two.items).split("\n"))), "words"


def prose_resolver(base: Sequence[str]) -> Resolver[str]:
    """A line resolver that merges by words, except insertions, deletions and code blocks."""
    code = code_block_lines(base)

    def resolve(
        start: int, end: int, first: tuple[str, ...], second: tuple[str, ...]
    ) -> tuple[tuple[str, ...], str | None]:
        if (
            start == end
            or not first
            or not second
            or any(i in code for i in range(start, end))
            or any(_FENCE.match(line) for line in (*first, *second))
        ):
            return keep_both(start, end, first, second)
        return merge_words(base[start:end], first, second)

    return resolve
