"""A binding that changed store or folder: merge what is live into the new one, lose nothing.

The manifest of the old binding says nothing true about the new store, so a migration is
a first sync: every live memory is a local addition, merged with what the new store holds
(with the old record's version as the merge base where the new store holds that same
version). Memories that only the old clone holds (committed there but never pushed, for
instance while its URL was unreachable) are brought over too, unless the person deleted
them from the live directory after memsync last wrote them there.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from memsync import git
from memsync.errors import MemsyncError
from memsync.git import TreeEntry
from memsync.sync.binding import Binding, clone_dir_for_url
from memsync.sync.identity import check_folder
from memsync.sync.manifest import Manifest, PreviousBinding, local_changes

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
    """The edits to commit into the new store, and the manifest to merge them against."""
    previous = manifest.previous
    assert previous is not None
    edits: Edits = dict(live)
    edits.update(carried_over(binding, previous, live))
    # A file the new store holds in exactly the version last synced from the old one:
    # the live edit of it is the result (the old record is a true base for it).
    bases = {
        path: sha
        for path, sha in previous.files.items()
        if path in edits and path in current and current[path].sha == sha
    }
    return edits, replace(manifest, files=bases)


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

    branch = git.symbolic_head(repo) or "main"
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
