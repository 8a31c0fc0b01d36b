"""How much of an index Claude Code loads: SPEC section 6's 200 lines and 25,000 characters,
counted as the client counts them (memsync.model.loaded), named by the file's own line.

Used by `check` (memsync.check.rules) and by a push, on the index it sends as merged.
Imports memsync.model and memsync.check.findings.
"""

from __future__ import annotations

from memsync.check.findings import Finding, finding
from memsync.model.index import measure_index
from memsync.model.limits import MAX_INDEX_CHARS, MAX_INDEX_LINES, NEAR_LIMIT_RATIO
from memsync.model.loaded import JS_WHITESPACE, loaded_view
from memsync.model.textcodec import js_prefix

# The rules index_size applies: what an index's size is told by.
INDEX_SIZE_RULES = frozenset({"index-too-many-lines", "index-too-many-chars", "index-near-limit"})


def index_size(path: str, text: str) -> list[Finding]:
    """Findings on how much of the index TEXT Claude Code loads (SPEC 6: 200 lines, 25,000
    characters, counted as the client counts them)."""
    size = measure_index(text)
    # Counted in what Claude Code loads (no frontmatter, no comment blocks), named by file line.
    view = loaded_view(text)
    lead = len(view.text) - len(view.text.lstrip(JS_WHITESPACE))  # where the count starts

    def line_of(number: int) -> int:
        at = lead
        for _ in range(number - 1):
            at = view.text.index("\n", at) + 1
        return view.source_line(at)

    found: list[Finding] = []
    if size.over_lines:
        line = line_of(MAX_INDEX_LINES + 1)
        message = (
            f"index has {size.lines} lines: Claude Code loads only the first {MAX_INDEX_LINES}, "
            "so entries from here on are invisible: run `memsync consolidate`"
        )
        found.append(finding("index-too-many-lines", path, line, message))
    if size.over_chars:
        line = view.source_line(lead + js_prefix(view.text[lead:], MAX_INDEX_CHARS))
        message = (
            f"index has {size.chars:,} characters: Claude Code loads only the first "
            f"{MAX_INDEX_CHARS:,}, so the text from here on is invisible: run `memsync consolidate`"
        )
        found.append(finding("index-too-many-chars", path, line, message))
    near_lines = int(MAX_INDEX_LINES * NEAR_LIMIT_RATIO)
    near_chars = int(MAX_INDEX_CHARS * NEAR_LIMIT_RATIO)
    if not size.over_lines and size.lines >= near_lines:
        message = (
            f"index has {size.lines} lines, {size.lines * 100 // MAX_INDEX_LINES} % of the "
            f"{MAX_INDEX_LINES} Claude Code loads: run `memsync consolidate` before it overflows"
        )
        line = line_of(near_lines)
        found.append(finding("index-near-limit", path, line, message))
    if not size.over_chars and size.chars >= near_chars:
        message = (
            f"index has {size.chars:,} characters, {size.chars * 100 // MAX_INDEX_CHARS} % of "
            f"the {MAX_INDEX_CHARS:,} Claude Code loads: shorten lines or run `memsync consolidate`"
        )
        line = view.source_line(lead + js_prefix(view.text[lead:], near_chars))
        found.append(finding("index-near-limit", path, line, message))
    return found
