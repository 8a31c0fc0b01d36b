"""Merge whole trees: every file of two versions of a store at once, then fix the indexes.

`merge_trees` is pure (path -> bytes). `merge_commits` runs the same core on two commits of
a store clone: it reads only the blobs both sides changed (one `git cat-file` process),
writes blobs and the tree in bulk, commits with both parents and moves the branch and work
tree in one step, so the clone is never left in the middle of a merge.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Generic, TypeVar

from memsync.merge.fields import NO_TIME
from memsync.merge.index import IndexEnsure, merge_index, relative_target, resolve_target
from memsync.merge.memory import FileMerge, MergeDecision, free_name, is_index_path, merge_file
from memsync.model.index import format_entry, parse_index
from memsync.model.limits import INDEX_NAME
from memsync.model.memory import parse_memory

V = TypeVar("V", bound=Hashable)
OURS, THEIRS = 0, 1
_SIDE_NAMES = ("ours", "theirs")


@dataclass(frozen=True)
class TreeMergeResult:
    """A merged tree (path -> bytes) and what the merge decided on the way."""

    files: Mapping[str, bytes]
    changed: tuple[str, ...]  # paths whose content differs from ours (including deletions)
    decisions: tuple[MergeDecision, ...]
    renamed: tuple[tuple[str, str], ...]  # (path, new path) of kept-both copies


@dataclass
class _Plan(Generic[V]):
    """The merge as changes to ours: existing values to take, new contents, deletions."""

    take: dict[str, V] = field(default_factory=dict)
    write: dict[str, bytes] = field(default_factory=dict)
    delete: set[str] = field(default_factory=set)
    decisions: list[MergeDecision] = field(default_factory=list)
    renamed: list[tuple[str, str, int]] = field(default_factory=list)  # path, copy, its side
    kept: list[tuple[str, int]] = field(default_factory=list)  # delete/modify survivors


class _TreeMerger(Generic[V]):
    """The merge of three path -> value maps, loading contents only where both sides changed."""

    def __init__(
        self,
        base: Mapping[str, V],
        ours: Mapping[str, V],
        theirs: Mapping[str, V],
        *,
        load: Callable[[Collection[V]], Mapping[V, bytes]],
        is_blob: Callable[[V], bool],
        times: tuple[Mapping[str, int], Mapping[str, int]],
        renames: tuple[Mapping[str, str], Mapping[str, str]],
    ) -> None:
        self.base = dict(base)
        self.sides = (dict(ours), dict(theirs))  # rename pairing moves entries in these
        self.ours = ours  # the plan is relative to ours as it is
        self.load = load
        self.is_blob = is_blob
        self.times = times
        self.plan: _Plan[V] = _Plan()
        self.moves: dict[str, str] = {}  # renames every index version follows
        self.indexes_both_changed: set[str] = set()
        self.gone: set[str] = set()  # paths one side still has that the merge drops
        self._pair_renames(renames)

    # -- renames ---------------------------------------------------------------------------

    def _time(self, side: int, path: str) -> int:
        return self.times[side].get(path, NO_TIME)

    def _pair_renames(self, detected: tuple[Mapping[str, str], Mapping[str, str]]) -> None:
        """Line up a file one side renamed with the same file the other side edited or renamed."""
        base, sides = self.base, self.sides

        def usable(side: int, old: str, new: str | None) -> str | None:
            ok = new is not None and old not in sides[side] and new in sides[side]
            return new if ok and new not in base else None

        for old in sorted(set(detected[0]) | set(detected[1])):
            if old not in base:
                continue
            new0, new1 = usable(0, old, detected[0].get(old)), usable(1, old, detected[1].get(old))
            if new0 is not None and new1 is not None:
                if new0 == new1:
                    base[new0] = base.pop(old)
                    continue
                keys = ((self._time(0, new0), new0), (self._time(1, new1), new1))
                win = 0 if keys[0] >= keys[1] else 1
                target, lost = keys[win][1], keys[1 - win][1]
                if target in sides[1 - win] or lost in sides[win]:
                    continue
                base[target] = base.pop(old)
                sides[1 - win][target] = sides[1 - win].pop(lost)
                self.moves[old] = self.moves[lost] = target
                self.plan.decisions.append(
                    MergeDecision(
                        target, "rename-rename", None, target, lost,
                        f"both sides renamed {old}; kept the newer name {target}",
                    )
                )  # fmt: skip
                continue
            side = 0 if new0 is not None else 1
            new = new0 if new0 is not None else new1
            other = sides[1 - side]
            if new is None or new in other or old not in other or other[old] == base[old]:
                continue  # nothing of the other side's to carry over to the new name
            base[new] = base.pop(old)
            other[new] = other.pop(old)
            self.moves[old] = new

    # -- per path --------------------------------------------------------------------------

    def result(self, path: str) -> V | bytes | None:
        """The merged value of PATH so far."""
        plan = self.plan
        if path in plan.write:
            return plan.write[path]
        if path in plan.delete:
            return None
        if path in plan.take:
            return plan.take[path]
        return self.ours.get(path)

    def _taken(self, path: str) -> bool:
        plan = self.plan
        return (
            path in self.base
            or path in self.sides[0]
            or path in self.sides[1]
            or path in plan.take
            or path in plan.write
        )

    def _set(self, path: str, value: V | None) -> None:
        """Make PATH's merged value VALUE (None: absent), recorded relative to ours."""
        if value == self.ours.get(path):
            self.plan.take.pop(path, None)
            self.plan.delete.discard(path)
            return
        if value is None:
            self.plan.delete.add(path)
        else:
            self.plan.take[path] = value

    def _first(self, path: str, ours: V, theirs: V) -> int:
        key = [(self._time(s, path), repr(v)) for s, v in ((0, ours), (1, theirs))]
        return OURS if key[0] <= key[1] else THEIRS

    def resolve(self) -> _Plan[V]:
        """Resolve every path; content merges and index fix-ups load what they need in bulk."""
        base, (ours, theirs) = self.base, self.sides
        to_merge: list[str] = []
        for path in sorted(set(base) | set(ours) | set(theirs) | set(self.ours)):
            b, o, t = base.get(path), ours.get(path), theirs.get(path)
            if t in (o, b) or o == b:
                merged = o if t in (o, b) else t
                self._set(path, merged)
                if merged is None and not is_index_path(path):
                    self.gone.add(path)  # deleted by one side; the other's index may list it
            elif is_index_path(path):
                self.indexes_both_changed.add(path)
            elif o is None or t is None:
                keeper = OURS if t is None else THEIRS
                self._set(path, o if t is None else t)
                self.plan.kept.append((path, keeper))
                self.plan.decisions.append(
                    MergeDecision(
                        path, "delete-modify", None, path, None,
                        "deleted on one side and changed on the other; kept the changed file",
                    )
                )  # fmt: skip
            elif not all(self.is_blob(v) for v in (b, o, t) if v is not None):
                self._keep_both(path, o, t)
            else:
                to_merge.append(path)
        self._merge_contents(to_merge)
        self._fix_indexes()
        return self.plan

    def _keep_both(self, path: str, o: V, t: V) -> None:
        first = self._first(path, o, t)
        copy = free_name(path, self._taken)
        self._set(path, (o, t)[first])
        self.plan.take[copy] = (o, t)[1 - first]
        self.plan.renamed.append((path, copy, 1 - first))
        self.plan.decisions.append(
            MergeDecision(
                path, "binary-both-kept", None, copy, None,
                f"changed on both sides and not text: kept both, the newer one as {copy}",
            )
        )  # fmt: skip

    def _merge_contents(self, paths: list[str]) -> None:
        base, (ours, theirs) = self.base, self.sides
        wanted = [
            v for p in paths for v in (base.get(p), ours.get(p), theirs.get(p)) if v is not None
        ]
        blobs = self.load(wanted)

        def content(value: V | None) -> bytes | None:
            return None if value is None else blobs[value]

        for path in paths:
            values = (ours[path], theirs[path])
            merged: FileMerge = merge_file(
                path,
                content(base.get(path)),
                blobs[values[0]],
                blobs[values[1]],
                ours_time=self.times[0].get(path),
                theirs_time=self.times[1].get(path),
                taken=self._taken,
            )
            self.plan.decisions.extend(merged.decisions)
            if merged.content is None:
                self._set(path, None)
            elif merged.content == blobs[values[0]]:
                self._set(path, values[0])
            elif merged.content == blobs[values[1]]:
                self._set(path, values[1])
            else:
                self.plan.write[path] = merged.content
            for copy, data in merged.extra_files.items():
                side = OURS if data == blobs[values[0]] else THEIRS
                self.plan.take[copy] = values[side]
                self.plan.renamed.append((path, copy, side))

    # -- indexes ---------------------------------------------------------------------------

    def _index_of(self, path: str) -> str | None:
        """The nearest MEMORY.md in the merged tree above PATH."""
        folder = posixpath.dirname(path)
        while True:
            candidate = posixpath.join(folder, INDEX_NAME)
            if self.result(candidate) is not None:
                return candidate
            if not folder:
                return None
            folder = posixpath.dirname(folder)

    def _fix_indexes(self) -> None:
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
        candidates = set(self.indexes_both_changed)
        for path in affected:
            folder = posixpath.dirname(path)
            while True:
                index = posixpath.join(folder, INDEX_NAME)
                if self._taken(index):
                    candidates.add(index)
                if not folder:
                    break
                folder = posixpath.dirname(folder)
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
            if self._index_of(path) == index:
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
            self._set(index, None)
        elif merged.content != self._content(current, blobs):
            plan.take.pop(index, None)
            plan.delete.discard(index)
            plan.write[index] = merged.content


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


def _synthesized(path: str, data: bytes, folder: str, sibling: str) -> IndexEnsure:
    """An entry for a memory no side indexed, built from its frontmatter."""
    memory = parse_memory(data, path)
    title = memory.name or posixpath.splitext(posixpath.basename(path))[0]
    line = format_entry(title, relative_target(folder, path), memory.description)
    return IndexEnsure(path, line, (sibling,))


def detect_renames(base: Mapping[str, bytes], side: Mapping[str, bytes]) -> dict[str, str]:
    """Files SIDE renamed (same or similar content under a new path): old -> new."""
    removed = sorted(p for p in base if p not in side)
    added = sorted(p for p in side if p not in base)
    if not removed or not added:
        return {}
    renames: dict[str, str] = {}
    by_content: dict[bytes, list[str]] = {}
    for path in added:
        by_content.setdefault(side[path], []).append(path)
    for path in removed:
        same = by_content.get(base[path])
        if same:
            renames[path] = same.pop(0)
    left_old = [p for p in removed if p not in renames]
    left_new = [p for p in added if p not in set(renames.values())]
    if len(left_old) * len(left_new) > 2500:
        return renames  # similarity search is quadratic: exact renames only on big changes
    scored = []
    for old in left_old:
        old_lines = base[old].splitlines()
        for new in left_new:
            matcher = SequenceMatcher(None, old_lines, side[new].splitlines(), autojunk=False)
            if matcher.quick_ratio() >= 0.5 and (ratio := matcher.ratio()) >= 0.5:
                scored.append((-ratio, old, new))
    used: set[str] = set()
    for _, old, new in sorted(scored):
        if old not in renames and new not in used:
            renames[old] = new
            used.add(new)
    return renames


def merge_trees(
    base: Mapping[str, bytes],
    ours: Mapping[str, bytes],
    theirs: Mapping[str, bytes],
    *,
    ours_times: Mapping[str, int] | None = None,
    theirs_times: Mapping[str, int] | None = None,
) -> TreeMergeResult:
    """Merge two versions of a store (path -> bytes); the same whichever side is ours."""
    if dict(ours) == dict(base) or dict(theirs) == dict(ours):
        files = dict(theirs)
    elif dict(theirs) == dict(base):
        files = dict(ours)
    else:
        merger: _TreeMerger[bytes] = _TreeMerger(
            base,
            ours,
            theirs,
            load=_identity,
            is_blob=lambda _: True,
            times=(ours_times or {}, theirs_times or {}),
            renames=(detect_renames(base, ours), detect_renames(base, theirs)),
        )
        plan = merger.resolve()
        files = dict(ours)
        for path in plan.delete:
            files.pop(path, None)
        files.update(plan.take)
        files.update(plan.write)
        return TreeMergeResult(
            files,
            _changed(ours, files),
            tuple(plan.decisions),
            tuple(sorted((p, c) for p, c, _ in plan.renamed)),
        )
    return TreeMergeResult(files, _changed(ours, files), (), ())


def _identity(values: Iterable[bytes]) -> dict[bytes, bytes]:
    return {v: v for v in values}


def _changed(ours: Mapping[str, bytes], files: Mapping[str, bytes]) -> tuple[str, ...]:
    return tuple(sorted(p for p in {*ours, *files} if ours.get(p) != files.get(p)))


_BLOB_MODES = ("100644", "100755")


@dataclass(frozen=True)
class MergeOutcome:
    """What merge_commits did: nothing, a fast-forward, or a merge commit."""

    status: str  # "up-to-date" | "fast-forward" | "merged"
    commit: str  # the resulting commit (ours when up to date)
    base: str | None
    changed: tuple[str, ...]  # paths whose content differs from ours in the result
    decisions: tuple[MergeDecision, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()


def merge_commits(
    repo: Path,
    ours: str,
    theirs: str,
    message: str,
    *,
    env: Mapping[str, str] | None = None,
) -> MergeOutcome:
    """Merge commit THEIRS into OURS (a branch, or HEAD) of the clone REPO, in-process.

    When OURS is the checked-out branch, the branch, index and work tree move together to the
    result, or not at all; the clone is never left mid-merge. Another branch only has its ref
    moved; any other revision is left alone and the caller gets the commit id.
    """
    from memsync import git as gitcmd
    from memsync.errors import MemsyncError, UnsafeStateError

    ours_commit = gitcmd.resolve_commit(repo, ours)
    theirs_commit = gitcmd.resolve_commit(repo, theirs)
    ref = gitcmd.full_ref_name(repo, ours)
    checked_out = ours == "HEAD" or (ref is not None and ref == gitcmd.full_ref_name(repo, "HEAD"))
    if checked_out:
        operation = gitcmd.unfinished_operation(repo)
        if operation is not None:
            raise UnsafeStateError(
                f"{repo} is in the middle of a {operation}",
                hint=f"Finish or abort it (`git {operation} --abort`), then run memsync again.",
            )
        dirty = gitcmd.tracked_changes(repo)
        if dirty:
            raise UnsafeStateError(
                f"{repo} has uncommitted changes ({', '.join(dirty[:3])})",
                hint="Commit or discard them, then run memsync again.",
            )
    base = gitcmd.merge_base(repo, ours_commit, theirs_commit)
    if theirs_commit in (base, ours_commit):
        return MergeOutcome("up-to-date", ours_commit, base, ())
    if base == ours_commit:
        changed = tuple(gitcmd.changed_between(repo, ours_commit, theirs_commit))
        outcome = MergeOutcome("fast-forward", theirs_commit, base, changed)
    else:
        outcome = build_merge_commit(
            repo, base, ours_commit, theirs_commit, message=message, env=env
        )
    target = "HEAD" if checked_out else ref
    if target is None:
        return outcome
    if checked_out:
        try:
            gitcmd.checkout_tree(repo, ours_commit, outcome.commit)
        except MemsyncError as exc:
            gitcmd.reset_tree(repo, ours_commit)
            raise UnsafeStateError(
                f"could not update the files of {repo}: {exc.message}",
                hint="Nothing was changed; move away files that are in the way and retry.",
            ) from exc
    try:
        gitcmd.update_ref(repo, target, outcome.commit, ours_commit, f"memsync: {message}")
    except MemsyncError:
        if checked_out:
            gitcmd.reset_tree(repo, ours_commit)
        raise
    return outcome


def build_merge_commit(
    repo: Path,
    base: str | None,
    ours: str,
    theirs: str,
    *,
    message: str,
    env: Mapping[str, str] | None = None,
) -> MergeOutcome:
    """The merge commit of OURS and THEIRS over BASE: objects only, no ref or file moves.

    For callers that move refs themselves; ENV may carry GIT_AUTHOR_*/GIT_COMMITTER_*.
    """
    from memsync import git as gitcmd

    trees = [gitcmd.tree_entries(repo, commit) for commit in (base, ours, theirs)]

    def renames(side: dict[str, gitcmd.ModeOid]) -> dict[str, str]:
        # Ask git only when the side both removed and added files.
        if any(p not in side for p in trees[0]) and any(p not in trees[0] for p in side):
            return gitcmd.renamed_paths(repo, base, ours if side is trees[1] else theirs)
        return {}

    def load(values: Collection[gitcmd.ModeOid]) -> dict[gitcmd.ModeOid, bytes]:
        blobs = gitcmd.read_blobs(repo, [oid for _, oid in values])
        return {value: blobs[value[1]] for value in values}

    merger: _TreeMerger[gitcmd.ModeOid] = _TreeMerger(
        trees[0],
        trees[1],
        trees[2],
        load=load,
        is_blob=lambda entry: entry[0] in _BLOB_MODES,
        times=(gitcmd.change_times(repo, base, ours), gitcmd.change_times(repo, base, theirs)),
        renames=(renames(trees[1]), renames(trees[2])),
    )
    plan = merger.resolve()
    written = list(plan.write)
    oids = gitcmd.write_blobs(repo, [plan.write[p] for p in written])
    changes: dict[str, gitcmd.ModeOid | None] = dict.fromkeys(plan.delete)
    changes.update(plan.take)
    for path, oid in zip(written, oids, strict=True):
        values = (merger.base.get(path), *(side.get(path) for side in merger.sides))
        changes[path] = (_merged_mode(*values), oid)
    tree = gitcmd.write_tree(repo, ours, changes)
    commit = gitcmd.commit_tree(repo, tree, [ours, theirs], message, env)
    return MergeOutcome(
        "merged",
        commit,
        base,
        tuple(sorted(changes)),
        tuple(plan.decisions),
        tuple(sorted((p, c) for p, c, _ in plan.renamed)),
    )


def _merged_mode(*entries: tuple[str, str] | None) -> str:
    """The file mode of a merged path: a one-sided mode change wins."""
    base, ours, theirs = (None if e is None else e[0] for e in entries)
    if ours == theirs or theirs is None:
        mode = ours
    elif ours is None or ours == base:
        mode = theirs
    else:
        mode = ours if theirs == base else max(ours, theirs)
    return mode if mode in _BLOB_MODES else "100644"


__all__ = [
    "MergeOutcome",
    "TreeMergeResult",
    "build_merge_commit",
    "detect_renames",
    "merge_commits",
    "merge_trees",
]
