"""Session start with nothing new: answered without the sync engine when every check agrees.

Most session starts find nothing to do: the remote has no new commit, nothing was edited
since the last run, and the live directory holds exactly what that run left. The engine
would conclude the same after importing the merge, commit and rebuild machinery; here the
same facts are read directly, while the fetches the hook started run:

- the manifest says the last run left the live directory clean at commit C, for this
  very store and folder (no migration pending);
- the clone is set up for this store's URL, is on a branch, and no git operation is
  half done in it;
- the live directory's memory files (the scan the engine uses, same rules, nothing
  skipped) hash exactly to the manifest's files;
- the fetch succeeded, and afterwards the local branch and origin's branch point at C;
- the store lock is free; under it the manifest is unchanged, and the record of what was
  last fetched (`refs/memsync/fetched/`) is at C or an ancestor of it (moved to C, as the
  engine's fetch would: after this machine's own push, typically); then only `last_sync`
  is rewritten, as the engine does. A record that is not an ancestor is a rewritten
  history: the engine rebuilds.

Any other answer, and anything unexpected, says why: the caller runs the full engine,
which collects the same fetches (`git.remote.wait_fetch`) and does whatever is needed.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from memsync.errors import LockHeldError
from memsync.git.refs import FETCHED_PREFIX, operation_in_progress, resolve_refs, symbolic_head
from memsync.git.remote import wait_fetch

# Imported here, not when the fetches are back: over a slow link only the lock, the refs
# and the output are left after the round trip.
from memsync.sync.lock import store_lock
from memsync.sync.manifest import Manifest, binding_manifest, hashes, save_manifest

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.config import Settings
    from memsync.sync.binding import Binding
    from memsync.sync.deadline import Deadline


# (True, "") when nothing was new; (False, why) when the full engine must run.
Outcome = tuple[bool, str]


def quick_pull(bindings: list[Binding], settings: Settings, deadline: Deadline) -> Outcome:
    """(True, "") when a pull would find nothing new in any store (its `last_sync` is then
    stamped), else (False, why the full engine must run: something changed, failed or
    could not be checked)."""
    if not bindings:
        return False, "no store is bound"
    try:
        return _quick_pull(bindings, settings, deadline)
    except Exception as error:  # anything unexpected is the engine's to handle
        return False, f"unexpected: {error!r}"


def _quick_pull(bindings: list[Binding], settings: Settings, deadline: Deadline) -> Outcome:
    checked: list[tuple[Binding, Manifest, Path, str]] = []
    # Everything that needs no network first: it runs while the fetches are in flight.
    for binding in bindings:
        manifest, path = binding_manifest(binding)
        branch, why = _settled_clone(binding)
        why = why or _unclean(manifest) or _live_differs(binding, manifest)
        if why:
            return False, f"{binding.scope}: {why}"
        checked.append((binding, manifest, path, branch))
    for binding, manifest, path, branch in checked:
        # One limit for every store's fetch, not one each: the engine, which runs when this
        # fails, reports what is still left out by the same deadline.
        fetched = wait_fetch(binding.clone_dir, deadline.left(settings.network_timeout))
        # Failed or never started: the engine fetches again or reports why.
        why = "the fetch failed" if fetched is False else "no fetch was started"
        why = "" if fetched else why
        why = why or _record_sync(binding, manifest, path, branch)
        if why:
            return False, f"{binding.scope}: {why}"
    return True, ""


def _unclean(manifest: Manifest) -> str:
    """Why the manifest does not say the last run left the live directory exactly at a
    commit of this store and folder ("" when it does)."""
    if manifest.previous is not None:
        return "the store or folder changed since the last run"
    if not manifest.clean or manifest.commit is None:
        return "the last run did not leave the live directory at a commit"
    return ""


def _settled_clone(binding: Binding) -> tuple[str, str]:
    """(the clone's branch, "") when the clone is ready for this store and no git operation
    is half done in it; else ("", why)."""
    from memsync.model.paths import origin_from_config_file

    repo = binding.clone_dir
    if not (repo / "HEAD").is_file():
        return "", "no clone yet"
    if origin_from_config_file(repo / "config") != binding.store.url:
        return "", "the clone points at another URL"  # the engine re-points it first
    if operation_in_progress(repo) is not None:
        return "", "a git operation is half done in the clone"  # the engine says so
    branch = symbolic_head(repo)
    return (branch, "") if branch else ("", "the clone's HEAD is detached")


def _live_differs(binding: Binding, manifest: Manifest) -> str:
    """Why the live directory's memory files are not exactly those the manifest records."""
    from memsync.fsutil.scan import scan_directory
    from memsync.model.safety import is_memory_file

    root = not binding.prefix
    if binding.linked_folder:
        return "the team folder is a symlink"  # the engine refuses it and says so
    if not binding.live_dir.is_dir():
        return "the live directory is missing" if manifest.files else ""
    scan = scan_directory(binding.live_dir, binding.scope, repository_root=root, live=True)
    if scan.skipped:
        return "the live directory has unsafe files"
    live = hashes(
        {
            p: d
            for p, d in scan.files.items()
            if is_memory_file(p, binding.scope, repository_root=root)
        }
    )
    recorded = dict(manifest.files)
    if live == recorded:
        return ""
    if set(live) - set(recorded):
        return "a memory was added locally"
    if set(recorded) - set(live):
        return "a memory was deleted locally"
    return "a memory was edited locally"


def _follow_record(binding: Binding, branch: str, head: str | None) -> str:
    """The record of the last fetch moved to HEAD, origin's branch now, when HEAD only adds
    commits to it (this machine's own push, typically); else why the engine must look."""
    repo = binding.clone_dir
    record = FETCHED_PREFIX + branch
    (recorded,) = resolve_refs(repo, record)
    if recorded == head:
        return ""
    if recorded is None or head is None:
        return "the last fetch's record is not at the last synced commit"
    from memsync.git.refs import update_ref
    from memsync.sync.rewritten import is_rewritten

    # The rule the engine's fetch applies (sync/rewritten): a rewrite needs the engine.
    if is_rewritten(repo, recorded, head):
        return "the remote's history was rewritten"
    update_ref(repo, record, head, recorded, "memsync: fetched")
    return ""


def _record_sync(binding: Binding, manifest: Manifest, path: Path, branch: str) -> str:
    """Under the store lock: both branches at the manifest's commit, the manifest as read and
    the fetch record following (`_follow_record`);
    then stamp `last_sync`. The reason, with nothing written, when any of it is not so."""
    refs = (f"refs/heads/{branch}", f"refs/remotes/origin/{branch}")
    try:
        with store_lock(binding.lock_path, timeout=0, command="pull", store=binding.label):
            shas = resolve_refs(binding.clone_dir, *refs)
            for name, sha in zip(("the local branch", "the remote's branch"), shas, strict=True):
                if sha != manifest.commit:
                    return f"{name} is not at the last synced commit"
            if binding_manifest(binding) != (manifest, path):
                return "another run changed the manifest meanwhile"
            why = _follow_record(binding, branch, manifest.commit)
            if why:
                return why
            # Only `last_sync` changes: a crash that loses it loses nothing, so no fsync.
            save_manifest(path, replace(manifest, last_sync=time.time()), durable=False)
    except LockHeldError:
        return "the store is locked by another memsync"  # the engine waits for it
    return ""
