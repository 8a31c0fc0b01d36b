"""Regions of a Markdown memory that text rewriting must never touch.

Frontmatter (except the value of a one-line `description:`, inside its quotes if it has
any), fenced and indented code,
inline code spans, URLs, autolinks, link targets, reference definitions and HTML.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memsync.model.memory import split_frontmatter

_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
_INLINE = re.compile(
    r"""<!--.*?-->                                   # HTML comment
      | <(?:[a-z][a-z0-9+.-]*:|/?[a-z][a-z0-9-]*[\s>/])[^<>\n]*>   # autolink or HTML tag
      | (?:[a-z][a-z0-9+.-]*://|www\.|mailto:)[^\s<>()\[\]]*(?:\([^\s)]*\)[^\s<>()\[\]]*)*
      | \]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)   # inline link target and title
      | ^[ ]{0,3}\[[^\]\n]+\]:[^\n]*                   # reference definition
    """,
    re.IGNORECASE | re.VERBOSE | re.MULTILINE | re.DOTALL,
)
_BACKTICKS = re.compile(r"`+")
_DESCRIPTION = re.compile(
    r"^description:[ \t]+(?:(?![\"'|>\[{&*!%@`])([^\n]*?)(?:[ \t]+#[^\n]*)?"
    # or one quoted scalar with no escapes, as YAML writers quote a value holding `: `
    r"|\"([^\"\\\n]*)\"[ \t]*|'([^'\n]*)'[ \t]*)$",
    re.MULTILINE,
)


def protected_spans(text: str) -> list[tuple[int, int]]:
    """Sorted, non-overlapping (start, end) character ranges that must stay as written."""
    spans: list[tuple[int, int]] = []
    body_start = _frontmatter_spans(text, spans)
    code = _code_block_spans(text, body_start)
    spans.extend(code)
    spans.extend(_inline_code_spans(text, body_start, code))
    for match in _INLINE.finditer(text, body_start):
        spans.append(match.span())
    return _merge(spans)


def _frontmatter_spans(text: str, spans: list[tuple[int, int]]) -> int:
    """Protect the frontmatter block but a plain one-line description value; return body start."""
    frontmatter, body, problem = split_frontmatter(text)
    if problem is not None or frontmatter is None:
        return 0
    body_start = len(text) - len(body)
    fm_start = text.find("\n") + 1
    cursor = 0
    for match in _DESCRIPTION.finditer(frontmatter):
        value = next(group for group in (1, 2, 3) if match.group(group) is not None)
        value_start, value_end = match.span(value)
        spans.append((cursor, fm_start + value_start))
        cursor = fm_start + value_end
        break
    spans.append((cursor, body_start))
    return body_start


def code_block_lines(lines: Sequence[str]) -> frozenset[int]:
    """Indices of LINES (a body, no frontmatter) inside fenced or indented code blocks."""
    text = "".join(line + "\n" for line in lines)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    inside: set[int] = set()
    for start, end in _code_block_spans(text, 0):
        inside.update(i for i in range(len(lines)) if start <= starts[i] < end)
    return frozenset(inside)


def _code_block_spans(text: str, start: int) -> list[tuple[int, int]]:
    """Fenced code blocks (``` or ~~~, unclosed ones run to the end) and indented code."""
    spans: list[tuple[int, int]] = []
    pos = start
    fence: str | None = None
    fence_start = 0
    prev_blank = True
    prev_listish = False
    in_indented = False
    for line in text[start:].splitlines(keepends=True):
        stripped = line.rstrip("\n")
        if fence is not None:
            close = _FENCE_OPEN.match(stripped)
            if (
                close
                and close.group(1)[0] == fence[0]
                and len(close.group(1)) >= len(fence)
                and not stripped[close.end() :].strip()
            ):
                spans.append((fence_start, pos + len(line)))
                fence = None
        else:
            opened = _FENCE_OPEN.match(stripped)
            indented = stripped.startswith(("    ", "\t")) and bool(stripped.strip())
            if opened and not (opened.group(1)[0] == "`" and "`" in stripped[opened.end() :]):
                fence, fence_start = opened.group(1), pos
                in_indented = False
            elif indented and (in_indented or (prev_blank and not prev_listish)):
                spans.append((pos, pos + len(line)))
                in_indented = True
            elif stripped.strip():
                in_indented = False
                prev_listish = bool(_LIST_ITEM.match(stripped)) or stripped.startswith((" ", "\t"))
        prev_blank = not stripped.strip()
        pos += len(line)
    if fence is not None:
        spans.append((fence_start, len(text)))
    return spans


def inline_code_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each backtick code span of TEXT (one line, or a paragraph's lines)."""
    return _inline_code_spans(text, 0, [])


def _inline_code_spans(
    text: str, start: int, code_blocks: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Backtick code spans: a run of N backticks up to the next run of exactly N, same paragraph."""
    spans: list[tuple[int, int]] = []
    pos = start
    while True:
        opening = _BACKTICKS.search(text, pos)
        if opening is None:
            return spans
        if any(a <= opening.start() < b for a, b in code_blocks):
            pos = opening.end()
            continue
        width = len(opening.group())
        closing = None
        for candidate in _BACKTICKS.finditer(text, opening.end()):
            if re.search(r"\n[ \t]*\n", text[opening.end() : candidate.start()]):
                break
            if len(candidate.group()) == width:
                closing = candidate
                break
        if closing is None:
            pos = opening.end()
            continue
        spans.append((opening.start(), closing.end()))
        pos = closing.end()


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged
