"""`archive/index-lines.md`: the index lines consolidation took out, kept as a valid memory.

A line whose file is missing, a daily log's line that gave its room up, a merged-away
duplicate's line and a memory's second line are never dropped silently: their text is
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
