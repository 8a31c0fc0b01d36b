"""Edit a JSON document as text: change only the values that differ, keep every other byte.

Claude Code's settings.json is a file people format and order by hand. `json.dump` of the
whole document would re-indent it, reorder nothing but rewrite everything; here the old
and the new document are compared value by value, and only the spans of the values that
changed are rewritten (a member or an element added at the end of its container, one
removed with its comma). The result is checked by parsing it: if it does not read back
as the new document, the whole document is written out instead.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

_DECODER = json.JSONDecoder()


@dataclass
class Node:
    """One JSON value and where it is in the text (END is exclusive)."""

    start: int
    end: int
    members: list[tuple[str, int, Node]] | None = None  # objects: (key, key start, value)
    items: list[Node] | None = field(default=None)  # arrays


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text

    def skip(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in " \t\r\n":
            i += 1
        return i

    def value(self, i: int) -> Node:
        i = self.skip(i)
        char = self.text[i : i + 1]
        if char == "{":
            return self.container(i, "}", member=True)
        if char == "[":
            return self.container(i, "]", member=False)
        # A string, number or literal: the standard decoder knows where it ends.
        return Node(i, _DECODER.raw_decode(self.text, i)[1])

    def container(self, start: int, close: str, *, member: bool) -> Node:
        node = Node(start, start, [] if member else None, None if member else [])
        i = self.skip(start + 1)
        while self.text[i] != close:
            if member:
                key, after = _DECODER.raw_decode(self.text, i)
                colon = self.skip(after)
                value = self.value(colon + 1)
                assert node.members is not None
                node.members.append((key, i, value))
            else:
                value = self.value(i)
                assert node.items is not None
                node.items.append(value)
            i = self.skip(value.end)
            if self.text[i] == ",":
                i = self.skip(i + 1)
        node.end = i + 1
        return node


def _line_indent(text: str, pos: int) -> str:
    line_start = text.rfind("\n", 0, pos) + 1
    line = text[line_start:pos]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _dump(value: Any, indent: str, unit: int | str, multiline: bool) -> str:
    if not multiline:
        return json.dumps(value, ensure_ascii=False)
    text = json.dumps(value, indent=unit, ensure_ascii=False)
    return text.replace("\n", "\n" + indent)


Edit = tuple[int, int, str]


class _Editor:
    def __init__(self, text: str, unit: int | str) -> None:
        self.text = text
        self.unit = unit
        self.step = "\t" if unit == "\t" else " " * int(unit)

    def multiline(self, node: Node) -> bool:
        return "\n" in self.text[node.start : node.end]

    def replace(self, node: Node, new: Any) -> list[Edit]:
        indent = _line_indent(self.text, node.start)
        return [(node.start, node.end, _dump(new, indent, self.unit, True))]

    def edits(self, node: Node, old: Any, new: Any) -> list[Edit]:
        if old == new and type(old) is type(new):
            return []
        if node.members is not None and isinstance(old, dict) and isinstance(new, dict):
            return self.object_edits(node, old, new)
        if node.items is not None and isinstance(old, list) and isinstance(new, list):
            return self.array_edits(node, old, new)
        return self.replace(node, new)

    def object_edits(self, node: Node, old: dict[str, Any], new: dict[str, Any]) -> list[Edit]:
        members = node.members or []
        keys = [key for key, _, _ in members]
        kept = [k for k in keys if k in new]
        added = [k for k in new if k not in old]
        if len(set(keys)) != len(keys) or kept != [k for k in new if k in old]:
            return self.replace(node, new)  # duplicate keys or a new order: rewrite it whole
        if added and len(kept) < len(keys):
            return self.replace(node, new)
        result: list[Edit] = []
        for key, _, value in members:
            if key in new:
                result += self.edits(value, old[key], new[key])
        if len(kept) < len(keys):
            spans = [(k_start, value.end) for _, k_start, value in members]
            gone = {i for i, (key, _, _) in enumerate(members) if key not in new}
            result += self.removals(node, spans, gone)
        if added:
            entries = [(json.dumps(k, ensure_ascii=False) + ": ", new[k]) for k in added]
            last = members[-1][2].end if members else None
            result.append(self.insertion(node, last, entries))
        return result

    def array_edits(self, node: Node, old: list[Any], new: list[Any]) -> list[Edit]:
        items = node.items or []
        common = min(len(old), len(new))
        result: list[Edit] = []
        for index in range(common):
            result += self.edits(items[index], old[index], new[index])
        if len(new) < len(old):
            spans = [(item.start, item.end) for item in items]
            result += self.removals(node, spans, set(range(common, len(items))))
        elif len(new) > len(old):
            last = items[-1].end if items else None
            result.append(self.insertion(node, last, [("", v) for v in new[common:]]))
        return result

    def removals(self, node: Node, spans: list[tuple[int, int]], gone: set[int]) -> list[Edit]:
        """Delete the entries GONE (indexes into SPANS) with exactly the commas they need."""
        if len(gone) == len(spans):
            return [(node.start + 1, node.end - 1, "")]
        result = []
        index = 0
        while index < len(spans):
            if index not in gone:
                index += 1
                continue
            last = index
            while last + 1 in gone:
                last += 1
            if index > 0:  # ", A, B" after the entry before the run
                result.append((spans[index - 1][1], spans[last][1], ""))
            else:  # "A, B, " up to the entry after the run
                result.append((spans[0][0], spans[last + 1][0], ""))
            index = last + 1
        return result

    def insertion(self, node: Node, last: int | None, entries: list[tuple[str, Any]]) -> Edit:
        multiline = self.multiline(node) or last is None
        base = _line_indent(self.text, node.start)
        if last is None:
            inner = base + self.step
            body = ",\n".join(inner + p + _dump(v, inner, self.unit, True) for p, v in entries)
            return (node.start + 1, node.end - 1, f"\n{body}\n{base}")
        if not multiline:
            body = "".join(", " + p + _dump(v, "", self.unit, False) for p, v in entries)
            return (last, last, body)
        inner = _line_indent(self.text, last)
        body = "".join(",\n" + inner + p + _dump(v, inner, self.unit, True) for p, v in entries)
        return (last, last, body)


def detect_indent(text: str) -> int | str:
    """The indentation unit of existing JSON text (2 when it cannot tell)."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else len(lead)
    return 2


def render_json(data: Any, indent: int | str = 2) -> str:
    """Serialize a document the way Claude Code writes settings, with a trailing newline."""
    return json.dumps(data, indent=indent, ensure_ascii=False) + "\n"


def edit_json(text: str, old: Any, new: Any, indent: int | str = 2) -> str:
    """TEXT (which parses as OLD) changed to read as NEW, touching only what differs."""
    try:
        root = _Parser(text).value(0)
        edits = _Editor(text, indent).edits(root, old, new)
        ordered = sorted(edits, key=lambda e: (e[0], e[1]))
        if any(a[1] > b[0] for a, b in itertools.pairwise(ordered)):
            raise ValueError("overlapping edits")
        result = text
        for start, end, replacement in reversed(ordered):
            result = result[:start] + replacement + result[end:]
        if json.loads(result) == new:
            return result
    except (ValueError, IndexError, AssertionError):
        pass
    return render_json(new, indent)
