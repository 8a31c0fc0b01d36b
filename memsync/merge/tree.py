"""Merge whole trees: every file of two versions of a store at once, then fix the indexes.

`merge_trees` merges `path -> bytes` maps; the sync layer runs the same `TreeMerger` on
`path -> (mode, object id)` maps of changed paths only (`sync.storemerge.merge_in_store`).
Pure: no git, no files.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher

from memsync.merge.memory import MergeDecision
from memsync.merge.treemerger import TreeMerger
from memsync.model.limits import ARCHIVE_DIR

BLOB_MODES = ("100644", "100755")


@dataclass(frozen=True)
class TreeMergeResult:
    """A merged tree (path -> bytes) and what the merge decided on the way."""

    files: Mapping[str, bytes]
    changed: tuple[str, ...]  # paths whose content differs from ours (including deletions)
    decisions: tuple[MergeDecision, ...]
    renamed: tuple[tuple[str, str], ...]  # (path, new path) of kept-both copies


def detect_renames(base: Mapping[str, bytes], side: Mapping[str, bytes]) -> dict[str, str]:
    """Files SIDE renamed (same or similar content under a new path): old -> new."""
    removed = sorted(p for p in base if p not in side)
    # A memory moved into `archive/` (consolidation) is retired, not renamed: the other
    # side's edit of it must stay live, where Claude reads it (SPEC section 4).
    added = sorted(p for p in side if p not in base and not _archived(p))
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
    new_lines = {new: _said(side[new]) for new in left_new}
    for old in left_old:
        old_lines = _said(base[old])
        for new in left_new:
            if not old_lines or not new_lines[new]:
                continue  # nothing said beyond the frontmatter's shape: no evidence of a rename
            matcher = SequenceMatcher(None, old_lines, new_lines[new], autojunk=False)
            if matcher.quick_ratio() >= 0.5 and (ratio := matcher.ratio()) >= 0.5:
                scored.append((-ratio, old, new))
    used: set[str] = set()
    for _, old, new in sorted(scored):
        if old not in renames and new not in used:
            renames[old] = new
            used.add(new)
    return renames


def _archived(path: str) -> bool:
    return ARCHIVE_DIR in path.split("/")[:-1]


# Lines every memory of a type shares: `---`, `metadata:`, `  type: project`, the client's
# stamps (`node_type: memory`, `modified:`, `originSessionId:`), an empty description.
_SHAPE = re.compile(
    rb"-{3}|\.{3}|(?:metadata|type|node_type|modified|originSessionId|name)\s*:.*"
    rb"|description\s*:\s*(?:\"\"|'')?"
)


def _said(data: bytes) -> list[bytes]:
    """The lines of DATA that say something: not blank, not frontmatter every memory of its type
    shares. Two short memories of one type agree on most of their lines (`---`, `metadata:`,
    `  type: project`), so comparing whole files calls unrelated memories a rename."""
    stripped = (line.strip() for line in data.splitlines())
    return [line for line in stripped if line and not _SHAPE.fullmatch(line)]


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
        merger: TreeMerger[bytes] = TreeMerger(
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


def merged_mode(*entries: tuple[str, str] | None) -> str:
    """The file mode of a merged path: a one-sided mode change wins."""
    base, ours, theirs = (None if e is None else e[0] for e in entries)
    if ours == theirs or theirs is None:
        mode = ours
    elif ours is None or ours == base:
        mode = theirs
    else:
        mode = ours if theirs == base else max(ours, theirs)
    return mode if mode in BLOB_MODES else "100644"


__all__ = ["BLOB_MODES", "TreeMergeResult", "detect_renames", "merge_trees", "merged_mode"]
