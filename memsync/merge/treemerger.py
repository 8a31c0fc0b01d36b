"""Resolve a tree merge path by path: one-sided changes, delete/modify, contents, renames.

Contents are loaded (in bulk, through LOAD) only for paths both sides changed; the merge of
each file is `memory.merge_file`, then `treestate` fixes the indexes.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection, Mapping

from memsync.merge.fields import NO_TIME
from memsync.merge.memory import FileMerge, MergeDecision, free_name, is_index_path, merge_file
from memsync.merge.treestate import OURS, THEIRS, Plan, TreeState, V


class TreeMerger(TreeState[V]):
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
        lookup: Callable[[Collection[str]], Mapping[str, V]] | None = None,
    ) -> None:
        # Copies: a followed rename carries the other side's change time to the new name.
        self._moved_times = (dict(times[0]), dict(times[1]))
        super().__init__(
            base, ours, theirs, load=load, is_blob=is_blob, times=self._moved_times, lookup=lookup
        )
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
            # The other side edited OLD: when it did decides a field both changed (a merge
            # review: the older description won, content breaking the missing time's tie).
            if old in self._moved_times[1 - side]:
                self._moved_times[1 - side][new] = self._moved_times[1 - side][old]

    # -- per path --------------------------------------------------------------------------

    def _first(self, path: str, ours: V, theirs: V) -> int:
        key = [(self._time(s, path), repr(v)) for s, v in ((0, ours), (1, theirs))]
        return OURS if key[0] <= key[1] else THEIRS

    def resolve(self) -> Plan[V]:
        """Resolve every path; content merges and index fix-ups load what they need in bulk."""
        base, (ours, theirs) = self.base, self.sides
        to_merge: list[str] = []
        for path in sorted(set(base) | set(ours) | set(theirs) | set(self.ours)):
            b, o, t = base.get(path), ours.get(path), theirs.get(path)
            if t in (o, b) or o == b:
                merged = o if t in (o, b) else t
                self.set_value(path, merged)
                if merged is None and not is_index_path(path):
                    self.gone.add(path)  # deleted by one side; the other's index may list it
            elif is_index_path(path):
                self.indexes_both_changed.add(path)
            elif o is None or t is None:
                keeper = OURS if t is None else THEIRS
                self.set_value(path, o if t is None else t)
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
        self._separate_files_from_folders()
        self._separate_case_twins()
        self.fix_indexes()
        return self.plan

    def _keep_both(self, path: str, o: V, t: V) -> None:
        first = self._first(path, o, t)
        copy = free_name(path, self.taken)
        self.set_value(path, (o, t)[first])
        self.plan.take[copy] = (o, t)[1 - first]
        self.plan.renamed.append((path, copy, 1 - first))
        self.plan.decisions.append(
            MergeDecision(
                path, "binary-both-kept", None, copy, None,
                f"changed on both sides and not text: kept both, the newer one as {copy}",
            )
        )  # fmt: skip

    def _separate_files_from_folders(self) -> None:
        """A file one side has where the other has a folder of that name: a tree cannot hold
        both, so the file moves to the next free name (SPEC section 4: same-name adds keep both)."""
        plan, (ours, theirs) = self.plan, self.sides
        paths = set(self.base) | set(ours) | set(theirs) | set(plan.take) | set(plan.write)
        merged = {p for p in paths if self.result(p) is not None}
        folders = {p[:i] for p in merged for i, c in enumerate(p) if c == "/"}
        for path in sorted(merged & folders):
            copy = self._move(path, lambda c: self.taken(c) or c in folders)
            plan.decisions.append(
                MergeDecision(
                    path, "file-folder-both-kept", None, copy, None,
                    f"a file on one side and a folder on the other share the name"
                    f" {posixpath.basename(path)}; kept both, the file as"
                    f" {posixpath.basename(copy)}",
                )
            )  # fmt: skip

    def _move(self, path: str, taken: Callable[[str], bool]) -> str:
        """Move PATH's merged value to the first free name; that name."""
        plan, (ours, _theirs) = self.plan, self.sides
        value = self.result(path)
        copy = free_name(path, taken)
        side = OURS if value == ours.get(path) else THEIRS
        plan.write.pop(path, None)
        self.set_value(path, None)
        if isinstance(value, bytes):
            plan.write[copy] = value
        elif value is not None:
            plan.take[copy] = value
        plan.renamed.append((path, copy, side))
        return copy

    def _separate_case_twins(self) -> None:
        """Two names differing only by case, one added on each side, are one file on macOS and
        Windows (and a name sync skips on every machine): the newer moves to a free name."""
        base, (ours, theirs) = self.base, self.sides
        added: dict[str, list[tuple[int, str]]] = {}
        for side, tree, other in ((OURS, ours, theirs), (THEIRS, theirs, ours)):
            for path in tree:
                if path not in base and path not in other and self.result(path) is not None:
                    added.setdefault(path.casefold(), []).append((side, path))
        folded = {p.casefold() for p in (*base, *ours, *theirs, *self.plan.take, *self.plan.write)}
        for twins in added.values():
            if len({side for side, _ in twins}) < 2:
                continue  # one side's own twins: its scan already holds the second back
            # The older keeps its name; on a tie the name the other machines already have.
            twins.sort(key=lambda t: (is_index_path(t[1]) is False, self._time(t[0], t[1]), -t[0]))
            keeper = twins[0][1]
            for _side, path in twins[1:]:
                copy = self._move(path, lambda c: self.taken(c) or c.casefold() in folded)
                folded.add(copy.casefold())
                self.plan.decisions.append(
                    MergeDecision(
                        path, "case-twins-both-kept", None, copy, None,
                        f"{posixpath.basename(keeper)} and {posixpath.basename(path)} differ"
                        " only by case (one file on macOS and Windows); kept both, the newer"
                        f" as {posixpath.basename(copy)}",
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
                taken=self.taken,
            )
            self.plan.decisions.extend(merged.decisions)
            if merged.content is None:
                self.set_value(path, None)
            elif merged.content == blobs[values[0]]:
                self.set_value(path, values[0])
            elif merged.content == blobs[values[1]]:
                self.set_value(path, values[1])
            else:
                self.plan.write[path] = merged.content
            for copy, data in merged.extra_files.items():
                side = OURS if data == blobs[values[0]] else THEIRS
                self.plan.take[copy] = values[side]
                self.plan.renamed.append((path, copy, side))
