"""Which code project a directory is, and the identity file each project folder keeps.

SPEC section 2: a project is its normalised `origin` URL, else the root commit every
clone shares, else (outside git, or before the first commit) its directory name, with a
warning. Each project folder in a store holds `.memsync-project`, naming the identity it
was made for, so a different project is never bound to it by accident, and naming the
folder it moved to after `memsync project move`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memsync import git
from memsync.config import ProjectConfig, ProjectIdentity
from memsync.errors import UserMessageError
from memsync.git import TreeEntry, blob_sha
from memsync.model.paths import ProjectLocation, key_from_url, normalize_url

if TYPE_CHECKING:
    from memsync.model.safety import Scope
    from memsync.sync.binding import Binding

# Not a memory (no `.md`) and a dot-file: never synced into a live directory, never
# checked or consolidated, never counted as a project's memory.
IDENTITY_FILE = ".memsync-project"
_HEADER = "# memsync: the code project whose memories this folder holds (docs/SYNC.md)\n"
_KEY_UNSAFE = re.compile(r"[^a-z0-9._-]+")


@dataclass(frozen=True)
class FolderRecord:
    """What a project folder's identity file says."""

    identity: ProjectIdentity
    moved_to: str | None = None


@dataclass(frozen=True)
class ResolvedProject:
    """A project's identity, the key (store folder) it gets, and a warning when weak."""

    identity: ProjectIdentity
    key: str
    warning: str | None = None


def _clean(text: str) -> str:
    return _KEY_UNSAFE.sub("-", text.casefold()).strip("-.") or "project"


def resolve_project(location: ProjectLocation) -> ResolvedProject:
    """The identity and key of the project at LOCATION (runs git for the root commit)."""
    is_git = (location.root / ".git").exists()
    root = git.root_commit(location.root) if is_git else None
    origin = normalize_url(location.origin_url, location.root) if location.origin_url else None
    identity = ProjectIdentity(origin=origin, root_commit=root, directory=location.root.name)
    from_url = key_from_url(location.origin_url) if location.origin_url else None
    if from_url:
        return ResolvedProject(identity, from_url)
    if root:
        # Every clone shares the root commit, whatever folder it was cloned into.
        return ResolvedProject(identity, f"root-{root[:12]}")
    what = "is not a git repository" if not is_git else "has no commit yet"
    warning = (
        f"{location.root} {what} and has no origin: its memory is keyed by the folder "
        f"name `{_clean(location.root.name)}`, which an unrelated project of that name "
        "would share; make a first commit (or add an origin), then run `memsync init` "
        "again: its memory moves to a folder keyed by its history"
    )
    return ResolvedProject(identity, _clean(location.root.name), warning)


def format_record(record: FolderRecord) -> bytes:
    """The identity file's text: one `field: value` line each, after a comment."""
    lines = [_HEADER]
    if record.moved_to is not None:
        lines.append(f"moved-to: {record.moved_to}\n")
    identity = record.identity
    # The directory name only when nothing stronger exists: clones in differently named
    # folders then write the same file, and the check compares blob ids without reading.
    weak = None if identity.origin or identity.root_commit else identity.directory
    for name, value in (
        ("origin", identity.origin),
        ("root-commit", identity.root_commit),
        ("directory", weak),
    ):
        if value:
            lines.append(f"{name}: {value}\n")
    return "".join(lines).encode("utf-8")


def parse_record(data: bytes) -> FolderRecord:
    """Read an identity file; unknown lines are ignored (a newer memsync may add some)."""
    values: dict[str, str] = {}
    for raw in data.decode("utf-8", "replace").splitlines():
        line = raw.strip()
        if line and not line.startswith("#") and ":" in line:
            name, _, value = line.partition(":")
            values[name.strip()] = value.strip()
    identity = ProjectIdentity(
        origin=values.get("origin") or None,
        root_commit=values.get("root-commit") or None,
        directory=values.get("directory") or None,
    )
    return FolderRecord(identity, values.get("moved-to") or None)


def refuse_mismatch(
    folder: str, recorded: ProjectIdentity, identity: ProjectIdentity, store: str, key: str
) -> None:
    """Raise unless IDENTITY is the project the folder records."""
    if recorded.same_project(identity):
        return
    shown = folder or "(the repository root)"
    raise UserMessageError(
        f"the folder {shown} of the {store} store belongs to another project "
        f"({recorded.describe()}); this project is {identity.describe()}",
        hint=f"Bind this project to its own folder: `memsync init --subdir {key}-2` "
        "(or another unused name); two projects never share memory by accident.",
    )


def missing_record(binding: Binding, entries: Mapping[str, TreeEntry]) -> dict[str, bytes]:
    """The identity file to commit along with the first files a sync writes into a folder
    that has none: a folder filled after a store change by hand records its project too."""
    if binding.identity is None or IDENTITY_FILE in entries:
        return {}
    return {IDENTITY_FILE: format_record(FolderRecord(binding.identity))}


def check_folder(binding: Binding, entries: Mapping[str, TreeEntry]) -> None:
    """Refuse to sync a folder that records another project or was moved elsewhere."""
    _refuse_nested(binding, entries)
    entry = entries.get(IDENTITY_FILE)
    if entry is None:
        return
    if binding.identity is not None:
        expected = FolderRecord(binding.identity)
        if entry.sha == blob_sha(format_record(expected)):
            return  # the common case: no blob to read
    from memsync.git import read_blobs

    data = read_blobs(binding.clone_dir, [entry.sha]).get(entry.sha)
    if data is None:
        return
    record = parse_record(data)
    if record.moved_to is not None:
        raise UserMessageError(
            f"the {binding.label} store folder {binding.prefix or '.'} was moved to "
            f"{record.moved_to} (`memsync project move`): follow it with "
            f"`memsync init --subdir {record.moved_to}`; nothing was synced and the live "
            "directory is untouched",
            hint="Following merges this machine's memories into the new folder.",
        )
    if binding.identity is not None:
        refuse_mismatch(
            binding.prefix, record.identity, binding.identity, binding.label, binding.project_key
        )


def _refuse_nested(binding: Binding, entries: Mapping[str, TreeEntry]) -> None:
    """Refuse a folder holding another project's folder: it is synced recursively, so that
    project's memories would become this one's (`--subdir .` on a shared team repository)."""
    nested = sorted(p for p in entries if p.endswith(f"/{IDENTITY_FILE}"))
    if not nested:
        return
    from memsync.git import read_blobs

    blobs = read_blobs(binding.clone_dir, [entries[p].sha for p in nested])
    for path in nested:
        data = blobs.get(entries[path].sha)
        record = parse_record(data) if data is not None else None
        if record is None or (binding.identity and record.identity.same_project(binding.identity)):
            continue
        where = f"folder {binding.prefix}" if binding.prefix else "store"
        this = binding.identity.describe() if binding.identity else "not recorded"
        raise UserMessageError(
            f"the {binding.label} {where} holds {path.rsplit('/', 1)[0]}/, the folder of another "
            f"project ({record.identity.describe()}); this project is {this}",
            hint="`.` is for a team repository no other project uses: bind this project to its "
            f"own folder (`memsync init --subdir {binding.project_key}`).",
        )


def check_root(binding: Binding, commit: str) -> None:
    """Refuse a folder in a store dedicated to another project (`--subdir .`): that project
    syncs the whole repository, this folder included."""
    from memsync.git import list_tree, read_blobs

    if not binding.prefix:
        return
    entry = list_tree(binding.clone_dir, commit, paths=[IDENTITY_FILE]).get(IDENTITY_FILE)
    data = read_blobs(binding.clone_dir, [entry.sha]).get(entry.sha) if entry else None
    if data is None:
        return
    record = parse_record(data)
    if binding.identity and record.identity.same_project(binding.identity):
        return
    raise UserMessageError(
        f"the {binding.label} store is dedicated to another project "
        f"({record.identity.describe()}, `--subdir .`): a folder in it would be synced into "
        "that project's memory",
        hint="Use another team repository for this project.",
    )


def own_folder(binding: Binding, commit: str) -> str | None:
    """The top-level folder at COMMIT recording this project under another key (made by a
    clone set up before the repository had an origin, or after it lost one), or None."""
    from memsync.git import list_tree, read_blobs

    identity = binding.identity
    if identity is None or not (identity.origin or identity.root_commit):
        return None  # a directory name alone proves nothing about a folder's project
    records = {
        path.split("/")[0]: entry.sha
        for path, entry in list_tree(binding.clone_dir, commit).items()
        if path.count("/") == 1 and path.endswith(f"/{IDENTITY_FILE}")
    }
    blobs = read_blobs(binding.clone_dir, list(records.values()))
    found: list[tuple[bool, str]] = []
    for folder, sha in records.items():
        record = parse_record(blobs[sha]) if sha in blobs else None
        if record is None or record.moved_to or not record.identity.same_project(identity):
            continue
        theirs = record.identity.origin
        if theirs and identity.origin and theirs != identity.origin:
            continue  # a fork: the same history published as another project
        found.append((theirs != identity.origin, folder))  # the same origin first
    if any(folder == binding.prefix for _, folder in found):
        return binding.prefix
    return min(found)[1] if found else None


def former_folders(binding: Binding, commit: str) -> list[str]:
    """Top-level folders at COMMIT that `project move` moved (maybe in steps) to this
    binding's folder: their history is the project's history before the move."""
    from memsync.git import list_tree, read_blobs

    if not binding.prefix:
        return []
    records = {
        path.split("/")[0]: entry.sha
        for path, entry in list_tree(binding.clone_dir, commit).items()
        if path.count("/") == 1 and path.endswith(f"/{IDENTITY_FILE}")
    }
    blobs = read_blobs(binding.clone_dir, list(records.values()))
    moved = {
        folder: parse_record(blobs[sha]).moved_to for folder, sha in records.items() if sha in blobs
    }
    found: list[str] = []
    wanted = [binding.prefix]
    while wanted:
        target = wanted.pop()
        for folder, moved_to in moved.items():
            if moved_to == target and folder not in found and folder != binding.prefix:
                found.append(folder)
                wanted.append(folder)
    return found


def fetched_move(url: str, folder: str) -> str | None:
    """Where the last fetch of the store at URL says FOLDER was moved (`project move`)."""
    from memsync.errors import MemsyncError
    from memsync.git import head_branch, list_tree, read_blobs, resolve_refs
    from memsync.sync.binding import clone_dir_for_url

    clone = clone_dir_for_url(url)
    if folder in ("", ".") or not (clone / "HEAD").is_file():
        return None
    try:
        (remote,) = resolve_refs(clone, f"refs/remotes/origin/{head_branch(clone)}")
        marker = list_tree(clone, remote, folder).get(IDENTITY_FILE) if remote else None
        data = read_blobs(clone, [marker.sha]).get(marker.sha) if marker else None
    except MemsyncError:
        return None
    return parse_record(data).moved_to if data is not None else None


def following_move(
    existing: ProjectConfig, stores: Mapping[Scope, str], subdirs: Mapping[Scope, str]
) -> tuple[dict[Scope, str], tuple[str, ...]]:
    """SUBDIRS (per scope, from `init --subdir NEW`) with a store whose folder was not moved
    kept in its folder when another store's folder was moved to NEW: following a
    `project move --scope private` moved the team's binding to a new, empty folder, and the
    team's memory was split between machines. STORES: the URL of each scope's store."""
    old = {s: b.subdir for s in stores if (b := existing.binding(s)) is not None}
    moved = {s for s in old if fetched_move(stores[s], old[s]) == subdirs[s]}
    kept = {s: old[s] for s in old if s not in moved and old[s] != subdirs[s]}
    if not moved or not kept:
        return dict(subdirs), ()
    notes = tuple(
        f"following the {', '.join(sorted(moved))} store's move to {subdirs[next(iter(moved))]}/; "
        f"the {s} store keeps its folder {folder}/ (it was not moved)"
        for s, folder in sorted(kept.items())
    )
    return {**subdirs, **kept}, notes
