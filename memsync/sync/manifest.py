"""What memsync last wrote into a live memory directory, to tell local edits from remote ones.

A manifest belongs to the binding of a project to a live directory, not to a store URL:
it is kept per live directory and records which store (by normalised URL) and folder it
describes. When the binding now names another store or folder, the record does not
describe the new store, so it is set aside (`previous`) and the next run migrates: the
new store is merged with what is live, as a first sync would (docs/SYNC.md).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from memsync.fsutil.atomic import atomic_write_text
from memsync.fsutil.reads import read_regular
from memsync.git import blob_sha
from memsync.model.digest import sha256_hex

TYPE_CHECKING = False  # typing's costs an import; mypy reads this one (BENCHMARKS.md)
if TYPE_CHECKING:
    from memsync.sync.binding import Binding


@dataclass(frozen=True)
class PreviousBinding:
    """What a live directory was bound to before its store or folder changed."""

    store_url: str
    subdir: str
    # Blob ids as last synced with that store: a file memsync wrote there and the person
    # deleted since is not brought back from the old clone.
    files: Mapping[str, str] = field(default_factory=dict)
    # Per file, the last version of it other machines have seen (`sync.migrate`): FILES
    # less this machine's own unpushed versions. None until the migration works it out.
    bases: Mapping[str, str] | None = None
    # Memories only the old clone holds, read before the migration leaves a moved folder.
    unpushed: Mapping[str, bytes] | None = None
    # The record could not be read: FILES are the clone's branch, what memsync last committed.
    damaged: bool = False
    # The old folder records it was moved to the new one (`project move` on another machine).
    moved_here: bool = False


@dataclass(frozen=True)
class Manifest:
    """Per file, the blob id the live file had when memsync last synced it."""

    live_dir: str
    store: str
    subdir: str
    files: Mapping[str, str] = field(default_factory=dict)
    commit: str | None = None
    last_sync: float | None = None
    last_push: float | None = None
    # The live directory holds exactly the store's files at COMMIT (nothing kept, skipped or
    # refused), so a run that finds COMMIT unchanged and no local edit has nothing to write.
    clean: bool = False
    # The normalised URL of the store these files were synced with ("" before any sync).
    store_url: str = ""
    # Set when the binding changed store or folder since the record was written; never
    # saved: the first run that saves a manifest for the new store has migrated.
    previous: PreviousBinding | None = None


def manifest_path(data_dir: Path, live_dir: Path) -> Path:
    """Where the manifest of one live directory is kept (whatever store it is bound to)."""
    digest = sha256_hex(str(live_dir).encode("utf-8"))[:20]
    return data_dir / "manifests" / f"live-{digest}.json"


def legacy_manifest_path(data_dir: Path, store: str, live_dir: Path) -> Path:
    """Where memsync 0.1.0 kept it: per store name, shared by every URL of that name."""
    digest = sha256_hex(str(live_dir).encode("utf-8"))[:20]
    return data_dir / "manifests" / store / f"{digest}.json"


def load_manifest(path: Path, live_dir: Path, store: str, subdir: str, store_url: str) -> Manifest:
    """The manifest for a live directory bound to STORE_URL/SUBDIR.

    Missing: nothing was synced yet. Recorded for another store or folder: a fresh
    manifest carrying the old record as `previous`, so nothing the old record says about
    files is taken as true of the new store. Damaged: what was synced is unknown, not
    nothing (read as nothing, every edit was merged against an empty base and kept beside
    the text it replaced): a migration from the same store and folder, `previous.damaged`.
    """
    fresh = Manifest(live_dir=str(live_dir), store=store, subdir=subdir, store_url=store_url)
    try:
        data = json.loads(read_regular(path, limit=1 << 30))  # never a FIFO's wait
        files = {str(k): str(v) for k, v in data["files"].items()}
        recorded_url = str(data.get("store_url") or "")
    except FileNotFoundError:
        return fresh
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        damaged = PreviousBinding(store_url, subdir, damaged=True)
        return Manifest(**{**vars(fresh), "previous": damaged})
    if recorded_url != store_url or data.get("subdir") != subdir:
        previous = PreviousBinding(recorded_url, str(data.get("subdir") or ""), files)
        return Manifest(**{**vars(fresh), "previous": previous})
    return Manifest(
        live_dir=str(live_dir),
        store=store,
        subdir=subdir,
        files=files,
        commit=data.get("commit"),
        last_sync=data.get("last_sync"),
        last_push=data.get("last_push"),
        clean=data.get("clean") is True,
        store_url=store_url,
    )


def save_manifest(path: Path, manifest: Manifest, *, durable: bool = True) -> None:
    """Write a manifest atomically (a crash leaves the old one or the new one); fsynced
    unless DURABLE is False (a record whose loss costs nothing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "live_dir": manifest.live_dir,
        "store": manifest.store,
        "store_url": manifest.store_url,
        "subdir": manifest.subdir,
        "commit": manifest.commit,
        "last_sync": manifest.last_sync,
        "last_push": manifest.last_push,
        "clean": manifest.clean,
        "files": dict(sorted(manifest.files.items())),
    }
    atomic_write_text(path, json.dumps(data, indent=1), durable=durable)


def binding_manifest(binding: Binding) -> tuple[Manifest, Path]:
    """The manifest of a binding's live directory, and the file it is kept in."""
    from memsync.config import data_dir

    path = manifest_path(data_dir(), binding.live_dir)
    source = path
    if not path.exists():
        legacy = legacy_manifest_path(data_dir(), binding.store.name, binding.live_dir)
        source = legacy if legacy.exists() else path
    manifest = load_manifest(
        source, binding.live_dir, binding.store.name, binding.subdir, binding.store_url
    )
    if manifest.previous is not None and manifest.previous.damaged:
        record = replace(manifest.previous, files=_branch_files(binding))
        manifest = replace(manifest, previous=record)
    return manifest, path


def _branch_files(binding: Binding) -> dict[str, str]:
    """Blob ids of the binding's folder on its clone's branch: what memsync last committed
    or pulled there, the stand-in for a damaged record ({} without a clone)."""
    from memsync.errors import MemsyncError
    from memsync.git import branch_tip, list_tree

    repo = binding.clone_dir
    if not (repo / "HEAD").is_file():
        return {}
    try:
        head = branch_tip(repo)
        entries = list_tree(repo, head, binding.prefix) if head else {}
    except MemsyncError:
        return {}
    return {path: entry.sha for path, entry in entries.items() if entry.kind == "blob"}


def hashes(files: Mapping[str, bytes]) -> dict[str, str]:
    """Blob ids of file contents."""
    return {path: blob_sha(data) for path, data in files.items()}


def local_changes(live: Mapping[str, bytes], manifest: Manifest) -> dict[str, bytes | None]:
    """Live files that differ from what memsync last synced (None = deleted locally)."""
    changes: dict[str, bytes | None] = {}
    live_hashes = hashes(live)
    for path, sha in live_hashes.items():
        if manifest.files.get(path) != sha:
            changes[path] = live[path]
    for path in manifest.files:
        if path not in live:
            changes[path] = None
    return changes


def never_synced(
    live: Mapping[str, bytes], manifest: Manifest, target: Mapping[str, bytes]
) -> set[str]:
    """Live files memsync never wrote and the store does not hold: never to be deleted.

    memsync deletes only what it wrote (a migration that could not commit a file, a store
    that does not hold it, must not cost the person that file).
    """
    return {p for p in live if p not in manifest.files and p not in target}


def with_committed(
    manifest: Manifest,
    edits: Mapping[str, bytes | None],
    merged: Mapping[str, bytes | None],
    store_shas: Mapping[str, str],
) -> tuple[Manifest, dict[str, str | None]]:
    """(MANIFEST once EDITS, live files, are committed; what it said of the files it now
    records). MERGED is what the commit changed, STORE_SHAS the store's blobs before it. A
    live file the commit holds as it is is synced.

    Saved at once, not at the end of the run: a kill after the remote took the push (a
    session's end hook cut short, a power loss) left the versions before these edits here,
    and the next edit of such a file was merged against this machine's own commit as if
    someone else had made it (text the person replaced came back). A file merged with another
    change waits for the end of the run, when the merged version is written."""
    files = dict(manifest.files)
    for path, data in edits.items():
        if path in merged:
            stored = merged[path]
            stored_sha = None if stored is None else blob_sha(stored)
        else:
            stored_sha = store_shas.get(path)
        if stored_sha != (None if data is None else blob_sha(data)):
            continue
        if data is None:
            files.pop(path, None)
        else:
            files[path] = blob_sha(data)
    before = {p: manifest.files.get(p) for p in edits if files.get(p) != manifest.files.get(p)}
    return (replace(manifest, files=files, clean=False) if before else manifest), before


def restored(manifest: Manifest, before: Mapping[str, str | None]) -> Manifest:
    """MANIFEST with the files of BEFORE back as they were (None: not synced at all)."""
    files = {p: sha for p, sha in manifest.files.items() if p not in before}
    files.update({p: sha for p, sha in before.items() if sha is not None})
    return replace(manifest, files=files, clean=False)
