"""Names and limits shared with Claude Code (SPEC section 1)."""

from __future__ import annotations

INDEX_NAME = "MEMORY.md"
TEAM_DIR = "team"
ARCHIVE_DIR = "archive"

MAX_INDEX_LINES = 200
MAX_INDEX_CHARS = 25_000
MAX_INDEX_LINE_CHARS = 150
MAX_MEMORY_BYTES = 250_000
FRONTMATTER_SCAN_LINES = 30
# Recall shows a memory's first 4,096 bytes; the client asks the model to compact MEMORY.md
# from 80 % of its limits.
RECALL_MAX_BYTES = 4_096
NEAR_LIMIT_RATIO = 0.8

MEMORY_TYPES = ("user", "feedback", "project", "reference")
