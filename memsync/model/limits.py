"""Names and limits shared with Claude Code (SPEC section 1)."""

from __future__ import annotations

INDEX_NAME = "MEMORY.md"
TEAM_DIR = "team"
CONSOLIDATE_LOCK = ".consolidate-lock"
ARCHIVE_DIR = "archive"

MAX_INDEX_LINES = 200
MAX_INDEX_CHARS = 25_000
MAX_INDEX_LINE_CHARS = 150
MAX_MEMORY_BYTES = 250_000
FRONTMATTER_SCAN_LINES = 30

MEMORY_TYPES = ("user", "feedback", "project", "reference")
