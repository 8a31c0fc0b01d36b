"""Duplicates merged into one memory, and versions of one memory (SPEC section 5, item 1).

Near-duplicates are most often two versions of one memory: a file copied and edited, or one
machine's older copy. Keeping every distinct line of both resurrects what the newer version
replaced (two people holding one slot in a ledger). So the newest version's lines win: an
older line with a similar but different counterpart in the newer text is *superseded* (left
out, reported in full, and kept in the older file, which moves to `archive/`); only older
lines with no counterpart are added, after the line they follow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from memsync.consolidate.dedupe import group_duplicates
from memsync.consolidate.folder import MemoryFile, updated_key
from memsync.model.memory import Memory, compose, encode, parse_memory

_MERGE_ROUNDS = 5
SIMILAR_LINE = 0.5  # word-level likeness above which an older line is a version of a newer one


@dataclass(frozen=True)
class MergeChange:
    """Duplicates merged into one surviving memory."""

    kind: str  # "exact" | "near"
    survivor: str
    merged: tuple[str, ...]
    similarity: float
    dropped: tuple[str, ...]  # frontmatter values that did not survive, `file: key: value`
    superseded: tuple[str, ...] = ()  # older lines a newer version replaced, in full


def merge_versions(
    newest: str, older: Sequence[str], *, supersede: Sequence[bool] | None = None
) -> tuple[str, list[str]]:
    """One body from NEWEST and OLDER versions (newest first): the newest lines win, older lines
    with a similar counterpart are superseded, others are inserted after the line they follow.
    SUPERSEDE (one flag per older body, all True by default) says which are really older: a
    copy of the same age only adds its distinct lines.

    Returns the body and the superseded lines."""
    flags = list(supersede) if supersede is not None else [True] * len(older)
    merged = newest.split("\n")
    final_newline = newest.endswith("\n")
    if final_newline:
        merged.pop()
    superseded: list[str] = []
    for other, replaced in zip(older, flags, strict=True):
        lines = other.split("\n")
        if other.endswith("\n"):
            lines.pop()
        keys = [_key(line) for line in merged]
        present = set(keys)
        matcher = SequenceMatcher(None, keys, [_key(x) for x in lines], False)
        result: list[str] = []
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            result.extend(merged[i1:i2])
            if tag not in ("insert", "replace"):
                continue
            for line in lines[j1:j2]:
                key = _key(line)
                if not key or key in present:
                    continue
                if replaced and _has_counterpart(key, keys):
                    superseded.append(line)
                    continue
                result.append(line)
                present.add(key)
        merged = result
    text = "\n".join(merged)
    return (text + "\n" if final_newline or any(b.endswith("\n") for b in older) else text), (
        superseded
    )


def _key(line: str) -> str:
    return " ".join(line.split())


def _has_counterpart(key: str, newer: list[str]) -> bool:
    """Whether a newer line says the same thing differently (a version of KEY)."""
    words = key.lower().split()
    for candidate in newer:
        if not candidate:
            continue
        other = candidate.lower().split()
        matcher = SequenceMatcher(None, words, other, False)
        if matcher.real_quick_ratio() >= SIMILAR_LINE and matcher.ratio() >= SIMILAR_LINE:
            return True
    return False


def _completeness(item: MemoryFile, indexed: set[str]) -> tuple[Any, ...]:
    """Sort key of the memory that survives an exact-duplicate merge: the most complete."""
    return (
        not item.type_valid,
        item.problem,
        item.path not in indexed,
        -item.fields,
        -len(item.description or ""),
        item.path.count("/"),
        len(item.path),
        item.path,
    )


SAME_AGE = 60.0  # seconds: files written this close together are copies, not versions


def write_time(item: MemoryFile) -> float:
    """When a memory was last written: its newest commit, else its frontmatter date or file
    time, whichever is later."""
    primary, fm_time, mtime = updated_key(item)
    return primary if primary != float("inf") else max(fm_time, mtime)


def _order(members: list[MemoryFile], kind: str, indexed: set[str]) -> list[MemoryFile]:
    """Survivor first, then the others newest first. Exact copies: the most complete survives;
    versions: the newest valid one (the most complete among those of the same age)."""
    by_age = sorted(members, key=lambda f: (-write_time(f), _completeness(f, indexed)))
    if kind == "exact":
        survivor = min(members, key=lambda f: _completeness(f, indexed))
    else:
        valid = [f for f in by_age if f.type_valid and not f.problem] or by_age
        newest = write_time(valid[0])
        recent = [f for f in valid if newest - write_time(f) <= SAME_AGE]
        survivor = min(recent, key=lambda f: _completeness(f, indexed))
    return [survivor, *(f for f in by_age if f is not survivor)]


def plan_merges(
    root: Path, files: dict[str, MemoryFile], indexed: set[str], threshold: float
) -> tuple[list[MergeChange], dict[str, bytes]]:
    """Merge duplicate groups until none is left (merging can reveal a new near-duplicate).

    Returns the merges and the digests of the files merged away (they go to `archive/`)."""
    merges: list[MergeChange] = []
    removed: dict[str, bytes] = {}
    changed: set[str] | None = None  # None: the first search looks at every pair
    for _ in range(_MERGE_ROUNDS):
        prints = {rel: f.fingerprint for rel, f in files.items()}
        groups = group_duplicates(prints, threshold=threshold, focus=changed)
        changed = set()
        if not groups:
            break
        for group in groups:
            members = _order([files[k] for k in group.members], group.kind, indexed)
            survivor, rest = members[0], members[1:]
            newest = write_time(survivor)
            older = [newest - write_time(o) > SAME_AGE for o in rest]
            memory, dropped, superseded = merge_group(
                survivor.load(root), [o.load(root) for o in rest], older
            )
            survivor.new_raw = memory.raw
            survivor.update(memory)
            changed.add(survivor.path)
            for other in rest:
                del files[other.path]
                removed[other.path] = other.digest
            merges.append(
                MergeChange(
                    group.kind,
                    survivor.path,
                    tuple(sorted(o.path for o in rest)),
                    round(group.similarity, 3),
                    tuple(dropped),
                    tuple(superseded),
                )
            )
    return merges, removed


def merge_group(
    survivor: Memory, rest: list[Memory], older: list[bool]
) -> tuple[Memory, list[str], list[str]]:
    """One memory from a duplicate group (SURVIVOR first, REST newest first; OLDER: which of
    them are older versions): frontmatter by the merge engine's field rules (the survivor's
    scalars win), body by `merge_versions`; and the frontmatter values that did not survive,
    and the superseded lines."""
    from memsync.merge.fields import merge_frontmatter

    frontmatter = survivor.frontmatter_text
    dropped: list[str] = []
    for other in rest:
        theirs = other.frontmatter_text
        if theirs is None or theirs == frontmatter:
            continue
        if frontmatter is None:
            frontmatter = theirs
            continue
        merged = merge_frontmatter(None, frontmatter, theirs, a_time=1, b_time=0, a_first=True)
        if merged is None:
            dropped.append(f"{other.path}: frontmatter (not a mapping)")
            continue
        frontmatter = merged.text
        dropped += [f"{other.path}: {o.key}: {o.lost}" for o in merged.outcomes if o.lost]
    body, superseded = merge_versions(survivor.body, [o.body for o in rest], supersede=older)
    raw = encode(compose(frontmatter, body), bom=survivor.bom, crlf=survivor.crlf)
    return parse_memory(raw, survivor.path), dropped, superseded
