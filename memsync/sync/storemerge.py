"""The sync engine's use of the merge engine: local edits into the store, remote into local.

The in-store merge of two commits reads only what changed (`git diff-tree` base..each
side), loads only the blobs both sides changed (one `git cat-file`), and writes blobs,
trees and the merge commit in one `git fast-import`. Every decision the merge recorded
goes into the commit message as a `Memsync-Decision:` trailer, one line each.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from memsync import git
from memsync.git import ModeOid, TreeEntry
from memsync.merge.memory import MergeDecision
from memsync.sync import store
from memsync.sync.binding import Binding
from memsync.sync.manifest import Manifest

TRAILER = "Memsync-Decision"
_SHOWN = 48  # characters of a kept or losing value a decision line shows
# Kinds whose losing value no merged file holds any more: shown in full, not shortened.
_IN_FULL = frozenset({"index-entry-deleted"})


def _value(value: str | None, field: str | None, shown: int = _SHOWN) -> str:
    """A value for one line: quoted, shortened to SHOWN characters, never a secret-looking
    value in the clear."""
    if value is None:
        return "(none)"
    from memsync.check.secrets import scan_text

    flat = " ".join(value.split())
    if scan_text(value) or (field and scan_text(f"{field.rsplit('.', 1)[-1]}: {value}")):
        return "(a secret-looking value, not shown)"
    short = flat if len(flat) <= shown else flat[: shown - 1] + "…"
    return json.dumps(short, ensure_ascii=False)


def describe(decision: MergeDecision, prefix: str = "") -> str:
    """One line for the sync report, the hook's message and a trailer: file, field, values.

    PREFIX (a project folder) is left out of paths below it.
    """
    path = decision.path
    if prefix and path.startswith(prefix.rstrip("/") + "/"):
        path = path[len(prefix.rstrip("/")) + 1 :]
    path = json.dumps(path)[1:-1]  # control characters escaped: one line
    where = f"{path} ({decision.field})" if decision.field else path
    line = f"{where}: {decision.detail}"
    if decision.lost is not None:
        shown = len(decision.lost) if decision.kind in _IN_FULL else _SHOWN
        kept = _value(decision.kept, decision.field)
        line += f"; kept {kept}, lost {_value(decision.lost, decision.field, shown)}"
    return line


def trailers(decisions: Iterable[MergeDecision], folder: str = "") -> str:
    """The `Memsync-Decision:` trailer block for a commit message ("" when none).

    Paths are store paths: FOLDER (a project folder) is put before paths relative to it.
    """
    folder = folder.rstrip("/")
    moved = (replace(d, path=f"{folder}/{d.path}") if folder else d for d in decisions)
    lines = [f"{TRAILER}: {describe(d)}" for d in moved]
    return "\n" + "\n".join(lines) + "\n" if lines else ""


def riding(
    decisions: Iterable[MergeDecision], group: Collection[str], merged: Collection[str], last: bool
) -> list[MergeDecision]:
    """The decisions a commit of the files GROUP carries: its own (the LAST also any other)."""
    return [d for d in decisions if d.path in group or (last and d.path not in merged)]


def _read(binding: Binding, entries: Mapping[str, TreeEntry | None]) -> dict[str, bytes]:
    shas = [e.sha for e in entries.values() if e is not None]
    found = git.read_blobs(binding.clone_dir, shas)
    return {p: found[e.sha] for p, e in entries.items() if e is not None and e.sha in found}


def _sha(data: bytes | None) -> str | None:
    return None if data is None else git.blob_sha(data)


def _entry_sha(entry: TreeEntry | None) -> str | None:
    return None if entry is None else entry.sha


def merge_local_edits(
    binding: Binding,
    manifest: Manifest,
    edits: Mapping[str, bytes | None],
    current: Mapping[str, TreeEntry],
    head: str | None,
) -> tuple[dict[str, bytes | None], tuple[MergeDecision, ...]]:
    """Changes to commit on HEAD so the store holds the local EDITS, merged where it moved on."""
    changes: dict[str, bytes | None] = {}
    contested: dict[str, bytes | None] = {}
    for path, data in edits.items():
        store_sha = _entry_sha(current.get(path))
        if _sha(data) == store_sha:
            continue  # the store already holds exactly this
        if data is not None and _sha(data) == manifest.files.get(path):
            continue  # unchanged since its base (a migration's): the store's version stands
        if store_sha == manifest.files.get(path):
            # The store still has what the edit started from: the edit is the result.
            changes[path] = data
        else:
            contested[path] = data
    if not contested:
        return changes, ()
    from memsync.merge.tree import merge_trees

    base_shas = {p: manifest.files[p] for p in contested if p in manifest.files}
    found = git.read_blobs(binding.clone_dir, list(base_shas.values()))
    base = {p: found[sha] for p, sha in base_shas.items() if sha in found}
    ours = {p: data for p, data in contested.items() if data is not None}
    theirs = _read(binding, {p: current.get(p) for p in contested})
    theirs_time = git.authored_time(binding.clone_dir, head) if head else 0
    # When each side's edit was made, as between stores (MERGE.md): the live file's own time,
    # not the time of this run, which let a stale local edit win every conflict.
    now = time.time()
    ours_times = {
        p: int(store.write_time(binding.live_dir / p, d) or now) if d is not None else int(now)
        for p, d in contested.items()
    }
    result = merge_trees(
        base,
        ours,
        theirs,
        ours_times=ours_times,
        theirs_times=dict.fromkeys(contested, theirs_time),
    )
    for path in set(result.files) | set(contested):
        data = result.files.get(path)
        if _sha(data) != _entry_sha(current.get(path)):
            changes[path] = data
    return changes, result.decisions


@dataclass(frozen=True)
class StoreMerge:
    """A merge commit built in a store clone (no ref moved) and what the merge decided."""

    commit: str
    decisions: tuple[MergeDecision, ...]
    changed: tuple[str, ...]  # paths whose content differs from ours


def _sides(
    ours: git.TreeChanges, theirs: git.TreeChanges
) -> tuple[dict[str, ModeOid], dict[str, ModeOid], dict[str, ModeOid]]:
    """Base, ours and theirs restricted to the paths either side changed."""
    maps: tuple[dict[str, ModeOid], ...] = ({}, {}, {})
    for mine, other, side in ((ours, theirs, 1), (theirs, ours, 2)):
        for path, (before, after) in mine.changes.items():
            if before is not None:
                maps[0][path] = before
            if after is not None:
                maps[side][path] = after
            if path not in other.changes and before is not None:
                maps[3 - side][path] = before  # unchanged on the other side
    return maps[0], maps[1], maps[2]


def _renames(
    change: git.TreeChanges, load: Callable[[Collection[ModeOid]], dict[ModeOid, bytes]]
) -> dict[str, str]:
    """The files one side renamed, by the merge's own rule (as merge_trees finds them)."""
    from memsync.merge.tree import BLOB_MODES, detect_renames

    removed: dict[str, ModeOid] = {}
    added: dict[str, ModeOid] = {}
    for path, (before, after) in change.changes.items():
        if after is None and before is not None and before[0] in BLOB_MODES:
            removed[path] = before
        elif before is None and after is not None and after[0] in BLOB_MODES:
            added[path] = after
    if not removed or not added:
        return {}
    blobs = load({*removed.values(), *added.values()})
    return detect_renames(
        {p: blobs[e] for p, e in removed.items()}, {p: blobs[e] for p, e in added.items()}
    )


def merge_in_store(
    repo: Path,
    base: str | None,
    ours: str,
    theirs: str,
    *,
    message: str,
    author: git.Identity,
    when: int | None = None,
) -> StoreMerge:
    """The merge commit of OURS and THEIRS over BASE in the clone REPO: objects only."""
    from memsync.merge.tree import BLOB_MODES, merged_mode
    from memsync.merge.treemerger import TreeMerger

    changed = (git.tree_changes(repo, base, ours), git.tree_changes(repo, base, theirs))
    base_map, ours_map, theirs_map = _sides(*changed)

    def load(values: Collection[ModeOid]) -> dict[ModeOid, bytes]:
        blobs = git.read_blobs(repo, [oid for _, oid in values])
        return {value: blobs[value[1]] for value in values}

    renames = (_renames(changed[0], load), _renames(changed[1], load))

    def lookup(paths: Collection[str]) -> dict[str, ModeOid]:
        found = git.list_tree(repo, ours, paths=sorted(paths))
        return {p: (e.mode, e.sha) for p, e in found.items() if e.kind == "blob"}

    merger: TreeMerger[ModeOid] = TreeMerger(
        base_map,
        ours_map,
        theirs_map,
        load=load,
        is_blob=lambda entry: entry[0] in BLOB_MODES,
        times=(git.change_times(repo, base, ours), git.change_times(repo, base, theirs)),
        renames=renames,
        lookup=lookup,
    )
    plan = merger.resolve()
    modes = {
        path: merged_mode(merger.base.get(path), *(side.get(path) for side in merger.sides))
        for path in plan.write
    }
    contents: dict[str, bytes | None] = dict.fromkeys(plan.delete)
    contents.update(plan.write)
    # Lines the merge itself writes (a sentence both sides edited) are blamed on this
    # commit: its author date is the latest edit merged into them, not the sync (SPEC 4).
    edits = [t for path in plan.write for side in merger.times if (t := side.get(path))]
    commit = git.write_commit(
        repo,
        parents=[ours, theirs],
        changes=contents,
        entries=plan.take,
        modes=modes,
        message=message.rstrip("\n") + "\n" + trailers(plan.decisions),
        author=author,
        when=int(time.time()) if when is None else when,
        authored=max(edits) if edits else None,
    )
    paths = tuple(sorted({*contents, *plan.take}))
    return StoreMerge(commit, tuple(plan.decisions), paths)


def merge_heads(
    binding: Binding, local: str, remote: str, base: str | None
) -> tuple[str, tuple[str, ...]]:
    """A merge commit of LOCAL and REMOTE over the whole store tree, built in-process, and a
    line for each decision (paths relative to the binding's folder)."""
    from memsync.sync.binding import hostname

    repo = binding.clone_dir
    host = hostname()
    merged = merge_in_store(
        repo,
        base,
        local,
        remote,
        message=f"memsync: merge {binding.store.name} changes on {host}\n",
        author=git.identity(repo, host),
    )
    return merged.commit, tuple(describe(d, binding.prefix) for d in merged.decisions)
