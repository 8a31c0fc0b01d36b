"""Values in the field merge: comparison, display, and list fields merged as sets."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Hashable
from typing import Any

from memsync.merge.diff3 import merge3, merge_text
from memsync.model.memory import parse_yaml_mapping


def canonical(value: Any) -> Hashable:
    """A hashable, type-aware form of a YAML value (so `1`, `true` and `"1"` stay distinct)."""
    if isinstance(value, dict):
        items = sorted(((canonical(k), canonical(v)) for k, v in value.items()), key=repr)
        return ("map", tuple(items))
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(canonical(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted((canonical(v) for v in value), key=repr)))
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, float):
        return ("float", repr(value))
    if isinstance(value, (dt.date, dt.datetime)):
        return (type(value).__name__, value.isoformat())
    if value is None or isinstance(value, (int, str, bytes)):
        return (type(value).__name__, value)
    return ("other", repr(value))


def show(value: Any) -> str:
    """A value as the report shows it: strings as they are, the rest as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def parse_block(text: str, key: str) -> tuple[bool, Any]:
    fields, problem, _, _ = parse_yaml_mapping(text)
    if problem or list(fields) != [key]:
        return False, None
    return True, fields[key]


def comment_folded(block: str, key: str, value: Any) -> str | None:
    """VALUE as Claude Code's first stamp rewrites a one-line plain `KEY: VALUE  # comment`:
    it reads the value to the end of the line, comment included, and writes it back quoted
    (seen with 2.1.330). None when BLOCK has no inline comment after a plain string VALUE."""
    head, sep, rest = block.rstrip("\n").partition(":")
    rest = rest.strip()
    if not sep or head.strip() != key or "\n" in rest or not isinstance(value, str):
        return None
    if rest[:1] in "\"'[{|>&*!" or not rest.startswith(value) or " #" not in rest[len(value) :]:
        return None
    return rest


def clean_block_merge(base: str, a: str, b: str, key: str, expected: Any) -> str | None:
    """Both sides' block texts combined line by line, if that is clean and means EXPECTED."""
    merged = merge_text(base, a, b, a_first=True)
    if merged.conflicts:
        return None
    ok, value = parse_block(merged.text, key)
    return merged.text if ok and canonical(value) == canonical(expected) else None


def merge_list(
    key: str,
    base: list[Any] | None,
    first: tuple[list[Any], str],
    second: tuple[list[Any], str],
    base_text: str,
) -> tuple[str, str]:
    """A list field merged as a set: additions from both sides, removals from both.

    FIRST and SECOND are (items, block text) of the sides in the symmetric order.
    """
    (f_items, f_text), (s_items, s_text) = first, second
    a_items, b_items = f_items, s_items
    base_items = base or []
    keep = {canonical(v): v for v in a_items + b_items}
    for item in base_items:
        if canonical(item) not in {canonical(v) for v in a_items} or canonical(item) not in {
            canonical(v) for v in b_items
        }:
            keep.pop(canonical(item), None)
    ordered = merge3(
        [canonical(v) for v in base_items],
        [canonical(v) for v in f_items],
        [canonical(v) for v in s_items],
        a_first=True,
    ).items
    result: list[Any] = []
    seen: set[Hashable] = set()
    for token in [*ordered, *(canonical(v) for v in f_items + s_items)]:
        if token in keep and token not in seen:
            seen.add(token)
            result.append(keep[token])
    text = clean_block_merge(base_text, f_text, s_text, key, result)
    if text is None:
        text = _render_list(key, result, s_text)
    added = [show(v) for v in result if canonical(v) not in {canonical(x) for x in base_items}]
    removed = [show(v) for v in base_items if canonical(v) not in seen]
    detail = f"both sides changed list `{key}`; merged as a set"
    if added:
        detail += f" (added {', '.join(added)})"
    if removed:
        detail += f" (removed {', '.join(removed)})"
    return text, detail


def _render_list(key: str, items: list[Any], style_of: str) -> str:
    """A fresh `key:` block for ITEMS, keeping the comments and flow/block style of STYLE_OF."""
    import yaml

    lines = style_of.splitlines(keepends=True)
    head = 0
    while head < len(lines) and (not lines[head].strip() or lines[head].startswith("#")):
        head += 1
    key_line = lines[head] if head < len(lines) else ""
    flow = key_line.split(":", 1)[-1].strip().startswith("[")
    # None: flow style for lists of scalars only, so the key itself stays in block style.
    dumped = yaml.safe_dump(
        {key: items},
        default_flow_style=None if flow else False,
        allow_unicode=True,
        sort_keys=False,
        width=10**6,
    )
    return "".join(lines[:head]) + dumped
