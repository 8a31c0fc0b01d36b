"""How a memory's line in MEMORY.md is written: kept as written when it fits, cut from its own
hook when it does not, or made from the memory's `description` when it has no hook."""

from __future__ import annotations

import re

from memsync.model.index import IndexEntry, shorten
from memsync.model.limits import MAX_INDEX_LINE_CHARS

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.consolidate.indexfit import IndexMemory

_MIN_HOOK = 12


def entry_line(title: str, target: str, hook: str | None) -> str:
    """`- [Title](target) — hook` within 150 characters; the hook is cut at a word, not the link."""
    title = " ".join(title.replace("[", "(").replace("]", ")").split()) or target
    if any(ch in target for ch in " ()<>"):
        target = f"<{target}>"
    overhead = len(f"- []({target})")
    if overhead + len(title) > MAX_INDEX_LINE_CHARS:
        title = shorten(title, max(MAX_INDEX_LINE_CHARS - overhead, 8))
    link = f"- [{title}]({target})"
    hook = " ".join((hook or "").split())
    budget = MAX_INDEX_LINE_CHARS - len(link) - 3
    if not hook or budget < _MIN_HOOK:
        return link
    return f"{link} — {shorten(hook, budget)}"


# What Claude Code makes of `name` on its first write: `Legacy Name` -> `legacy-name`.
_SLUG = re.compile(r"[a-z0-9]+(?:[-_.][a-z0-9]+)*")


def kept_line(text: str, entry: IndexEntry, memory: IndexMemory, moved: bool) -> tuple[str, bool]:
    """A memory's existing index line as it stays, and whether words of its own hook were cut."""
    if not moved and entry.hook and len(text) <= MAX_INDEX_LINE_CHARS:
        # The hook was written for the index (by Claude or a person), often newer than the
        # `description` (`DONE → see audit_done` over `Plan for next session`): a review of
        # 55 real folders found 995 lines rewritten from descriptions, 196 of them cut to `…`.
        return text, False
    if not moved and entry.hook:  # too long: its own hook cut, the link as written
        return cut_line(text, entry, memory.path), True
    # A line with no hook gets the memory's description; a merged-away version's line links
    # to its survivor and says what the survivor is.
    title, hook = _title(entry.title, memory.title), memory.hook or entry.hook
    new = entry_line(title, memory.path if moved else entry.target, hook)
    return new, not memory.hook and bool(entry.hook)


def cut_line(text: str, entry: IndexEntry, untitled: str) -> str:
    """TEXT, an entry line, cut from its own hook to fit (its title, else UNTITLED, and its
    link kept)."""
    if len(text) <= MAX_INDEX_LINE_CHARS or not entry.hook:
        return text
    return entry_line(entry.title or untitled, entry.target, entry.hook)


def _title(line_title: str, name: str | None) -> str:
    """An entry's title: the memory's `name` when a person wrote it (`Deploy freeze`); when it
    is the client's slug (`user-kkoma`), the line's own title (`꼬마 사용자`), if it has one."""
    if name and not _SLUG.fullmatch(name):
        return name
    return line_title or name or ""
