"""What an index line refers to beyond its own entry: the memories a line that is no entry
names (a link, or a file name in code), links out of the folder, and repeated lines."""

from __future__ import annotations

import re
from collections.abc import Iterable

from memsync.model.index import (
    Index,
    IndexEntry,
    IndexLine,
    code_spans,
    commented_lines,
    line_links,
    link_paths,
)

# A `.md` file name inside a code span: `feedback_x.md`, `notes/deploy.md`.
_MD_NAME = re.compile(r"[^\s`'\"()<>\[\]|,;]+\.md(?![\w.])")


def code_mentions(text: str, base: str = "") -> set[str]:
    """The files a code span of TEXT names by file name (`` See `deploy.md` ``), read as
    `link_paths` reads a link, from an index in BASE."""
    found: set[str] = set()
    for start, end in code_spans(text):
        for match in _MD_NAME.finditer(text, start, end):
            name = match.group().removeprefix("./")
            if "://" not in name and not name.startswith("/"):
                found.update(link_paths(name, base))
    return found


def named_by_text(line: IndexLine, base: str = "") -> set[str]:
    """The files LINE names when it is no entry (a table row, a bold or numbered link, prose:
    by a link, or by file name in code), read as `link_paths` reads them; an entry, none."""
    if line.entry is not None:
        return set()
    return line_links(line.text, base) | code_mentions(line.text, base)


def linked_from_text(index: Index, base: str = "") -> set[str]:
    """Files named by INDEX's lines that are not entries (`named_by_text`); commented-out
    lines name none."""
    inside = commented_lines([line.text for line in index.lines])
    found: set[str] = set()
    for number, line in enumerate(index.lines):
        if number not in inside:
            found.update(named_by_text(line, base))
    return found


def outside_folder(paths: Iterable[str]) -> bool:
    """Whether a link's PATHS (from `link_paths`) all lead out of the memory folder: `../x.md`,
    an absolute path. memsync never reads there; whether the file exists is unknown to it."""
    paths = list(paths)
    return bool(paths) and all(p == ".." or p.startswith(("../", "/")) for p in paths)


def repeats(entry: IndexEntry, kept: IndexEntry) -> bool:
    """Whether ENTRY, a second line of a memory, only repeats KEPT, the line it keeps: the
    same title, and no hook or the same one, white space aside (a bullet or a separator is no
    news). A line with another title or hook says something else: it stays."""

    def words(text: str | None) -> str:
        return " ".join((text or "").split())

    same_hook = not entry.hook or words(entry.hook) == words(kept.hook)
    return words(entry.title) == words(kept.title) and same_hook
