"""A remote whose history was rewritten (purged, force-pushed): rebuild, never resurrect.

When origin's branch is no longer a descendant of what this clone last fetched, the
commits only this clone still has must never be pushed again: they may hold exactly what
an admin purged. The local branch is rebuilt on the new remote history, and only this
machine's own unpushed edits (the difference between the last fetched remote commit and
the local branch) are re-applied as one new commit, merged three ways against the new
history. That commit is then scanned like any push (sync/pushscan).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from memsync import git
from memsync.errors import UnsafeStateError
from memsync.git.refs import FETCHED_PREFIX
from memsync.sync import store
from memsync.sync.binding import Binding, hostname


@dataclass(frozen=True)
class Rebuild:
    """What a rebuild on a rewritten remote did."""

    head: str
    reapplied: tuple[str, ...]
    # The memories the new history no longer has that this machine's folder held (relative
    # to the binding's folder), and where the old history still is: (clone, old commit,
    # the folder's prefix in the store).
    dropped: tuple[str, ...] = ()
    old: tuple[Path, str, str] | None = None

    def describe(self, label: str) -> str:
        """The line the sync report shows."""
        what = (
            f"re-applied {len(self.reapplied)} unpushed local "
            f"{'edit' if len(self.reapplied) == 1 else 'edits'} as a new commit"
            if self.reapplied
            else "no unpushed local edits to re-apply"
        )
        said = (
            f"the {label} store's history was rewritten on the remote: rebuilt on the new "
            f"history ({what}); the old commits are never pushed"
        )
        if not self.dropped or self.old is None:
            return said
        from memsync.sync.hookcontext import short_names

        clone, commit, prefix = self.old
        count = len(self.dropped)
        first = f"{prefix}/{self.dropped[0]}" if prefix else self.dropped[0]
        # A purge is followed, but the person must see what went and how to get it back.
        return (
            f"{said}; the new history drops {count} {'memory' if count == 1 else 'memories'}, "
            f"removed from this machine: {short_names(self.dropped)} (the old history stays "
            f"in this machine's clone until git's next cleanup: "
            f"`git -C {clone} show {commit[:12]}:{first}`)"
        )


# What this clone last fetched of each branch. The remote-tracking ref alone is not enough:
# hooks start the fetch before the engine runs (git/remote.start_fetch), so by the time
# the engine looks, refs/remotes/origin/* may already show the new history.


def fetch_following_rewrites(binding: Binding, timeout: float) -> tuple[str, ...]:
    """Fetch origin; when its history was rewritten, rebuild on it and say so."""
    repo = binding.clone_dir
    heads = store.heads(binding)
    record = FETCHED_PREFIX + heads.branch
    (recorded,) = git.resolve_refs(repo, record)
    before = recorded or heads.remote
    git.fetch(repo, timeout)
    after = store.heads(binding).remote
    said: tuple[str, ...] = ()
    if before is not None and after is not None and after != before:
        if is_rewritten(repo, before, after):
            _refuse_a_history_without_the_project(binding, before, after, heads.branch)
        # A purge on the remote must stay purged: never merge the old history back.
        rebuilt = rebuild(binding, before)
        said = () if rebuilt is None else (rebuilt.describe(binding.label),)
    elif before is None and after is not None and binding.scope == "team":
        from memsync.sync.scaffoldrace import drop_lost_scaffold  # two inits on one empty repo

        said = drop_lost_scaffold(binding)
    if after is not None:
        _remember(repo, record, recorded, after, "fetched")
    from memsync.sync.renamed import follow_default_branch

    return said + follow_default_branch(binding, timeout)


def _refuse_a_history_without_the_project(
    binding: Binding, before: str, after: str, branch: str
) -> None:
    """A rewrite that leaves none of this project's memories is no purge (another repository's
    history or the wrong branch force-pushed): followed, it would delete every memory of the
    folder on every machine. Nothing moves until the person decides."""

    def has_memories(commit: str) -> bool:
        files = store.store_files(binding, commit)
        return any(store.is_memory_file(binding, path) for path in files)

    if has_memories(after) or not has_memories(before):
        return
    from memsync.fsutil.scan import memory_names

    if not memory_names(binding.live_dir, binding.scope, repository_root=not binding.prefix):
        return
    raise UnsafeStateError(
        f"the {binding.label} store's history was rewritten on the remote and holds none of "
        f"this project's memories (folder {binding.prefix or '.'}): memsync did not follow it "
        "and changed nothing here",
        hint=(
            "If that was a mistake, put the history back from this machine's copy: "
            f"`git -C {binding.clone_dir} push --force origin {branch}`. If the memories were "
            f"removed on purpose, move {binding.live_dir} away (your copy), then run "
            "`memsync pull`."
        ),
    )


def record_pushed(binding: Binding, branch: str, pushed: str) -> None:
    """Remember PUSHED as what origin's BRANCH holds: the remote has it now. Without this,
    a push into a remote recreated empty left the record on the old history, and a later
    rewrite took every pushed commit since for an unpushed edit and re-applied it."""
    record = FETCHED_PREFIX + branch
    (recorded,) = git.resolve_refs(binding.clone_dir, record)
    _remember(binding.clone_dir, record, recorded, pushed, "pushed")


def _remember(repo: Path, record: str, recorded: str | None, commit: str, why: str) -> None:
    """Move RECORD (now at RECORDED) to COMMIT, the one rule for what origin was last seen at."""
    if commit != recorded:
        git.update_ref(repo, record, commit, recorded or git.ZERO_SHA, f"memsync: {why}")


def is_rewritten(repo: Path, before: str | None, after: str | None) -> bool:
    """Whether origin moved from BEFORE to AFTER other than by adding commits."""
    if before is None or after is None or before == after:
        return False
    return git.merge_base(repo, before, after) != before


def rebuild(binding: Binding, before: str) -> Rebuild | None:
    """Move the local branch onto origin's rewritten history, re-applying local edits."""
    repo = binding.clone_dir
    heads = store.heads(binding)
    if heads.remote is None or not is_rewritten(repo, before, heads.remote):
        return None
    if heads.local is None:
        return Rebuild(heads.remote, ())
    old, local, new = (
        _blobs(git.list_tree(repo, commit)) for commit in (before, heads.local, heads.remote)
    )
    own = sorted(p for p in set(old) | set(local) if old.get(p) != local.get(p))
    head = heads.remote
    if own:
        head = _reapply(binding, own, old, local, new, heads.remote)
    git.update_branch(
        repo, heads.branch, head, heads.local, "memsync: rebuild on rewritten remote history"
    )
    return Rebuild(
        head, tuple(own), _dropped(binding, before, head), (repo, before, binding.prefix)
    )


def _dropped(binding: Binding, before: str, head: str) -> tuple[str, ...]:
    """The memories of the live folder that BEFORE had and HEAD has not: the pull removes them."""
    from memsync.fsutil.scan import memory_names

    kept = store.store_files(binding, head)
    gone = [
        path
        for path in store.store_files(binding, before)
        if path not in kept and store.is_memory_file(binding, path)
    ]
    if not gone:
        return ()
    live = memory_names(binding.live_dir, binding.scope, repository_root=not binding.prefix)
    return tuple(sorted(set(gone) & set(live)))


def _blobs(entries: dict[str, git.TreeEntry]) -> dict[str, str]:
    return {p: e.sha for p, e in entries.items() if e.kind == "blob"}


def _reapply(  # noqa: PLR0917
    binding: Binding,
    own: list[str],
    old: dict[str, str],
    local: dict[str, str],
    new: dict[str, str],
    parent: str,
) -> str:
    """A commit on PARENT holding this machine's edits, merged with the new history."""
    from memsync.merge.tree import merge_trees

    repo = binding.clone_dir
    wanted = [sha for side in (old, local, new) for p in own if (sha := side.get(p))]
    blobs = git.read_blobs(repo, wanted)

    def side(shas: dict[str, str]) -> dict[str, bytes]:
        return {p: blobs[shas[p]] for p in own if p in shas and shas[p] in blobs}

    result = merge_trees(side(old), side(local), side(new))
    theirs = side(new)
    changes: dict[str, bytes | None] = {}
    for path in set(result.files) | set(own):
        data = result.files.get(path)
        if data != theirs.get(path) and not (data is None and path not in new):
            changes[path] = data
    if not changes:
        return parent
    lines = [f"memsync: re-apply {len(changes)} local edits from {hostname()}", ""]
    lines += [
        "The remote's history was rewritten; these edits were made here and never pushed.",
        "",
    ]
    lines += [f"{'delete' if d is None else 'update'}: {p}" for p, d in sorted(changes.items())]
    return git.write_commit(
        repo,
        parents=[parent],
        changes=changes,
        message="\n".join(lines) + "\n",
        author=git.identity(repo, hostname()),
        when=int(time.time()),
    )
