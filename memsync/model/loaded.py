"""What Claude Code loads of a MEMORY.md before cutting it: frontmatter and HTML comments out.

Claude Code 2.1.330 strips a leading frontmatter block, then the HTML comments that form a
top-level block of the Markdown, then trims and cuts the rest to 200 lines and 25,000
characters (CLAUDE-CODE.md section 2; docs/CONSOLIDATION.md, "What Claude Code loads", says
what was read in its code and probed with the real client). A comment inside a paragraph or
list item, a code block or another HTML block, or one never closed, is loaded as written.

`loaded_view` gives the loaded text and where each of its pieces comes from, so `check` can
name the line of the file where the cut falls.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

# What JavaScript's trim() and `\s` take as white space; Python's differ (BOM, U+001C-1F, U+0085).
JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(
    chr(c) for c in range(0x2000, 0x200B)
)
_JS_SPACE = f"[{re.escape(JS_WHITESPACE)}]"
_FRONTMATTER = re.compile(f"---{_JS_SPACE}*\n[\\s\\S]*?---{_JS_SPACE}*\n?")
_COMMENT = re.compile(r"<!--[\s\S]*?-->")
_VISIBLE = re.compile(f"[^{re.escape(JS_WHITESPACE)}]+")
# The block patterns below are read only for an index with a comment in it: kept as text and
# compiled by `re`'s own cache on first use, so the session start's import stays cheap.
_FENCE = r" {0,3}(`{3,}|~{3,})"
_ITEM = r"( {0,3})([-+*]|\d{1,9}[.)])( {1,4}(?! )|[ \t]*$)"
_HEADING = r" {0,3}#{1,6}(?:[ \t]|$)"
_RAW_HTML = r"(?i) {0,3}<(script|pre|style|textarea)(?:[\s>]|$)"
_BLOCK_TAGS = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|"
    "dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|"
    "header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|"
    "param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul"
)
_BLOCK_HTML = f"(?i) {{0,3}}</?(?:{_BLOCK_TAGS})(?:[\\s/>]|$)"
_OTHER_TAG = r" {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|</[A-Za-z][A-Za-z0-9-]*\s*>)\s*$"
# A line that ends a list item it is not indented into (not a lazy continuation of it).
_BLOCK_START = r" {0,3}(?:`{3}|~{3}|#{1,6}(?:[ \t]|$)|<[A-Za-z!/]|(?:[-*_][ \t]*){3,}$)"


@dataclass(frozen=True)
class LoadedView:
    """The text Claude Code loads (before trimming and the cut) and where it comes from."""

    text: str
    source: str  # the file's text the offsets below refer to (CRLF made LF when stripped)
    starts: tuple[int, ...]  # offset in TEXT where each piece starts
    origins: tuple[int, ...]  # offset in SOURCE the same piece starts at

    def source_line(self, offset: int) -> int:
        """The 1-based line of SOURCE holding the character at OFFSET of TEXT."""
        piece = max(bisect.bisect_right(self.starts, offset) - 1, 0)
        at = self.origins[piece] + offset - self.starts[piece] if self.starts else 0
        return self.source.count("\n", 0, at) + 1


def loaded_text(text: str) -> str:
    """TEXT as Claude Code loads it before trimming and cutting: no frontmatter, no comments."""
    return loaded_view(text).text


def loaded_view(text: str) -> LoadedView:
    """TEXT with its frontmatter and top-level HTML comment blocks taken out, as the client
    does, and the origin of every piece kept."""
    start = 1 if text.startswith("\ufeff") else 0
    matched = _FRONTMATTER.match(text, start) if text.find("---", start + 3) >= 0 else None
    body_at = matched.end() if matched else 0
    if "<!--" not in text[body_at:]:
        return LoadedView(text[body_at:], text, (0,), (body_at,))
    # The client lexes the body with its newlines made LF and keeps that text when it strips.
    source = text[:body_at] + text[body_at:].replace("\r\n", "\n").replace("\r", "\n")
    pieces = _kept_pieces(source, body_at)
    if pieces == [(body_at, len(source))]:
        return LoadedView(text[body_at:], text, (0,), (body_at,))
    starts: list[int] = []
    origins: list[int] = []
    parts: list[str] = []
    length = 0
    for begin, end in pieces:
        if end > begin:
            starts.append(length)
            origins.append(begin)
            parts.append(source[begin:end])
            length += end - begin
    return LoadedView("".join(parts), source, tuple(starts) or (0,), tuple(origins) or (body_at,))


def hidden_lines(text: str) -> frozenset[int]:
    """The 0-based numbers of TEXT's non-blank lines the client loads none of: the frontmatter's
    and the comment blocks' it strips."""
    view = loaded_view(text)
    source = view.source
    line_starts = [0] + [m.end() for m in re.finditer("\n", source)]
    shown: set[int] = set()
    ends = (*view.starts[1:], len(view.text))
    for start, end, origin in zip(view.starts, ends, view.origins, strict=True):
        for run in _VISIBLE.finditer(source, origin, origin + end - start):
            shown.add(bisect.bisect_right(line_starts, run.start()) - 1)
    lines = source.split("\n")
    return frozenset(
        n for n, line in enumerate(lines) if n not in shown and line.strip(JS_WHITESPACE)
    )


def _kept_pieces(source: str, at: int) -> list[tuple[int, int]]:
    """The spans of SOURCE from AT that stay: all but the comment blocks the client drops."""
    pieces: list[tuple[int, int]] = []
    kept_from = at
    fence: str | None = None
    html_end: re.Pattern[str] | None = None  # the end of an HTML block other than a comment
    item: int | None = None  # content column of the open top-level list item
    after_blank = True
    paragraph = False
    pos = at
    while pos < len(source):
        eol = source.find("\n", pos)
        end = len(source) if eol < 0 else eol + 1
        line = source[pos:end].rstrip("\n")
        blank = not line.strip(" \t")
        indent = len(line) - len(line.lstrip(" "))
        was_blank, after_blank = after_blank, blank
        if fence is not None:
            if re.match(f" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", line):
                fence = None
        elif html_end is not None:
            if html_end.search(line) or (blank and html_end.pattern == "^$"):
                html_end = None
        elif item is not None and (blank or indent >= item):
            pass  # inside the item: nested blocks are the item's, never top-level
        elif item is not None and not (
            was_blank or re.match(_ITEM, line) or re.match(_BLOCK_START, line)
        ):
            pass  # a lazy continuation of the item's paragraph
        else:
            new_item = re.match(_ITEM, line)
            item = len(new_item.group(0)) if new_item and not blank else None
            # A comment indented 1-3 spaces does not interrupt a paragraph (probed).
            opens = line.lstrip(" ").startswith("<!--") and (indent == 0 or not paragraph)
            cut = _comment_block(source, pos) if item is None and indent <= 3 and opens else None
            if cut is not None:
                pieces.append((kept_from, pos))
                pieces.extend(cut[1])
                kept_from = pos = cut[0]
                paragraph, after_blank = False, True
                continue
            html_end = None if item is not None or blank else _html_block(line, paragraph)
            fence = _fence(line) if item is None else None
            paragraph = (
                not blank
                and item is None
                and fence is None
                and html_end is None
                and not (re.match(_HEADING, line) or (indent >= 4 and not paragraph))
            )
        pos = end
    pieces.append((kept_from, len(source)))
    return pieces


def _comment_block(source: str, pos: int) -> tuple[int, list[tuple[int, int]]] | None:
    """Where the comment block at POS ends (its line, then the newlines after it) and the
    pieces of it that stay; None when the client keeps it whole (it never closes)."""
    opening = source.index("<!--", pos) + 4
    if source.startswith((">", "->"), opening):
        close = opening + source[opening:].index(">") + 1
    else:
        found = source.find("-->", opening)
        close = len(source) if found < 0 else found + 3
    eol = source.find("\n", close)
    end = len(source) if eol < 0 else eol
    while end < len(source) and source[end] == "\n":
        end += 1
    block = source[pos:end]
    if "-->" not in block:
        return None
    kept: list[tuple[int, int]] = []
    last = pos
    for comment in _COMMENT.finditer(source, pos, end):
        kept.append((last, comment.start()))
        last = comment.end()
    kept.append((last, end))
    remainder = "".join(source[a:b] for a, b in kept)
    return end, (kept if remainder.strip(JS_WHITESPACE) else [])


def _fence(line: str) -> str | None:
    """The fence LINE opens (a backtick fence's info string has no backtick), or None."""
    fenced = re.match(_FENCE, line)
    if fenced is None or (fenced.group(1)[0] == "`" and "`" in line[fenced.end() :]):
        return None
    return fenced.group(1)


def _html_block(line: str, paragraph: bool) -> re.Pattern[str] | None:
    """The end of the HTML block LINE starts (a pattern its last line matches), or None."""
    raw = re.match(_RAW_HTML, line)
    if raw:
        closing = re.compile(f"</{raw.group(1)}>", re.IGNORECASE)
        return None if closing.search(line) else closing
    if re.match(_BLOCK_HTML, line) or (not paragraph and re.match(_OTHER_TAG, line)):
        return re.compile("^$")  # ends at a blank line
    return None
