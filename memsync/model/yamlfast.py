"""The frontmatter Claude Code writes, read without PyYAML (the fast path of yaml12.load).

Importing PyYAML costs more than a `memsync check` of a small folder spends on its files
(its reader compiles a large pattern at import). Nearly every memory's frontmatter is flat
`key: value` lines with at most one nested block, which this module reads on its own;
anything else is NOT_SIMPLE and goes to `yaml12.load`, which imports PyYAML then.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Any

# Nodes after expanding aliases: an alias bomb ("billion laughs") stops here.
MAX_NODES = 10_000
# Characters of frontmatter text parsed at all (the pure-Python parser is linear but slow).
MAX_CHARS = 65_536

# PyYAML's resolver calls `match`, so every pattern is anchored at its end.
_INT = re.compile(r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\Z")
_FLOAT = re.compile(
    r"(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z"
)
_BOOL = re.compile(r"(?:true|True|TRUE|false|False|FALSE)\Z")
_NULL = re.compile(r"(?:~|null|Null|NULL|)\Z")


# --- the fast path: the flat and one-level nested mappings Claude Code writes ---------
#
# A 100,000-memory store means 100,000 frontmatters; composing each through PyYAML's node
# graph costs more than everything else consolidation does with the file. `simple_mapping`
# reads the shape nearly every memory has (`key: value` lines, a `metadata:` block indented
# under one key, comments, blank lines) and says NOT_SIMPLE for anything else, which then
# goes through `yaml12.load`: same results, same errors, same bounds (tests/test_yaml12.py
# compares the two on generated and real frontmatter).

NOT_SIMPLE: Any = object()

# Characters outside what the YAML reader accepts, and tabs, CR, NEL, U+2028/9 (line breaks or
# whitespace with rules of their own) and the BOM: anything else goes to the loader. Written
# as the small complement (the same set, checked over every code point in the tests): the
# accepted ranges as a class took 4.7 ms to compile, a fifth of a `check`'s own start-up.
_UNUSUAL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
_KEY_LINE = re.compile(r"( *)([A-Za-z_][A-Za-z0-9_-]{0,127}):(?: (.*))?")
# A plain scalar on one line: no indicator first, no `: `, ` #` or `:` at the end (those would
# start a mapping or a comment), no space at either end.
_PLAIN = re.compile(r"(?![-?:,\[\]{}#&*!|>'\"%@`\s])(?!.*(?:: | #|:\Z))(?:.*\S)?")
_DOUBLE = re.compile(r'"((?:[^"\\]|\\["\\])*)"')
_SINGLE = re.compile(r"'((?:[^']|'')*)'")
_ESCAPED = re.compile(r"\\(.)")


def simple_mapping(text: str) -> Any:
    """TEXT's mapping when it is simple `key: value` lines (one nested level at most), as the
    loader would build it; NOT_SIMPLE for anything else."""
    if _UNUSUAL.search(text):
        return NOT_SIMPLE
    lines = [line for line in text.split("\n") if line.strip(" ") and line.lstrip(" ")[0] != "#"]
    if len(lines) * 3 > MAX_NODES:
        return NOT_SIMPLE
    top: dict[str, Any] = {}
    nested: dict[str, Any] | None = None  # the block being filled, under its key
    indent = 0
    for line in lines:
        match = _KEY_LINE.fullmatch(line)
        if match is None:
            return NOT_SIMPLE
        spaces, key, raw = match.groups()
        if raw is not None and not raw.strip(" "):
            raw = None  # `metadata: ` (the client writes the space) is `metadata:`
        if _BOOL.match(key) or _NULL.match(key):
            return NOT_SIMPLE
        if spaces:
            if nested is None or (indent and len(spaces) != indent) or raw is None:
                return NOT_SIMPLE
            indent = len(spaces)
        else:
            nested, indent = None, 0
        value = None if raw is None else _scalar(raw)
        if value is NOT_SIMPLE:
            return NOT_SIMPLE
        if spaces:
            assert nested is not None
            nested[key] = value
        elif raw is None:
            # `key:` opens a block when indented lines follow, else its value is null.
            nested = {}
            top[key] = nested
        else:
            top[key] = value
    for key, value in top.items():
        if value == {}:
            top[key] = None
    return top or None


def _scalar(raw: str) -> Any:
    """The string a one-line scalar stands for; NOT_SIMPLE when it may be anything else."""
    if raw[:1] == '"':
        match = _DOUBLE.fullmatch(raw)
        return NOT_SIMPLE if match is None else _ESCAPED.sub(r"\1", match.group(1))
    if raw[:1] == "'":
        match = _SINGLE.fullmatch(raw)
        return NOT_SIMPLE if match is None else match.group(1).replace("''", "'")
    if not raw or _PLAIN.fullmatch(raw) is None:
        return NOT_SIMPLE
    if _INT.match(raw) or _FLOAT.match(raw) or _BOOL.match(raw) or _NULL.match(raw):
        return NOT_SIMPLE  # a number, a boolean or null: the loader's resolver decides
    return raw


def certainly_invalid(text: str) -> bool:
    """Whether the loader must reject TEXT on a line it can tell: `key: value` lines, each value
    a complete one-line scalar, at least one starting with a reserved '`' or '@' or a plain one
    holding `: ` or ending in `:` (a mapping cannot start there); nothing earlier can open a
    block, flow or multi-line scalar that would take that line in."""
    if _UNUSUAL.search(text):
        return False
    invalid = False
    for line in text.split("\n"):
        if not line.strip(" ") or line.lstrip(" ")[0] == "#":
            continue
        match = _KEY_LINE.fullmatch(line)
        if match is None:
            return False
        raw = (match.group(3) or "").strip(" ")
        if raw[:1] in ("`", "@") or _NESTED_VALUE.fullmatch(raw):
            invalid = True
        elif raw and _scalar(raw) is NOT_SIMPLE and _PLAIN.fullmatch(raw) is None:
            return False
    return invalid


# A plain value (no indicator first, no comment) with a `: ` inside or a `:` at its end.
_NESTED_VALUE = re.compile(r"(?![-?:,\[\]{}#&*!|>'\"%@`\s])[^#]*?:(?: .*|)")

# The client's retry quotes a plain value holding a YAML indicator (its lenient reading).
_SIMPLE_LINE = re.compile(r"([a-zA-Z_-]+):\s+(.+)")
_YAML_SPECIAL = re.compile(r"[{}\[\]*&#!|>%@`]|: ")


def quote_problematic_values(frontmatter_text: str) -> tuple[str, int | None]:
    """The client's retry text: plain values with YAML indicators double-quoted (first line)."""
    out: list[str] = []
    first: int | None = None
    for number, line in enumerate(frontmatter_text.split("\n")):
        match = _SIMPLE_LINE.fullmatch(line)
        if match:
            key, value = match.groups()
            quoted = any(value.startswith(q) and value.endswith(q) for q in "\"'")
            if not quoted and _YAML_SPECIAL.search(value):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                out.append(f'{key}: "{escaped}"')
                first = number if first is None else first
                continue
        out.append(line)
    return "\n".join(out), first
