"""The MEMORY.md index: entries and other lines, rendered back unchanged when untouched."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from memsync.model.limits import MAX_INDEX_CHARS, MAX_INDEX_LINE_CHARS, MAX_INDEX_LINES
from memsync.model.loaded import JS_WHITESPACE, hidden_lines, loaded_text
from memsync.model.mdspans import inline_code_spans
from memsync.model.textcodec import decode, encode, js_length, js_prefix

_URL_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")

# `- [Title](target) — hook`, tolerant of `*`/`+` bullets, `<target>`, a link title and any
# separator (em dash, en dash, hyphen, colon) before the hook.
_ENTRY = re.compile(
    r"""^(?P<indent>[ \t]*)(?P<bullet>[-*+])[ \t]+\[(?P<title>(?:\\.|[^\]\\])*)\]
        \((?P<target><[^>]*>|[^)\s]*)(?:[ \t]+"[^"]*")?\)
        (?P<rest>.*)$""",
    re.VERBOSE,
)
_SEPARATOR = re.compile(r"^[ \t]*(?:—|–|--?|:|\|)?[ \t]*")
# What opens an HTML comment; `<!-->` and `<!--->` open none (as for Claude Code's loader).
_OPENING = re.compile(r"<!--(?!-?>)")
# A code fence (a backtick fence's info string has no backtick), indented or not.
_FENCE = re.compile(r" *(`{3,}(?=[^`]*$)|~{3,})")
# A list item's first line (its text's column is the match's end), and a line that ends a list
# item it is not indented into even with no blank line before it (no lazy continuation).
# Five spaces or more after the marker: its text starts one space after it (CommonMark).
_ITEM = re.compile(r" {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]{1,4}(?![ \t])|[ \t]|$)")
_BLOCK_START = re.compile(r" {0,3}(?:`{3}|~{3}|#{1,6}(?:[ \t]|$)|<[A-Za-z!/]|(?:[-*_][ \t]*){3,}$)")
_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")


@dataclass(frozen=True)
class IndexEntry:
    """One `- [Title](target) — hook` line."""

    title: str
    target: str
    hook: str | None


@dataclass(frozen=True)
class IndexLine:
    """One line of the index: its text and, when it is an entry, the parsed entry."""

    text: str
    entry: IndexEntry | None = None


@dataclass(frozen=True)
class Index:
    """A parsed MEMORY.md."""

    lines: tuple[IndexLine, ...]
    bom: bool = False
    crlf: bool = False
    final_newline: bool = True

    def __post_init__(self) -> None:
        # The one rule for every way an index is built (parsed, rebuilt, merged): a line
        # inside an HTML comment is text, never an entry (docs/CONSOLIDATION.md, Index).
        inside = commented_lines([line.text for line in self.lines])
        if inside and any(self.lines[i].entry is not None for i in inside):
            lines = (IndexLine(ln.text) if i in inside else ln for i, ln in enumerate(self.lines))
            object.__setattr__(self, "lines", tuple(lines))

    @property
    def entries(self) -> list[IndexEntry]:
        """The entry lines, in order."""
        return [line.entry for line in self.lines if line.entry is not None]

    @property
    def targets(self) -> list[str]:
        """Link targets of the entries, in order (duplicates kept)."""
        return [entry.target for entry in self.entries]

    def text(self) -> str:
        """The index as LF text."""
        body = "\n".join(line.text for line in self.lines)
        return body + "\n" if self.final_newline and self.lines else body

    def with_lines(self, lines: list[IndexLine]) -> Index:
        """A copy with other lines, same encoding conventions."""
        return replace(self, lines=tuple(lines))


@dataclass(frozen=True)
class IndexSize:
    """How Claude Code sees an index: its size and whether it gets truncated."""

    lines: int
    chars: int
    line_limit: int = MAX_INDEX_LINES
    char_limit: int = MAX_INDEX_CHARS

    @property
    def over_lines(self) -> bool:
        """More lines than Claude Code loads."""
        return self.lines > self.line_limit

    @property
    def over_chars(self) -> bool:
        """More characters than Claude Code loads."""
        return self.chars > self.char_limit

    @property
    def fits(self) -> bool:
        """Claude Code loads the whole index."""
        return not (self.over_lines or self.over_chars)


def normalize_target(target: str) -> str:
    """The file a link target points to, as a key: no `<>`, `./`, anchor or query."""
    target = target.strip()
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    target = target.split("#", 1)[0].split("?", 1)[0]
    while target.startswith("./"):
        target = target[2:]
    return target


def link_paths(target: str, base: str = "") -> tuple[str, ...]:
    """The files an index link TARGET may name, relative to the folder, from an index in BASE."""
    # The one reading of a link for `check`, `consolidate` and push's hold-back: as written
    # and percent-decoded (`with%20space.md` is `with space.md`, as a Markdown reader takes
    # it), so a line `check` accepts is never a dangling line to `consolidate`.
    candidates = [target]
    if _URL_ESCAPE.search(target):
        from urllib.parse import unquote  # only for a link that has an escape

        candidates.append(unquote(target))
    paths: list[str] = []
    for candidate in candidates:
        path = posixpath.normpath(posixpath.join(base, candidate))
        if path not in paths:
            paths.append(path)
    return tuple(paths)


# A Markdown link's target anywhere in a line: `**[T](t.md)**`, a table row, `1. [T](t.md)`.
LINK = re.compile(r"(?<!\\)\]\((?P<target><[^>]*>|[^)\s]*)")


def line_links(text: str, base: str = "") -> set[str]:
    """Every file a link in the line TEXT names (none in a code span), read as `link_paths`
    reads it, from an index in BASE."""
    found: set[str] = set()
    if "](" not in text:
        return found
    for match in LINK.finditer(_code_masked(text)):
        target = normalize_target(match.group("target"))
        if target and "://" not in target and not target.startswith(("/", "mailto:")):
            found.update(link_paths(target, base))
    return found


def resolve_target(folder: str, target: str) -> str:
    """The store path an entry target points to, from an index in FOLDER."""
    if not target or "://" in target or target.startswith(("/", "mailto:")):
        return target
    return posixpath.normpath(posixpath.join(folder, target))


def commented_lines(texts: Sequence[str]) -> frozenset[int]:
    """Indices of the lines TEXTS whose text starts inside a closed HTML comment
    (`<!-- - [Old](old.md) -->`, or a line between `<!--` and `-->`), whether the client strips
    that comment or loads it as written; a `<!--` in a code span or a code block opens none (it
    is code to the client too)."""
    if not any("<!--" in text for text in texts):
        return frozenset()
    # What the client strips is commented whatever this reading of the Markdown says: one
    # reading of its blocks (model.loaded, probed with the client) has the last word there. A
    # lone CR, a line break to the client, is read as a space so the line numbers stay.
    hidden = hidden_lines("\n".join(texts).replace("\r", " "))
    inside: set[int] = set()
    pending: list[int] = []  # lines starting in the open comment: inside once it closes
    fence: str | None = None
    fence_item: int | None = None  # text column of the list item the open fence is in
    opened = False
    code = _IndentedCode()
    for number, text in enumerate(texts):
        if number in hidden:
            inside.update([*pending, number] if opened else [number])
            fence, opened, pending = None, False, []
            code.after, code.item = "blank", None  # a comment block ends every block before it
            continue
        if (
            fence is not None
            and fence_item is not None
            and text.strip()
            and _width(text) < fence_item
        ):
            fence = code.item = None  # a line not indented into the item ends it, fence and all
        if fence is not None:
            fence = None if _closes(fence, text) else fence
            code.after = "fence"
            continue
        if code.is_code(text, opened):
            continue
        fenced = None if opened else _FENCE.match(text)
        # Indented four columns past its container, a fence is the paragraph's text (or code).
        if fenced and _width(text) - (code.item or 0) <= 3:
            # A fence never closed runs to the end of the list item it is in, or of the index.
            fence, fence_item = fenced.group(1), code.item
            code.after = "fence"
            continue
        first = len(text) - len(text.lstrip())
        if opened and text.strip():
            pending.append(number)
        masked, pos = _code_masked(text), 0
        while True:
            if opened:
                close = text.find("-->", pos)
                if close < 0:
                    break
                opened, pos = False, close + 3
                inside.update(pending)
                pending = []
            else:
                opening = _OPENING.search(masked, pos)
                if opening is None:
                    break
                opened, pos = True, opening.end()
                pending = [number] if opening.start() == first else []
    return frozenset(inside)


class _IndentedCode:
    """CommonMark's indented code block, read narrowly: a line indented four columns after a
    blank line, a heading or more such code, outside any list item (a line indented under an
    item is the item's text) and outside a comment, is code; `<!--` in it opens nothing."""

    def __init__(self) -> None:
        self.after = "blank"  # what the line before was: blank, heading, code, fence or text
        self.item: int | None = None  # text column of the list item still open

    def is_code(self, text: str, opened: bool) -> bool:
        """Whether TEXT, the next line, is indented code; OPENED: it starts inside a comment."""
        before, blank = self.after, not text.strip()
        width = _width(text)
        if opened:
            self.after = "blank" if blank else "text"
            return False
        ends = before == "blank" or _BLOCK_START.match(text) or _ITEM.match(text)
        if self.item is not None and not blank and width < self.item and ends:
            self.item = None  # the item ended (otherwise: a lazy continuation of its text)
        item = None if self.item is not None or width >= 4 else _ITEM.match(text)
        if item is not None:
            self.item = len(item.group().expandtabs(4))
        code = (
            self.item is None
            and width >= 4
            and not blank
            and before in ("blank", "heading", "code", "fence")
        )
        if blank:
            self.after = "blank"  # code goes on after blank lines: it starts again
        else:
            self.after = "code" if code else "heading" if _HEADING.match(text) else "text"
        return code


def _width(text: str) -> int:
    """The columns TEXT is indented by, a tab to the next multiple of four."""
    return len(text[: len(text) - len(text.lstrip())].expandtabs(4))


def _closes(fence: str, text: str) -> bool:
    """Whether TEXT closes the code fence FENCE opened (as many of its marks, or more)."""
    return re.fullmatch(f" *{fence}{fence[0]}*[ \t]*", text) is not None


def code_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each code span in TEXT: a run of backticks to the next run as long."""
    return inline_code_spans(text) if "`" in text else []


def _code_masked(text: str) -> str:
    """TEXT with its code spans blanked out."""
    if "`" not in text:
        return text
    masked = list(text)
    for start, end in code_spans(text):
        masked[start:end] = " " * (end - start)
    return "".join(masked)


def parse_entry(line: str) -> IndexEntry | None:
    """Parse one index line into an entry, or None when it is prose or a heading (alone:
    whether an HTML comment around it makes it text is the Index's to say)."""
    match = _ENTRY.match(line)
    if match is None:
        return None
    rest = match.group("rest")
    hook = _SEPARATOR.sub("", rest, count=1).strip() if rest.strip() else None
    return IndexEntry(
        title=match.group("title"),
        target=normalize_target(match.group("target")),
        hook=hook or None,
    )


def parse_index_text(text: str) -> Index:
    """Parse LF index text."""
    if not text:  # no index yet: the one written ends its lines as a text file does
        return Index(lines=())
    final_newline = text.endswith("\n")
    raw_lines = text.split("\n")
    if final_newline:
        raw_lines.pop()
    lines = tuple(IndexLine(line, parse_entry(line)) for line in raw_lines)
    return Index(lines=lines, final_newline=final_newline)


def parse_index(raw: bytes) -> Index:
    """Parse MEMORY.md bytes; render_index gives them back unchanged."""
    text, bom, crlf, _ = decode(raw)
    return replace(parse_index_text(text), bom=bom, crlf=crlf)


def render_index(index: Index) -> bytes:
    """Bytes of the index with its BOM and newline convention."""
    return encode(index.text(), bom=index.bom, crlf=index.crlf)


def format_entry(title: str, target: str, hook: str | None) -> str:
    """The canonical `- [Title](target) — hook` line, shortened to the line limit."""
    title = " ".join(title.replace("[", "(").replace("]", ")").split())
    link = f"- [{title}]({target})"
    if not hook:
        return link
    line = f"{link} — {' '.join(hook.split())}"
    return shorten(line, MAX_INDEX_LINE_CHARS)


def shorten(line: str, limit: int) -> str:
    """Cut LINE at a word boundary so it fits LIMIT characters, ending with an ellipsis."""
    if len(line) <= limit:
        return line
    cut = line[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:—-") + "…"


def js_trim(text: str) -> str:
    """JavaScript's String.prototype.trim: Claude Code trims the index with it."""
    return text.strip(JS_WHITESPACE)


def measure_index(text: str) -> IndexSize:
    """Size of the index the way Claude Code counts it: what it loads (no frontmatter, no HTML
    comment blocks: `memsync.model.loaded`), trimmed, lines, then characters."""
    trimmed = js_trim(loaded_text(text))
    if not trimmed:
        return IndexSize(lines=0, chars=0)
    return IndexSize(lines=trimmed.count("\n") + 1, chars=js_length(trimmed))


def visible_part(text: str) -> str:
    """What Claude Code actually loads: frontmatter and HTML comment blocks out, then 200
    lines, then 25,000 characters at a line break."""
    lines = js_trim(loaded_text(text)).split("\n")
    kept = "\n".join(lines[:MAX_INDEX_LINES])
    if js_length(kept) > MAX_INDEX_CHARS:
        # Counted in UTF-16 code units (an emoji is two), as JavaScript's length, slice and
        # lastIndexOf(x, n), which also finds a match starting exactly at n.
        end = js_prefix(kept, MAX_INDEX_CHARS)
        cut = kept.rfind("\n", 0, end + 1)
        kept = kept[: cut if cut > 0 else end]
    return kept
