"""Names and limits shared with Claude Code (SPEC section 1)."""

from __future__ import annotations

from datetime import date

INDEX_NAME = "MEMORY.md"
TEAM_DIR = "team"
ARCHIVE_DIR = "archive"

MAX_INDEX_LINES = 200
MAX_INDEX_CHARS = 25_000
MAX_INDEX_LINE_CHARS = 150
MAX_MEMORY_BYTES = 250_000
# Folders below a memory folder: deeper, a walk would exhaust Python's recursion (1,000
# frames) in memsync and in what it calls; no memory is ever filed that deep.
MAX_FOLDER_DEPTH = 64
FRONTMATTER_SCAN_LINES = 30
# Recall shows a memory's first 4,096 bytes; the client asks the model to compact MEMORY.md
# from 80 % of its limits.
RECALL_MAX_BYTES = 4_096
NEAR_LIMIT_RATIO = 0.8

MEMORY_TYPES = ("user", "feedback", "project", "reference")

# The earliest day a memory's `modified` stamp may name: one before it is a placeholder
# (`0001-01-01`) or a typo, not when the memory was written. Such a stamp is no evidence:
# a pulled file and its commit take the commit's time, consolidation the other evidence.
EARLIEST_STAMP_DAY = date(2000, 1, 1)
