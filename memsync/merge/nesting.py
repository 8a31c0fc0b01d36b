"""Frontmatter layout for the field merge: nested mappings as their own frontmatter, and the
client's first-stamp relocation of keys into `metadata` (CLAUDE-CODE.md 1).

Everything here edits text line by line; nothing is ever re-serialised from parsed values.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from memsync.model.memory import (
    METADATA,
    FieldBlock,
    join_fields,
    parse_yaml_mapping,
    split_fields,
    top_level_key,
)

# Keys the client keeps at the top level when it stamps a file; every other key moves.
STAMP_TOP_KEYS = frozenset({"name", "description", METADATA})
_HEADER_REST = re.compile(r"[ \t]*(?:#.*)?")
_SLUG_GAPS = re.compile(r"[^a-z0-9]+")
DEFAULT_INDENT = "  "


@dataclass(frozen=True)
class NestedBlock:
    """A block-style mapping value: the lines up to its `key:` line, and its body dedented."""

    head: str  # comments before the key and the `key:` line itself
    indent: str
    inner: str  # the body with INDENT removed from every non-blank line

    def render(self, inner: str, indent: str | None = None) -> str:
        """The block with INNER as its body, indented like this block (or by INDENT)."""
        pad = self.indent if indent is None else indent
        lines = inner.splitlines(keepends=True)
        return self.head + "".join(pad + line if line.strip() else line for line in lines)


def split_nested(block_text: str, key: str) -> NestedBlock | None:
    """BLOCK_TEXT (one top-level KEY's block) as a nested block, or None when it is not one."""
    lines = block_text.splitlines(keepends=True)
    at = next((i for i, line in enumerate(lines) if top_level_key(line) == key), None)
    if at is None:
        return None
    header = lines[at]
    rest = header.split(":", 1)[1] if not header.startswith(("'", '"')) else None
    if rest is None or not _HEADER_REST.fullmatch(rest.rstrip("\n")):
        return None  # a flow mapping, an anchor, a tag: not a plain nested block
    body = lines[at + 1 :]
    content = [line for line in body if line.strip()]
    if not content:
        return None
    first = content[0]
    indent = first[: len(first) - len(first.lstrip(" "))]
    if not indent or any(not line.startswith(indent) for line in content):
        return None
    inner = "".join(line[len(indent) :] if line.strip() else line for line in body)
    if not inner.endswith("\n"):
        inner += "\n"
    return NestedBlock("".join(lines[: at + 1]), indent, inner)


def slug(value: str) -> str:
    """The client's first-stamp form of a `name` (`Legacy Name` -> `legacy-name`)."""
    return _SLUG_GAPS.sub("-", value.lower()).strip("-")


def later_timestamp(a: Any, b: Any) -> Any:
    """The later of two `modified` stamps (ISO 8601; else the larger text): no one's edit."""
    ta, tb = _instant(a), _instant(b)
    if ta is not None and tb is not None and ta != tb:
        return a if ta > tb else b
    return max(a, b, key=str)


def _instant(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        when = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=dt.timezone.utc)


def _parse(text: str) -> dict[str, Any] | None:
    fields, problem, _, _ = parse_yaml_mapping(text)
    return None if problem else fields


def _relocated(text: str, keys: set[str], indent_of: str) -> str | None:
    """TEXT with the top-level blocks of KEYS moved to the end of its `metadata:` block."""
    blocks = split_fields(text)
    moving = [b for b in blocks if b.key in keys]
    if not moving:
        return text
    kept = [b for b in blocks if b.key not in keys]
    meta_at = next((i for i, b in enumerate(kept) if b.key == METADATA), None)
    if meta_at is None:
        nested = NestedBlock(f"{METADATA}:\n", indent_of, "")
        inner = ""
        tail_at = next((i for i, b in enumerate(kept) if b.key is None), len(kept))
        kept.insert(tail_at, FieldBlock(METADATA, ""))
        meta_at = tail_at
    else:
        found = split_nested(kept[meta_at].text, METADATA)
        if found is None:
            return None
        nested, inner = found, found.inner
    inner += "".join(b.text if b.text.endswith("\n") else b.text + "\n" for b in moving)
    kept[meta_at] = FieldBlock(METADATA, nested.render(inner))
    return join_fields(kept)


def align_layouts(texts: list[str | None]) -> list[str | None]:
    """Move top-level keys into `metadata` where another version already moved them.

    The client's first write of a file moves every key but name and description into
    `metadata`: a formatting change. Aligning the other versions first lets a real edit of
    top-level `type` on one machine meet the moved `metadata.type` of the other as the same
    field. Returns the texts unchanged when any of them would not stay valid.
    """
    parsed = [None if t is None else _parse(t) for t in texts]
    moved: set[str] = set()
    for values in parsed:
        meta = values.get(METADATA) if values else None
        if isinstance(meta, dict):
            moved |= {k for k in meta if k not in STAMP_TOP_KEYS and k not in values}  # type: ignore[operator]
    if not moved:
        return texts
    indent = _indent_in(texts)
    out: list[str | None] = []
    for text, values in zip(texts, parsed, strict=True):
        if text is None or values is None:
            out.append(text)
            continue
        meta = values.get(METADATA)
        if meta is not None and not isinstance(meta, dict):
            return texts
        keys = {k for k in moved if k in values and not (isinstance(meta, dict) and k in meta)}
        new = _relocated(text, keys, indent) if keys else text
        if new is None or (new != text and not _kept_values(values, _parse(new), keys)):
            return texts
        out.append(new)
    return out


def _indent_in(texts: list[str | None]) -> str:
    """The indent for a new `metadata` block: the base's (TEXTS[0]), else the narrower side's.

    Never "the first side's": the merge runs with the sides in either order and must give
    one text, and the base's indent decides which side changed the block's indent.
    """
    indents = [_metadata_indent(text) for text in texts]
    if indents[0] is not None:
        return indents[0]
    found = [indent for indent in indents[1:] if indent is not None]
    return min(found, key=lambda indent: (len(indent), indent)) if found else DEFAULT_INDENT


def _metadata_indent(text: str | None) -> str | None:
    for block in split_fields(text or ""):
        if block.key == METADATA:
            found = split_nested(block.text, METADATA)
            if found is not None:
                return found.indent
    return None


def _kept_values(old: dict[str, Any], new: dict[str, Any] | None, keys: set[str]) -> bool:
    """Whether NEW holds OLD's values, KEYS now under `metadata`."""
    if new is None:
        return False
    meta = new.get(METADATA)
    if not isinstance(meta, dict):
        return False
    return all(meta.get(k) == old[k] for k in keys) and all(
        new.get(k) == v for k, v in old.items() if k not in keys and k != METADATA
    )
