"""Word-level three-way merge inside a region both sides changed, so prose edits combine.

Lines that both sides changed are split into tokens (a word, a code span, a link, a URL, a
run of spaces, a newline, a run of one punctuation character) that join back to the exact
text, and merged three-way again. Edits to different words give one line with both; only
where the same words were changed differently are both versions of the line kept.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence

from memsync.merge.diff3 import Resolver, keep_both, merge3, side_hunks, union
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
    if not n:
        return True
    # Slices only where the first token matches: both sides may insert long runs here.
    return any(
        longer[i] == shorter[0] and longer[i : i + n] == shorter for i in range(len(longer) - n + 1)
    )


def _insertions(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...] | None:
    """Two insertions at one point: the one that holds the other, else both, FIRST's first.

    Both only when a space or line break separates them (sentences appended to one line);
    two words typed into one empty line ("run" and "Node") are two versions of that line,
    not the word "runNode".
    """
    if _contains(first, second):
        return first
    if _contains(second, first):
        return second
    if not (first[-1][-1].isspace() or second[0][0].isspace()):
        return None
    return first + second


def _subsequence(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    rest = iter(long)
    return all(token in rest for token in short)


def _held(
    base: Sequence[str], first: tuple[str, ...], second: tuple[str, ...]
) -> tuple[str, ...] | None:
    """The version that already holds the other's change, when one does.

    When one version is the other plus items: if those items are all from the base, the
    shorter side deleted them and the longer one left them alone (shorter wins); if none
    is, the longer side added them to the same change ("Monday" / "Monday morning").
    """
    for short, long in ((first, second), (second, first)):
        if _subsequence(short, long):
            extra = [item for item in Counter(long) - Counter(short) if not _is_space(item)]
            in_base = set(base)  # a set: the region may be a whole 250 KB paragraph
            from_base = [item for item in extra if item in in_base]
            if extra and len(from_base) == len(extra):
                return short
            if extra and not from_base:
                return long
    return None


def _taking(base: tuple[str, ...], which: int) -> Resolver[str]:
    """Token conflicts settled for one side (WHICH: 0 first, 1 second); insertions combine."""

    def resolve(
        start: int, end: int, first: tuple[str, ...], second: tuple[str, ...]
    ) -> tuple[tuple[str, ...], str | None]:
        combined = _insertions(first, second) if start == end else None
        if combined is not None:
            return combined, None
        # Word by word (spaces no longer tie changed words together), one version may
        # already hold the other's change, as a merge result merged again with a side does.
        fine = merge3(base[start:end], first, second, a_first=True)
        if not fine.conflicts and fine.items in (first, second):
            return fine.items, None
        held = _held(base[start:end], first, second)
        if held is not None:
            return held, None
        return (first, second)[which], "words"

    return resolve


def merge_words(
    base: Sequence[str], first: Sequence[str], second: Sequence[str]
) -> tuple[tuple[str, ...], str | None]:
    """Merge the lines of one region by words: (lines, None) or both versions ("words")."""
    tokens = [tokenize("\n".join(lines)) for lines in (base, first, second)]
    # The diffs once for both streams: on a large region they are most of the time.
    hunks = side_hunks(tokens[0], tokens[1], tokens[2], _is_space)
    streams = [
        merge3(
            *tokens, a_first=True, resolve=_taking(tokens[0], which), glue=_is_space, hunks=hunks
        )
        for which in (0, 1)
    ]
    if any(_glued(stream.items, tokens) for stream in streams):
        return union(tuple(first), tuple(second)), "words"
    lines = [tuple("".join(stream.items).split("\n")) for stream in streams]
    if not streams[0].conflicts:
        return lines[0], None
    # Where the same words were changed differently, each side's version of those lines is
    # kept whole, carrying the edits that did combine: older version first.
    return union(lines[0], lines[1]), "words"


def _glued(merged: Sequence[str], inputs: Sequence[Sequence[str]]) -> bool:
    """Whether two words touch in MERGED that touch in no input: one side deleted the space or
    line break between them while the other inserted beside it (`alpha` + `beta` would read
    `alphabeta`, and neither word would be in the result)."""
    pairs = {pair for tokens in inputs for pair in itertools.pairwise(tokens)}
    return any(
        x[:1].isalnum() and y[:1].isalnum() and (x, y) not in pairs
        for x, y in itertools.pairwise(merged)
    )


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
        held = _held(base[start:end], first, second)
        if held is not None:
            return held, None
        return merge_words(base[start:end], first, second)

    return resolve
