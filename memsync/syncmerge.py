"""The sync engine's use of the merge engine: local edits into the store, and remote into local."""

from __future__ import annotations

import posixpath
import time
from collections.abc import Mapping

from memsync import gitcmd
from memsync.gitcmd import TreeEntry
from memsync.manifest import Manifest
from memsync.merge import MergeDecision
from memsync.project import Binding

Contents = Mapping[str, bytes | None]


def describe(decision: MergeDecision) -> str:
    """One line for the sync report: file, field, kept and losing value."""
    where = f"{decision.path} ({decision.field})" if decision.field else decision.path
    if decision.lost is not None:
        return f"{where}: {decision.detail}; kept {decision.kept!r}, lost {decision.lost!r}"
    return f"{where}: {decision.detail}"


def merge_paths(
    base: Contents,
    ours: Contents,
    theirs: Contents,
    *,
    taken: set[str],
    ours_times: Mapping[str, int],
    theirs_times: Mapping[str, int],
    gone: set[str] | None = None,
) -> tuple[dict[str, bytes | None], list[MergeDecision]]:
    """Three-way merge of the listed paths: memories and text by line, indexes by entry."""
    from memsync.indexmerge import IndexEnsure, merge_index, relative_target
    from memsync.merge import is_index_path, merge_file

    merged: dict[str, bytes | None] = {}
    decisions: list[MergeDecision] = []
    paths = sorted(set(base) | set(ours) | set(theirs))
    for path in (p for p in paths if not is_index_path(p)):
        result = merge_file(
            path,
            base.get(path),
            ours.get(path),
            theirs.get(path),
            ours_time=ours_times.get(path),
            theirs_time=theirs_times.get(path),
            taken=lambda candidate: candidate in taken or candidate in merged,
        )
        merged[path] = result.content
        merged.update(result.extra_files)
        taken.update(result.extra_files)
        decisions.extend(result.decisions)
    renamed_copies = [p for p in merged if p not in paths]
    gone = (gone or set()) | {p for p, data in merged.items() if data is None}
    for path in (p for p in paths if is_index_path(p)):
        folder = posixpath.dirname(path)
        ensure = [
            IndexEnsure(
                target=copy,
                line=_entry_for(relative_target(folder, copy), merged[copy]),
            )
            for copy in renamed_copies
            if posixpath.dirname(copy) == folder
        ]
        result = merge_index(
            base.get(path),
            ours.get(path),
            theirs.get(path),
            path=path,
            ours_time=ours_times.get(path),
            theirs_time=theirs_times.get(path),
            gone=gone,
            ensure=ensure,
        )
        merged[path] = result.content
        decisions.extend(result.decisions)
    return merged, decisions


def _entry_for(target: str, data: bytes | None) -> str:
    from memsync.index import format_entry
    from memsync.memory import parse_memory

    memory = parse_memory(data or b"", target)
    title = memory.name or posixpath.splitext(posixpath.basename(target))[0]
    return format_entry(title, target, memory.description)


def _read(binding: Binding, entries: Mapping[str, TreeEntry | None]) -> dict[str, bytes]:
    shas = [e.sha for e in entries.values() if e is not None]
    found = gitcmd.read_blobs(binding.clone_dir, shas)
    return {p: found[e.sha] for p, e in entries.items() if e is not None and e.sha in found}


def merge_local_edits(
    binding: Binding,
    manifest: Manifest,
    edits: Mapping[str, bytes | None],
    current: Mapping[str, TreeEntry],
    head: str | None,
) -> tuple[dict[str, bytes | None], tuple[str, ...]]:
    """Changes to commit on HEAD so the store holds the local EDITS, merged where it moved on."""
    changes: dict[str, bytes | None] = {}
    contested: dict[str, bytes | None] = {}
    for path, data in edits.items():
        entry = current.get(path)
        store_sha = entry.sha if entry else None
        if store_sha == manifest.files.get(path):
            # The store still has what the edit started from: the edit is the result.
            if (data is None and entry is not None) or (
                data is not None and store_sha != gitcmd.blob_sha(data)
            ):
                changes[path] = data
        elif not (data is not None and store_sha == gitcmd.blob_sha(data)):
            contested[path] = data
    if not contested:
        return changes, ()
    base_shas = {p: manifest.files[p] for p in contested if p in manifest.files}
    found = gitcmd.read_blobs(binding.clone_dir, list(base_shas.values()))
    base = {p: found.get(sha) for p, sha in base_shas.items()}
    theirs: dict[str, bytes | None] = dict(_read(binding, {p: current.get(p) for p in contested}))
    theirs_time = gitcmd.commit_time(binding.clone_dir, head) if head else 0
    merged, decisions = merge_paths(
        base,
        contested,
        theirs,
        taken=set(current) | set(edits),
        ours_times=dict.fromkeys(contested, int(time.time())),
        theirs_times=dict.fromkeys(contested, theirs_time),
        gone={p for p, data in edits.items() if data is None},
    )
    for path, data in merged.items():
        entry = current.get(path)
        if (data is None) != (entry is None) or (
            data is not None and entry is not None and gitcmd.blob_sha(data) != entry.sha
        ):
            changes[path] = data
    return changes, tuple(describe(d) for d in decisions)


def merge_heads(
    binding: Binding, local: str, remote: str, base: str | None
) -> tuple[str, tuple[str, ...]]:
    """A merge commit of LOCAL and REMOTE (whole store tree), built in-process."""
    repo = binding.clone_dir
    tree_base = gitcmd.list_tree(repo, base) if base else {}
    tree_ours = gitcmd.list_tree(repo, local)
    tree_theirs = gitcmd.list_tree(repo, remote)
    changes: dict[str, bytes | TreeEntry | None] = {}
    contested: list[str] = []
    for path in set(tree_base) | set(tree_ours) | set(tree_theirs):
        b, o, t = (tree.get(path) for tree in (tree_base, tree_ours, tree_theirs))
        b_sha, o_sha, t_sha = (e.sha if e else None for e in (b, o, t))
        if o_sha == t_sha:
            continue
        if o_sha == b_sha:
            # Only the remote changed it: reuse its blob, no need to read it.
            changes[path] = None if t is None else t
        elif t_sha != b_sha:
            contested.append(path)
    decisions: tuple[str, ...] = ()
    if contested:
        wanted = {}
        for label, tree in (("b", tree_base), ("o", tree_ours), ("t", tree_theirs)):
            for path in contested:
                entry = tree.get(path)
                if entry is not None:
                    wanted[(label, path)] = entry.sha
        blobs = gitcmd.read_blobs(repo, list(wanted.values()))
        side = {
            label: {
                p: blobs[sha] for (lb, p), sha in wanted.items() if lb == label and sha in blobs
            }
            # one map per side: base, ours, theirs
            for label in "bot"
        }
        ours_times = gitcmd.path_times(repo, local, since=base)
        theirs_times = gitcmd.path_times(repo, remote, since=base)
        everything = set(tree_base) | set(tree_ours) | set(tree_theirs)
        final = (set(tree_ours) | {p for p, c in changes.items() if c is not None}) - {
            p for p, c in changes.items() if c is None
        }
        merged, found = merge_paths(
            side["b"],
            side["o"],
            side["t"],
            taken=set(tree_ours) | set(tree_theirs),
            ours_times=ours_times,
            theirs_times=theirs_times,
            gone=everything - final - set(contested),
        )
        changes.update(merged)
        decisions = tuple(describe(d) for d in found)
    author = gitcmd.identity(repo, _host())
    message = f"memsync: merge {binding.store.name} changes on {_host()}\n"
    commit = gitcmd.write_commit(
        repo,
        parents=[local, remote],
        changes=changes,
        message=message,
        author=author,
        when=int(time.time()),
    )
    return commit, decisions


def _host() -> str:
    from memsync.project import hostname

    return hostname()
