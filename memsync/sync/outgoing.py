"""What a push sends: the commit message naming the memories, the files a push changed
on the remote, the commits still unsent, and keeping content that was added and deleted
again before any push out of team history.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from memsync import git
from memsync.sync import store
from memsync.sync.binding import Binding, hostname

# More local-only commits than this are not inspected for unpublished deletions: a clone
# that far behind its remote was not produced by memsync's own pull/push cycle.
_MAX_UNSENT = 500


def commit_message(
    key: str,
    changes: Mapping[str, bytes | None],
    before: Mapping[str, object],
    subject: str | None = None,
) -> str:
    """`memsync(acme-api): update 2 memories from alice-laptop`, with the files listed."""
    added = sorted(p for p, d in changes.items() if d is not None and p not in before)
    updated = sorted(p for p, d in changes.items() if d is not None and p in before)
    deleted = sorted(p for p, d in changes.items() if d is None)
    verbs = [("add", added), ("update", updated), ("delete", deleted)]
    parts = [f"{verb} {len(paths)}" for verb, paths in verbs if paths]
    count = len(changes)
    summary = ", ".join(parts) if len(parts) > 1 else parts[0].split()[0] + f" {count}"
    noun = "memory" if count == 1 else "memories"
    lines = [subject or f"memsync({key}): {summary} {noun} from {hostname()}", ""]
    for verb, paths in verbs:
        lines.extend(f"{verb}: {path}" for path in paths)
    return "\n".join(lines) + "\n"


def sent_files(binding: Binding, old: str | None, new: str | None) -> tuple[str, ...]:
    """Memory files that differ between the remote's old head and what was pushed."""
    before, after = store.store_files(binding, old), store.store_files(binding, new)
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    return tuple(sorted(p for p in changed if store.is_memory_file(binding, p)))


def sent_elsewhere(binding: Binding, old: str | None, new: str | None) -> tuple[str, ...]:
    """Memory files of the store's other folders (repository paths) that differ between the
    remote's old head and what was pushed: a store clone's branch is every project's, so a
    push sends what another project committed there and has not pushed yet."""
    prefix = binding.prefix.rstrip("/")
    if not prefix or new is None:
        return ()
    changed = git.tree_changes(binding.clone_dir, old, new).changes
    return tuple(
        sorted(
            path
            for path in changed
            if "/" in path
            and not path.startswith(prefix + "/")
            and store.is_memory_file(binding, path.split("/", 1)[1])
        )
    )


def unsent_commits(binding: Binding) -> int:
    """Commits of the local branch the remote lacks (no git process when there are none)."""
    heads = store.heads(binding)
    if heads.local is None or heads.local == heads.remote:
        return 0
    if heads.remote is None:
        return git.count_commits(binding.clone_dir, heads.local)
    return git.ahead_behind(binding.clone_dir, heads.local, heads.remote)[0]


def _added_on_remote(repo: Path, local: str, unsent: list[git.LogEntry]) -> set[str]:
    """Paths added by UNSENT commits that a ref of origin holds all the same (a `push --review`
    branch): those were pushed, and a squash would rewrite them, so the next `push --review`,
    merging the branch back in, would undo a deletion made since (a memory withdrawn from a
    closed review came back in the new pull request)."""
    fresh = set(git.unpushed_commits(repo, local))
    added = ("A", "R", "C")
    return {p for e in unsent if e.sha not in fresh for s, p in e.files if s in added}


def drop_unpublished(
    binding: Binding, branch: str, local: str, remote: str | None
) -> tuple[str, tuple[str, ...]]:
    """Squash the unsent commits when one holds a file deleted again before any push.

    Returns the commit to push and a note for the report (empty when nothing changed).
    The push merged first, so the local head contains the remote one; when no unsent
    commit touched such a file, history keeps every commit as it is.
    """
    repo = binding.clone_dir
    if remote is None or local == remote:
        return local, ()
    unsent = git.log_entries(repo, f"{remote}..{local}", [], _MAX_UNSENT)
    # How each path's oldest unsent change touched it: only one the unsent commits added
    # (a rename's new path too) can have been "added, then deleted before any push"; a
    # memory pushed before and renamed by the other machine was not (a merge review).
    first_touch = {path: status for entry in unsent for status, path in entry.files}
    before = git.list_tree(repo, remote)
    after = git.list_tree(repo, local)
    gone = sorted(
        p
        for p, status in first_touch.items()
        if status in ("A", "R", "C") and p not in before and p not in after
    )
    if not gone or set(gone) & _added_on_remote(repo, local, unsent):
        return local, ()
    changed = [p for p in before.keys() | after.keys() if before.get(p) != after.get(p)]
    prefix = f"{binding.prefix}/" if binding.prefix else ""
    names = ", ".join(p.removeprefix(prefix) for p in gone)
    note = f"not in the pushed history (added, then deleted before any push): {names}"
    if not changed:
        # Every unsent change was undone: there is nothing to send, not an empty commit.
        git.update_branch(repo, branch, remote, local, "memsync: squash unsent commits")
        return remote, (note,)
    blobs = git.read_blobs(repo, [after[p].sha for p in changed if p in after])
    changes: dict[str, bytes | None] = {
        p: (blobs[after[p].sha] if p in after else None) for p in sorted(changed)
    }
    relative = {p.removeprefix(prefix): data for p, data in changes.items()}
    known = dict.fromkeys((p.removeprefix(prefix) for p in before), 1)
    new = git.write_commit(
        repo,
        parents=[remote],
        changes=changes,
        message=commit_message(binding.project_key, relative, known),
        author=git.identity(repo, hostname()),
        when=max(entry.when for entry in unsent),
    )
    git.update_branch(repo, branch, new, local, "memsync: squash unsent commits")
    return new, (note,)
