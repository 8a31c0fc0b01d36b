"""The state of a tree merge in progress, and the index fix-ups that read it.

`TreeState` holds the three versions (path -> value), the plan of changes to ours and the
bookkeeping the index fix-ups need; `treemerger.TreeMerger` resolves paths into it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from memsync.merge.index import IndexEnsure, merge_index, relative_target
from memsync.merge.memory import MergeDecision
from memsync.model.index import format_entry, parse_index, resolve_target
from memsync.model.limits import INDEX_NAME
from memsync.model.memory import parse_memory

V = TypeVar("V", bound=Hashable)
OURS, THEIRS = 0, 1


@dataclass
class Plan(Generic[V]):
    """The merge as changes to ours: existing values to take, new contents, deletions."""

    take: dict[str, V] = field(default_factory=dict)
    write: dict[str, bytes] = field(default_factory=dict)
    delete: set[str] = field(default_factory=set)
    decisions: list[MergeDecision] = field(default_factory=list)
    renamed: list[tuple[str, str, int]] = field(default_factory=list)  # path, copy, its side
    kept: list[tuple[str, int]] = field(default_factory=list)  # delete/modify survivors


class TreeState(Generic[V]):
    """Three versions of a tree, the plan so far, and what the index fix-ups need."""

    def __init__(
        self,
        base: Mapping[str, V],
        ours: Mapping[str, V],
        theirs: Mapping[str, V],
        *,
        load: Callable[[Collection[V]], Mapping[V, bytes]],
        is_blob: Callable[[V], bool],
        times: tuple[Mapping[str, int], Mapping[str, int]],
        lookup: Callable[[Collection[str]], Mapping[str, V]] | None = None,
    ) -> None:
        self.base = dict(base)
        self.sides = (dict(ours), dict(theirs))  # rename pairing moves entries in these
        self.ours = dict(ours)  # the plan is relative to ours as it is
        self.load = load
        self.is_blob = is_blob
        self.times = times
        self.plan: Plan[V] = Plan()
        self.moves: dict[str, str] = {}  # renames every index version follows
        self.indexes_both_changed: set[str] = set()
        self.gone: set[str] = set()  # paths one side still has that the merge drops
        self.lookup = lookup
        self.looked_up: set[str] = set()

    def result(self, path: str) -> V | bytes | None:
        """The merged value of PATH so far."""
        plan = self.plan
        self.fill((path,))
        if path in plan.write:
            return plan.write[path]
        if path in plan.delete:
            return None
        if path in plan.take:
            return plan.take[path]
        return self.ours.get(path)

    def taken(self, path: str) -> bool:
        """Whether PATH is a file of any version, or of the merge so far."""
        plan = self.plan
        self.fill((path,))
        return (
            path in self.base
            or path in self.sides[0]
            or path in self.sides[1]
            or path in plan.take
            or path in plan.write
        )

    def set_value(self, path: str, value: V | None) -> None:
        """Make PATH's merged value VALUE (None: absent), recorded relative to ours."""
        if value == self.ours.get(path):
            self.plan.take.pop(path, None)
            self.plan.delete.discard(path)
            return
        if value is None:
            self.plan.delete.add(path)
        else:
            self.plan.take[path] = value

    def fill(self, paths: Iterable[str]) -> None:
        """Bring in PATHS neither side changed, when the maps hold only changed paths.

        A caller that diffs only changed paths passes LOOKUP; what it finds is the same in
        base, ours and theirs (unchanged on both sides). Only indexes and names for copies
        are ever looked up.
        """
        if self.lookup is None:
            return
        sides = self.sides
        missing = [
            p
            for p in paths
            if p not in self.looked_up and p not in self.base and p not in sides[0]
            and p not in sides[1]
        ]  # fmt: skip
        if not missing:
            return
        self.looked_up.update(missing)
        for path, value in self.lookup(missing).items():
            self.base[path] = sides[0][path] = sides[1][path] = self.ours[path] = value

    def index_of(self, path: str) -> str | None:
        """The nearest MEMORY.md in the merged tree above PATH."""
        folder = posixpath.dirname(path)
        while True:
            candidate = posixpath.join(folder, INDEX_NAME)
            if self.result(candidate) is not None:
                return candidate
            if not folder:
                return None
            folder = posixpath.dirname(folder)

    def fix_indexes(self) -> None:
        """Fix the indexes the merge touched: dropped, kept, renamed and copied memories."""
        plan, (ours, theirs) = self.plan, self.sides
        gone = self.gone
        affected = (
            gone
            | {p for p, _ in plan.kept}
            | {p for p, _, _ in plan.renamed}
            | {c for _, c, _ in plan.renamed}
            | set(self.moves)
            | set(self.moves.values())
        )
        above = {index for path in affected for index in _indexes_above(path)}
        self.fill(above)
        candidates = set(self.indexes_both_changed) | {i for i in above if self.taken(i)}
        if not candidates:
            return
        wanted: list[V] = []
        for index in candidates:
            wanted += [v for v in (self.base.get(index), ours.get(index), theirs.get(index)) if v]
        for path, copy, _ in plan.renamed:
            for value in (self.result(path), self.result(copy)):
                if value is not None and not isinstance(value, bytes):
                    wanted.append(value)
        blobs = self.load(wanted)
        for index in sorted(candidates):
            self._fix_index(index, blobs, gone)

    def _content(self, value: V | bytes | None, blobs: Mapping[V, bytes]) -> bytes | None:
        if value is None or isinstance(value, bytes):
            return value
        return blobs[value]

    def _fix_index(self, index: str, blobs: Mapping[V, bytes], gone: set[str]) -> None:
        plan, sides = self.plan, self.sides
        folder = posixpath.dirname(index)
        under = (lambda p: p.startswith(folder + "/")) if folder else (lambda p: True)
        versions = [self._content(m.get(index), blobs) for m in (self.base, *sides)]
        ensure: list[IndexEnsure] = []
        for path, keeper in plan.kept:
            own = versions[1 + keeper]
            if under(path) and own is not None:
                ensure += _entry_from(own, folder, path)
        if self.result(index) is None:
            # The index was deleted, but a memory under it survived: bring the index back from
            # the side that kept the memory, minus the entries of memories that are gone.
            if not ensure:
                return
            keeper = next(k for p, k in plan.kept if under(p) and versions[1 + k] is not None)
            versions = [versions[1 + keeper]] * 3
        for path, copy, _side in plan.renamed:
            if self.index_of(path) == index:
                for one, other in ((path, copy), (copy, path)):
                    data = self._content(self.result(one), blobs)
                    if data is not None:
                        ensure.append(_synthesized(one, data, folder, other))
        side_renames = [
            {p: c for p, c, s in plan.renamed if s == side and under(p)} for side in (OURS, THEIRS)
        ]
        merged = merge_index(
            versions[0],
            versions[1],
            versions[2],
            path=index,
            ours_time=self.times[0].get(index),
            theirs_time=self.times[1].get(index),
            renames=self.moves,
            ours_renames=side_renames[0],
            theirs_renames=side_renames[1],
            gone={p for p in gone if under(p)},
            ensure=ensure,
        )
        plan.decisions.extend(merged.decisions)
        current = self.result(index)
        if merged.content is None:
            self.set_value(index, None)
        elif merged.content != self._content(current, blobs):
            plan.take.pop(index, None)
            plan.delete.discard(index)
            plan.write[index] = merged.content


def _indexes_above(path: str) -> list[str]:
    """Every MEMORY.md path from PATH's folder up to the root."""
    folder = posixpath.dirname(path)
    found = [posixpath.join(folder, INDEX_NAME)]
    while folder:
        folder = posixpath.dirname(folder)
        found.append(posixpath.join(folder, INDEX_NAME))
    return found


def _entry_from(index: bytes, folder: str, path: str) -> list[IndexEnsure]:
    """The entry INDEX has for PATH, placed after the entries that precede it there."""
    before: list[str] = []
    for line in parse_index(index).lines:
        if line.entry is None:
            continue
        target = resolve_target(folder, line.entry.target)
        if target == path:
            return [IndexEnsure(path, line.text, tuple(reversed(before)))]
        before.append(target)
    return []


def synthesized_line(path: str, data: bytes, folder: str) -> str:
    """The index line for the memory DATA at PATH, in the index of FOLDER, from its frontmatter."""
    memory = parse_memory(data, path)
    title = memory.name or posixpath.splitext(posixpath.basename(path))[0]
    return format_entry(title, relative_target(folder, path), memory.description)


def _synthesized(path: str, data: bytes, folder: str, sibling: str) -> IndexEnsure:
    """An entry for a memory no side indexed, built from its frontmatter."""
    return IndexEnsure(path, synthesized_line(path, data, folder), (sibling,))
