"""`memsync project move NEW`: rename a project's folder in its stores, for every machine.

The move is one commit per store: every file of the old folder goes to NEW, and the old
folder keeps only its identity file, now saying `moved-to: NEW`. This machine's config
and manifests follow at once; another machine still bound to the old folder finds the
marker on its next sync, which then stops before touching the live directory and says
how to follow (`memsync init --subdir NEW`, a migration that loses nothing).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

from memsync import git
from memsync.config import Config, load_config, save_config
from memsync.errors import MemsyncError, UsageError, UserMessageError
from memsync.model.safety import Scope
from memsync.sync import store
from memsync.sync.binding import Binding, check_subdir, hostname, resolve_bindings
from memsync.sync.heldreview import held_in_clone
from memsync.sync.identity import IDENTITY_FILE, FolderRecord, format_record, parse_record
from memsync.sync.manifest import binding_manifest, save_manifest


@dataclass(frozen=True)
class Moved:
    """One store folder moved: from, to, and how many files went along."""

    scope: str
    store: str
    old: str
    new: str
    files: int

    def describe(self) -> str:
        """One line for the terminal, with what other machines must do."""
        return (
            f"{self.scope}: moved {self.files} file(s) from {self.old}/ to {self.new}/ in "
            f"{self.store}; other machines follow with `memsync init --subdir {self.new}`"
        )


def move_project(project_dir: Path, new: str, scopes: tuple[Scope, ...]) -> list[Moved]:
    """Move the project's folder to NEW in each store of SCOPES, push, and rebind."""
    from memsync.sync.deadline import Deadline
    from memsync.sync.engine import run_stores
    from memsync.sync.lock import store_lock
    from memsync.sync.report import exit_code

    check_subdir(new)
    if new == ".":
        raise UsageError("a project folder cannot be moved to the repository root")
    config = load_config()
    location, bindings = resolve_bindings(config, project_dir, scopes)
    bindings = [b for b in bindings if b.prefix != new]
    if not bindings:
        raise UsageError(f"the project's folder is already {new!r} (or no store is bound)")
    # Start from a synced state: every local edit is in the store and pushed.
    reports = run_stores(bindings, config.settings, Deadline(), "push")
    for report in reports:
        if exit_code([report]):
            raise UserMessageError(
                f"the {report.scope} store could not be synced first, so nothing was moved: "
                f"{report.error or report.offline or 'a memory was held back'}",
                hint="Fix that (see `memsync status`), then run the move again.",
            )
    for binding in bindings:
        # The move pushes the whole branch: it would send what the team reverted.
        held = held_in_clone(binding)
        if held:
            raise UserMessageError(
                f"the {binding.label} store holds {', '.join(held)} back for review (the default "
                "branch undid your reviewed change), and a move would push them: nothing was moved",
                hint="Propose them again with `memsync push --review` (or delete them), then "
                "run the move again.",
            )
    moved: list[Moved] = []
    for binding in bindings:
        timeout = config.settings.lock_timeout
        with store_lock(binding.lock_path, timeout=timeout, command="move", store=binding.label):
            moved.append(_move_folder(binding, new, config.settings.network_timeout))
    _rebind(config, str(location.root), bindings, new)
    return moved


def _move_folder(binding: Binding, new: str, timeout: float) -> Moved:
    repo = binding.clone_dir
    if not binding.prefix:
        raise UsageError(
            f"the {binding.label} store is dedicated to this project (`--subdir .`): its root "
            "holds the repository's own files and is not a folder to move",
            hint="Move the team's memory to a new folder by hand, or use `--scope private`.",
        )
    heads = store.heads(binding)
    if heads.local is None:
        raise UsageError(f"the {binding.label} store has no commits yet: nothing to move")
    files = store.store_files(binding, heads.local)
    target = git.list_tree(repo, heads.local, new)
    if target and set(target) != {IDENTITY_FILE}:
        raise UserMessageError(
            f"the {binding.label} store already has a folder {new!r} with files in it",
            hint="Pick another name; `git -C <clone> ls-tree main` lists the folders.",
        )
    blobs = git.read_blobs(repo, [e.sha for e in files.values() if e.kind == "blob"])
    changes: dict[str, bytes | None] = {}
    for path, entry in files.items():
        changes[store.store_path(binding, path)] = None
        if entry.sha in blobs:
            changes[f"{new}/{path}"] = blobs[entry.sha]
    record = FolderRecord(binding.identity) if binding.identity else None
    if IDENTITY_FILE in files and files[IDENTITY_FILE].sha in blobs:
        record = parse_record(blobs[files[IDENTITY_FILE].sha])
    if record is not None:
        marker = replace(record, moved_to=new)
        changes[store.store_path(binding, IDENTITY_FILE)] = format_record(marker)
        changes[f"{new}/{IDENTITY_FILE}"] = format_record(replace(record, moved_to=None))
    commit = git.write_commit(
        repo,
        parents=[heads.local],
        changes=changes,
        message=f"memsync({new}): move the project's memory from {binding.prefix}/ to {new}/\n",
        author=git.identity(repo, hostname()),
        when=int(time.time()),
    )
    git.update_branch(repo, heads.branch, commit, heads.local, "memsync: move folder")
    try:
        pushed = git.push(repo, heads.branch, timeout)
    except MemsyncError:
        pushed = False
        raise
    finally:
        if not pushed:
            # Nothing moved unless everyone can see it: take the local commit back.
            git.update_branch(repo, heads.branch, heads.local, commit, "memsync: undo")
    if not pushed:
        raise UserMessageError(
            f"the {binding.label} store moved on while moving the folder; nothing was moved",
            hint="Run the move again.",
        )
    count = sum(1 for p in files if p != IDENTITY_FILE)
    return Moved(binding.scope, binding.store.name, binding.prefix, new, count)


def _rebind(config: Config, root: str, bindings: list[Binding], new: str) -> None:
    """Point this machine's config and manifests at the new folder."""
    project = config.projects[root]
    for binding in bindings:
        folder = project.binding(binding.scope)
        assert folder is not None
        moved = replace(folder, subdir=new)
        if binding.scope == "private":
            project = replace(project, private=moved)
        else:
            project = replace(project, team=moved)
        manifest, path = binding_manifest(binding)
        if manifest.previous is None:
            save_manifest(path, replace(manifest, subdir=new))
    save_config(config.with_project(replace(project, key=new)))
