"""What consolidation puts in `archive/`: where a file leaving the folder goes, and
`archive/index-lines.md`, the index lines it took out, kept as a valid memory.

A line whose file is missing, a daily log's line that gave its room up, a merged-away
duplicate's line and a second line of merged versions are never dropped silently: their text is
appended here. The file lives in the memory folder and is synced like
any other, so it must pass the rules every synced file passes (`memsync check`, and push's
validation in a team store, where a file without frontmatter is an error and is held back).
It is therefore written with frontmatter in the client's current format (`metadata.type`,
CLAUDE-CODE.md section 1), and a file an older memsync wrote without frontmatter gets it
added, its lines kept, the next time consolidation runs (docs/CONSOLIDATION.md, Index).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from memsync.consolidate.apply import digest as _digest
from memsync.consolidate.folder import MemoryFile, local_date, updated_key
from memsync.consolidate.indexfit import IndexRebuild
from memsync.consolidate.plan import ArchiveMove
from memsync.fsutil.reads import contained, read_regular_or_none
from memsync.model.limits import ARCHIVE_DIR
from memsync.model.memory import parse_memory

INDEX_LINES = f"{ARCHIVE_DIR}/index-lines.md"

# `reference`: allowed in every scope (`user` is refused in a team store), and what it is.
FRONTMATTER = (
    "---\n"
    "name: index-lines\n"
    "description: Lines memsync consolidate took out of MEMORY.md, kept here in full\n"
    "metadata:\n"
    "  type: reference\n"
    "---\n\n"
)
HEADING = (
    "# Index lines taken out of MEMORY.md\n\n"
    "memsync consolidate keeps here, in full, every MEMORY.md line it took out that no memory\n"
    "carries on: a line to a missing file, a line of a file without frontmatter that\n"
    "gave its room up to a memory, a merged-away duplicate's line and a memory's second line.\n\n"
)


def index_lines_content(old: bytes | None, lines: Sequence[str]) -> bytes | None:
    """The new content of the file for OLD (None: absent) with LINES appended; None when
    nothing changes (no line to keep, and OLD already has frontmatter)."""
    if old is None:
        if not lines:
            return None
        new = (FRONTMATTER + HEADING).encode("utf-8")
    elif parse_memory(old, INDEX_LINES).frontmatter_text is None:
        # Written by an older memsync: the same text under the frontmatter, nothing lost.
        new = FRONTMATTER.encode("utf-8") + old.removeprefix(b"\xef\xbb\xbf")
    else:
        new = old  # a person may have edited it: only appended to
    if lines and not new.endswith(b"\n"):
        new += b"\n"
    new += "".join(f"{line}\n" for line in lines).encode("utf-8")
    return None if new == old else new


FRONTMATTER_ADDED = (
    "frontmatter added, its lines kept (an older memsync wrote it without; `memsync check` "
    "flags that and a team push holds such a file back)"
)


def lacks_frontmatter(path: Path) -> bool:
    """Whether PATH is an index-lines file without frontmatter (an older memsync's)."""
    return path.is_file() and parse_memory(path.read_bytes(), INDEX_LINES).frontmatter_text is None


def archive_destination(root: Path, rel: str, digest: bytes, allocated: set[str]) -> str:
    """Where REL goes in `archive/`: its own path there, or `name-2.md` when another file with
    other content already has it."""
    from memsync.merge.memory import free_name

    def taken(candidate: str) -> bool:
        existing = contained(root, candidate)  # a link there is never the archived copy
        data = None if existing is None else read_regular_or_none(existing)
        same = data is not None and _digest(data) == digest
        return candidate in allocated or existing is None or (existing.exists() and not same)

    destination = f"{ARCHIVE_DIR}/{rel}"
    if taken(destination):
        destination = free_name(destination, taken)
    allocated.add(destination)
    return destination


def dangling_text(root: Path, rebuild: IndexRebuild) -> tuple[bytes, bytes | None] | None:
    """The new content of archive/index-lines.md and the digest of the old: every index line
    whose memory is missing is kept there, and every other line removed or re-pointed that
    said something the new index does not; an older memsync's file without frontmatter is
    given it."""
    lines = list(rebuild.dangling_lines)
    lines += rebuild.merged_lines  # a merged-away memory's line, as written
    lines += rebuild.crowded_lines  # a daily log's line given up for a memory with a type
    lines += rebuild.kept_lines  # a merged version's second line that says something else
    lines += rebuild.cut_lines  # a long line whose cut words no description carries
    path = root / INDEX_LINES
    old = path.read_bytes() if path.is_file() else None
    new = index_lines_content(old, lines)
    if new is None:
        return None
    return new, None if old is None else _digest(old)


def archive_move(root: Path, item: MemoryFile, allocated: set[str]) -> ArchiveMove:
    """Where a memory leaving the index goes in `archive/`, and what the report says of it."""
    current = _digest(item.new_raw) if item.new_raw is not None else item.digest
    destination = archive_destination(root, item.path, current, allocated)
    primary, fm_time, _ = updated_key(item)
    when = primary if primary != float("inf") else fm_time
    return ArchiveMove(item.path, destination, item.type or "", local_date(when).isoformat())
