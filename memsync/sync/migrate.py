"""A binding that changed store or folder: merge what is live into the new one, lose nothing.

The manifest of the old binding says nothing true about the new store's commits, but it
does say which version of each file this machine last synced: a migration merges every
live memory into what the new folder holds, against the last version of it this machine
shared (`common_versions`; a live file unchanged since takes the new folder's version, an
edited one merges three-way, one the new folder lacks is added). Memories that only the old
clone holds (committed there but never pushed, for instance while its URL was unreachable)
are brought over too, unless the person deleted them from the live directory after memsync
last wrote them there; such a deletion also deletes the new folder's copy when it is still
the version synced then.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from memsync import git
from memsync.errors import MemsyncError
from memsync.git import TreeEntry
from memsync.sync.binding import Binding, clone_dir_for_url
from memsync.sync.identity import check_folder
from memsync.sync.manifest import Manifest, PreviousBinding, local_changes
from memsync.sync.returning import settled_bases

Edits = dict[str, bytes | None]


def edits_to_commit(
    binding: Binding, manifest: Manifest, live: Mapping[str, bytes], head: str | None
) -> tuple[Edits, Manifest, dict[str, TreeEntry]]:
    """Local edits (after a store change: the migration's), their merge manifest, the tree.

    The folder is checked first: nothing is committed into another project's folder. With
    no edit and no migration, nothing is listed (the session-start path).
    """
    from memsync.sync.store import store_files

    changes: Edits = local_changes(live, manifest)
    if not changes and manifest.previous is None:
        return {}, manifest, {}
    current = store_files(binding, head)
    check_folder(binding, current)
    if manifest.previous is None:
        return changes, manifest, current
    edits, base = migration_edits(binding, manifest, live, current)
    return edits, base, current


def catch_up(binding: Binding) -> None:
    """Fast-forward the local branch to the fetched remote one when it is only behind.

    Before a migration's edits are committed: the new folder's newest known version is
    then their merge base. A folder another machine moved there (`project move`) otherwise
    reached this machine after its edits, as a second copy of each memory with no base.
    """
    from memsync.sync.store import heads as store_heads
    from memsync.sync.store import store_files

    heads = store_heads(binding)
    if heads.local is None or heads.remote is None or heads.local == heads.remote:
        return
    if git.merge_base(binding.clone_dir, heads.local, heads.remote) != heads.local:
        return
    check_folder(binding, store_files(binding, heads.remote))  # moved or foreign: stop here
    git.update_branch(
        binding.clone_dir, heads.branch, heads.remote, heads.local, "memsync: fast-forward"
    )


def migration_edits(
    binding: Binding,
    manifest: Manifest,
    live: Mapping[str, bytes],
    current: Mapping[str, TreeEntry],
) -> tuple[Edits, Manifest]:
    """The edits to commit into the new store, and the manifest to merge them against.

    The base of a live file the new folder holds is the last version of it this machine
    shared (`common_versions`), whatever the new folder holds now: unchanged since, the
    file takes the new folder's version; edited, it merges three-way against that version.
    Without a base, another machine's edit came back beside the line it replaced.
    """
    previous = manifest.previous
    assert previous is not None
    edits: Edits = dict(live)
    if previous.unpushed is None:
        edits.update(carried_over(binding, previous, live))
    else:
        edits.update({p: d for p, d in previous.unpushed.items() if p not in live})
    if not previous.damaged:
        edits.update(dict.fromkeys(_deleted(previous, live, current, edits)))
    shared = previous.files if previous.bases is None else previous.bases
    gone = gone_before_move(previous, live, current)
    for path in gone:
        del edits[path]
    bases = {p: sha for p, sha in shared.items() if p in edits and p in current}
    bases = settled_bases(binding, previous, live, bases, current)
    bases.update(gone)  # synced, absent from the tree: the pull deletes the live copy
    return edits, replace(manifest, files=_readable(binding, previous, bases))


def gone_before_move(
    previous: PreviousBinding, live: Mapping[str, bytes], current: Mapping[str, TreeEntry]
) -> dict[str, str]:
    """Live files unchanged since last shared that the folder another machine moved here
    lacks: deleted there (before or after the move), so deleted here. Read as new files,
    they were pushed back (a memory `promote`d elsewhere came back to the private store)."""
    if not previous.moved_here:
        return {}
    shared = previous.files if previous.bases is None else previous.bases
    return {
        p: sha
        for p, sha in shared.items()
        if p not in current and p in live and git.blob_sha(live[p]) == sha
    }


def _deleted(
    previous: PreviousBinding,
    live: Mapping[str, bytes],
    current: Mapping[str, TreeEntry],
    edits: Edits,
) -> list[str]:
    """Memories the person deleted from the live directory after memsync last synced them,
    that the new folder holds as synced then: deleted there too. Left out, the new folder's
    copy came back into the live directory (and stayed on every machine). A version changed
    since by another machine is kept (an edit wins over a deletion)."""
    return [
        path
        for path, sha in previous.files.items()
        if path not in live and path not in edits and path in current and current[path].sha == sha
    ]


def _readable(
    binding: Binding, previous: PreviousBinding, bases: Mapping[str, str]
) -> dict[str, str]:
    """BASES whose blobs the new clone has, copied there from the old clone if need be (a
    new, empty store holds none of them); a base neither clone has is no base."""
    have = git.object_kinds(binding.clone_dir, list(set(bases.values())))
    lacking = [sha for sha in set(bases.values()) if have.get(sha) != "blob"]
    old = clone_dir_for_url(previous.store_url) if previous.store_url else None
    if lacking and old is not None and (old / "HEAD").is_file() and old != binding.clone_dir:
        with contextlib.suppress(MemsyncError):
            for sha, data in git.read_blobs(old, lacking).items():
                if git.write_blob(binding.clone_dir, data) == sha:
                    lacking.remove(sha)
    return {p: sha for p, sha in bases.items() if sha not in lacking}


def prepare(binding: Binding, manifest: Manifest, live: Mapping[str, bytes]) -> Manifest:
    """Before a migration's edits are committed (the new store fetched): MANIFEST with the
    old record's common versions and unpushed memories worked out, the local branch off a
    folder another machine moved, and caught up with the new folder's newest version."""
    previous = manifest.previous
    assert previous is not None
    bases: Mapping[str, str] = previous.files
    unpushed: Mapping[str, bytes] = {}
    old = clone_dir_for_url(previous.store_url) if previous.store_url else None
    if old is not None and (old / "HEAD").is_file():
        with contextlib.suppress(MemsyncError):  # an old clone git cannot read: the record
            gone = own_deletions(old, previous)
            previous = replace(previous, files={**gone, **previous.files})
            bases = common_versions(old, previous)
        unpushed = carried_over(binding, previous, live)
    moved_here = False
    if previous.store_url == binding.store_url:
        moved_here = _moved_to(binding, previous) == (binding.prefix or ".")
    previous = replace(previous, bases=bases, unpushed=unpushed, moved_here=moved_here)
    if previous.store_url == binding.store_url:
        leave_moved_folder(binding, previous)
    catch_up(binding)
    # Recorded as synced, the live copies of memories deleted before the move are deleted
    # by this run's pull (memsync deletes only what it wrote).
    from memsync.sync.store import heads as store_heads
    from memsync.sync.store import store_files

    current = store_files(binding, store_heads(binding).local) if moved_here else {}
    gone = gone_before_move(previous, live, current)
    return replace(manifest, previous=previous, files={**manifest.files, **gone})


def common_versions(repo: Path, previous: PreviousBinding) -> dict[str, str]:
    """Per file of the old record, the last version of it other machines have seen.

    The record says what this machine last synced. A version it committed into the old
    clone and never pushed (the push found the folder moved, the remote unreachable) is
    its own edit, not a common one: the base is then the file where the old clone's
    branch last met its remote (none: the file was new).
    """
    branch = git.head_branch(repo)
    local, remote = git.resolve_refs(repo, f"refs/heads/{branch}", f"refs/remotes/origin/{branch}")
    met = git.merge_base(repo, local, remote) if local and remote else None
    if local is None or met == local:
        return dict(previous.files)
    prefix = "" if previous.subdir in ("", ".") else previous.subdir.strip("/")
    mine = git.list_tree(repo, local, prefix)
    shared = git.list_tree(repo, met, prefix) if met else {}
    bases: dict[str, str] = {}
    for path, sha in previous.files.items():
        own = path in mine and mine[path].sha == sha
        if own and (path not in shared or shared[path].sha != sha):
            if path in shared:
                bases[path] = shared[path].sha
        else:
            bases[path] = sha
    return bases


def own_deletions(repo: Path, previous: PreviousBinding) -> dict[str, str]:
    """Files of the old folder this machine deleted in a commit it never pushed (the push
    found the folder moved): each with the version its remote still has. The record no
    longer lists them, so the new folder's copy came back into the live directory."""
    branch = git.head_branch(repo)
    local, remote = git.resolve_refs(repo, f"refs/heads/{branch}", f"refs/remotes/origin/{branch}")
    met = git.merge_base(repo, local, remote) if local and remote else None
    if local is None or met is None or met == local:
        return {}
    prefix = "" if previous.subdir in ("", ".") else previous.subdir.strip("/")
    mine = git.list_tree(repo, local, prefix)
    shared = git.list_tree(repo, met, prefix)
    return {p: e.sha for p, e in shared.items() if e.kind == "blob" and p not in mine}


def carried_over(
    binding: Binding, previous: PreviousBinding, live: Mapping[str, bytes]
) -> dict[str, bytes]:
    """Memories of the old clone's folder that never reached its remote nor the live dir."""
    if not previous.store_url:
        return {}
    repo = clone_dir_for_url(previous.store_url)
    if not (repo / "HEAD").is_file():
        return {}
    try:
        return _unpushed(repo, previous, live, binding)
    except MemsyncError:
        return {}  # an old clone git cannot read holds nothing we can bring


def _unpushed(
    repo: Path, previous: PreviousBinding, live: Mapping[str, bytes], binding: Binding
) -> dict[str, bytes]:
    from memsync.model.safety import filter_files
    from memsync.sync.store import is_memory_file

    branch = git.head_branch(repo)
    local, remote = git.resolve_refs(repo, f"refs/heads/{branch}", f"refs/remotes/origin/{branch}")
    if local is None or local == remote:
        return {}
    prefix = "" if previous.subdir in ("", ".") else previous.subdir.strip("/")
    mine = git.list_tree(repo, local, prefix)
    theirs: dict[str, TreeEntry] = {}
    if remote is not None:
        with contextlib.suppress(MemsyncError):
            theirs = git.list_tree(repo, remote, prefix)
    wanted = {
        path: entry.sha
        for path, entry in mine.items()
        if entry.kind == "blob"
        and is_memory_file(binding, path)
        and path not in live
        and (path not in theirs or theirs[path].sha != entry.sha)
        and previous.files.get(path) != entry.sha
    }
    blobs = git.read_blobs(repo, list(wanted.values()))
    found = {path: blobs[sha] for path, sha in wanted.items() if sha in blobs}
    return dict(filter_files(found, binding.scope).files)


def leave_moved_folder(binding: Binding, previous: PreviousBinding) -> None:
    """Take this machine's unpushed changes to its old folder off the local branch when
    another machine moved that folder away (`project move`, same store).

    The live files carry those changes into the new folder (`prepare` worked out their
    bases and unpushed memories first). Left on the branch, they were merged with the move
    as changes to a deleted folder: the old folder came back in the store, and the new
    one got a second copy of each edited memory, merged without a base. Unpushed changes
    to other folders stay, merged with the remote here.
    """
    from memsync.sync.store import heads as store_heads

    old = "" if previous.subdir in ("", ".") else previous.subdir.strip("/")
    repo, heads = binding.clone_dir, store_heads(binding)
    if not old or heads.local is None or heads.remote is None or heads.local == heads.remote:
        return
    met = git.merge_base(repo, heads.local, heads.remote)
    if met is None or met == heads.local:
        return
    moved_to = _moved_to(binding, previous)
    if moved_to is None:
        return
    changed = git.tree_changes(repo, met, heads.local).changes
    mine = {p: before for p, (before, _) in changed.items() if p.startswith(old + "/")}
    if not mine:
        return
    new = heads.remote
    if len(mine) < len(changed):
        from memsync.sync.binding import hostname
        from memsync.sync.storemerge import merge_heads

        undone = git.write_commit(
            repo,
            parents=[heads.local],
            changes={p: None for p, before in mine.items() if before is None},
            entries={p: before for p, before in mine.items() if before is not None},
            message=f"memsync: leave {old}/, moved to {moved_to}/\n",
            author=git.identity(repo, hostname()),
            when=int(time.time()),
        )
        new, _ = merge_heads(binding, undone, heads.remote, met)
    git.update_branch(repo, heads.branch, new, heads.local, "memsync: leave the moved folder")


def _moved_to(binding: Binding, previous: PreviousBinding) -> str | None:
    """Where the old folder says it was moved (`project move`), as last fetched; else None."""
    from memsync.sync.identity import IDENTITY_FILE, parse_record
    from memsync.sync.store import heads as store_heads

    old = "" if previous.subdir in ("", ".") else previous.subdir.strip("/")
    remote = store_heads(binding).remote
    if not old or remote is None:
        return None
    marker = git.list_tree(binding.clone_dir, remote, old).get(IDENTITY_FILE)
    record = git.read_blobs(binding.clone_dir, [marker.sha]).get(marker.sha) if marker else None
    return parse_record(record).moved_to if record is not None else None
