"""What `memsync consolidate` works on: the folder, and the store history that dates its lines.

Without a PATH it is this project's memory folder (or, with `--all`, the store checkout around
the current directory). A live memory folder is not itself in git, but the store clone that
syncs it is: its `git blame` dates each line by when it was written, not by file times.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memsync.errors import MemsyncError, UsageError

# A synced live folder (resolved) and (its store clone, the project's prefix in it).
History = tuple[Path, tuple[Path, str]]


@dataclass(frozen=True)
class ConsolidateTarget:
    """The folder to consolidate and, for a synced live folder and its `team/` folder, each
    one's (store clone, project prefix)."""

    path: Path
    histories: tuple[History, ...]


def consolidate_target(path: Path | None, all_projects: bool, project: Path) -> ConsolidateTarget:
    """Resolve what to consolidate: PATH, the store checkout around PROJECT, or its memory."""
    folder = path if path is not None else _default_folder(all_projects, project)
    return ConsolidateTarget(folder, store_histories(folder))


def _default_folder(all_projects: bool, project: Path) -> Path:
    from memsync.model.paths import find_git_root, memory_dir_for, project_root

    if all_projects:
        # As with `memsync check --all`: the store checkout is the git work tree around here.
        found = find_git_root(project)
        if found is None:
            raise UsageError(
                f"--all consolidates every project folder of a store checkout, and "
                f"{project.resolve()} is not inside a git work tree",
                hint="Run it inside a clone of a memory repository, or pass its PATH.",
            )
        return found[0]
    memory = memory_dir_for(project_root(project), project)
    if not memory.is_dir():
        raise UsageError(
            f"no memory folder for this project at {memory}",
            hint="Pass the folder to consolidate, e.g. `memsync consolidate PATH`.",
        )
    return memory


def store_histories(path: Path) -> tuple[History, ...]:
    """The store clone and prefix holding the history of PATH when it is a synced live memory
    folder (not itself in git), and of its `team/` folder, which the team store syncs (a live
    folder's consolidation consolidates both); () for anything else or without a usable
    configuration."""
    from memsync.config import load_config
    from memsync.model.limits import TEAM_DIR
    from memsync.model.paths import find_git_root
    from memsync.model.safety import SCOPES

    if not path.is_dir() or find_git_root(path) is not None:
        return ()
    try:
        config = load_config()
    except (MemsyncError, OSError):
        return ()  # no usable configuration: consolidate without the store's history
    from memsync.sync.binding import resolve_bindings

    targets = {path.resolve(), (path / TEAM_DIR).resolve()}
    found: dict[Path, tuple[Path, str]] = {}
    for root in config.projects:
        try:
            _, bindings = resolve_bindings(config, Path(root), SCOPES)
        except (MemsyncError, OSError):
            continue
        for binding in bindings:
            live = binding.live_dir.resolve()
            if live in targets and live not in found and binding.clone_dir.is_dir():
                found[live] = binding.clone_dir, binding.prefix
    return tuple(sorted(found.items()))
