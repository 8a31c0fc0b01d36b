"""The sync engine's use of the merge engine: local edits into the store, and remote into local."""

from __future__ import annotations

import time
from collections.abc import Mapping

from memsync import git as gitcmd
from memsync.git import TreeEntry
from memsync.merge.memory import MergeDecision
from memsync.sync.binding import Binding
from memsync.sync.manifest import Manifest

Contents = Mapping[str, bytes | None]


def describe(decision: MergeDecision) -> str:
    """One line for the sync report: file, field, kept and losing value."""
    where = f"{decision.path} ({decision.field})" if decision.field else decision.path
    if decision.lost is not None:
        return f"{where}: {decision.detail}; kept {decision.kept!r}, lost {decision.lost!r}"
    return f"{where}: {decision.detail}"


def _read(binding: Binding, entries: Mapping[str, TreeEntry | None]) -> dict[str, bytes]:
    shas = [e.sha for e in entries.values() if e is not None]
    found = gitcmd.read_blobs(binding.clone_dir, shas)
    return {p: found[e.sha] for p, e in entries.items() if e is not None and e.sha in found}


def _sha(data: bytes | None) -> str | None:
    return None if data is None else gitcmd.blob_sha(data)


def _entry_sha(entry: TreeEntry | None) -> str | None:
    return None if entry is None else entry.sha


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
        store_sha = _entry_sha(current.get(path))
        if _sha(data) == store_sha:
            continue  # the store already holds exactly this
        if store_sha == manifest.files.get(path):
            # The store still has what the edit started from: the edit is the result.
            changes[path] = data
        else:
            contested[path] = data
    if not contested:
        return changes, ()
    from memsync.merge.tree import merge_trees

    base_shas = {p: manifest.files[p] for p in contested if p in manifest.files}
    found = gitcmd.read_blobs(binding.clone_dir, list(base_shas.values()))
    base = {p: found[sha] for p, sha in base_shas.items() if sha in found}
    ours = {p: data for p, data in contested.items() if data is not None}
    theirs = _read(binding, {p: current.get(p) for p in contested})
    theirs_time = gitcmd.commit_time(binding.clone_dir, head) if head else 0
    result = merge_trees(
        base,
        ours,
        theirs,
        ours_times=dict.fromkeys(contested, int(time.time())),
        theirs_times=dict.fromkeys(contested, theirs_time),
    )
    for path in set(result.files) | set(contested):
        data = result.files.get(path)
        if _sha(data) != _entry_sha(current.get(path)):
            changes[path] = data
    return changes, tuple(describe(d) for d in result.decisions)


def merge_heads(
    binding: Binding, local: str, remote: str, base: str | None
) -> tuple[str, tuple[str, ...]]:
    """A merge commit of LOCAL and REMOTE over the whole store tree, built in-process."""
    from memsync.merge.tree import build_merge_commit

    repo = binding.clone_dir
    identity = gitcmd.identity(repo, _host())
    env = {
        f"GIT_{role}_{part}": value
        for role in ("AUTHOR", "COMMITTER")
        for part, value in (("NAME", identity.name), ("EMAIL", identity.email))
    }
    outcome = build_merge_commit(
        repo,
        base,
        local,
        remote,
        message=f"memsync: merge {binding.store.name} changes on {_host()}\n",
        env=env,
    )
    return outcome.commit, tuple(describe(d) for d in outcome.decisions)


def _host() -> str:
    from memsync.sync.binding import hostname

    return hostname()
