"""The memory file model: a lossless parse of frontmatter and body."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from memsync.model.limits import FRONTMATTER_SCAN_LINES, MEMORY_TYPES
from memsync.model.textcodec import decode, encode
from memsync.model.yamlfast import (
    MAX_CHARS,
    NOT_SIMPLE,
    certainly_invalid,
    quote_problematic_values,
    simple_mapping,
)

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from typing import Any

# `\r?`: in a file with mixed line breaks the fences may still end in CRLF, which Claude Code
# strips before it looks for frontmatter.
_FENCE = re.compile(r"---[ \t]*\r?")
_TOP_LEVEL_KEY = re.compile(
    r"""(?:'((?:[^']|'')*)'|"((?:[^"\\]|\\.)*)"|([^\s#'"][^:#]*?))[ \t]*:(?:[ \t]|$)"""
)
# The client's retry after a YAML error (frontmatterParser's quoteProblematicValues): a plain
# `key: value` line whose value holds a YAML indicator is read as one double-quoted string.
METADATA = "metadata"


class FrontmatterProblem(Enum):
    """Why a file's frontmatter could not be used as a mapping."""

    MISSING = "missing"
    UNTERMINATED = "unterminated"
    UNPARSABLE = "unparsable"
    NOT_MAPPING = "not-mapping"


@dataclass(frozen=True)
class Memory:
    """One memory file: its exact bytes and a parsed view of them."""

    path: str
    raw: bytes
    text: str
    bom: bool
    crlf: bool
    frontmatter_text: str | None
    body: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    problem: FrontmatterProblem | None = None
    problem_detail: str | None = None
    problem_line: int | None = None
    decode_error: str | None = None
    # Set when the YAML is invalid but the client still reads it after quoting values.
    lenient_line: int | None = None

    @property
    def name(self) -> str | None:
        """The `name` field when it is a string."""
        return _string_field(self.fields, "name")

    @property
    def description(self) -> str | None:
        """The `description` field when it is a string."""
        return _string_field(self.fields, "description")

    @property
    def type(self) -> str | None:
        """`metadata.type`, else the top-level `type`, when it is a string."""
        value = memory_type(self.fields)[0]
        return value if isinstance(value, str) else None

    @property
    def modified(self) -> str | None:
        """`metadata.modified`, else a top-level `modified`, as the text the file holds."""
        return memory_modified(self.fields)

    @property
    def type_is_valid(self) -> bool:
        """Whether `type` is one of Claude Code's four memory types."""
        return self.type in MEMORY_TYPES

    @property
    def body_start_line(self) -> int:
        """1-based line number of the first body line in the file."""
        if self.frontmatter_text is None:
            return 1
        return self.frontmatter_text.count("\n") + 3


@dataclass(frozen=True)
class FieldBlock:
    """The text of one top-level frontmatter key, with comments that precede it."""

    key: str | None
    text: str


def _string_field(fields: Mapping[str, Any], key: str) -> str | None:
    value = fields.get(key)
    return value if isinstance(value, str) else None


def metadata_of(fields: Mapping[str, Any]) -> Mapping[str, Any]:
    """The `metadata` mapping of a frontmatter (empty when absent or not a mapping)."""
    value = fields.get(METADATA)
    return value if isinstance(value, Mapping) else {}


def nested_field(fields: Mapping[str, Any], key: str) -> tuple[Any, tuple[str, ...] | None]:
    """(value, where) of KEY: `metadata.KEY` wins over a top-level KEY, as in the client."""
    nested = metadata_of(fields).get(key)
    if nested is not None:
        return nested, (METADATA, key)
    value = fields.get(key)
    return (value, (key,)) if value is not None else (None, None)


def memory_type(fields: Mapping[str, Any]) -> tuple[Any, tuple[str, ...] | None]:
    """The raw `type` value of a frontmatter and the key path it came from."""
    return nested_field(fields, "type")


def memory_modified(fields: Mapping[str, Any]) -> str | None:
    """`metadata.modified` (else top-level) when it is text, as the client stamps it."""
    value = nested_field(fields, "modified")[0]
    return value if isinstance(value, str) and value.strip() else None


def key_line(frontmatter_text: str | None, path: tuple[str, ...]) -> int | None:
    """1-based file line of the key at PATH (`("metadata", "type")`) in frontmatter text."""
    lines = (frontmatter_text or "").split("\n")
    start, parent_indent = 0, -1
    for depth, key in enumerate(path):
        child_indent: int | None = None
        found: int | None = None
        for number in range(start, len(lines)):
            stripped = lines[number].lstrip(" ")
            if not stripped.strip() or stripped.startswith("#"):
                continue
            indent = len(lines[number]) - len(stripped)
            if indent <= parent_indent:
                break  # past the end of the parent mapping
            child_indent = indent if child_indent is None else child_indent
            if indent == child_indent and top_level_key(stripped) == key:
                found = number
                break
        if found is None:
            return None
        if depth == len(path) - 1:
            return found + 2  # line 1 is the opening fence
        start, parent_indent = found + 1, child_indent if child_indent is not None else 0
    return None


def split_frontmatter(text: str) -> tuple[str | None, str, FrontmatterProblem | None]:
    """Split LF text into (frontmatter text, body, problem) as Claude Code does."""
    first_break = text.find("\n")
    first = text if first_break < 0 else text[:first_break]
    if not _FENCE.fullmatch(first):
        return None, text, FrontmatterProblem.MISSING
    pos = first_break + 1
    for _ in range(FRONTMATTER_SCAN_LINES):
        if first_break < 0 or pos > len(text):
            break
        end = text.find("\n", pos)
        line = text[pos:] if end < 0 else text[pos:end]
        if _FENCE.fullmatch(line):
            body_start = len(text) if end < 0 else end + 1
            return text[first_break + 1 : pos], text[body_start:], None
        if end < 0:
            break
        pos = end + 1
    return None, text, FrontmatterProblem.UNTERMINATED


@dataclass(frozen=True)
class ParsedFrontmatter:
    """Frontmatter YAML as the client reads it, and what was wrong with it."""

    fields: dict[str, Any]
    problem: FrontmatterProblem | None = None
    detail: str | None = None
    line: int | None = None  # 1-based line in the file
    lenient_line: int | None = None  # invalid YAML the client reads after its quoting retry


def _load(text: str) -> Any:
    from memsync.model.yaml12 import load

    return load(text)


def parse_frontmatter_text(frontmatter_text: str) -> ParsedFrontmatter:
    """Parse frontmatter as the client does: YAML 1.2, bounded, its quoting retry on errors."""
    # Nearly every memory is read without importing PyYAML (a third of a `check`'s start-up):
    # simple lines, as yaml12.load reads them too, and simple lines the loader must reject,
    # whose retry is simple (tests/test_yaml12.py compares these with parse_with_yaml).
    if len(frontmatter_text) <= MAX_CHARS:
        data = simple_mapping(frontmatter_text)
        if data is not NOT_SIMPLE:
            return _parsed(data)
        if certainly_invalid(frontmatter_text):
            retry, first = quote_problematic_values(frontmatter_text)
            data = simple_mapping(retry)
            if first is not None and isinstance(data, dict):
                return ParsedFrontmatter(_string_keys(data), lenient_line=first + 2)
    return parse_with_yaml(frontmatter_text)


def parse_with_yaml(frontmatter_text: str) -> ParsedFrontmatter:
    """parse_frontmatter_text through the YAML loader (the reference for its shortcuts)."""
    import yaml

    try:
        data = _load(frontmatter_text)
    except yaml.YAMLError as exc:
        retry, first = quote_problematic_values(frontmatter_text)
        if first is not None:
            try:
                data = _load(retry)
            except yaml.YAMLError:
                pass
            else:
                if isinstance(data, dict):
                    return ParsedFrontmatter(_string_keys(data), lenient_line=first + 2)
        return ParsedFrontmatter({}, FrontmatterProblem.UNPARSABLE, *_error_where(exc))
    return _parsed(data)


def _parsed(data: Any) -> ParsedFrontmatter:
    if data is None:
        return ParsedFrontmatter({})
    if not isinstance(data, dict):
        what = f"frontmatter is a {type(data).__name__}"
        return ParsedFrontmatter({}, FrontmatterProblem.NOT_MAPPING, what, 2)
    return ParsedFrontmatter(_string_keys(data))


def _string_keys(data: dict[Any, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in data.items()}


def _error_where(exc: Exception) -> tuple[str, int | None]:
    """(problem, 1-based file line) of a YAML error, bounds included."""
    mark = getattr(exc, "problem_mark", None)
    line = getattr(exc, "line", None) if mark is None else mark.line
    problem = getattr(exc, "problem", None) or (str(exc).splitlines() or ["invalid YAML"])[0]
    return str(problem), None if line is None else line + 2


def parse_yaml_mapping(
    frontmatter_text: str,
) -> tuple[dict[str, Any], FrontmatterProblem | None, str | None, int | None]:
    """Parse frontmatter YAML: (fields, problem, detail, 1-based line in the file)."""
    parsed = parse_frontmatter_text(frontmatter_text)
    return parsed.fields, parsed.problem, parsed.detail, parsed.line


def parse_memory(raw: bytes, path: str = "") -> Memory:
    """Parse a memory file; never raises, flags what is wrong instead."""
    text, bom, crlf, decode_error = decode(raw)
    frontmatter_text, body, problem = split_frontmatter(text)
    fields: dict[str, Any] = {}
    detail: str | None = None
    line: int | None = None
    lenient: int | None = None
    if problem is FrontmatterProblem.MISSING:
        line = 1
    elif problem is FrontmatterProblem.UNTERMINATED:
        detail, line = "no closing `---` within the first 30 lines", 1
    elif frontmatter_text is not None:
        parsed = parse_frontmatter_text(frontmatter_text)
        fields, problem, detail = parsed.fields, parsed.problem, parsed.detail
        line, lenient = parsed.line, parsed.lenient_line
    return Memory(
        path=path,
        raw=raw,
        text=text,
        bom=bom,
        crlf=crlf,
        frontmatter_text=frontmatter_text,
        body=body,
        fields=fields,
        problem=problem,
        problem_detail=detail,
        problem_line=line,
        decode_error=decode_error,
        lenient_line=lenient,
    )


def compose(frontmatter_text: str | None, body: str) -> str:
    """Join frontmatter text and body into LF file text."""
    if frontmatter_text is None:
        return body
    if frontmatter_text and not frontmatter_text.endswith("\n"):
        frontmatter_text += "\n"
    return f"---\n{frontmatter_text}---\n{body}"


def render_memory(memory: Memory, frontmatter_text: str | None, body: str) -> bytes:
    """Bytes of MEMORY with new frontmatter and body, keeping its BOM and newlines."""
    if frontmatter_text == memory.frontmatter_text and body == memory.body:
        return memory.raw
    return encode(compose(frontmatter_text, body), bom=memory.bom, crlf=memory.crlf)


def split_fields(frontmatter_text: str) -> list[FieldBlock]:
    """Cut frontmatter text into per-key blocks; comments attach to the next key."""
    blocks: list[FieldBlock] = []
    pending: list[str] = []
    current_key: str | None = None
    current: list[str] = []
    started = False
    for line in _lines_with_ends(frontmatter_text):
        key = top_level_key(line)
        if key is not None:
            if started or current:
                blocks.append(FieldBlock(current_key, "".join(current)))
            current_key, current, started = key, [*pending, line], True
            pending = []
        elif started and (line[:1] in (" ", "\t", "-") and line.strip()):
            current.extend([*pending, line])
            pending = []
        else:
            pending.append(line)
    if started:
        blocks.append(FieldBlock(current_key, "".join(current)))
    if pending:
        blocks.append(FieldBlock(None, "".join(pending)))
    return blocks


def _lines_with_ends(text: str) -> list[str]:
    """Lines split at LF only (str.splitlines also splits at form feed, U+2028, ...)."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def join_fields(blocks: list[FieldBlock]) -> str:
    """Inverse of split_fields."""
    parts = [b.text if b.text.endswith("\n") or not b.text else b.text + "\n" for b in blocks]
    return "".join(parts)


def top_level_key(line: str) -> str | None:
    """The mapping key a column-0 YAML line starts, if any."""
    if not line or line[0] in " \t#-\n\r":
        return None
    match = _TOP_LEVEL_KEY.match(line)
    if match is None:
        return None
    single, double, plain = match.groups()
    if single is not None:
        return single.replace("''", "'")
    if double is not None:
        return double
    return plain.strip()
