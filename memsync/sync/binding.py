"""Resolve which stores and live directories a project syncs, from the config file.

A store is identified by its normalised URL (`model.paths.normalize_url`): every spelling
of one repository shares one clone and one lock. A project is identified per SPEC
section 2 (`project_identity`); its key names its folder in each store.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from memsync.config import Config, ProjectIdentity, StoreConfig, data_dir
from memsync.errors import ProjectNotConfiguredError, UsageError
from memsync.model.digest import sha256_hex
from memsync.model.paths import (
    ProjectLocation,
    key_from_normalized,
    locate_project,
    normalize_url,
)
from memsync.model.safety import Scope


@dataclass(frozen=True)
class Binding:
    """One scope of one project: a store's folder paired with a live memory directory."""

    scope: Scope
    store: StoreConfig
    subdir: str
    live_dir: Path
    project_key: str
    clone_dir: Path
    lock_path: Path
    # What the project was bound as (None in configurations written by 0.1.0).
    identity: ProjectIdentity | None = None

    @property
    def store_url(self) -> str:
        """The store's identity: its normalised URL."""
        return normalize_url(self.store.url)

    @property
    def prefix(self) -> str:
        """The folder inside the store ("" for the repository root)."""
        return "" if self.subdir in ("", ".") else self.subdir.strip("/")

    @property
    def linked_folder(self) -> str | None:
        """What to tell the person when the team folder is a symlink: memsync never reads or
        writes through one (SPEC section 2), so that store is not synced. None when fine."""
        if self.scope != "team" or not self.live_dir.is_symlink():
            return None
        from memsync.fsutil.reads import NEVER_THROUGH_LINKS

        return f"the team folder {self.live_dir} is a symlink; {NEVER_THROUGH_LINKS}"

    @property
    def label(self) -> str:
        """A short name for messages: `team (acme-memory)`."""
        return self.scope if self.store.name == self.scope else f"{self.scope} ({self.store.name})"


def hostname() -> str:
    """This machine's name for commit messages (`$MEMSYNC_HOSTNAME` overrides)."""
    import socket  # only commits need it, not a session start with nothing new

    return os.environ.get("MEMSYNC_HOSTNAME") or socket.gethostname().split(".")[0] or "unknown"


def store_dir_name(normalized: str) -> str:
    """A readable, collision-free directory name for the clone of the store NORMALIZED."""
    readable = key_from_normalized(normalized) or "store"
    digest = sha256_hex(normalized.encode("utf-8"))[:8]
    return f"{readable}-{digest}"


def _legacy_dir_name(store: StoreConfig) -> str:
    """In 0.1.0 a clone was named after the config entry and the URL as spelled."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", store.name).strip("-") or "store"
    return f"{safe}-{sha256_hex(store.url.encode('utf-8'))[:8]}"


def clone_dir(store: StoreConfig, base: Path | None = None) -> Path:
    """Where memsync keeps its bare clone of STORE (one per repository, however spelled)."""
    stores = (base or data_dir()) / "stores"
    current = stores / f"{store_dir_name(normalize_url(store.url))}.git"
    legacy = stores / f"{_legacy_dir_name(store)}.git"
    if not current.exists() and (legacy / "HEAD").is_file():
        # Keep the clone (and any commit only it holds) under its new name.
        with contextlib.suppress(OSError):
            legacy.rename(current)
    return current


def clone_dir_for_url(normalized: str, base: Path | None = None) -> Path:
    """The clone memsync keeps (or kept) for the store whose normalised URL is NORMALIZED."""
    return (base or data_dir()) / "stores" / f"{store_dir_name(normalized)}.git"


def lock_path(store: StoreConfig, base: Path | None = None) -> Path:
    """The lock file that serializes memsync processes on STORE."""
    return (base or data_dir()) / "locks" / f"{store_dir_name(normalize_url(store.url))}.lock"


def make_binding(
    location: ProjectLocation,
    scope: Scope,
    store: StoreConfig,
    subdir: str,
    identity: ProjectIdentity | None = None,
) -> Binding:
    """Pair a store folder with the project's live directory for SCOPE."""
    live = location.memory_dir if scope == "private" else location.team_dir
    return Binding(
        scope=scope,
        store=store,
        subdir=subdir,
        live_dir=live,
        project_key=location.key,
        clone_dir=clone_dir(store),
        lock_path=lock_path(store),
        identity=identity,
    )


def resolve_bindings(
    config: Config, project_dir: Path, scopes: tuple[Scope, ...]
) -> tuple[ProjectLocation, list[Binding]]:
    """The bindings of the project containing PROJECT_DIR for the requested scopes."""
    location = locate_project(project_dir)
    project = config.projects.get(str(location.root))
    if project is None:
        raise ProjectNotConfiguredError(
            f"{location.root} is not set up for memsync",
            hint=f"Run `memsync init --project {location.root}` first.",
        )
    location = ProjectLocation(
        root=location.root,
        memory_dir=location.memory_dir,
        origin_url=location.origin_url,
        key=project.key,
    )
    bindings = []
    for scope in scopes:
        binding = project.binding(scope)
        if binding is None:
            continue
        store = config.stores.get(binding.store)
        if store is None:
            raise UsageError(
                f"the config names a store {binding.store!r} that is not defined",
                hint="Add it under `stores:` in the config file or run `memsync init` again.",
            )
        _configured_subdir(scope, binding.subdir, location.root)
        bindings.append(make_binding(location, scope, store, binding.subdir, project.identity))
    return location, bindings


def _configured_subdir(scope: Scope, subdir: str, root: Path) -> None:
    """Refuse a hand-edited subdir `init` would have refused: `x/../acme-api` wrote `..`
    tree entries into a remote, and `.` in a private store pulled every project's memory."""
    try:
        check_subdir(subdir)
        if subdir == "." and scope == "private":
            raise UsageError("`.` is for a team store of its own")
    except UsageError as exc:
        raise UsageError(
            f"the config's {scope} folder for {root} ({subdir!r}) is not usable: {exc.message}",
            hint="Run `memsync init --subdir NAME` again, or fix `subdir:` in the config file.",
        ) from None


def check_subdir(subdir: str) -> None:
    """Refuse a --subdir that cannot name a project folder of a store."""
    from memsync.model.safety import unsafe_path_reason

    if subdir == ".":
        return
    reason = unsafe_path_reason(subdir)
    if reason is None and "/" in subdir:
        # A project's folder is synced recursively: a folder inside it (or one holding
        # it) would hand one project's memories to the other.
        reason = "not one folder name"
    if reason is not None or subdir.startswith(".") or subdir in ("team", "archive"):
        raise UsageError(
            f"--subdir {subdir!r} cannot name a folder of a store ({reason or 'reserved name'})",
            hint="Use a plain folder name such as `acme-api`, or `.` for a dedicated team repo.",
        )
