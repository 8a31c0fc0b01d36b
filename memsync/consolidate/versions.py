"""Duplicates merged into one memory, and versions of one memory (SPEC section 5, item 1).

Near-duplicates are most often two versions of one memory: a file copied and edited, or one
machine's older copy. Keeping every distinct line of both resurrects what the newer version
replaced (two people holding one slot in a ledger). So the newest version's lines win: an
older line with a similar but different counterpart in the newer text is *superseded* (left
out, reported in full, and kept in the older file, which moves to `archive/`); only older
lines with no counterpart are added, after the line they follow. Counterparts pair one to
one (each newer line supersedes at most one older line, the most similar pair first).

Versions are found two ways. The duplicate search finds near-duplicates by their text alone,
and keeps look-alikes apart: two texts that differ only in a person, a number or a negated
rule are two memories (the same template for another service). That guard cannot tell a
ledger whose slot changed hands from a look-alike, so versions are also found by identity:
two files of one type that say they are the same memory (the same `name`, the same
`description`, or the same file name but for a copy marker such as `-copy` or ` (2)`), whose
texts are mostly one text (see `likeness.version_likeness`), and of which one is newer. Files
written at the same time are never versions of each other: nothing says which one is newer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from memsync.consolidate.dedupe import DuplicateGroup, group_duplicates
from memsync.consolidate.folder import MemoryFile, updated_key
from memsync.consolidate.likeness import SAME_ORDER, version_likeness
from memsync.model.memory import Memory, compose, parse_memory
from memsync.model.textcodec import encode

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
    gone: set[str] = set()
    for other, replaced in zip(older, flags, strict=True):
        lines = other.split("\n")
        if other.endswith("\n"):
            lines.pop()
        keys = [_key(line) for line in merged]
        present = set(keys)
        older_keys = [_key(x) for x in lines]
        opcodes = SequenceMatcher(None, keys, older_keys, False).get_opcodes()
        replaced_keys: set[str] = set()
        if replaced:
            differing = [
                older_keys[j]
                for tag, _, _, j1, j2 in opcodes
                if tag in ("insert", "replace")
                for j in range(j1, j2)
                if older_keys[j] and older_keys[j] not in present
            ]
            # A newer line the older text also has is its own counterpart: it replaces nothing.
            own = set(older_keys)
            replaced_keys = _counterparts(differing, [k for k in keys if k and k not in own])
        result: list[str] = []
        for tag, i1, i2, j1, j2 in opcodes:
            result.extend(merged[i1:i2])
            if tag not in ("insert", "replace"):
                continue
            for line in lines[j1:j2]:
                key = _key(line)
                if not key or key in present:
                    continue
                if key in replaced_keys:
                    if key not in gone:  # two older versions with one line: reported once
                        superseded.append(line)
                        gone.add(key)
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


def _counterparts(older: Sequence[str], newer: Sequence[str]) -> set[str]:
    """The OLDER lines that have a version among NEWER (a similar but different line), one to
    one: each newer line supersedes at most one older line, the most similar pair first."""
    if not older or not newer:
        return set()
    pairs: list[tuple[float, int, int]] = []
    matcher: SequenceMatcher[str] = SequenceMatcher(None, autojunk=False)
    for j, candidate in enumerate(newer):
        matcher.set_seq2(candidate.lower().split())  # seq2 is the one SequenceMatcher caches
        for i, key in enumerate(older):
            matcher.set_seq1(key.lower().split())
            if matcher.real_quick_ratio() < SIMILAR_LINE or matcher.quick_ratio() < SIMILAR_LINE:
                continue
            score = matcher.ratio()
            if score >= SIMILAR_LINE:
                pairs.append((-score, i, j))
    taken_old: set[int] = set()
    taken_new: set[int] = set()
    for _, i, j in sorted(pairs):
        if i not in taken_old and j not in taken_new:
            taken_old.add(i)
            taken_new.add(j)
    return {older[i] for i in taken_old}


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


def newer_by(a: MemoryFile, b: MemoryFile) -> float:
    """How much later A was written than B, in seconds. Two files of one commit (an import
    commits a day's files together), or two files with one modification time, are told apart
    by the client's `metadata.modified` stamps (an i16 review: versions of one memory written
    hours apart on one day were imported in one commit and left apart in a store clone)."""
    gap = write_time(a) - write_time(b)
    if abs(gap) <= SAME_AGE and a.stamp is not None and b.stamp is not None:
        return a.stamp - b.stamp
    return gap


def _order(members: list[MemoryFile], kind: str, indexed: set[str]) -> list[MemoryFile]:
    """Survivor first, then the others newest first. Exact copies: the most complete survives;
    versions: the newest valid one (the most complete among those of the same age)."""
    by_age = sorted(
        members, key=lambda f: (-write_time(f), -(f.stamp or 0.0), _completeness(f, indexed))
    )
    if kind == "exact":
        survivor = min(members, key=lambda f: _completeness(f, indexed))
    else:
        valid = [f for f in by_age if f.type_valid and not f.problem] or by_age
        recent = [f for f in valid if newer_by(valid[0], f) <= SAME_AGE]
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
        groups += version_groups(files.values(), {m for g in groups for m in g.members})
        changed = set()
        if not groups:
            break
        for group in groups:
            members = _order([files[k] for k in group.members], group.kind, indexed)
            survivor, rest = members[0], members[1:]
            older = [newer_by(survivor, o) > SAME_AGE for o in rest]
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


def survivors(merges: Sequence[MergeChange]) -> dict[str, str]:
    """Each merged-away memory and the memory it lives on in (followed to the end when a later
    round merged that one away too)."""
    into = {gone: m.survivor for m in merges for gone in m.merged}
    ends = {}
    for gone, first in into.items():
        survivor, seen = first, {gone}
        while survivor in into and survivor not in seen:
            seen.add(survivor)
            survivor = into[survivor]
        ends[gone] = survivor
    return ends


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


# A copy marker at the end of a file name: `rota-copy.md`, `rota copy 2.md`, `rota (1).md`,
# `rota.bak.md`. Not `rota-2.md`: sync names a *different* memory added under the same name so.
_COPY_MARKER = re.compile(r"(?:[-_ .](?:copy|backup|bak)(?:[-_ ]?\d+)?| \(\d+\))+$", re.I)
_MAX_IDENTITY = 16  # more files sharing a name than this: a generic name, not one memory


def _identities(item: MemoryFile) -> list[tuple[str, str]]:
    """What says which memory a file is: its name, its description, its file name."""
    found: list[tuple[str, str]] = []
    if item.name:
        found.append(("name", re.sub(r"[^a-z0-9]+", "-", item.name.lower()).strip("-")))
    if item.description and item.description.strip():
        found.append(("description", " ".join(item.description.lower().split())))
    stem = item.path[: -len(".md")] if item.path.endswith(".md") else item.path
    found.append(("file", _COPY_MARKER.sub("", stem).lower()))
    return [key for key in found if key[1]]


def _versions_of(a: MemoryFile, b: MemoryFile) -> float | None:
    """How alike A and B are when they are two versions of one memory, else None."""
    text_a, text_b = a.fingerprint.text, b.fingerprint.text
    if text_a is None or text_b is None or a.fingerprint.type != b.fingerprint.type:
        return None
    if abs(newer_by(a, b)) <= SAME_AGE:
        return None  # nothing says which one is newer: a look-alike stays a look-alike
    likeness = version_likeness(text_a, text_b)
    return likeness if likeness >= SAME_ORDER else None


def version_groups(files: Iterable[MemoryFile], taken: set[str]) -> list[DuplicateGroup]:
    """Groups of files that are versions of one memory (see the module doc), none in TAKEN.

    Files meet only through a shared identity, so the work grows with the files that share
    one, not with the folder; each joins a group only when it is a version of every member."""
    by_identity: dict[tuple[str, str], list[MemoryFile]] = {}
    for item in files:
        if item.path not in taken and item.fingerprint.text is not None:
            for key in _identities(item):
                by_identity.setdefault(key, []).append(item)
    related: dict[str, set[str]] = {}
    for members in by_identity.values():
        if 1 < len(members) <= _MAX_IDENTITY:
            for item in members:
                related.setdefault(item.path, set()).update(m.path for m in members)
    if not related:
        return []
    items = {i.path: i for ms in by_identity.values() for i in ms if i.path in related}
    groups: list[tuple[list[MemoryFile], float]] = []
    group_of: dict[str, int] = {}  # each placed file's group: only groups of related files
    for path in sorted(related, key=lambda p: (-write_time(items[p]), p)):
        item = items[path]
        # A group all of whose members are related holds a related file: the others are
        # skipped without a look (scanning every group made this quadratic in the folder).
        for index in sorted({group_of[p] for p in related[path] if p in group_of}):
            members, lowest = groups[index]
            if not all(m.path in related[path] for m in members):
                continue
            scores = [_versions_of(item, m) for m in members]
            if all(s is not None for s in scores):
                members.append(item)
                groups[index] = (members, min([lowest, *(s for s in scores if s is not None)]))
                group_of[path] = index
                break
        else:
            group_of[path] = len(groups)
            groups.append(([item], 1.0))
    return [
        DuplicateGroup("near", tuple(sorted(m.path for m in members)), lowest)
        for members, lowest in groups
        if len(members) > 1
    ]
