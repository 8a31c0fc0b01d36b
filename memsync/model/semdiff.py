"""Semantic differences between two sets of memory files: by memory, frontmatter by field."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from memsync.model.memory import Memory, parse_memory

Status = Literal["added", "removed", "changed", "renamed"]
MAX_BODY_DIFF_LINES = 40


@dataclass(frozen=True)
class FieldChange:
    """One frontmatter difference; PATH is `type` or `tags[1]` style."""

    path: str
    before: Any
    after: Any


@dataclass(frozen=True)
class MemoryChange:
    """How one memory differs between two states."""

    path: str
    status: Status
    name: str | None
    type: str | None
    fields: tuple[FieldChange, ...] = ()
    body_diff: tuple[str, ...] = ()
    old_path: str | None = None


def field_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[FieldChange]:
    """Frontmatter differences field by field (nested values via deepdiff)."""
    if before == after:
        return []
    from deepdiff import DeepDiff

    diff = DeepDiff(dict(before), dict(after), ignore_order=True, verbose_level=2)
    changes: list[FieldChange] = []
    for kind, items in diff.items():
        if not isinstance(items, Mapping):
            continue
        for path, detail in items.items():
            clean = _path(str(path))
            if kind.endswith("_added"):
                changes.append(FieldChange(clean, None, detail))
            elif kind.endswith("_removed"):
                changes.append(FieldChange(clean, detail, None))
            elif isinstance(detail, Mapping):
                changes.append(FieldChange(clean, detail.get("old_value"), detail.get("new_value")))
    return sorted(changes, key=lambda c: c.path)


_KEY_STEP = re.compile(r"\['((?:[^'\\]|\\.)*)'\]")


def _path(deep_path: str) -> str:
    """`root['metadata']['tags'][1]` -> `metadata.tags[1]`."""
    text = _KEY_STEP.sub(lambda m: "." + m.group(1), deep_path.removeprefix("root"))
    return text.removeprefix(".") or "(frontmatter)"


def body_diff(before: str, after: str, limit: int = MAX_BODY_DIFF_LINES) -> tuple[str, ...]:
    """A unified diff of two bodies, trimmed to LIMIT lines."""
    lines = list(
        difflib.unified_diff(
            before.splitlines(), after.splitlines(), "before", "after", n=1, lineterm=""
        )
    )[2:]
    if len(lines) > limit:
        lines = [*lines[:limit], f"… {len(lines) - limit} more diff lines"]
    return tuple(lines)


def _describe(memory: Memory) -> tuple[str | None, str | None]:
    return memory.name, memory.type


def diff_memories(before: Mapping[str, bytes], after: Mapping[str, bytes]) -> list[MemoryChange]:
    """Memories added, removed, renamed or changed from BEFORE to AFTER (index excluded)."""
    changes: list[MemoryChange] = []
    removed = {p: d for p, d in before.items() if p not in after and not _is_index(p)}
    added = {p: d for p, d in after.items() if p not in before and not _is_index(p)}
    by_content = {data: path for path, data in removed.items()}
    for path in sorted(added):
        moved_from = by_content.pop(added[path], None)
        if moved_from is not None:
            memory = parse_memory(added[path], path)
            changes.append(MemoryChange(path, "renamed", *_describe(memory), old_path=moved_from))
            del removed[moved_from]
            continue
        memory = parse_memory(added[path], path)
        fields = tuple(FieldChange(key, None, value) for key, value in memory.fields.items())
        changes.append(MemoryChange(path, "added", *_describe(memory), fields=fields))
    for path in sorted(removed):
        memory = parse_memory(removed[path], path)
        changes.append(MemoryChange(path, "removed", *_describe(memory)))
    for path in sorted(set(before) & set(after)):
        if before[path] == after[path] or _is_index(path):
            continue
        old, new = parse_memory(before[path], path), parse_memory(after[path], path)
        changes.append(
            MemoryChange(
                path,
                "changed",
                *_describe(new),
                fields=tuple(field_changes(old.fields, new.fields)),
                body_diff=body_diff(old.body, new.body) if old.body != new.body else (),
            )
        )
    return sorted(changes, key=lambda c: c.path)


def _is_index(path: str) -> bool:
    from memsync.model.safety import is_index_path

    return is_index_path(path)
