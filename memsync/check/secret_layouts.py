"""Where a credential's name and its value sit apart without an assignment.

Memories keep credentials in Markdown tables (`| Admin password | `value` |`, or a
`Password` column under a header row), on command lines (`--password value`,
`mysql -p'value'`) and in prose (`the password was value`). This module only finds such
name/value pairs; secret_generic judges the value as it judges `name = value`, so one rule
decides what a credential looks like. Imports nothing of memsync.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from collections.abc import Iterator

# A pair: the credential's name, then where its value may start and must end in the text
# (a value ends at white space anyway; a table cell's at its `|`).
Pair = tuple[str, int, int]

# A table cell that names something: words, maybe bold or in backticks, maybe a colon.
_NAME_CELL = re.compile(r"[*_\x60]{0,2}([A-Za-z][A-Za-z0-9 _.-]{0,39}?)[*_\x60]{0,2}:?", re.ASCII)
_SEPARATOR_ROW = re.compile(r"\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?")
_CELL_EDGE = re.compile(r"(?<!\\)\|")
# `--password value`, `--api-key=value`, `--db-pass 'value'`; `--password-file` names a file
# (its words end in `file`, which secret_generic does not take for a credential name).
_FLAG = re.compile(r"(?<![\w-])--([A-Za-z][A-Za-z0-9-]{1,40})(?:=|[ \t]+)(?=[^\s-])", re.ASCII)
# The MySQL/MariaDB clients take a password glued to `-p` (`-pS3cret`, `-p'S3cret'`).
_MYSQL_PASSWORD = re.compile(
    r"\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|]*?[ \t]-p(?=[^\s-])", re.ASCII
)
# `the password is value`, `password was changed to value`: said, not assigned.
_SAID = re.compile(
    r"\b((?:[A-Za-z]+[ _-])?(?:password|passwd|passphrase))[ \t]+"
    r"(?:(?:was[ \t]+)?(?:set|changed|reset)[ \t]+to|is|was)[ \t]+(?=\S)",
    re.IGNORECASE | re.ASCII,
)


def named_values(text: str) -> Iterator[Pair]:
    """Credential names and the spans their values may take, in tables, flags and prose."""
    if "|" in text:
        yield from _table_pairs(text)
    if "--" in text:
        for match in _FLAG.finditer(text):
            yield match.group(1), match.end(), len(text)
    if "-p" in text:
        for match in _MYSQL_PASSWORD.finditer(text):
            yield "password", match.end(), len(text)
    if "pass" in text.lower():
        for match in _SAID.finditer(text):
            yield match.group(1), match.end(), len(text)


def _table_pairs(text: str) -> Iterator[Pair]:
    """Cells named by the cell on their left or by their column's header."""
    header: list[str] = []  # the names of the current table's columns
    previous: list[tuple[int, int]] = []  # the cells of the row before, a header candidate
    offset = 0
    for line in text.splitlines(keepends=True):
        start, offset = offset, offset + len(line)
        stripped = line.strip()
        if not stripped.startswith("|"):
            header, previous = [], []
            continue
        if _SEPARATOR_ROW.fullmatch(stripped):
            header = [_cell_name(text[a:b]) for a, b in previous]
            continue
        cells = _cells(text, start, start + len(line.rstrip("\r\n")))
        for index, (a, b) in enumerate(cells):
            if a == b:
                continue
            left = _cell_name(text[cells[index - 1][0] : cells[index - 1][1]]) if index else ""
            above = header[index] if index < len(header) else ""
            for name in dict.fromkeys(n for n in (left, above) if n):
                yield name, a, b
        previous = cells


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of a table row's cells (between its `|`s), their padding trimmed."""
    edges = [m.start() for m in _CELL_EDGE.finditer(text, start, end)]
    cells = []
    for left, right in zip(edges, [*edges[1:], end], strict=True):
        a, b = left + 1, right
        while a < b and text[a] in " \t":
            a += 1
        while b > a and text[b - 1] in " \t":
            b -= 1
        cells.append((a, b))  # empty ones too: a header names cells by their index
    return cells


def _cell_name(cell: str) -> str:
    """The name a cell gives (`**Admin password**` is `Admin password`); empty if none."""
    match = _NAME_CELL.fullmatch(cell)
    return match.group(1).strip() if match else ""
